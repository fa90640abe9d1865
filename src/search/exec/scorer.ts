/**
 * The scorer protocol (Lucene `Scorer` + `DocIdSetIterator`): iterate matching doc ids in
 * increasing order, score the current one, and bound scores for dynamic pruning.
 */

export const NO_MORE_DOCS = 0x7fffffff;

export abstract class Scorer {
  /** Current doc id; -1 before the first call, NO_MORE_DOCS when exhausted. */
  doc = -1;
  /** Advances to the next matching doc. */
  abstract nextDoc(): number;
  /** Advances to the first matching doc ≥ target (target > doc). */
  abstract advance(target: number): number;
  /** Score of the current doc. */
  abstract score(): number;
  /** An upper bound of score() over all docs (may be Infinity if unknown). */
  abstract maxScore(): number;
  /** Estimated number of matching docs, to order conjunctions cheapest-first. */
  abstract cost(): number;
  /**
   * Two-phase scorers (Lucene TwoPhaseIterator: a script filter) only: whether `doc` matches,
   * evaluated for that doc alone. Compound scorers ask this of the docs their other clauses propose
   * instead of advancing it, so its cost — and its failures — fall only on those docs.
   */
  matchesAt?(doc: number): boolean;
}

/** Whether `s` matches `doc` (≥ its current doc): verified alone when two-phase, else by advancing. */
export function matchesDoc(s: Scorer, doc: number): boolean {
  if (s.matchesAt !== undefined) return s.matchesAt(doc);
  return (s.doc < doc ? s.advance(doc) : s.doc) === doc;
}
