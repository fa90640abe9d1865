/** The builder's term → id table (index/segment/term-hash.ts) across many growths, and its term order. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/index/segment/bytes.js';
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

  it('sorts its ids in code-point order of their terms (ASCII, BMP above U+E000, surrogate pairs, prefixes, the empty term)', () => {
    const unit = fc.constantFrom('a', 'b', 'z', '~', '\u007f', 'A', '0', ' ', 'é', '\ue000', '\uffff', '😀', '𝄞', '\u0000');
    const termArb = fc.array(unit, { minLength: 0, maxLength: 6 }).map((u) => u.join(''));
    fc.assert(
      fc.property(fc.array(termArb, { minLength: 0, maxLength: 80 }), (terms) => {
        const hash = new TermHash(4);
        for (const t of terms) hash.add(t);
        const sorted = Array.from(hash.sortedIds(), (id) => hash.terms[id]);
        expect(sorted).toEqual([...new Set(terms)].sort(compareCodePoints));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts many terms sharing long prefixes', () => {
    const hash = new TermHash();
    const terms = Array.from({ length: 3000 }, (_, i) => `pre${(i * 2654435761) % 9973}x${i % 7}`);
    for (const t of terms) hash.add(t);
    expect(Array.from(hash.sortedIds(), (id) => hash.terms[id])).toEqual([...new Set(terms)].sort(compareCodePoints));
  });

  it('sorts many runs that each need a further radix pass (the range stack grows)', () => {
    const hash = new TermHash();
    const terms: string[] = [];
    for (let g = 0; g < 300; g++) for (let k = 0; k < 20; k++) terms.push(`${String((g * 7919) % 1000).padStart(3, '0')}zz${(k * 31) % 20}q`);
    for (const t of terms) hash.add(t);
    expect(Array.from(hash.sortedIds(), (id) => hash.terms[id])).toEqual([...new Set(terms)].sort(compareCodePoints));
  });
});
