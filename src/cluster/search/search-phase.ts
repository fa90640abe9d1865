/**
 * The steps every search takes on the coordinator, whatever its recipe (plain, hybrid, count):
 * resolve the indices and capture each shard's snapshot (the targets), plan per index over the
 * index-wide statistics of every targeted segment, scatter to the pool with ES's failure and timeout
 * semantics, add up the totals, fetch the final page from the coordinator-owned segments and render
 * the response with its `_shards` header.
 *
 * Timeouts and failures follow ES: `timeout` (or the server's default search timeout) becomes one
 * absolute deadline for every shard; a shard that runs out of time returns what it collected and
 * the response says `"timed_out": true`. A shard whose query phase fails (after the pool's one retry
 * of a dead worker) is a shard failure: the others' hits are returned with `_shards.failures`, unless
 * every shard failed or `allow_partial_search_results=false` (then `search_phase_execution_exception`).
 */
import { EsError, IllegalArgumentError, QueryPhaseExecutionError, SearchPhaseExecutionError, TooManyClausesError } from '../../errors/index.js';
import { FETCH_ALL, TRACK_TOTAL_HITS_DISABLED, type QueryNode, type SearchRequest, type SortSpec } from '../../dsl/index.js';
import {
  DEFAULT_MAX_CLAUSE_COUNT, NO_DEADLINE, SegmentStatsSource, countClauses, fielddataError, planQuery, planScriptFields, renderHit, resolveFetchFields, type Exec, type ExecSort, type FetchSpec, type HighlightSpec,
  type MissingStyle, type RenderHit, type ShardSearchResult, type SortValue,
} from '../../search/index.js';
import type { SparseInference } from '../../ml/index.js';
import type { SegmentRef } from '../../../workers/protocol.js';
import type { Segment } from '../../index/index.js';
import { float32ToJson } from '../../common/float-json.js';
import { JsonPieces, type JsonPiece } from '../../common/json-pieces.js';
import type { IndexService } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { ResolveOptions } from '../indices/index-resolver.js';
import type { ShardSnapshot } from '../indices/shard-state.js';
import type { SearchPool } from '../search-pool.js';
import { PlanCache } from './plan-cache.js';
import { collapseFetchField } from './collapse-resolution.js';
import { fetchFailure } from './search-highlight.js';
import { fetchPhaseEnded, queryPhaseEnded, queryPhaseStarted } from './search-stats.js';
import type { SearchSlowLogRequest, SlowLog, SlowLogSource } from '../slow-log.js';

export const NODE_ID = 'threadsearch-node-0';

export { DEFAULT_MAX_CLAUSE_COUNT };

export interface SearchOptions {
  readonly resolve?: ResolveOptions;
  /** A scroll or point-in-time search (search/search-contexts.ts): the snapshots it holds, not the shards' current ones. */
  readonly context?: SearchContextView;
  readonly restTotalHitsAsInt?: boolean;
  /** `allow_partial_search_results` (a URL parameter in ES); default true. */
  readonly allowPartialSearchResults?: boolean;
  /** `include_named_queries_score` (a URL parameter of `_search` in ES): hits' `matched_queries` as name → score. */
  readonly includeNamedQueriesScore?: boolean;
  /** The request body as sent, for the search slow log (null or unset: none). */
  readonly source?: SlowLogSource;
}

export interface SearchOutcome {
  /**
   * The response body, already serialised: a JSON object whose hits splice stored `_source` in as
   * is (as the bytes a search worker rendered, for a single-shard page).
   */
  readonly body: JsonPieces;
  /** The full sort values of the page's last hit (a scroll continues after them); null without a sort or hits. */
  readonly lastSort?: readonly SortValue[] | null;
  /** `hits.total` as counted (a scroll reports its first page's on later pages). */
  readonly total?: { readonly value: number; readonly gte: boolean };
}

