/**
 * Top-k of a learned-sparse query — a disjunction of many feature terms (ELSER-like queries carry
 * ~30 tokens) — by term-at-a-time accumulation: every posting of every query token adds its score
 * to a doc-indexed accumulator, then one pass over the segment offers each matched live doc to the
 * top-k heap and counts it.
 *
 * Why not MaxScore here: learned-sparse weights leave block maxima close to the global maximum, so
 * bound-based pruning skips little (measured on ELSER-like vectors: ~86% of postings still scored)
 * while its per-window bookkeeping makes each posting ~2.5× dearer than a plain accumulation. The
 * pass over the accumulator also makes exact hit counts free (`track_total_hits` of any size).
 *
 * Exact: per-token scores are the feature scorer's float32 values; their sum in double is exact for
 * these magnitudes (products of two float32 weights), so the order of accumulation does not change
 * a score, and rounding once to float32 gives the very scores MaxScore and exhaustive evaluation do.
 */
import type { SearchDeadline } from './deadline.js';
import { FeatureScorer } from './feature-scorer.js';
import { maxScoreStats } from './max-score-stats.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

/**
 * When accumulation is chosen: from `minTerms` query tokens (short feature queries still prune
 * well) and `minPostingsPerDoc` postings per segment doc (the pass over the accumulator must be paid
 * for). Mutable only so tests can force either path.
 */
export const featureAccumulationTuning = { minTerms: 8, minPostingsPerDoc: 0.5 };

/** The doc-indexed accumulator, zero between calls (the collecting pass clears what it reads). */
let accumulator = new Float64Array(0);

/** Whether `scorers` (a term disjunction) is a learned-sparse query this path serves better. */
export function prefersAccumulation(scorers: readonly TermScorer[], maxDoc: number): boolean {
  if (scorers.length < featureAccumulationTuning.minTerms) return false;
  let postings = 0;
  for (const s of scorers) {
    if (!(s instanceof FeatureScorer)) return false;
    postings += s.cost();
  }
  return postings >= featureAccumulationTuning.minPostingsPerDoc * maxDoc;
}

/**
 * Collects the top k into `top` and counts matching live docs (returns the count, or −1 when
 * `countLimit` < 0). The deadline is checked between tokens; once passed, no further token is
 * added and the docs scored so far are collected (the caller reads `deadline.timedOut`).
 */
export function featureAccumulateTopK(
  scorers: readonly TermScorer[], live: Uint32Array | null, top: TopScoreDocs, base: number, maxDoc: number, countLimit: number,
  deadline: SearchDeadline | null,
): number {
  if (accumulator.length < maxDoc) accumulator = new Float64Array(maxDoc);
  const acc = accumulator;
  let scored = 0;
  for (const s of scorers) {
    if (deadline !== null && deadline.expired()) break;
    scored += (s as FeatureScorer).accumulate(acc);
  }
  maxScoreStats.postingsScored += scored;
  let threshold = top.capacity === 0 ? Infinity : top.minCompetitive;
  let counted = 0;
  for (let doc = 0; doc < maxDoc; doc++) {
    const score = acc[doc];
    if (score === 0) continue;
    acc[doc] = 0;
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    counted++;
    // Docs come in increasing order, later than everything already offered: ties lose.
    const final = Math.fround(score);
    if (final > threshold && top.offer(final, base + doc)) threshold = top.minCompetitive;
  }
  return countLimit >= 0 ? counted : -1;
}
