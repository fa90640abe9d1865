/**
 * `_rank_eval` (ES TransportRankEvalAction): runs each rated request as a search of the target
 * indices — `size` forced to the metric's `k`, `_source` off unless `summary_fields` names fields —
 * at most `max_concurrent_searches` at a time, joins the hits with the ratings and scores them with
 * the metric (search/rank-eval). A request whose search fails is listed under `failures` and left
 * out of the mean, as ES does; it never fails the others.
 */
import { EsError, IllegalArgumentError, InternalError } from '../../errors/index.js';
import { validatePaging, type RankEvalSpec, type RatedRequest } from '../../dsl/index.js';
import { combineQueryScores, evaluateQuery, type HitKey } from '../../search/index.js';
import type { SearchOptions, SearchService } from './search-service.js';

/** One hit as the search rendered it (`_index`, `_id`, `_score`, `_source` when asked for). */
type RenderedHit = { _index: string; _id: string } & Record<string, unknown>;

export interface RankEvalResponse {
  readonly metric_score: number;
  readonly details: Record<string, {
    metric_score: number;
    unrated_docs: Array<{ _index: string; _id: string }>;
    hits: Array<{ hit: RenderedHit; rating: number | null }>;
    metric_details: Record<string, Record<string, number>>;
  }>;
  readonly failures: Record<string, { error: unknown }>;
}

export async function rankEval(search: SearchService, expression: string | undefined, spec: RankEvalSpec, opts: SearchOptions): Promise<RankEvalResponse> {
  if (spec.maxConcurrentSearches < 1) throw new IllegalArgumentError('maxConcurrentSearchRequests must be positive');
  const k = spec.metric.k;
  const outcomes: Array<{ hits: RenderedHit[] } | { error: unknown }> = new Array(spec.requests.length);
  const runOne = async (rated: RatedRequest): Promise<{ hits: RenderedHit[] } | { error: unknown }> => {
    try {
      validatePaging(rated.request.from, k);
      const request = {
        ...rated.request,
        size: k,
        source: rated.summaryFields.length === 0
          ? { fetch: false, includes: [], excludes: [] }
          : { fetch: true, includes: [...rated.summaryFields], excludes: [] },
      };
      const outcome = await search.search(expression, request, opts);
      return { hits: (JSON.parse(outcome.body.toString()) as { hits: { hits: RenderedHit[] } }).hits.hits };
    } catch (e) {
      const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
      return { error: err.toBody().error };
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < spec.requests.length) {
      const i = next++;
      outcomes[i] = await runOne(spec.requests[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(spec.maxConcurrentSearches, spec.requests.length) }, worker));

  const details: RankEvalResponse['details'] = {};
  const failures: RankEvalResponse['failures'] = {};
  const scores: number[] = [];
  spec.requests.forEach((rated, i) => {
    const outcome = outcomes[i];
    if ('error' in outcome) {
      failures[rated.id] = { error: outcome.error };
      return;
    }
    const keys: HitKey[] = outcome.hits.map((h) => ({ index: h._index, id: h._id }));
    const quality = evaluateQuery(spec.metric, keys, rated.ratings);
    scores.push(quality.metricScore);
    const hits = quality.ratings.map((rating, j) => ({ hit: outcome.hits[j], rating }));
    details[rated.id] = {
      metric_score: quality.metricScore,
      unrated_docs: hits.filter((h) => h.rating === null).map((h) => ({ _index: h.hit._index, _id: h.hit._id })),
      hits,
      metric_details: quality.metricDetails,
    };
  });
  return { metric_score: combineQueryScores(scores), details, failures };
}
