/**
 * Zipf sampling shared by the BM25 and sparse corpora: P(r) ∝ 1 / (r + 1)^s over ranks
 * [fromRank, size), sampled by binary search over the normalised cumulative distribution
 * (performance.md §2.1). Restricting `fromRank` renormalises over the remaining ranks, which is how
 * queries exclude the most frequent ("stop") words.
 *
 * A guide table narrows each binary search to the CDF entries between two bucket boundaries. It
 * returns exactly what a full binary search returns (the smallest i with cdf[i] > u) but the corpora
 * draw ~30M samples, and the short search makes generation ~3× faster.
 */
import type { Random } from '../../common/prng.js';

export interface ZipfSampler {
  /** Draws one rank in [fromRank, size) consuming exactly one number from `random`. */
  sample(random: Random): number;
}

export function zipfSampler(size: number, s: number, fromRank = 0): ZipfSampler {
  if (!(fromRank >= 0 && fromRank < size)) throw new RangeError(`zipf: fromRank ${fromRank} outside [0, ${size})`);
  const n = size - fromRank;
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / Math.pow(fromRank + i + 1, s);
    cdf[i] = total;
  }
  for (let i = 0; i < n; i++) cdf[i] /= total;
  // Rounding can leave the last entry a hair under 1; forcing it guarantees every u < 1 lands.
  cdf[n - 1] = 1;

  // guide[j] = smallest i with cdf[i] > j / buckets, so a u in bucket j has its answer in
  // [guide[j], guide[j + 1]].
  const buckets = n;
  const guide = new Uint32Array(buckets + 1);
  let i = 0;
  for (let j = 0; j < buckets; j++) {
    const edge = j / buckets;
    while (cdf[i] <= edge) i++;
    guide[j] = i;
  }
  guide[buckets] = n - 1;

  return {
    sample(random: Random): number {
      const u = random();
      // One bucket of slack each side absorbs rounding in u · buckets versus j / buckets.
      const j = Math.floor(u * buckets);
      let lo = guide[j > 0 ? j - 1 : 0];
      let hi = guide[j + 2 <= buckets ? j + 2 : buckets];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cdf[mid] > u) hi = mid;
        else lo = mid + 1;
      }
      return fromRank + lo;
    },
  };
}