/** What a search over a held point in time takes instead of resolving and capturing. */
export interface SearchContextView {
  readonly targets: readonly ShardTarget[];
  /** The indices as resolved when the context opened (a filtered alias keeps filtering its searches). */
  readonly indices?: readonly IndexService[];
  /** How many sort keys hits show in `sort` (a scroll hides its tiebreaker); null = all. */
  readonly visibleSortKeys: number | null;
  /** The total to report instead of this page's count; null = this page's. */
  readonly total: { readonly value: number; readonly gte: boolean } | null;
  /** Where a scroll's previous page ended (full sort values, already resolved); null = from the start. */
  readonly searchAfter: readonly SortValue[] | null;
  /** A scroll's page (not a point in time's search): ES refuses `collapse` there. */
  readonly scroll?: boolean;
}

export interface SearchServiceOptions {
  /** `search.default_search_timeout`: applies to searches without `timeout`; -1 = none (a dynamic cluster setting). */
  defaultSearchTimeoutMs: number;
  /** `indices.query.bool.max_clause_count`: leaf clauses a planned query may have. */
  readonly maxClauseCount?: number;
  /** Encodes `text_expansion` / `sparse_vector` query texts (the ML service); null = none. */
  readonly inference?: SparseInference | null;
  /** Where search slow-log lines go (null: nowhere). */
  readonly slowLog?: SlowLog | null;
}

/** One shard whose query phase failed (ES ShardSearchFailure). */
export interface ShardFailure {
  readonly shard: number;
  readonly index: string;
  readonly node: string;
  readonly cause: EsError;
}

export interface ShardTarget {
  readonly index: IndexService;
  readonly indexPos: number;
  readonly shardId: number;
  readonly snapshot: ShardSnapshot;
}

/** The query phase of every target, by target position: a result, or null when the shard failed. */
export interface QueryPhaseResults<R> {
  readonly results: ReadonlyArray<R | null>;
  readonly failures: ShardFailure[];
}

export class SearchPhase {
  /** Plans of repeated queries over an unchanged index generation (plan-cache.ts). */
  readonly planCache = new PlanCache();

  constructor(private readonly indices: IndicesService, private readonly pool: SearchPool, readonly options: SearchServiceOptions) {}

  get inference(): SparseInference | null {
    return this.options.inference ?? null;
  }

  resolve(expression: string | undefined, opts: ResolveOptions | undefined): IndexService[] {
    return this.indices.resolve(expression, opts);
  }

  /**
   * Every shard of `indices` with the snapshot it publishes now (searches see exactly that). An
   * index of one shard searched alone (most searches) gets the same array while that snapshot is
   * published, not one of its own per search.
   */
  targets(indices: readonly IndexService[]): readonly ShardTarget[] {
    if (indices.length === 1 && indices[0].shards.length === 1) {
      const index = indices[0];
      const shard = index.shards[0];
      const snapshot = shard.snapshot;
      let only = ONE_SHARD_TARGETS.get(snapshot);
      if (only === undefined || only[0].index !== index || only[0].shardId !== shard.shardId) {
        ONE_SHARD_TARGETS.set(snapshot, (only = [{ index, indexPos: 0, shardId: shard.shardId, snapshot }]));
      }
      return only;
    }
    const out: ShardTarget[] = [];
    for (let indexPos = 0; indexPos < indices.length; indexPos++) {
      const index = indices[indexPos];
      for (const shard of index.shards) out.push({ index, indexPos, shardId: shard.shardId, snapshot: shard.snapshot });
    }
    return out;
  }

  /** Index-wide term statistics over every segment the targets search (ES's dfs, done locally). */
  stats(targets: readonly ShardTarget[]): SegmentStatsSource {
    return new SegmentStatsSource(targets.length === 1 ? segmentReaders(targets[0].snapshot) : targets.flatMap((t) => segmentReaders(t.snapshot)));
  }

