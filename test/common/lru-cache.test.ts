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
