/**
 * The percentiles digest (src/search/aggs/tdigest.ts): exact, as ES's SortingDigest, below
 * 20 × compression values; past that a bounded merging digest whose size follows the compression,
 * not the count; a reduce that does not depend on the order of its parts; the median absolute
 * deviation computed from it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestBuilder, medianAbsoluteDeviation, percentileRank, quantile, reduceDigests } from '../../../src/search/aggs/tdigest.js';
import type { PercentilesPartial } from '../../../src/search/aggs/exec-aggs.js';

function digestOf(values: readonly number[], compression = 100): PercentilesPartial {
  const b = new DigestBuilder(compression);
  for (const v of values) b.add(v);
  return b.build();
}

/** A reproducible shuffle (a linear congruential generator). */
function shuffled(n: number, seed: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('exact below 20 × compression values', () => {
  it('interpolates quantiles at q·(n−1) and ranks between midpoints, as ES Dist does', () => {
    const d = digestOf([151, 1, 101, 51]);
    expect(d.exact).not.toBeNull();
    expect([0, 0.25, 0.5, 0.75, 1].map((q) => quantile(d, q))).toEqual([1, 38.5, 76, 113.5, 151]);
    expect([0, 1, 50, 99, 151, 152].map((x) => percentileRank(d, x))).toEqual([0, 12.5, 37, 61.5, 87.5, 100]);
    expect(percentileRank(digestOf([7]), 7)).toBe(50);
    expect(percentileRank(digestOf([2, 2, 2, 5]), 2)).toBe(37.5);
  });

  it('ranks as ES Dist.cdf\'s walk over the values does (here a binary search)', () => {
    // ES's loop, transcribed: the reference the binary search must agree with exactly.
    const walk = (v: number[], x: number): number => {
      const n = v.length;
      if (n === 1) return x < v[0] ? 0 : x > v[0] ? 1 : 0.5;
      if (x < v[0]) return 0;
      if (x === v[0]) return v.filter((y) => y === x).length / 2 / n;
      if (x > v[n - 1]) return 1;
      if (x === v[n - 1]) return (n - v.filter((y) => y === x).length / 2) / n;
      let left = (v[1] - v[0]) / 2;
      let so = 0;
      for (let i = 0; i < n - 1; i++) {
        const right = (v[i + 1] - v[i]) / 2;
        if (x < v[i] + right) return Math.max(0, (so + (x - (v[i] - left)) / (v[i] + right - (v[i] - left))) / n);
        so++;
        left = right;
      }
      const right = (v[n - 1] - v[n - 2]) / 2;
      return x < v[n - 1] + right ? (so + (x - (v[n - 1] - right)) / (2 * right)) / n : 1;
    };
    fc.assert(fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 40 }), fc.double({ min: -60, max: 60, noNaN: true }), (values, x) => {
      const sorted = [...values].sort((a, b) => a - b);
      const d = digestOf(values);
      for (const at of [x, ...sorted]) expect(percentileRank(d, at)).toBe(Math.min(1, Math.max(0, walk(sorted, at))) * 100);
    }), { numRuns: 300, seed: 1 });
  });

  it('switches where ES HybridDigest does: at round(compression) × 20 values', () => {
    expect(digestOf(Array.from({ length: 199 }, (_, i) => i), 10).exact).not.toBeNull();
    expect(digestOf(Array.from({ length: 200 }, (_, i) => i), 10).exact).toBeNull();
  });

  it('is NaN when empty', () => {
    expect(quantile(digestOf([]), 0.5)).toBeNaN();
  });
});

describe('the merging digest', () => {
  it('holds a number of centroids bounded by the compression, not by the count', () => {
    for (const n of [10_000, 200_000]) {
      const d = digestOf(shuffled(n, 3));
      expect(d.exact).toBeNull();
      expect(d.means!.length).toBeLessThanOrEqual(100);
      expect(d.count).toBe(n);
    }
  });

  it('stays within a fraction of a percent of the exact ranks', () => {
    const n = 100_000;
    const d = digestOf(shuffled(n, 11));
    for (const q of [0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999]) {
      expect(Math.abs(quantile(d, q) - q * (n - 1))).toBeLessThan(n * 0.005);
      expect(Math.abs(percentileRank(d, q * n) - q * 100)).toBeLessThan(0.5);
    }
    expect(quantile(d, 0)).toBe(0);
    expect(quantile(d, 1)).toBe(n - 1);
    // Skewed values (e^0 … e^10): the error is in rank, whatever the scale of the values.
    const skewed = shuffled(50_000, 5).map((i) => Math.exp(i / 5_000));
    const sorted = [...skewed].sort((a, b) => a - b);
    const s = digestOf(skewed);
    for (const q of [0.01, 0.5, 0.99]) {
      const v = quantile(s, q);
      const rank = sorted.findIndex((x) => x >= v) / (sorted.length - 1);
      expect(Math.abs(rank - q)).toBeLessThan(0.005);
    }
  });

  it('approximates the median absolute deviation from the centroids', () => {
    // Uniform 0 … n−1: the median is (n−1)/2, the distances uniform over [0, n/2]: their median n/4.
    const n = 100_000;
    const d = digestOf(shuffled(n, 13));
    expect(Math.abs(medianAbsoluteDeviation(d) - n / 4)).toBeLessThan(n * 0.005);
    expect(medianAbsoluteDeviation(digestOf([1, 2, 3, 4, 100]))).toBe(1);
    expect(medianAbsoluteDeviation(digestOf([]))).toBeNaN();
  });

  it('reduces to the same digest whatever the order of the parts', () => {
    const parts = [digestOf(shuffled(5_000, 1)), digestOf(shuffled(300, 2).map((v) => v * 3)), digestOf([7, 7, 7]), digestOf([])];
    const a = reduceDigests(parts, 100);
    const b = reduceDigests([...parts].reverse(), 100);
    const c = reduceDigests([parts[2], parts[0], parts[3], parts[1]], 100);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.count).toBe(5_303);
  });

  it('reduces small parts exactly while the total stays below the exact size', () => {
    const r = reduceDigests([digestOf([5, 1]), digestOf([3]), digestOf([])], 100);
    expect(Array.from(r.exact!)).toEqual([1, 3, 5]);
    expect(quantile(r, 0.5)).toBe(3);
  });
});
