/**
 * The search flow on the coordinator (query_then_fetch with a local dfs): resolve indices, capture
 * each shard's snapshot, plan the query once per index with statistics over all targeted segments,
 * scatter one task per shard to the pool, merge the per-shard top hits (k-way, by score or sort
 * values, ties by index then write order), then fetch `_id`/`_source` for the final page only —
 * straight from the coordinator-owned segments — and render the response.
 *
 * Hybrid requests (an rrf retriever, `sub_searches` + `rank`) take the same steps with several ranked
 * lists per shard, fused by reciprocal rank fusion before the fetch (hybrid-search.ts).
 *
 * Timeouts and failures follow ES: `timeout` (or the server's default search timeout) becomes one
 * absolute deadline for every shard; a shard that runs out of time returns what it collected and
 * the response says `"timed_out": true`. A shard whose query phase fails (after the pool's one retry
 * of a dead worker) is a shard failure: the others' hits are returned with `_shards.failures`, unless
 * every shard failed or `allow_partial_search_results=false` (then `search_phase_execution_exception`).
 */
import { EsError, IllegalArgumentError, QueryPhaseExecutionError, SearchPhaseExecutionError, TooManyClausesError } from '../errors/index.js';
import type { Segment } from '../index/index.js';
import {
  TRACK_TOTAL_HITS_DISABLED, filteredQuery, type SearchRequest, type SortSpec, type QueryNode,
} from '../dsl/index.js';
import {
  HIT_STRIDE, NO_DEADLINE, compareSortValues, countClauses, planQuery, renderHit, type Exec, type ExecSort, type FetchSpec, type HighlightSpec, type MissingStyle,
  type ShardSearchRequest, type ShardSearchResult, type SortValue,
} from '../search/index.js';
import type { IndexService } from './index-service.js';
import type { IndicesService } from './indices-service.js';
import type { ResolveOptions } from './index-resolver.js';
import { float32ToJson } from '../common/float-json.js';
import type { SearchPool } from './search-pool.js';
import type { ShardSnapshot } from './shard-state.js';
import { resolveSearchAfter, resolveSort } from './sort-resolution.js';
import { SegmentStatsSource } from './stats-source.js';
import { resolveQueryInference } from './query-inference.js';
import type { SparseInference } from '../ml/index.js';
import { hybridSearch, type HybridHost } from './hybrid-search.js';
import { planSearchAggs, renderSearchAggs, type SearchAggPlans } from './search-aggs.js';
import { planSearchSuggest, renderSearchSuggest, type SearchSuggestPlans } from './search-suggest.js';
import { fetchFailure, planHighlight } from './search-highlight.js';
import { fetchPhaseEnded, queryPhaseEnded, queryPhaseStarted } from './search/search-stats.js';

export const NODE_ID = 'threadsearch-node-0';

export interface SearchOptions {
  readonly resolve?: ResolveOptions;
  /** A scroll or point-in-time search (search/search-contexts.ts): the snapshots it holds, not the shards' current ones. */
  readonly context?: SearchContextView;
  readonly restTotalHitsAsInt?: boolean;
  /** `allow_partial_search_results` (a URL parameter in ES); default true. */
  readonly allowPartialSearchResults?: boolean;
}

/** One shard whose query phase failed (ES ShardSearchFailure). */
export interface ShardFailure {
  readonly shard: number;
  readonly index: string;
  readonly node: string;
  readonly cause: EsError;
}

/** The query phase of every target, by target position: a result, or null and why the shard failed. */
interface QueryPhaseResults {
  readonly results: Array<ShardSearchResult | null>;
  readonly failed: Array<ShardFailure | undefined>;
}

export interface ShardTarget {
  readonly index: IndexService;
  readonly indexPos: number;
  readonly shardId: number;
  readonly snapshot: ShardSnapshot;
}

interface MergedHit {
  readonly target: ShardTarget;
  readonly score: number;
  readonly segment: Segment;
  readonly doc: number;
  readonly indexOrder: number;
  readonly sortValues: SortValue[] | null;
  readonly sortKeys: readonly ExecSort[] | null;
}