  /**
   * Plans per index; query-building failures become ES's shard-level failure response. A search of
   * one index whose plan is cached gets the cache entry's own one-entry map (no map per search).
   */
  plan(indices: readonly IndexService[], query: QueryNode | null, stats: SegmentStatsSource, now: number, phaseName = 'query'): ReadonlyMap<IndexService, Exec> {
    // Made on first use: a one-index search with a cached plan makes neither.
    let plans: Map<IndexService, Exec> | null = null;
    let failures: ShardFailure[] | null = null;
    for (const index of indices) {
      try {
        const max = this.options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT;
        const node = this.indices.searchQuery(indices, index, query);
        const cached = node === null ? undefined : this.planCache.entry(index, node, stats.segments);
        if (cached !== undefined) {
          if (indices.length === 1) return cached.alone(index);
          (plans ??= new Map()).set(index, cached.exec);
          continue;
        }
        let uncacheable = false;
        const exec = planQuery({
          mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, maxRegexLength: index.resolvedSettings.maxRegexLength, stats,
          get now() {
            uncacheable = true;
            return now;
          },
          uncacheable() {
            uncacheable = true;
          },
          index: { name: index.name, uuid: index.uuid }, maxClauseCount: max,
        }, node);
        if (countClauses(exec) > max) throw new TooManyClausesError(max);
        if (node !== null && !uncacheable) this.planCache.set(index, node, stats.segments, exec);
        (plans ??= new Map()).set(index, exec);
      } catch (e) {
        if (!(e instanceof EsError)) throw e;
        for (const shard of index.shards) (failures ??= []).push({ shard: shard.shardId, index: index.name, node: NODE_ID, cause: e });
      }
    }
    if (failures !== null) throw new SearchPhaseExecutionError(phaseName, failures);
    return plans ?? new Map();
  }

