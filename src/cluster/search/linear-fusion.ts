/**
 * The linear retriever's combination, pure (ES LinearRetrieverBuilder.combineInnerRetrieverResults):
 * each list, best first and already cut to its window, has its scores normalized on their own
 * (ScoreNormalizer: `none`, `minmax`, `l2_norm`); a document's score is the sum over the lists
 * containing it of weight × normalized score, in float32 and list order as ES accumulates it.
 * The result is sorted by score descending, ties by the caller's key ascending (ES: shard, then doc;
 * keys here encode index then write order, which do not depend on sharding), cut to the window,
 * and then filtered by `min_score` (inclusive), in that order, as ES does.
 */
import type { ScoreNormalizer } from '../../dsl/index.js';
import type { RankedList } from './rrf.js';

export interface LinearDoc {
  readonly key: number;
  readonly score: number;
}

/** MinMaxScoreNormalizer.EPSILON and L2ScoreNormalizer.EPSILON. */
const EPSILON = Math.fround(1e-6);
/** Java's Float.MAX_VALUE and Float.MIN_VALUE (the smallest positive float, which minmax starts max at). */
const FLOAT_MAX = 3.4028234663852886e38;
const FLOAT_MIN_POSITIVE = 1.401298464324817e-45;

/** One list's scores normalized; the input is returned as it is where ES leaves it unchanged. */
export function normalizeScores(scores: ArrayLike<number>, normalizer: ScoreNormalizer): ArrayLike<number> {
  const n = scores.length;
  if (n === 0 || normalizer === 'none') return scores;
  let valid = false;
  for (let i = 0; i < n; i++) if (!Number.isNaN(scores[i])) valid = true;
  if (!valid) return scores;
  const out = new Float64Array(n);
  if (normalizer === 'minmax') {
    let min = FLOAT_MAX;
    let max = FLOAT_MIN_POSITIVE;
    for (let i = 0; i < n; i++) {
      if (scores[i] > max) max = scores[i];
      if (scores[i] < min) min = scores[i];
    }
    const minEqualsMax = Math.abs(Math.fround(min - max)) < EPSILON;
    const range = Math.fround(max - min);
    for (let i = 0; i < n; i++) out[i] = minEqualsMax ? min : Math.fround(Math.fround(scores[i] - min) / range);
    return out;
  }
  // l2_norm: the float squares summed in double, the norm in double, each quotient rounded to float.
  let sumOfSquares = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(scores[i])) sumOfSquares += Math.fround(scores[i] * scores[i]);
  const norm = Math.sqrt(sumOfSquares);
  if (norm < EPSILON) return scores;
  for (let i = 0; i < n; i++) out[i] = Math.fround(scores[i] / norm);
  return out;
}

/** Combines `lists` (one weight and normalizer each), best first, cut to `rankWindowSize`, then `minScore`. */
export function linearCombination(
  lists: readonly RankedList[], weights: readonly number[], normalizers: readonly ScoreNormalizer[], rankWindowSize: number, minScore: number | null,
): LinearDoc[] {
  const byKey = new Map<number, { key: number; score: number }>();
  for (let q = 0; q < lists.length; q++) {
    const { keys } = lists[q];
    const normalized = normalizeScores(lists[q].scores, normalizers[q]);
    const weight = Number.isNaN(weights[q]) ? 1 : weights[q];
    for (let i = 0; i < keys.length; i++) {
      let doc = byKey.get(keys[i]);
      if (doc === undefined) byKey.set(keys[i], (doc = { key: keys[i], score: 0 }));
      // A list without scores contributes 0 (ES's DEFAULT_SCORE for NaN).
      const s = Number.isNaN(normalized[i]) ? 0 : normalized[i];
      doc.score = Math.fround(doc.score + Math.fround(weight * s));
    }
  }
  const sorted = [...byKey.values()].sort((a, b) => (a.score !== b.score ? b.score - a.score : a.key - b.key));
  const top = sorted.slice(0, rankWindowSize);
  return minScore === null ? top : top.filter((d) => d.score >= minScore);
}