export interface SearchOutcome {
  /** The response body, already serialised (hits splice stored `_source` JSON in as is). */
  readonly body: string;
  /** The full sort values of the page's last hit (a scroll continues after them); null without a sort or hits. */
  readonly lastSort?: readonly SortValue[] | null;
  /** `hits.total` as counted (a scroll reports its first page's on later pages). */
  readonly total?: { readonly value: number; readonly gte: boolean };
}

/** What a search over a held point in time takes instead of resolving and capturing. */
export interface SearchContextView {
  readonly targets: readonly ShardTarget[];
  /** How many sort keys hits show in `sort` (a scroll hides its tiebreaker); null = all. */
  readonly visibleSortKeys: number | null;
  /** The total to report instead of this page's count; null = this page's. */
  readonly total: { readonly value: number; readonly gte: boolean } | null;
  /** Where a scroll's previous page ended (full sort values, already resolved); null = from the start. */
  readonly searchAfter: readonly SortValue[] | null;
}

export interface SearchServiceOptions {
  /** `search.default_search_timeout`: applies to searches without `timeout`; -1 = none. */
  readonly defaultSearchTimeoutMs: number;
  /** `indices.query.bool.max_clause_count`: leaf clauses a planned query may have. */
  readonly maxClauseCount?: number;
  /** Encodes `text_expansion` / `sparse_vector` query texts (the ML service); null = none. */
  readonly inference?: SparseInference | null;
}

/** ES 8 computes its limit from heap and search threads; this is a fixed, documented default. */
export const DEFAULT_MAX_CLAUSE_COUNT = 4096;

export class SearchService {
  constructor(private readonly indices: IndicesService, private readonly pool: SearchPool, readonly options: SearchServiceOptions = { defaultSearchTimeoutMs: -1 }) {}

  private targets(indices: IndexService[]): ShardTarget[] {
    const out: ShardTarget[] = [];
    indices.forEach((index, indexPos) => {
      for (const shard of index.shards) out.push({ index, indexPos, shardId: shard.shardId, snapshot: shard.snapshot });
    });
    return out;
  }

  /** Plans per index; query-building failures become ES's shard-level failure response. */
  private plan(indices: IndexService[], query: QueryNode | null, stats: SegmentStatsSource, now: number): Map<IndexService, Exec> {
    const plans = new Map<IndexService, Exec>();
    const failures: Array<{ shard: number; index: string; node: string; cause: EsError }> = [];
    for (const index of indices) {
      try {
        const exec = planQuery({
          mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, maxRegexLength: index.resolvedSettings.maxRegexLength, stats, now,
          index: { name: index.name, uuid: index.uuid },
        }, this.indices.searchQuery(indices, index, query));
        const max = this.options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT;
        if (countClauses(exec) > max) throw new TooManyClausesError(max);
        plans.set(index, exec);
      } catch (e) {
        if (!(e instanceof EsError)) throw e;
        for (const shard of index.shards) failures.push({ shard: shard.shardId, index: index.name, node: NODE_ID, cause: e });
      }
    }
    if (failures.length > 0) throw new SearchPhaseExecutionError('query', failures);
    return plans;
  }

