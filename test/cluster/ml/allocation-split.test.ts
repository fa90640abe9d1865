/** How an allocation splits one request's texts over its threads (src/cluster/ml/ml-allocation.ts). */
import { describe, expect, it } from 'vitest';
import { splitByLength } from '../../../src/cluster/ml/ml-allocation.js';

describe('splitByLength', () => {
  it('keeps order, drops nothing and gives each thread a similar share of text', () => {
    const texts = Array.from({ length: 10 }, (_, i) => 'x'.repeat(10 + i));
    const chunks = splitByLength(texts, 4);
    expect(chunks.flat()).toEqual(texts);
    expect(chunks).toHaveLength(4);
    const sizes = chunks.map((c) => c.reduce((a, t) => a + t.length, 0));
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(40);
  });

  it('uses one chunk per text when there are fewer texts than threads, and one for one thread', () => {
    expect(splitByLength(['a', 'b'], 4)).toEqual([['a'], ['b']]);
    expect(splitByLength(['a', 'b', 'c'], 1)).toEqual([['a', 'b', 'c']]);
    expect(splitByLength(['a', 'bbbbbbbbbbbbbbbbbbbbbbbbbbb', 'c'], 3)).toEqual([['a'], ['bbbbbbbbbbbbbbbbbbbbbbbbbbb'], ['c']]);
  });
});
