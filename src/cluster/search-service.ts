/**
 * The search flow on the coordinator (query_then_fetch with a local dfs): resolve indices, capture
 * each shard's snapshot, plan the query once per index with statistics over all targeted segments,
 * scatter one task per shard to the pool, merge the per-shard top hits (k-way, by score or sort
 * values, ties by index then write order), then fetch `_id`/`_source` for the final page only —
 * straight from the coordinator-owned segments — and render the response.
 */
import { EsError, IllegalArgumentError, SearchPhaseExecutionError } from '../errors/index.js';
import type { Segment } from '../index/index.js';
import {
  TRACK_TOTAL_HITS_DISABLED, type SearchRequest, type SortSpec, type QueryNode,
} from '../dsl/index.js';
import {
  HIT_STRIDE, compareSortValues, planQuery, renderHit, type Exec, type ExecSort, type FetchSpec, type MissingStyle, type ShardSearchResult,
  type SortValue,
} from '../search/index.js';
import type { IndexService } from './index-service.js';
import type { IndicesService } from './indices-service.js';
import type { ResolveOptions } from './index-resolver.js';
import { float32ToJson } from '../common/float-json.js';
import type { SearchPool } from './search-pool.js';
import type { ShardSnapshot } from './shard-state.js';
import { resolveSearchAfter, resolveSort } from './sort-resolution.js';
import { SegmentStatsSource } from './stats-source.js';

export const NODE_ID = 'threadsearch-node-0';

export interface SearchOptions {
  readonly resolve?: ResolveOptions;
  readonly restTotalHitsAsInt?: boolean;
}

interface ShardTarget {
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
}

