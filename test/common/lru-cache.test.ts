import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/common/lru-cache.js';

describe('LruCache', () => {
  it('drops the least recently used entry beyond its capacity', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });

  it('leaves an entry used among the most recent half where it is, and keeps its bound', () => {
    const c = new LruCache<string, number>(4);
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, k.charCodeAt(0));
    // d and c were inserted within the last 2 moves: a hit leaves them in place; a, b move.
    expect(c.get('d')).toBe(100);
    expect(c.get('a')).toBe(97);
    c.set('e', 101);
    // b is now the least recently moved: it goes first.
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.get('d'), c.get('e')]).toEqual([97, 99, 100, 101]);
    for (let i = 0; i < 100; i++) {
      c.set(`k${i}`, i);
      c.get('k0');
      expect(c.size).toBeLessThanOrEqual(4);
    }
  });

  it('replaces a value without growing', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1);
    c.set('a', 2);
    expect(c.size).toBe(1);
    expect(c.get('a')).toBe(2);
    c.clear();
    expect(c.size).toBe(0);
  });
});
