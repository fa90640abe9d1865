/**
 * Reciprocal rank fusion, pure (ES RRFQueryPhaseRankCoordinatorContext / RRFRetrieverBuilder):
 * each list, best first and already cut to its window, gives the document at 1-based rank r the
 * score 1/(rank_constant + r); a document's RRF score is the sum over the lists containing it,
 * accumulated in float32 in list order as ES does (`score += weight * (1.0f / (rankConstant + rank))`,
 * each list's weight 1 unless an rrf component gives one, ES 9.2).
 *
 * Order: RRF score descending; ties as ES breaks them — for each list in order, a document present
 * in it beats one that is not, and between two present the higher original score wins — then the
 * caller's key ascending (ES uses shard then doc id; keys here encode index then write order, which
 * do not depend on sharding).
 */

/** One ranked list: `keys[i]` is the document at rank i + 1 and `scores[i]` its score in that list. */
export interface RankedList {
  readonly keys: ArrayLike<number>;
  readonly scores: ArrayLike<number>;
}

export interface FusedDoc {
  readonly key: number;
  /** The RRF score (a float32 value). */
  readonly score: number;
  /** Per list: the 0-based position of the document, or -1 when the list does not contain it. */
  readonly positions: Int32Array;
  /** Per list: the document's original score there (0 when absent). */
  readonly scores: Float64Array;
}

export const NO_RANK = -1;

interface Accumulator {
  key: number;
  score: number;
  positions: Int32Array;
  scores: Float64Array;
}

/** Fuses `lists` into one list, best first (every document of every list, none dropped). */
export function reciprocalRankFusion(lists: readonly RankedList[], rankConstant: number, weights?: readonly number[]): FusedDoc[] {
  const byKey = new Map<number, Accumulator>();
  const n = lists.length;
  for (let q = 0; q < n; q++) {
    const { keys, scores } = lists[q];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      let acc = byKey.get(key);
      if (acc === undefined) {
        acc = { key, score: 0, positions: new Int32Array(n).fill(NO_RANK), scores: new Float64Array(n) };
        byKey.set(key, acc);
      }
      if (acc.positions[q] !== NO_RANK) continue; // a list names each document once
      const contribution = Math.fround(1 / (rankConstant + i + 1));
      acc.score = Math.fround(acc.score + (weights === undefined ? contribution : Math.fround(weights[q] * contribution)));
      acc.positions[q] = i;
      acc.scores[q] = scores[i];
    }
  }
  return [...byKey.values()].sort(compareFused);
}

function compareFused(a: FusedDoc, b: FusedDoc): number {
  if (a.score !== b.score) return b.score - a.score;
  for (let q = 0; q < a.positions.length; q++) {
    const inA = a.positions[q] !== NO_RANK;
    const inB = b.positions[q] !== NO_RANK;
    if (inA && inB) {
      if (a.scores[q] !== b.scores[q]) return b.scores[q] - a.scores[q];
    } else if (inA) return -1;
    else if (inB) return 1;
  }
  return a.key - b.key;
}
