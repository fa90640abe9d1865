import { describe, it, expect } from 'vitest';
import { createTermCache, detach, findTerm, hashRange, storeTerm } from '../../src/analysis/term-cache.js';

function put(cache: ReturnType<typeof createTermCache>, term: string, value: string | null): void {
  const hash = hashRange(term, 0, term.length);
  const slot = findTerm(cache, term, 0, term.length, hash);
  expect(slot).toBeLessThan(0);
  storeTerm(cache, slot, term, hash, value);
}

function get(cache: ReturnType<typeof createTermCache>, text: string, start: number, end: number): string | null | undefined {
  const slot = findTerm(cache, text, start, end, hashRange(text, start, end));
  return slot >= 0 ? cache.values[slot] : undefined;
}

describe('the term cache', () => {
  it('finds a term by its range inside a larger text', () => {
    const cache = createTermCache(4);
    put(cache, 'running', 'run');
    put(cache, 'the', null);
    expect(get(cache, 'we were running fast', 8, 15)).toBe('run');
    expect(get(cache, 'over the top', 5, 8)).toBeNull();
    expect(get(cache, 'runner', 0, 6)).toBeUndefined();
  });

  it('tells apart terms whose hashes land in the same slot', () => {
    const cache = createTermCache(1); // two slots: every term collides
    put(cache, 'a', 'A');
    expect(get(cache, 'b', 0, 1)).toBeUndefined();
    expect(get(cache, 'a', 0, 1)).toBe('A');
  });

  it('starts over when half full, and keeps the term being stored', () => {
    const cache = createTermCache(3); // 8 slots, holds 4
    for (const t of ['a', 'b', 'c', 'd']) put(cache, t, t.toUpperCase());
    expect(cache.size).toBe(4);
    put(cache, 'e', 'E');
    expect(cache.size).toBe(1);
    expect(get(cache, 'e', 0, 1)).toBe('E');
    expect(get(cache, 'a', 0, 1)).toBeUndefined();
  });

  it('copies strings without changing them', () => {
    for (const s of ['', 'x', 'internationalization', 'emoji 👍 and \ud800 lone surrogate']) expect(detach(s)).toBe(s);
  });
});