export interface SearchServiceOptions {
  /** `search.default_search_timeout`: applies to searches without `timeout`; -1 = none. */
  readonly defaultSearchTimeoutMs: number;
}

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
        plans.set(index, planQuery({
          mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, stats, now,
          index: { name: index.name, uuid: index.uuid },
        }, query));
      } catch (e) {
        if (!(e instanceof EsError)) throw e;
        for (const shard of index.shards) failures.push({ shard: shard.shardId, index: index.name, node: NODE_ID, cause: e });
      }
    }
    if (failures.length > 0) throw new SearchPhaseExecutionError('query', failures);
    return plans;
  }

  private shardFailure(indices: IndexService[], e: EsError, phase = 'query'): SearchPhaseExecutionError {
    const failures = indices.flatMap((index) => index.shards.map((s) => ({ shard: s.shardId, index: index.name, node: NODE_ID, cause: e })));
    return new SearchPhaseExecutionError(phase, failures);
  }

  async search(expression: string | undefined, req: SearchRequest, opts: SearchOptions = {}): Promise<SearchOutcome> {
    const start = performance.now();
    const indices = this.indices.resolve(expression, opts.resolve);
    for (const index of indices) {
      const window = index.resolvedSettings.maxResultWindow;
      if (req.from + req.size > window) {
        throw this.shardFailure([index], new IllegalArgumentError(
          `Result window is too large, from + size must be less than or equal to: [${window}] but was [${req.from + req.size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
        ));
      }
    }
    const targets = this.targets(indices);
    const segments = targets.flatMap((t) => t.snapshot.segments.map((s) => s.reader));
    const stats = new SegmentStatsSource(segments);
    const plans = this.plan(indices, req.query, stats, Date.now());
    const sorts = new Map<IndexService, ExecSort[] | null>();
    const k = req.from + req.size;
    let searchAfter: SortValue[] | null = null;
    for (const index of indices) {
      try {
        const keys = req.sort && !isScoreOnly(req.sort) ? resolveSort(req.sort, index) : null;
        sorts.set(index, keys);
        if (req.searchAfter && keys) searchAfter = resolveSearchAfter(req.searchAfter, keys);
        else if (req.searchAfter) throw new IllegalArgumentError('search_after needs a sort');
      } catch (e) {
        if (e instanceof EsError) throw this.shardFailure([index], e);
        throw e;
      }
    }

    // One shard in all: query and fetch in one round trip (ES's query_and_fetch).
    const singleShard = targets.length === 1 ? { from: req.from, spec: fetchSpec(req, targets[0].index, sorts.get(targets[0].index) ?? null) } : null;
    const results = await Promise.all(targets.map(async (t) => {
      try {
        return await this.pool.search(
          t.snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId })),
          {
            query: plans.get(t.index)!,
            k,
            trackTotalHitsUpTo: req.trackTotalHitsUpTo,
            minScore: req.minScore,
            sort: sorts.get(t.index) ?? null,
            trackScores: req.trackScores,
            searchAfter,
            terminateAfter: req.terminateAfter,
            fetch: singleShard,
          },
        );
      } catch (e) {
        if (e instanceof EsError && e.status !== 429 && e.status < 500) throw this.shardFailure([t.index], e);
        throw e;
      }
    }));

    let total = 0;
    let gte = false;
    let maxScore = NaN;
    let terminatedEarly = false;
    for (const r of results) {
      if (r.totalHits >= 0) total += r.totalHits;
      if (r.totalRelation === 'gte') gte = true;
      if (!Number.isNaN(r.maxScore) && !(r.maxScore <= maxScore)) maxScore = r.maxScore;
      if (r.terminatedEarly) terminatedEarly = true;
    }
    if (req.trackTotalHitsUpTo >= 0 && total > req.trackTotalHitsUpTo) {
      total = req.trackTotalHitsUpTo;
      gte = true;
    }
    let hitsJson: string;
    let empty: boolean;
    if (singleShard) {
      hitsJson = results[0].rendered ?? '[]';
      empty = results[0].hits.length / HIT_STRIDE <= req.from;
    } else {
      const page = mergeShardHits(targets, results, sorts).slice(req.from, req.from + req.size);
      const specs = new Map<IndexService, { spec: FetchSpec; indexJson: string }>();
      const rendered = page.map((h) => {
        let s = specs.get(h.target.index);
        if (!s) specs.set(h.target.index, (s = { spec: fetchSpec(req, h.target.index, h.sortKeys), indexJson: JSON.stringify(h.target.index.name) }));
        return renderHit(h, s.spec, s.indexJson);
      });
      hitsJson = `[${rendered.join(',')}]`;
      empty = page.length === 0;
    }
    const took = Math.round(performance.now() - start);
    return {
      body: renderSearchResponse(req, hitsJson, {
        total, gte, maxScore, took, shards: targets.length, terminatedEarly, restTotalHitsAsInt: opts.restTotalHitsAsInt ?? false, empty,
      }),
    };
  }

  async count(expression: string | undefined, query: QueryNode | null, minScore: number | null, opts: SearchOptions = {}): Promise<{ count: number; shards: number }> {
    const indices = this.indices.resolve(expression, opts.resolve);
    const targets = this.targets(indices);
    const stats = new SegmentStatsSource(targets.flatMap((t) => t.snapshot.segments.map((s) => s.reader)));
    const plans = this.plan(indices, query, stats, Date.now());
    const results = await Promise.all(targets.map((t) => this.pool.search(
      t.snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId })),
      { query: plans.get(t.index)!, k: 0, trackTotalHitsUpTo: Number.MAX_SAFE_INTEGER, minScore, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0 },
    ).catch((e) => {
      if (e instanceof EsError && e.status < 500 && e.status !== 429) throw this.shardFailure([t.index], e);
      throw e;
    })));
    return { count: results.reduce((n, r) => n + r.totalHits, 0), shards: targets.length };
  }
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

function mergeShardHits(targets: ShardTarget[], results: ShardSearchResult[], sorts: Map<IndexService, ExecSort[] | null>): MergedHit[] {
  const all: MergedHit[] = [];
  results.forEach((r, i) => {
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

function fetchSpec(req: SearchRequest, index: IndexService, keys: readonly ExecSort[] | null): FetchSpec {
  return {
    index: index.name, source: req.source, storedFieldsNone: req.storedFieldsNone, version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm, tracksScores: tracksScores(req), sortKeys: keys, missingStyles: missingStyles(keys, index),
  };
}

interface ResponseMeta {
  readonly total: number;
  readonly gte: boolean;
  readonly maxScore: number;
  readonly took: number;
  readonly shards: number;
  readonly terminatedEarly: boolean;
  readonly restTotalHitsAsInt: boolean;
  readonly empty: boolean;
}

/** The response envelope around an already rendered `hits.hits` array. */
function renderSearchResponse(req: SearchRequest, hitsJson: string, m: ResponseMeta): string {
  let out = `{"took":${m.took},"timed_out":false`;
  if (m.terminatedEarly) out += ',"terminated_early":true';
  out += `,"_shards":{"total":${m.shards},"successful":${m.shards},"skipped":0,"failed":0},"hits":{`;
  if (req.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_DISABLED) {
    out += m.restTotalHitsAsInt ? `"total":${m.total},` : `"total":{"value":${m.total},"relation":"${m.gte ? 'gte' : 'eq'}"},`;
  }
  const maxScore = tracksScores(req) && !m.empty && !Number.isNaN(m.maxScore) ? float32ToJson(m.maxScore) : 'null';
  return out + `"max_score":${maxScore},"hits":${hitsJson}}}`;
}
