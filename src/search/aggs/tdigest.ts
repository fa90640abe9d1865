/**
 * The sketch behind `percentiles`, `percentile_ranks` and `median_absolute_deviation` (ES
 * TDigestState, whose default is ES's HybridDigest): every value is kept, exactly, while a bucket
 * holds fewer than 20 × compression of them (ES's SortingDigest), and quantiles and ranks are then
 * ES's exact ones (its Dist class: quantiles interpolate linearly at rank q·(n−1), ranks
 * interpolate between the midpoints of neighbouring values). Past that the values are folded into
 * a merging t-digest: centroids sorted by mean, each spanning at most one unit of the arcsine scale
 * k(q) = δ/2π · asin(2q − 1), so a bucket holds at most about δ centroids plus a buffer of 5δ raw
 * values, whatever its doc count.
 *
 * Reduce is order-free: the shards' exact values and centroids are sorted by (mean, weight) and
 * merged in one pass, so the same partials give the same answer in any arrival order; below the
 * exact size the answer is also the same however the values were split across shards. Above it the
 * result is approximate and, as ES's, depends a little on how the values were split.
 */
import type { PercentilesPartial } from './exec-aggs.js';

/**
 * Where memory stops growing with the compression: ES takes any, and would hold round(c) × 20
 * values per bucket exactly; here a bucket holds at most 200,000 exact values or about 10,000
 * centroids, whatever compression a request sends.
 */
const MAX_COMPRESSION = 10_000;

/** ES HybridDigest: it sorts up to round(compression) × 20 values before switching. */
export function exactLimit(compression: number): number {
  return Math.round(Math.min(compression, MAX_COMPRESSION)) * 20;
}

/** What the digest phase merges with: δ in [1, MAX_COMPRESSION] (ES's MergingDigest needs a positive one). */
function delta(compression: number): number {
  return Math.min(MAX_COMPRESSION, Math.max(1, compression));
}

/** Collects one bucket's values (one per call of `add`) into a partial of bounded size. */
export class DigestBuilder {
  private readonly limit: number;
  private readonly bufferSize: number;
  private values: number[] = [];
  private means: number[] | null = null;
  private weights: number[] | null = null;
  private count = 0;
  private min = Infinity;
  private max = -Infinity;

  constructor(private readonly compression: number) {
    this.limit = exactLimit(compression);
    this.bufferSize = Math.ceil(5 * delta(compression));
  }

  add(x: number): void {
    this.count++;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    this.values.push(x);
    // ES's HybridDigest switches once size + 1 reaches the limit.
    if (this.means === null ? this.count >= this.limit : this.values.length >= this.bufferSize) this.fold();
  }

  /** Folds the raw values into the centroids. */
  private fold(): void {
    const all = centroidsOf([{ means: this.means ?? [], weights: this.weights ?? [] }], this.values);
    const merged = mergeCentroids(all.means, all.weights, delta(this.compression));
    this.means = merged.means;
    this.weights = merged.weights;
    this.values = [];
  }

  build(): PercentilesPartial {
    if (this.means !== null && this.values.length > 0) this.fold();
    return {
      kind: 'percentiles', compression: this.compression, count: this.count, min: this.min, max: this.max,
      exact: this.means === null ? Float64Array.from(this.values).sort() : null,
      means: this.means === null ? null : Float64Array.from(this.means), weights: this.weights === null ? null : Float64Array.from(this.weights),
    };
  }
}

/**
 * The shards' partials as one (ES AbstractInternalTDigestPercentiles.reduce): exact when every
 * shard was exact and the values together stay under the exact size, else one merge pass.
 */
export function reduceDigests(parts: readonly PercentilesPartial[], compression: number): PercentilesPartial {
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  let allExact = true;
  for (const p of parts) {
    count += p.count;
    if (p.min < min) min = p.min;
    if (p.max > max) max = p.max;
    if (p.exact === null) allExact = false;
  }
  if (allExact && count < exactLimit(compression)) {
    const exact = new Float64Array(count);
    let at = 0;
    for (const p of parts) {
      exact.set(p.exact!, at);
      at += p.exact!.length;
    }
    return { kind: 'percentiles', compression, count, min, max, exact: exact.sort(), means: null, weights: null };
  }
  const raw: number[] = [];
  for (const p of parts) if (p.exact) for (const v of p.exact) raw.push(v);
  const all = centroidsOf(parts.filter((p) => p.means !== null).map((p) => ({ means: p.means!, weights: p.weights! })), raw);
  const merged = mergeCentroids(all.means, all.weights, delta(compression));
  return { kind: 'percentiles', compression, count, min, max, exact: null, means: Float64Array.from(merged.means), weights: Float64Array.from(merged.weights) };
}

