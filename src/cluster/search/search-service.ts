/**
 * The search entry points on the coordinator: `_search` (a plain search, or a hybrid one for an rrf
 * retriever or `sub_searches` + `rank`) and `_count`, each a short recipe over the shared search
 * phase (search-phase.ts: targets, plan, scatter with failures, totals, fetch, response).
 */
import type { QueryNode, SearchRequest } from '../../dsl/index.js';
import { awaitSearchActive } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { SearchPool } from '../search-pool.js';
import { hybridSearch } from './hybrid-search.js';
import type { PlanCache } from './plan-cache.js';
import { plainSearch } from './plain-search.js';
import { resolveQueryInference } from './query-inference.js';
import { resolveKnnQueries } from './knn-phase.js';
import { SearchPhase, shardsHeader, type SearchOptions, type SearchOutcome, type SearchServiceOptions, type ShardsHeader } from './search-phase.js';

export {
  DEFAULT_MAX_CLAUSE_COUNT, NODE_ID, checkShardFailures, shardsHeader,
  type SearchContextView, type SearchOptions, type SearchOutcome, type SearchServiceOptions, type ShardFailure, type ShardsHeader, type ShardTarget,
} from './search-phase.js';

export class SearchService {
  private readonly phase: SearchPhase;

  constructor(indices: IndicesService, pool: SearchPool, readonly options: SearchServiceOptions = { defaultSearchTimeoutMs: -1 }) {
    this.phase = new SearchPhase(indices, pool, options);
  }

  /** Reused plans (hit and miss counts for diagnostics and tests). */
  get planCache(): PlanCache {
    return this.phase.planCache;
  }

  search(expression: string | undefined, req: SearchRequest, opts: SearchOptions = {}): Promise<SearchOutcome> {
    return req.fusion !== null ? hybridSearch(this.phase, expression, req, opts) : plainSearch(this.phase, expression, req, opts);
  }

  /**
   * A query with its kNN searches resolved to their global top k over the indices `expression`
   * names (the `_explain` API plans it afterwards); the same query when it has none.
   */
  async resolveKnn(expression: string | undefined, query: QueryNode | null): Promise<QueryNode | null> {
    const [resolved] = await resolveKnnQueries(this.phase, expression, [query], [-1], {}, null);
    return resolved;
  }

  /**
   * `_count`: a size-0 search counting every hit. ES's count API takes no `timeout`, but the
   * server's default search timeout applies (a count cut short is partial, and ES does not say so).
   */
  async count(
    expression: string | undefined, query: QueryNode | null, minScore: number | null, opts: SearchOptions = {},
  ): Promise<{ count: number; shards: ShardsHeader }> {
    const phase = this.phase;
    query = await resolveQueryInference(query, phase.inference);
    // A knn query's k defaults to the request size, which a count does not have: ES's default, 10.
    [query] = await resolveKnnQueries(phase, expression, [query], [-1], opts, null);
    const deadline = phase.deadline(null);
    const indices = phase.resolve(expression, opts.resolve);
    const owed = awaitSearchActive(indices);
    if (owed !== null) await owed;
    const targets = phase.targets(indices);
    const plans = phase.plan(indices, query, phase.stats(targets), Date.now());
    const { results, failures } = await phase.queryPhase(targets, (pool, segments, t) => pool.search(segments, {
      query: plans.get(t.index)!, k: 0, trackTotalHitsUpTo: Number.MAX_SAFE_INTEGER, minScore, sort: null, trackScores: false,
      searchAfter: null, terminateAfter: 0, deadline,
    }), { allowPartial: opts.allowPartialSearchResults ?? true });
    return { count: results.reduce((n, r) => n + (r?.totalHits ?? 0), 0), shards: shardsHeader(targets.length, failures) };
  }
}
