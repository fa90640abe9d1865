/**
 * Which background merge to run (Lucene's LogMergePolicy, by bytes like LogByteSizeMergePolicy):
 * MERGE_FACTOR adjacent segments of the same size tier, tiers being powers of ten above a floor
 * size. Adjacent, because a shard's segments are in write order and a merged segment takes its
 * sources' place (shard-segments.ts).
 *
 * The floor (ES's `index.merge.policy.floor_segment`, 2mb): every segment below it is in the lowest
 * tier. Tiers were powers of ten of the doc count, with no floor; a refresh's segments range from a
 * few thousand docs (a 1 s refresh, split across the pool threads) to ~16k (a refresh that fell
 * behind, in build chunks), so the segments of a bulk load alternated between the 1k–10k and the
 * 10k–100k tiers, runs of ten adjacent segments of one tier seldom formed, and merges stopped: a
 * 1M-doc load ended with 64 segments, 1.4× the bytes of the same docs merged (each segment repeats
 * most of the term dictionary), the largest part of the load's RSS peak beyond the data (issue 22).
 */

/** Merge this many adjacent segments of the same size tier (LogMergePolicy's merge factor). */
export const MERGE_FACTOR = 10;
/** ES's `index.merge.policy.floor_segment` default: segments below it are merged as if this size. */
export const FLOOR_SEGMENT_BYTES = 2 * 1024 * 1024;

/** What the policy needs to know of a segment. */
export interface MergeCandidate {
  /** The segment's bytes (its buffer). */
  readonly bytes: number;
  readonly maxDoc: number;
  readonly liveCount: number;
}

/** A segment's tier: 0 below 10 × the floor, then one per power of ten; deleted docs do not count. */
export function mergeTier(s: MergeCandidate): number {
  const liveBytes = s.maxDoc > 0 ? (s.bytes * s.liveCount) / s.maxDoc : 0;
  return Math.floor(Math.log10(Math.max(FLOOR_SEGMENT_BYTES, liveBytes) / FLOOR_SEGMENT_BYTES));
}

/** The newest run of MERGE_FACTOR adjacent segments of one tier, as `[from, to)`; null when there is none. */
export function findMerge(segments: readonly MergeCandidate[]): [number, number] | null {
  const tiers = segments.map(mergeTier);
  for (let end = segments.length; end >= MERGE_FACTOR; end--) {
    let same = true;
    for (let i = end - MERGE_FACTOR + 1; i < end && same; i++) same = tiers[i] === tiers[end - MERGE_FACTOR];
    if (same) return [end - MERGE_FACTOR, end];
  }
  return null;
}