interface Centroids {
  readonly means: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
}

/**
 * Every centroid and raw value (weight 1), sorted by mean then weight: a total order, so the merge
 * does not depend on input order. The raw values, the many, sort as numbers; the centroids, at
 * most a few thousand per set, as pairs; then one linear merge.
 */
function centroidsOf(sets: readonly Centroids[], raw: ArrayLike<number>): { means: number[]; weights: number[] } {
  const values = Float64Array.from(raw).sort();
  const pairs: Array<[number, number]> = [];
  for (const s of sets) for (let i = 0; i < s.means.length; i++) pairs.push([s.means[i], s.weights[i]]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const means: number[] = [];
  const weights: number[] = [];
  let r = 0;
  for (const [mean, weight] of pairs) {
    // A raw value goes first among equal means: its weight, 1, is the smallest.
    while (r < values.length && values[r] <= mean) {
      means.push(values[r++]);
      weights.push(1);
    }
    means.push(mean);
    weights.push(weight);
  }
  while (r < values.length) {
    means.push(values[r++]);
    weights.push(1);
  }
  return { means, weights };
}

/** The arcsine scale (t-digest's k1): a centroid spans at most one unit of it. */
function scale(q: number, d: number): number {
  return (d / (2 * Math.PI)) * Math.asin(2 * Math.min(1, Math.max(0, q)) - 1);
}

/** One merge pass over sorted centroids (MergingDigest.merge): neighbours merge while their span stays within one scale unit. */
function mergeCentroids(means: readonly number[], weights: readonly number[], d: number): { means: number[]; weights: number[] } {
  const outMeans: number[] = [];
  const outWeights: number[] = [];
  if (means.length === 0) return { means: outMeans, weights: outWeights };
  let total = 0;
  for (const w of weights) total += w;
  let mean = means[0];
  let weight = weights[0];
  let before = 0;
  let kLeft = scale(0, d);
  for (let i = 1; i < means.length; i++) {
    const proposed = weight + weights[i];
    if (scale((before + proposed) / total, d) - kLeft <= 1) {
      // Weighted mean, written so equal means stay exactly equal.
      mean += ((means[i] - mean) * weights[i]) / proposed;
      weight = proposed;
      continue;
    }
    outMeans.push(mean);
    outWeights.push(weight);
    before += weight;
    kLeft = scale(before / total, d);
    mean = means[i];
    weight = weights[i];
  }
  outMeans.push(mean);
  outWeights.push(weight);
  return { means: outMeans, weights: outWeights };
}

/** ES TDigestState.quantile(q), q in [0, 1]; NaN when empty. */
export function quantile(p: PercentilesPartial, q: number): number {
  if (p.count === 0) return NaN;
  if (p.exact !== null) return exactQuantile(p.exact, q);
  return digestQuantile(p, q);
}

/** ES Dist.quantile: linear interpolation at index q · (n − 1). */
function exactQuantile(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  const index = q * (n - 1);
  if (index <= 0) return sorted[0];
  if (index >= n - 1) return sorted[n - 1];
  const low = Math.floor(index);
  const weight = index - low;
  return sorted[low] + weight * (sorted[low + 1] - sorted[low]);
}

/**
 * Where each centroid sits in rank: the weight before it plus half its own. Computed once per
 * reduced digest (a request asks for up to 10,000 keys), so each key costs a binary search.
 */
const CENTERS = new WeakMap<PercentilesPartial, Float64Array>();

function centersOf(p: PercentilesPartial): Float64Array {
  let centers = CENTERS.get(p);
  if (centers === undefined) {
    const weights = p.weights!;
    centers = new Float64Array(weights.length);
    let before = 0;
    for (let i = 0; i < weights.length; i++) {
      centers[i] = before + weights[i] / 2;
      before += weights[i];
    }
    CENTERS.set(p, centers);
  }
  return centers;
}

/** The first index in [0, n) where `after` holds (n when it holds nowhere); `after` is false then true along the range. */
function partitionPoint(n: number, after: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A merging digest's quantile: each centroid sits at the middle of its weight; between two
 * centroids the value is interpolated; before the first and after the last, towards min and max.
 */
function digestQuantile(p: PercentilesPartial, q: number): number {
  const means = p.means!;
  const n = means.length;
  const index = q * p.count;
  if (index <= 0 || n === 0) return p.min;
  if (index >= p.count) return p.max;
  const centers = centersOf(p);
  if (index < centers[0]) return p.min + (index / centers[0]) * (means[0] - p.min);
  const i = partitionPoint(n, (j) => centers[j] > index) - 1;
  if (i < n - 1) return means[i] + ((index - centers[i]) / (centers[i + 1] - centers[i])) * (means[i + 1] - means[i]);
  const lastHalf = p.count - centers[n - 1];
  const f = lastHalf === 0 ? 1 : Math.min(1, (index - centers[n - 1]) / lastHalf);
  return means[n - 1] + f * (p.max - means[n - 1]);
}

/**
 * ES InternalMedianAbsoluteDeviation.computeMedianAbsoluteDeviation: the median of the distances
 * from the median, each value (or centroid, with its weight) one distance, in a digest of the same
 * compression. Exact for an exact digest.
 */
export function medianAbsoluteDeviation(p: PercentilesPartial): number {
  if (p.count === 0) return NaN;
  const median = quantile(p, 0.5);
  if (p.exact !== null) return exactQuantile(p.exact.map((v) => Math.abs(median - v)).sort(), 0.5);
  const means = p.means!.map((m) => Math.abs(median - m));
  let min = Infinity;
  for (const d of means) if (d < min) min = d;
  const max = Math.max(Math.abs(median - p.min), Math.abs(median - p.max));
  const deviations = reduceDigests([{ ...p, min, max, means }], p.compression);
  return quantile(deviations, 0.5);
}

/** ES InternalTDigestPercentileRanks.percentileRank: the cdf at x, clamped to [0, 1], as a percent. */
export function percentileRank(p: PercentilesPartial, x: number): number {
  const c = p.exact !== null ? exactCdf(p.exact, x) : digestCdf(p, x);
  return Math.min(1, Math.max(0, c)) * 100;
}

/**
 * ES Dist.cdf over sorted values: 0 below the smallest and 1 above the largest; at either end the
 * equal values count half; between, the rank interpolates linearly across the span from the
 * midpoint before a value to the midpoint after it (the first and last spans mirrored). ES walks
 * the values; the midpoints ascend, so a binary search finds the same span.
 */
function exactCdf(v: Float64Array, x: number): number {
  const n = v.length;
  if (n === 0) return NaN;
  if (n === 1) return x < v[0] ? 0 : x > v[0] ? 1 : 0.5;
  if (x < v[0]) return 0;
  if (x === v[0]) return partitionPoint(n, (i) => v[i] > x) / 2 / n;
  if (x > v[n - 1]) return 1;
  if (x === v[n - 1]) return (n - (n - partitionPoint(n, (i) => v[i] >= x)) / 2) / n;
  // The first i with x < v[i] + (v[i+1] − v[i]) / 2, written as ES computes it.
  const lo = partitionPoint(n - 1, (i) => x < v[i] + (v[i + 1] - v[i]) / 2);
  if (lo < n - 1) {
    const left = lo === 0 ? (v[1] - v[0]) / 2 : (v[lo] - v[lo - 1]) / 2;
    const right = (v[lo + 1] - v[lo]) / 2;
    return Math.max(0, (lo + interpolate(x, v[lo] - left, v[lo] + right)) / n);
  }
  const right = (v[n - 1] - v[n - 2]) / 2;
  if (x < v[n - 1] + right) return (n - 1 + interpolate(x, v[n - 1] - right, v[n - 1] + right)) / n;
  return 1;
}

/** AbstractTDigest.interpolate: where x lies in [x0, x1], as a fraction. */
function interpolate(x: number, x0: number, x1: number): number {
  return (x - x0) / (x1 - x0);
}

/** A merging digest's cdf: the inverse of digestQuantile's interpolation. */
function digestCdf(p: PercentilesPartial, x: number): number {
  const means = p.means!;
  const n = means.length;
  if (x < p.min) return 0;
  if (x > p.max) return 1;
  if (p.min === p.max) return 0.5;
  const centers = centersOf(p);
  if (x < means[0]) return means[0] === p.min ? 0 : (interpolate(x, p.min, means[0]) * centers[0]) / p.count;
  const i = partitionPoint(n, (j) => means[j] > x) - 1;
  if (i < n - 1) {
    const f = means[i + 1] === means[i] ? 0 : interpolate(x, means[i], means[i + 1]);
    return (centers[i] + f * (centers[i + 1] - centers[i])) / p.count;
  }
  const lastHalf = p.count - centers[n - 1];
  return (centers[n - 1] + (p.max === means[n - 1] ? 1 : interpolate(x, means[n - 1], p.max)) * lastHalf) / p.count;
}