  /** `from + size` (or a hybrid list's window) beyond `index.max_result_window` fails every shard of that index. */
  checkResultWindow(indices: readonly IndexService[], requested: number): void {
    for (const index of indices) {
      const window = index.resolvedSettings.maxResultWindow;
      if (requested > window) {
        throw shardFailure([index], new IllegalArgumentError(
          `Result window is too large, from + size must be less than or equal to: [${window}] but was [${requested}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
        ));
      }
    }
  }

  /**
   * The absolute Date.now() deadline shards stop at: the request's `timeout`, else the server's
   * `search.default_search_timeout`; -1 = none. The clock starts when the coordinator takes the
   * request (ES starts it per shard, when the shard's query phase begins), so time spent waiting for
   * a search thread counts too and the timeout bounds the whole response.
   */
  deadline(timeoutMs: number | null): number {
    const ms = timeoutMs ?? this.options.defaultSearchTimeoutMs;
    return ms < 0 ? NO_DEADLINE : Date.now() + ms;
  }

  /**
   * Scatters the query phase: `run` submits a target's task(s) to the pool. A failed shard is
   * recorded rather than failing the search; a 429 rejection fails the whole request, so clients
   * back off and retry as they do with ES. With `timedOut` given and partial results disallowed, a
   * shard that ran out of time has failed (ES QueryPhase). Then ES's end-of-phase check
   * (checkShardFailures). Callers capture the snapshots and call this in the same tick (no await in
   * between): the pool keeps every buffer a search names from then until it ends.
   */
  queryPhase<R>(
    targets: readonly ShardTarget[],
    run: (pool: SearchPool, segments: readonly SegmentRef[], target: ShardTarget) => Promise<R>,
    opts: QueryPhaseOptions<R>,
  ): Promise<QueryPhaseResults<R>> {
    return this.queryPhaseThen(targets, run, opts, null, resultsAsThey);
  }

  /**
   * queryPhase continued by `finish(state, results)` in the same step as the shard's answer: a
   * one-shard search (most of them) waits on its task alone, with no async frame, Promise.all,
   * `.catch` promise or second promise waiting with it. `run` throwing synchronously still fails
   * the request, as in the many-shard path.
   */
  queryPhaseThen<R, S, T>(
    targets: readonly ShardTarget[],
    run: (pool: SearchPool, segments: readonly SegmentRef[], target: ShardTarget) => Promise<R>,
    opts: QueryPhaseOptions<R>,
    state: S,
    finish: (state: S, results: QueryPhaseResults<R>) => T,
  ): Promise<T> {
    if (targets.length !== 1) return this.queryPhaseOfMany(targets, run, opts).then((q) => finish(state, q));
    const started = queryPhaseStarted(targets);
    const t = targets[0];
    let task: Promise<R>;
    try {
      task = this.logged(t, run(this.pool, segmentRefs(t.snapshot), t), started, 1, opts);
    } catch (e) {
      queryPhaseEnded(targets, started);
      return Promise.reject(e);
    }
    return oneShardPhase(targets, started, opts, task, state, finish);
  }

  /** The task, with the slow log's line when the shard's index has a query threshold (only then an extra promise). */
  private logged<R>(t: ShardTarget, task: Promise<R>, started: number, totalShards: number, opts: QueryPhaseOptions<R>): Promise<R> {
    const slowLog = this.options.slowLog ?? null;
    if (slowLog === null || opts.slowLog === undefined || t.index.resolvedSettings.slowLog.query === null) return task;
    const { source, totalHits } = opts.slowLog;
    return task.then((r) => {
      slowLog.onQueryPhase(t, performance.now() - started, totalHits(r), { source, totalShards });
      return r;
    });
  }

  private async queryPhaseOfMany<R>(
    targets: readonly ShardTarget[],
    run: (pool: SearchPool, segments: readonly SegmentRef[], target: ShardTarget) => Promise<R>,
    opts: QueryPhaseOptions<R>,
  ): Promise<QueryPhaseResults<R>> {
    const failed: Array<ShardFailure | undefined> = [];
    const started = queryPhaseStarted(targets);
    let results: Array<R | null>;
    try {
      results = await Promise.all(targets.map((t, i) => this.logged(t, run(this.pool, segmentRefs(t.snapshot), t), started, targets.length, opts).catch((e: unknown) => {
        failed[i] = shardFailureOf(t, e);
        return null;
      })));
    } finally {
      queryPhaseEnded(targets, started);
    }
    const { timedOut } = opts;
    if (!opts.allowPartial && timedOut) {
      results.forEach((r, i) => {
        if (r === null || !timedOut(r)) return;
        results[i] = null;
        failed[i] = timeExceeded(targets[i]);
      });
    }
    const failures = failed.filter((f) => f !== undefined);
    checkShardFailures(targets.length, failures, opts.allowPartial);
    return { results, failures };
  }
}

/** How a query phase treats its shards' answers (SearchPhase.queryPhase). */
export interface QueryPhaseOptions<R> {
  readonly allowPartial: boolean;
  readonly timedOut?: (result: R) => boolean;
  /** For the slow log: the request, and a result's hit count. */
  readonly slowLog?: { readonly source: SlowLogSource; readonly totalHits: (result: R) => number };
}

const resultsAsThey = <R>(_state: null, results: QueryPhaseResults<R>): QueryPhaseResults<R> => results;

/** The one shard's outcome, continued by `finish`; made here so that its closures hold these values alone. */
function oneShardPhase<R, S, T>(
  targets: readonly ShardTarget[], started: number, opts: QueryPhaseOptions<R>, task: Promise<R>, state: S, finish: (state: S, results: QueryPhaseResults<R>) => T,
): Promise<T> {
  return task.then(
    (r) => {
      queryPhaseEnded(targets, started);
      // A shard out of time with partial results disallowed has failed (ES QueryPhase): every shard did.
      if (!opts.allowPartial && opts.timedOut && opts.timedOut(r)) checkShardFailures(1, [timeExceeded(targets[0])], false);
      return finish(state, { results: [r], failures: [] });
    },
    (e: unknown) => {
      queryPhaseEnded(targets, started);
      // The only shard failed: "all shards failed" (checkShardFailures), or the error as it is.
      checkShardFailures(1, [shardFailureOf(targets[0], e)], opts.allowPartial);
      throw e;
    },
  );
}

/** A shard's failed query phase as a shard failure; a 429 or an error that is not ES's fails the whole request. */
function shardFailureOf(t: ShardTarget, e: unknown): ShardFailure {
  if (!(e instanceof EsError) || e.status === 429) throw e;
  return { shard: t.shardId, index: t.index.name, node: NODE_ID, cause: e };
}

function timeExceeded(t: ShardTarget): ShardFailure {
  return {
    shard: t.shardId, index: t.index.name, node: NODE_ID,
    cause: new QueryPhaseExecutionError('Failed to execute main query', new QueryPhaseExecutionError('Time exceeded')),
  };
}

/** The targets of a one-shard index searched alone, per published snapshot (SearchPhase.targets). */
const ONE_SHARD_TARGETS = new WeakMap<ShardSnapshot, readonly ShardTarget[]>();

/**
 * The segments a shard search names, one array per snapshot (snapshots are immutable). Every search
 * of a snapshot sends the same array, so a batch of them to one worker clones it once: V8's
 * structured clone writes an object it has already written as a back-reference.
 */
const SNAPSHOT_REFS = new WeakMap<ShardSnapshot, readonly SegmentRef[]>();

export function segmentRefs(snapshot: ShardSnapshot): readonly SegmentRef[] {
  let refs = SNAPSHOT_REFS.get(snapshot);
  if (refs === undefined) SNAPSHOT_REFS.set(snapshot, (refs = snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId }))));
  return refs;
}

/** A snapshot's segment readers, one array per snapshot (what statistics are over and plan-cache entries compare). */
const SNAPSHOT_READERS = new WeakMap<ShardSnapshot, readonly Segment[]>();

function segmentReaders(snapshot: ShardSnapshot): readonly Segment[] {
  let readers = SNAPSHOT_READERS.get(snapshot);
  if (readers === undefined) SNAPSHOT_READERS.set(snapshot, (readers = snapshot.segments.map((s) => s.reader)));
  return readers;
}

/** A failure of every shard of `indices` in `phase` (ES's shard-level errors before scattering). */
export function shardFailure(indices: readonly IndexService[], e: EsError, phase = 'query'): SearchPhaseExecutionError {
  const failures = indices.flatMap((index) => index.shards.map((s) => ({ shard: s.shardId, index: index.name, node: NODE_ID, cause: e })));
  return new SearchPhaseExecutionError(phase, failures);
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

/** What the shards' query phases add up to in the response. */
export interface Totals {
  total: number;
  gte: boolean;
  maxScore: number;
  terminatedEarly: boolean;
  timedOut: boolean;
}

/**
 * Totals over the answering shards: `counted` are the results that count hits (hits.total, best
 * score), `all` every task's result (any one terminated early or timed out says so for the
 * response). A total above `track_total_hits` is capped there with relation `gte`.
 */
export function addTotals(counted: Iterable<ShardSearchResult>, all: Iterable<ShardSearchResult>, trackTotalHitsUpTo: number): Totals {
  const t: Totals = { total: 0, gte: false, maxScore: NaN, terminatedEarly: false, timedOut: false };
  for (const r of counted) {
    if (r.totalHits >= 0) t.total += r.totalHits;
    if (r.totalRelation === 'gte') t.gte = true;
    if (!Number.isNaN(r.maxScore) && !(r.maxScore <= t.maxScore)) t.maxScore = r.maxScore;
  }
  for (const r of all) {
    if (r.terminatedEarly) t.terminatedEarly = true;
    if (r.timedOut) t.timedOut = true;
  }
  if (trackTotalHitsUpTo >= 0 && t.total > trackTotalHitsUpTo) {
    t.total = trackTotalHitsUpTo;
    t.gte = true;
  }
  return t;
}

/** One hit of the final page and the shard it came from. */
export interface PageHit {
  readonly target: ShardTarget;
  readonly hit: RenderHit;
}

/**
 * The fetch phase for the final page, straight from the coordinator-owned segments: `specFor`
 * gives an index's fetch spec (asked once per index, with its first hit). A failure while
 * rendering (a highlighter refusing a field…) fails the page's shards of that index.
 */
export function fetchPage<H extends PageHit>(
  page: readonly H[], specFor: (index: IndexService, first: H) => FetchSpec, slowLog?: { readonly log: SlowLog | null; readonly request: SearchSlowLogRequest; readonly totalHits: number },
): string {
  const fetchStarted = performance.now();
  const specs = new Map<IndexService, { spec: FetchSpec; indexJson: string }>();
  const rendered = page.map((p) => {
    const index = p.target.index;
    let s = specs.get(index);
    if (!s) specs.set(index, (s = { spec: specFor(index, p), indexJson: JSON.stringify(index.name) }));
    try {
      return renderHit(p.hit, s.spec, s.indexJson, { index: index.name, shard: p.target.shardId, node: NODE_ID });
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      throw fetchFailure(e, distinctShards(page.filter((q) => q.target.index === index).map((q) => q.target)));
    }
  });
  const fetchMs = performance.now() - fetchStarted;
  fetchPhaseEnded(page.length, (i) => page[i].target, fetchMs);
  if (slowLog?.log) {
    for (const t of new Set(page.map((q) => q.target))) slowLog.log.onFetchPhase(t, fetchMs, slowLog.totalHits, slowLog.request);
  }
  return `[${rendered.join(',')}]`;
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

/** `_shards` as JSON; the header of a search with no failure (nearly all of them) is kept per shard count. */
function shardsJson(h: ShardsHeader): string {
  if (h.failures !== undefined || h.skipped !== 0 || h.failed !== 0 || h.successful !== h.total || h.total >= CLEAN_SHARDS_JSON.length) return JSON.stringify(h);
  return (CLEAN_SHARDS_JSON[h.total] ??= JSON.stringify(h));
}
const CLEAN_SHARDS_JSON: Array<string | undefined> = new Array(64);

/** The shards of some targets, each once, as ES names them in failures. */
export function distinctShards(targets: readonly ShardTarget[]): Array<{ shard: number; index: string; node: string }> {
  return [...new Set(targets)].map((t) => ({ shard: t.shardId, index: t.index.name, node: NODE_ID }));
}

export function isScoreOnly(sort: readonly SortSpec[]): boolean {
  return sort.length === 1 && sort[0].kind === 'score' && sort[0].order === 'desc';
}

/** Whether hits carry `_score`: score order, track_scores, or a sort that includes _score. */
function tracksScores(req: SearchRequest): boolean {
  return req.sort === null || isScoreOnly(req.sort) || req.trackScores || req.sort.some((k) => k.kind === 'score');
}

/** How each sort key renders missing values (Long.MAX_VALUE for integer/date types, "Infinity" for floating). */
export function missingStyles(keys: readonly ExecSort[] | null, index: IndexService): MissingStyle[] | null {
  if (!keys) return null;
  return keys.map((k) => {
    const type = k.kind === 'numeric' ? index.resolvedMapping.fields.get(k.field)?.type : undefined;
    return type === 'double' || type === 'float' || type === 'half_float' || type === 'scaled_float' ? 'double' : 'long';
  });
}

export function fetchSpec(req: SearchRequest, index: IndexService, keys: readonly ExecSort[] | null, highlight: HighlightSpec | null): FetchSpec {
  // Resolved only when asked for: the common search reads nothing more of the mapping.
  const fields = req.fields || req.docvalueFields
    ? resolveFetchFields(req.fields ?? null, req.docvalueFields ?? null, index.resolvedMapping.fields, (f) => fielddataError(f, index.name))
    : null;
  return {
    highlight, fields,
    index: index.name, source: req.source, storedFieldsNone: req.storedFieldsNone, version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm, tracksScores: tracksScores(req), sortKeys: keys, missingStyles: missingStyles(keys, index),
    collapse: collapseFetchField(req, index),
    scriptFields: req.scriptFields ? planScriptFields({ mapping: index.resolvedMapping, index: { name: index.name, uuid: index.uuid } }, req.scriptFields) : null,
  };
}

/** What a single-shard search asks its worker to fetch (ES's query_and_fetch): hits from `from` on, rendered by `spec`. */
export interface ShardFetch {
  readonly from: number;
  readonly spec: FetchSpec;
}

/**
 * Shared fetches of the common case, per index: every `_source`, no sort keys, no highlighting,
 * from 0, by the four flags fetchSpec reads from the request. Load tests send many different
 * bodies that fetch alike; with one object for all of them a batch of searches to one worker
 * clones it once (a back-reference for every later search) instead of a dozen properties each.
 */
const SHARED_FETCHES = new WeakMap<IndexService, Array<ShardFetch | undefined>>();

/** `{ from, spec }` for a single-shard search; the common case is a shared object (never mutated). */
export function shardFetch(req: SearchRequest, index: IndexService, keys: readonly ExecSort[] | null, highlight: HighlightSpec | null): ShardFetch {
  if (req.from !== 0 || keys !== null || highlight !== null || req.source !== FETCH_ALL || req.fields || req.docvalueFields || req.scriptFields || req.collapse) return { from: req.from, spec: fetchSpec(req, index, keys, highlight) };
  const slot = (req.storedFieldsNone ? 1 : 0) | (req.version ? 2 : 0) | (req.seqNoPrimaryTerm ? 4 : 0) | (tracksScores(req) ? 8 : 0);
  let shared = SHARED_FETCHES.get(index);
  if (shared === undefined) SHARED_FETCHES.set(index, (shared = new Array<ShardFetch | undefined>(16)));
  return (shared[slot] ??= { from: 0, spec: fetchSpec(req, index, null, null) });
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

/**
 * The response envelope around an already rendered `hits.hits` array (text, or UTF-8 bytes). The
 * head is joined from its parts into one flat string rather than built by `+=`: under `_msearch` an
 * item's head waits for the request's other items, and a chain of concatenations is a tree of
 * string nodes the young-generation collections copy (and would be flattened when written anyway).
 */
export function renderSearchResponse(req: SearchRequest, hitsJson: JsonPiece, m: ResponseMeta): JsonPieces {
  const counted = req.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_DISABLED;
  const maxScore = tracksScores(req) && !m.empty && !Number.isNaN(m.maxScore) ? float32ToJson(m.maxScore) : 'null';
  const head = [
    '{"took":', m.took, m.timedOut ? ',"timed_out":true' : ',"timed_out":false', m.terminatedEarly ? ',"terminated_early":true' : '',
    ',"_shards":', shardsJson(m.shards), ',"hits":{',
    !counted ? '' : m.restTotalHitsAsInt ? '"total":' : '"total":{"value":', counted ? m.total : '',
    !counted ? '' : m.restTotalHitsAsInt ? ',' : m.gte ? ',"relation":"gte"},' : ',"relation":"eq"},',
    '"max_score":', maxScore, ',"hits":',
  ].join('');
  let tail = '}';
  if (m.aggregations !== undefined) tail += `,"aggregations":${m.aggregations}`;
  if (m.suggest !== undefined) tail += `,"suggest":${m.suggest}`;
  return JsonPieces.object(head, hitsJson, tail + '}');
}
