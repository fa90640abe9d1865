/**
 * Ranking quality metrics of `_rank_eval` (ES modules/rank-eval): precision@k, recall@k, mean
 * reciprocal rank, (normalized) discounted cumulative gain and expected reciprocal rank, each over
 * one query's hits joined with its ratings by (`_index`, `_id`), plus the mean over queries.
 * The DCG sum lives here once: the BEIR evaluator in bench/ (trec_eval's linear-gain NDCG) uses
 * the same function with another gain, so both give bit-identical values on binary judgments.
 * Pure: no I/O.
 */
import type { RankEvalMetric, RatedDocument } from '../../dsl/index.js';

/** A hit to evaluate: where it came from. */
export interface HitKey {
  readonly index: string;
  readonly id: string;
}

/** One query's evaluation, in ES EvalQueryQuality's terms. */
export interface QueryQuality {
  readonly metricScore: number;
  /** Each hit's rating, null when unrated, in hit order. */
  readonly ratings: ReadonlyArray<number | null>;
  /** ES MetricDetail: `{ "<metric>": { ... } }`. */
  readonly metricDetails: Record<string, Record<string, number>>;
}

/** Gain of a rating in ES's DCG and ERR (Järvelin & Kekäläinen's exponential gain). */
export const exponentialGain = (rating: number): number => Math.pow(2, rating) - 1;
/** Gain of a judgment in trec_eval's `ndcg_cut` (the judgment itself). */
export const linearGain = (rating: number): number => rating;

/**
 * Σ gain(rating) / log2(rank + 1) over ranks 1…n; a null rating (unrated, no default) adds nothing
 * but keeps its rank. The discount is computed as ES computes it (`ln(rank + 1) / ln 2`).
 */
export function discountedCumulativeGain(ratings: ReadonlyArray<number | null>, gain: (rating: number) => number): number {
  let dcg = 0;
  for (let i = 0; i < ratings.length; i++) {
    const r = ratings[i];
    if (r !== null) dcg += gain(r) / (Math.log(i + 2) / Math.LN2);
  }
  return dcg;
}

/** The rating of each hit, by (`_index`, `_id`) (ES EvaluationMetric.joinHitsWithRatings). */
export function joinHitsWithRatings(hits: readonly HitKey[], rated: readonly RatedDocument[]): Array<number | null> {
  const byKey = new Map<string, number>();
  for (const d of rated) byKey.set(`${d.index}\u0000${d.id}`, d.rating);
  return hits.map((h) => byKey.get(`${h.index}\u0000${h.id}`) ?? null);
}

/** Evaluates one query's hits (already cut to the metric's `k` by the search size). */
export function evaluateQuery(metric: RankEvalMetric, hits: readonly HitKey[], rated: readonly RatedDocument[]): QueryQuality {
  const ratings = joinHitsWithRatings(hits, rated);
  const unrated = ratings.reduce<number>((n, r) => (r === null ? n + 1 : n), 0);
  switch (metric.kind) {
    case 'precision': {
      let relevantRetrieved = 0;
      let retrieved = 0;
      for (const r of ratings) {
        if (r !== null) {
          retrieved++;
          if (r >= metric.relevantRatingThreshold) relevantRetrieved++;
        } else if (!metric.ignoreUnlabeled) {
          retrieved++;
        }
      }
      return {
        metricScore: retrieved > 0 ? relevantRetrieved / retrieved : 0,
        ratings,
        metricDetails: { precision: { relevant_docs_retrieved: relevantRetrieved, docs_retrieved: retrieved } },
      };
    }
    case 'recall': {
      let relevantRetrieved = 0;
      for (const r of ratings) if (r !== null && r >= metric.relevantRatingThreshold) relevantRetrieved++;
      let relevant = 0;
      for (const d of rated) if (d.rating >= metric.relevantRatingThreshold) relevant++;
      return {
        metricScore: relevant > 0 ? relevantRetrieved / relevant : 0,
        ratings,
        metricDetails: { recall: { relevant_docs_retrieved: relevantRetrieved, relevant_docs: relevant } },
      };
    }
    case 'mean_reciprocal_rank': {
      const first = ratings.findIndex((r) => r !== null && r >= metric.relevantRatingThreshold);
      return {
        metricScore: first < 0 ? 0 : 1 / (first + 1),
        ratings,
        metricDetails: { mean_reciprocal_rank: { first_relevant: first < 0 ? -1 : first + 1 } },
      };
    }
    case 'dcg': {
      const inHits = ratings.map((r) => r ?? metric.unknownDocRating);
      const dcg = discountedCumulativeGain(inHits, exponentialGain);
      let idcg = 0;
      let score = dcg;
      if (metric.normalize) {
        // The ideal ranking: every rated document by rating, as many as there were hits (ES's cut).
        const ideal = rated.map((d) => d.rating).sort((a, b) => b - a).slice(0, inHits.length);
        idcg = discountedCumulativeGain(ideal, exponentialGain);
        score = idcg !== 0 ? dcg / idcg : 0;
      }
      // ES shows ideal and normalized DCG only when an ideal DCG was computed and is not 0.
      const detail: Record<string, number> = idcg !== 0 ? { dcg, ideal_dcg: idcg, normalized_dcg: dcg / idcg, unrated_docs: unrated } : { dcg, unrated_docs: unrated };
      return { metricScore: score, ratings, metricDetails: { dcg: detail } };
    }
    case 'expected_reciprocal_rank': {
      const top = ratings.slice(0, metric.k);
      const maxGain = Math.pow(2, metric.maximumRelevance);
      let p = 1;
      let err = 0;
      for (let i = 0; i < top.length; i++) {
        const r = top[i] ?? metric.unknownDocRating;
        if (r === null) continue;
        const probR = exponentialGain(r) / maxGain;
        err += (p * probR) / (i + 1);
        p *= 1 - probR;
      }
      const unratedInTop = top.reduce<number>((n, r) => (r === null ? n + 1 : n), 0);
      return { metricScore: err, ratings: top, metricDetails: { expected_reciprocal_rank: { unrated_docs: unratedInTop } } };
    }
  }
}

/** The overall score: the mean over the queries that ran (ES EvaluationMetric.combine); 0 when none did. */
export function combineQueryScores(scores: readonly number[]): number {
  if (scores.length === 0) return 0;
  let sum = 0;
  for (const s of scores) sum += s;
  return sum / scores.length;
}
