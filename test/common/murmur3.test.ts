import murmur from 'murmurhash3js-revisited';
import { describe, expect, it } from 'vitest';
import { murmur3x86_32 } from '../../src/common/murmur3.js';

describe('murmur3x86_32', () => {
  it('equals the reference murmur3_x86_32 for every tail length and seed, read in place', () => {
    const bytes = new TextEncoder().encode('xx' + 'the quick brown fox jumps over é 🦊' + 'yy');
    for (const seed of [0, 7919, -1]) {
      for (let to = 2; to <= bytes.length - 2; to++) {
        expect(murmur3x86_32(bytes, 2, to, seed)).toBe(murmur.x86.hash32(bytes.subarray(2, to), seed >>> 0) | 0);
      }
    }
  });
});