  /** `from + size` (or a hybrid list's window) beyond `index.max_result_window` fails every shard of that index. */
  private checkResultWindow(indices: IndexService[], requested: number): void {
    for (const index of indices) {
      const window = index.resolvedSettings.maxResultWindow;
      if (requested > window) {
        throw this.shardFailure([index], new IllegalArgumentError(
          `Result window is too large, from + size must be less than or equal to: [${window}] but was [${requested}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
        ));
      }
    }
  }

  private shardFailure(indices: IndexService[], e: EsError, phase = 'query'): SearchPhaseExecutionError {
    const failures = indices.flatMap((index) => index.shards.map((s) => ({ shard: s.shardId, index: index.name, node: NODE_ID, cause: e })));
    return new SearchPhaseExecutionError(phase, failures);
  }

  /**
   * The absolute Date.now() deadline shards stop at: the request's `timeout`, else the server's
   * `search.default_search_timeout`; -1 = none. The clock starts when the coordinator takes the
   * request (ES starts it per shard, when the shard's query phase begins), so time spent waiting for
   * a search thread counts too and the timeout bounds the whole response.
   */
  private deadline(timeoutMs: number | null): number {
    const ms = timeoutMs ?? this.options.defaultSearchTimeoutMs;
    return ms < 0 ? NO_DEADLINE : Date.now() + ms;
  }

  /**
   * Scatters one request per shard. A failed shard is recorded rather than failing the search; a
   * 429 rejection fails the whole request, so clients back off and retry as they do with ES.
   * Callers capture the snapshots and call this in the same tick (no await in between): the pool
   * keeps every buffer a search names from then until it ends, whatever the shard publishes.
   */
  private async queryShards(targets: readonly ShardTarget[], request: (t: ShardTarget) => ShardSearchRequest): Promise<QueryPhaseResults> {
    const failed: Array<ShardFailure | undefined> = [];
    const started = queryPhaseStarted(targets);
    const results = await Promise.all(targets.map((t, i) => this.pool.search(
      t.snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId })),
      request(t),
    ).catch((e: unknown) => {
      if (!(e instanceof EsError) || e.status === 429) throw e;
      failed[i] = { shard: t.shardId, index: t.index.name, node: NODE_ID, cause: e };
      return null;
    }))).finally(() => queryPhaseEnded(targets, started));
    return { results, failed };
  }

  /** What the hybrid flow uses of this service; the steps stay here, shared by both flows. */
  private hybridHost(): HybridHost {
    return {
      pool: this.pool,
      inference: this.options.inference ?? null,
      resolve: (expression, opts) => this.indices.resolve(expression, opts),
      targets: (indices) => this.targets(indices),
      plan: (indices, query, stats, now) => this.plan(indices, query, stats, now),
      checkResultWindow: (indices, requested) => this.checkResultWindow(indices, requested),
      shardFailure: (indices, e) => this.shardFailure(indices, e),
      deadline: (timeoutMs) => this.deadline(timeoutMs),
    };
  }

  async search(expression: string | undefined, req: SearchRequest, opts: SearchOptions = {}): Promise<SearchOutcome> {
    if (req.fusion !== null) return hybridSearch(this.hybridHost(), expression, req, opts);
    const start = performance.now();
    // Model inference first: snapshots below are captured and searched with no await in between.
    const query = await resolveQueryInference(req.query, this.options.inference ?? null);
    if (query !== req.query) req = { ...req, query };
    const deadline = this.deadline(req.timeoutMs);
    const allowPartial = opts.allowPartialSearchResults ?? true;
    const context = opts.context ?? null;
    const indices = context ? [...new Set(context.targets.map((t) => t.index))] : this.indices.resolve(expression, opts.resolve);
    this.checkResultWindow(indices, req.from + req.size);
    const targets = context ? context.targets : this.targets(indices);
    const segments = targets.flatMap((t) => t.snapshot.segments.map((s) => s.reader));
    const stats = new SegmentStatsSource(segments);
    const now = Date.now();
    // post_filter narrows the hits only: shards rank `query AND post_filter` (the filter does not
    // score) and aggregate over `query` alone.
    const hitsQuery = req.postFilter === null ? req.query : filteredQuery(req.query ?? { kind: 'match_all', boost: 1, name: null }, [req.postFilter]);
    const plans = this.plan(indices, hitsQuery, stats, now);
    // Aggregations and highlighting see the query without post_filter.
    const queryPlans = req.postFilter === null || (req.aggs === null && req.highlight === null) ? plans : this.plan(indices, req.query, stats, now);
    const aggPlans: SearchAggPlans | null = req.aggs === null ? null : planSearchAggs(
      indices, req.aggs, queryPlans, stats, now, (index, e) => this.shardFailure([index], e),
    );
    const suggestPlans: SearchSuggestPlans | null = req.suggest === null ? null
      : planSearchSuggest(indices, req.suggest, (index, e) => this.shardFailure([index], e));
    const highlights = planHighlight(indices, req.highlight, queryPlans, (q) => this.plan(indices, q, stats, now), false);
    const sorts = new Map<IndexService, ExecSort[] | null>();
    const k = req.from + req.size;
    let searchAfter: SortValue[] | null = null;
    for (const [indexPos, index] of indices.entries()) {
      try {
        const keys = req.sort && !isScoreOnly(req.sort) ? resolveSort(req.sort, index, indexPos) : null;
        sorts.set(index, keys);
        if (context?.searchAfter) searchAfter = [...context.searchAfter];
        else if (req.searchAfter && keys) searchAfter = resolveSearchAfter(req.searchAfter, keys);
        else if (req.searchAfter) throw new IllegalArgumentError('search_after needs a sort');
      } catch (e) {
        if (e instanceof EsError) throw this.shardFailure([index], e);
        throw e;
      }
    }

    // One shard in all: query and fetch in one round trip (ES's query_and_fetch).
    const shown = (keys: ExecSort[] | null) => {
      if (keys === null || context?.visibleSortKeys == null) return keys;
      return context.visibleSortKeys === 0 ? null : keys.slice(0, context.visibleSortKeys);
    };
    const singleShard = targets.length === 1
      ? { from: req.from, spec: fetchSpec(req, targets[0].index, shown(sorts.get(targets[0].index) ?? null), highlights?.get(targets[0].index) ?? null) }
      : null;
    const queried = await this.queryShards(targets, (t) => ({
      query: plans.get(t.index)!,
      k,
      trackTotalHitsUpTo: req.trackTotalHitsUpTo,
      minScore: req.minScore,
      sort: sorts.get(t.index) ?? null,
      trackScores: req.trackScores,
      searchAfter,
      terminateAfter: req.terminateAfter,
      fetch: singleShard,
      deadline,
      aggs: aggPlans?.forShard(t.index) ?? null,
      suggest: suggestPlans?.forShard(t.index) ?? null,
    }));
    if (!allowPartial) timeoutsAsFailures(targets, queried);
    const { results } = queried;
    const failures = queried.failed.filter((f) => f !== undefined);
    checkShardFailures(targets.length, failures, allowPartial);

    let total = 0;
    let gte = false;
    let maxScore = NaN;
    let terminatedEarly = false;
    let timedOut = false;
    for (const r of results) {
      if (r === null) continue;
      if (r.totalHits >= 0) total += r.totalHits;
      if (r.totalRelation === 'gte') gte = true;
      if (!Number.isNaN(r.maxScore) && !(r.maxScore <= maxScore)) maxScore = r.maxScore;
      if (r.terminatedEarly) terminatedEarly = true;
      if (r.timedOut) timedOut = true;
    }
    if (req.trackTotalHitsUpTo >= 0 && total > req.trackTotalHitsUpTo) {
      total = req.trackTotalHitsUpTo;
      gte = true;
    }
    if (context?.total) ({ value: total, gte } = context.total);
    let hitsJson: string;
    let empty: boolean;
    let lastSort: readonly SortValue[] | null = null;
    if (singleShard) {
      // The only shard answered: with it failed, checkShardFailures has thrown.
      const only = results[0]!;
      hitsJson = only.rendered ?? '[]';
      empty = only.hits.length / HIT_STRIDE <= req.from;
      // The shard fetched in the same task as its query (its time is in the query's).
      if (!empty) fetchPhaseEnded(1, () => targets[0], 0);

      lastSort = only.sortValues?.at(-1) ?? null;
    } else {
      const fetchStarted = performance.now();
      const page = mergeShardHits(targets, results, sorts).slice(req.from, req.from + req.size);
      lastSort = page.at(-1)?.sortValues ?? null;
      const specs = new Map<IndexService, { spec: FetchSpec; indexJson: string }>();
      const rendered = page.map((h) => {
        let s = specs.get(h.target.index);
        if (!s) {
          const spec = fetchSpec(req, h.target.index, shown(h.sortKeys as ExecSort[] | null), highlights?.get(h.target.index) ?? null);
          specs.set(h.target.index, (s = { spec, indexJson: JSON.stringify(h.target.index.name) }));
        }
        try {
          return renderHit(h, s.spec, s.indexJson);
        } catch (e) {
          if (!(e instanceof EsError)) throw e;
          throw fetchFailure(e, distinctShards(page.filter((p) => p.target.index === h.target.index).map((p) => p.target)));
        }
      });
      hitsJson = `[${rendered.join(',')}]`;
      fetchPhaseEnded(page.length, (i) => page[i].target, performance.now() - fetchStarted);
      empty = page.length === 0;
    }
    const took = Math.round(performance.now() - start);
    return {
      lastSort,
      total: { value: total, gte },
      body: renderSearchResponse(req, hitsJson, {
        total, gte, maxScore, took, shards: shardsHeader(targets.length, failures), terminatedEarly, timedOut,
        restTotalHitsAsInt: opts.restTotalHitsAsInt ?? false, empty,
        aggregations: aggPlans === null ? undefined : renderSearchAggs(aggPlans, results),
        // Options always show their score, whatever the hits' sort.
        suggest: suggestPlans === null ? undefined
          : renderSearchSuggest(suggestPlans, targets, results, (index) => ({ ...fetchSpec(req, index, null, null), tracksScores: true })),
      }),
    };
  }

  /**
   * `_count`: a size-0 search counting every hit. ES's count API takes no `timeout`, but the
   * server's default search timeout applies (a count cut short is partial, and ES does not say so).
   */
  async count(
    expression: string | undefined, query: QueryNode | null, minScore: number | null, opts: SearchOptions = {},
  ): Promise<{ count: number; shards: ShardsHeader }> {
    query = await resolveQueryInference(query, this.options.inference ?? null);
    const deadline = this.deadline(null);
    const indices = this.indices.resolve(expression, opts.resolve);
    const targets = this.targets(indices);
    const stats = new SegmentStatsSource(targets.flatMap((t) => t.snapshot.segments.map((s) => s.reader)));
    const plans = this.plan(indices, query, stats, Date.now());
    const { results, failed } = await this.queryShards(targets, (t) => ({
      query: plans.get(t.index)!, k: 0, trackTotalHitsUpTo: Number.MAX_SAFE_INTEGER, minScore, sort: null, trackScores: false,
      searchAfter: null, terminateAfter: 0, deadline,
    }));
    const failures = failed.filter((f) => f !== undefined);
    checkShardFailures(targets.length, failures, opts.allowPartialSearchResults ?? true);
    return { count: results.reduce((n, r) => n + (r?.totalHits ?? 0), 0), shards: shardsHeader(targets.length, failures) };
  }
}

/** With partial results disallowed, a shard that ran out of time has failed (ES QueryPhase). */
function timeoutsAsFailures(targets: readonly ShardTarget[], queried: QueryPhaseResults): void {
  queried.results.forEach((r, i) => {
    if (!r?.timedOut) return;
    queried.results[i] = null;
    queried.failed[i] = {
      shard: targets[i].shardId, index: targets[i].index.name, node: NODE_ID,
      cause: new QueryPhaseExecutionError('Failed to execute main query', new QueryPhaseExecutionError('Time exceeded')),
    };
  });
}

/**
 * ES AbstractSearchAsyncAction at the end of the query phase: every shard failed → "all shards
 * failed"; some failed with partial results disallowed → "Partial shards failure"; otherwise the
 * search goes on with the shards that answered.
 */
export function checkShardFailures(total: number, failures: readonly ShardFailure[], allowPartial: boolean): void {
  if (failures.length === 0) return;
  if (failures.length === total) throw new SearchPhaseExecutionError('query', [...failures]);
  if (!allowPartial) throw new SearchPhaseExecutionError('query', [...failures], 'Partial shards failure');
}

/** `_shards` of a search or count response (ES RestActions.buildBroadcastShardsHeader). */
export interface ShardsHeader {
  readonly total: number;
  readonly successful: number;
  readonly skipped: number;
  readonly failed: number;
  readonly failures?: ReadonlyArray<{ shard: number; index: string; node: string; reason: Record<string, unknown> }>;
}

/**
 * The `_shards` header; failures are listed as ES ShardSearchFailure renders them, grouped as
 * ExceptionsHelper.groupBy does (one entry per index and distinct cause), while `failed` counts
 * every failed shard.
 */
export function shardsHeader(total: number, failures: readonly ShardFailure[]): ShardsHeader {
  const header = { total, successful: total - failures.length, skipped: 0, failed: failures.length };
  if (failures.length === 0) return header;
  const seen = new Set<string>();
  const listed = [];
  for (const f of failures) {
    const key = `${f.index}\u0000${f.cause.type}\u0000${f.cause.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    listed.push({ shard: f.shard, index: f.index, node: f.node, reason: f.cause.toObject() });
  }
  return { ...header, failures: listed };
}

/** The shards of some targets, each once, as ES names them in failures. */
export function distinctShards(targets: readonly ShardTarget[]): Array<{ shard: number; index: string; node: string }> {
  return [...new Set(targets)].map((t) => ({ shard: t.shardId, index: t.index.name, node: NODE_ID }));
}

function isScoreOnly(sort: readonly SortSpec[]): boolean {
  return sort.length === 1 && sort[0].kind === 'score' && sort[0].order === 'desc';
}

function compareHits(a: MergedHit, b: MergedHit, keys: readonly ExecSort[] | null): number {
  if (keys === null) {
    if (a.score !== b.score) return b.score - a.score;
  } else {
    const c = compareSortValues(keys, a.sortValues!, b.sortValues!);
    if (c !== 0) return c;
  }
  return a.target.indexPos - b.target.indexPos || a.indexOrder - b.indexOrder;
}

function mergeShardHits(targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult | null>, sorts: Map<IndexService, ExecSort[] | null>): MergedHit[] {
  const all: MergedHit[] = [];
  results.forEach((r, i) => {
    if (r === null) return;
    const t = targets[i];
    for (let h = 0; h * HIT_STRIDE < r.hits.length; h++) {
      const o = h * HIT_STRIDE;
      all.push({
        target: t,
        score: r.hits[o],
        segment: t.snapshot.segments[r.hits[o + 1]].reader,
        doc: r.hits[o + 2],
        indexOrder: r.hits[o + 3],
        sortValues: r.sortValues ? r.sortValues[h] : null,
        sortKeys: sorts.get(t.index) ?? null,
      });
    }
  });
  const keys = targets.length > 0 ? sorts.get(targets[0].index) ?? null : null;
  // Each shard's list is already ordered; a full sort of the union is simplest and k is small.
  return all.sort((a, b) => compareHits(a, b, keys));
}

/** Whether hits carry `_score`: score order, track_scores, or a sort that includes _score. */
function tracksScores(req: SearchRequest): boolean {
  return req.sort === null || isScoreOnly(req.sort) || req.trackScores || req.sort.some((k) => k.kind === 'score');
}

/** How each sort key renders missing values (Long.MAX_VALUE for integer/date types, "Infinity" for floating). */
function missingStyles(keys: readonly ExecSort[] | null, index: IndexService): MissingStyle[] | null {
  if (!keys) return null;
  return keys.map((k) => {
    const type = k.kind === 'numeric' ? index.resolvedMapping.fields.get(k.field)?.type : undefined;
    return type === 'double' || type === 'float' || type === 'half_float' || type === 'scaled_float' ? 'double' : 'long';
  });
}

export function fetchSpec(req: SearchRequest, index: IndexService, keys: readonly ExecSort[] | null, highlight: HighlightSpec | null): FetchSpec {
  return {
    highlight,
    index: index.name, source: req.source, storedFieldsNone: req.storedFieldsNone, version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm, tracksScores: tracksScores(req), sortKeys: keys, missingStyles: missingStyles(keys, index),
  };
}

export interface ResponseMeta {
  readonly total: number;
  readonly gte: boolean;
  readonly maxScore: number;
  readonly took: number;
  readonly shards: ShardsHeader;
  readonly terminatedEarly: boolean;
  readonly timedOut: boolean;
  readonly restTotalHitsAsInt: boolean;
  readonly empty: boolean;
  /** The rendered `aggregations` object, when the request asked for aggregations. */
  readonly aggregations?: string;
  /** The rendered `suggest` object, when the request asked for suggestions. */
  readonly suggest?: string;
}

/** The response envelope around an already rendered `hits.hits` array. */
export function renderSearchResponse(req: SearchRequest, hitsJson: string, m: ResponseMeta): string {
  let out = `{"took":${m.took},"timed_out":${m.timedOut}`;
  if (m.terminatedEarly) out += ',"terminated_early":true';
  out += `,"_shards":${JSON.stringify(m.shards)},"hits":{`;
  if (req.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_DISABLED) {
    out += m.restTotalHitsAsInt ? `"total":${m.total},` : `"total":{"value":${m.total},"relation":"${m.gte ? 'gte' : 'eq'}"},`;
  }
  const maxScore = tracksScores(req) && !m.empty && !Number.isNaN(m.maxScore) ? float32ToJson(m.maxScore) : 'null';
  out += `"max_score":${maxScore},"hits":${hitsJson}}`;
  if (m.aggregations !== undefined) out += `,"aggregations":${m.aggregations}`;
  if (m.suggest !== undefined) out += `,"suggest":${m.suggest}`;
  return out + '}';
}
