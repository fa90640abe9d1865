/** The builder's term → id table (index/segment/term-hash.ts) across many growths. */
import { describe, expect, it } from 'vitest';
import { TermHash } from '../../src/index/segment/term-hash.js';

describe('TermHash', () => {
  it('gives each distinct term one dense id, before and after every growth', () => {
    const hash = new TermHash(4);
    const terms = Array.from({ length: 5000 }, (_, i) => `t${(i * 7919) % 5000}-${i % 3 === 0 ? 'é' : 'x'}`);
    const distinct = [...new Set(terms)];
    const ids = terms.map((t) => hash.add(t));
    expect(hash.size).toBe(distinct.length);
    expect(hash.terms).toEqual(distinct);
    terms.forEach((t, i) => expect(hash.add(t)).toBe(ids[i]));
    expect(hash.size).toBe(distinct.length);
  });
});
