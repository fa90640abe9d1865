/**
 * The builder's raw token → term id table (index/segment/token-hash.ts): the filters run once per
 * distinct raw token, equal terms from different raw tokens share one id, removed tokens stay
 * removed, and ids survive growth.
 */
import { describe, expect, it } from 'vitest';
import { TermHash } from '../../src/index/segment/term-hash.js';
import { TokenHash } from '../../src/index/segment/token-hash.js';

describe('TokenHash', () => {
  it('maps raw tokens to the term ids of their filtered terms, filtering each distinct raw token once', () => {
    const terms = new TermHash();
    const tokens = new TokenHash(terms, 4);
    const calls: string[] = [];
    const filter = (raw: string) => {
      calls.push(raw);
      const lower = raw.toLowerCase();
      return lower === 'the' ? null : lower;
    };
    const text = 'The quick QUICK quick the Über über 😀 The';
    const words = text.split(' ');
    let at = 0;
    const ids = words.map((w) => {
      const start = text.indexOf(w, at);
      at = start + w.length;
      return tokens.intern(text, start, start + w.length, filter);
    });
    expect(ids.map((id) => (id === null ? null : terms.terms[id]))).toEqual([null, 'quick', 'quick', 'quick', null, 'über', 'über', '😀', null]);
    expect(ids[1]).toBe(ids[2]);
    expect(calls).toEqual(['The', 'quick', 'QUICK', 'the', 'Über', 'über', '😀']);
    expect(tokens.size).toBe(7);
    expect(terms.size).toBe(3);
  });

  it('keeps every id across growths, for tokens at any offset of the text', () => {
    const terms = new TermHash(4);
    const tokens = new TokenHash(terms, 4);
    const words = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 2500}${i % 2 ? 'X' : 'x'}`);
    const text = words.join(' ');
    const filter = (raw: string) => raw.toLowerCase();
    const first = new Map<string, number>();
    let start = 0;
    for (const w of words) {
      const id = tokens.intern(text, start, start + w.length, filter)!;
      expect(terms.terms[id]).toBe(w.toLowerCase());
      if (first.has(w.toLowerCase())) expect(id).toBe(first.get(w.toLowerCase()));
      else first.set(w.toLowerCase(), id);
      start += w.length + 1;
    }
    expect(terms.size).toBe(first.size);
    expect(tokens.size).toBe(new Set(words).size);
  });
});
