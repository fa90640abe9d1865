/**
 * A plain search (query_then_fetch with a local dfs), as a recipe over the search phase: plan the
 * query once per index (with `post_filter` for the hits, without it for aggregations and
 * highlighting), scatter one task per shard, merge the per-shard top hits (k-way, by score or sort
 * values, ties by index then write order), then fetch `_id`/`_source` for the final page only.
 * With one shard in all, the shard fetches too (ES's query_and_fetch).
 */
import { EsError, IllegalArgumentError } from '../../errors/index.js';
import type { Segment } from '../../index/index.js';
import { filteredQuery, type SearchRequest } from '../../dsl/index.js';
import { HIT_STRIDE, compareSortValues, rescoreTopN, type Exec, type ExecCollapse, type ExecSort, type HighlightSpec, type ShardSearchResult, type SortValue } from '../../search/index.js';
import { awaitSearchActive, type IndexService } from '../indices/index-service.js';
import { explainDoc, explainRescored } from '../../search/index.js';
import { renderExplanation } from './explain.js';
import { resolveQueryInference } from './query-inference.js';
import { hasKnn, resolveKnnQueries, withKnnSections } from './knn-phase.js';
import { planRescore, rescoreMerged, withRescoreInference, type RescoredHit, type RescorePlans } from './search-rescore.js';
import { planSearchAggs, renderSearchAggs, type SearchAggPlans } from './search-aggs.js';
import { planHighlight } from './search-highlight.js';
import { fetchPhaseEndedOn } from './search-stats.js';
import {
  addTotals, fetchPage, fetchSpec, isScoreOnly, renderSearchResponse, shardFailure, shardFetch, shardsHeader,
  type PageHit, type QueryPhaseOptions, type QueryPhaseResults, type SearchContextView, type SearchOptions, type SearchOutcome, type SearchPhase, type ShardFetch, type ShardTarget,
} from './search-phase.js';
import { planSearchSuggest, renderSearchSuggest, type SearchSuggestPlans } from './search-suggest.js';
import { resolveSearchAfter, resolveSort } from './sort-resolution.js';
import { resolveCollapse } from './collapse-resolution.js';
import { expandGroups } from './collapse-expand.js';
import { shardQueryAdjuster, type PlanAdjuster } from './shard-query.js';
import type { SlowLogSource } from '../slow-log.js';
import type { SearchPool } from '../search-pool.js';
import type { SegmentRef } from '../../../workers/protocol.js';

interface MergedHit extends PageHit {
  readonly hit: { readonly score: number; readonly segment: Segment; readonly doc: number; readonly sortValues: SortValue[] | null };
  readonly indexOrder: number;
  readonly sortKeys: readonly ExecSort[] | null;
  /** The hit's position in its shard's list (where its rescore scores are). */
  readonly at: number;
  /** With `collapse`: the hit's collapse value (its group). */
  readonly collapseValue: SortValue | undefined;
}

/**
 * What a plain search keeps from its planning for when its shards have answered: only this object
 * waits with the search (no suspended async frame holding every local, no closures over them).
 * Under `_msearch` at 100 connections ~400 searches wait at once, and what they hold is what the
 * coordinator's scavenges copy, and promote when a search outlives two of them (issue 22, gc-i22young).
 */
interface PlainSearchState {
  readonly phase: SearchPhase;
  /** The index expression searched (group searches of `collapse.inner_hits` search it again). */
  readonly expression: string | undefined;
  readonly req: SearchRequest;
  readonly opts: SearchOptions;
  /** performance.now() when the search started (`took`). */
  readonly start: number;
  readonly context: SearchContextView | null;
  readonly targets: readonly ShardTarget[];
  readonly sorts: ReadonlyMap<IndexService, ExecSort[] | null>;
  readonly highlights: ReadonlyMap<IndexService, HighlightSpec> | null;
  readonly aggPlans: SearchAggPlans | null;
  readonly suggestPlans: SearchSuggestPlans | null;
  /** The shard's fetch when one shard queries and fetches (query_and_fetch); null: the coordinator fetches. */
  readonly singleShard: ShardFetch | null;
  /** The rescorers' plans per index; null without `rescore`. */
  readonly rescore: RescorePlans | null;
  /** With `explain`: each index's explanation renderer (from the plans and statistics the query phase ran with). */
  readonly explain: ((index: IndexService) => (h: { segment: Segment; doc: number }) => string) | null;
}

export function plainSearch(phase: SearchPhase, expression: string | undefined, req: SearchRequest, opts: SearchOptions): Promise<SearchOutcome> {
  const start = performance.now();
  try {
    // Model inference first: snapshots below are captured and searched with no await in between.
    if (req.rescore) {
      // The query's and the rescore queries' model texts, encoded together, once.
      const withVectors = withRescoreInference(req, phase.inference);
      if (withVectors instanceof Promise) return withVectors.then((r) => startWithKnn(phase, expression, r, opts, start));
      return startWithKnn(phase, expression, withVectors, opts, start);
    }
    const resolved = resolveQueryInference(req.query, phase.inference);
    if (resolved instanceof Promise) return resolved.then((query) => startWithKnn(phase, expression, query !== req.query ? { ...req, query } : req, opts, start));
    return startWithKnn(phase, expression, resolved !== req.query ? { ...req, query: resolved } : req, opts, start);
  } catch (e) {
    // As the async function it was: a failure while planning rejects, never throws.
    return Promise.reject(e);
  }
}

/**
 * The kNN pre-phase (knn-phase.ts) when the search has kNN searches: the top-level sections join
 * `query` as `should` clauses and every kNN node gets its global top k; else straight on.
 */
function startWithKnn(phase: SearchPhase, expression: string | undefined, req: SearchRequest, opts: SearchOptions, start: number): Promise<SearchOutcome> {
  const query = withKnnSections(req.query, req.knn);
  if (!hasKnn(query)) return startPlainSearch(phase, expression, req, opts, start);
  const resolved = resolveKnnQueries(phase, expression, [query], [req.size], opts, req.timeoutMs);
  return Promise.resolve(resolved).then(([q]) => startPlainSearch(phase, expression, { ...req, query: q, knn: null }, opts, start));
}

/** Plans and scatters (synchronously: the snapshots are captured and searched in one turn); throws on a planning failure. */
function startPlainSearch(phase: SearchPhase, expression: string | undefined, req: SearchRequest, opts: SearchOptions, start: number): Promise<SearchOutcome> {
  const deadline = phase.deadline(req.timeoutMs);
  const allowPartial = opts.allowPartialSearchResults ?? true;
  const context = opts.context ?? null;
  const indices = context ? (context.indices ?? [...new Set(context.targets.map((t) => t.index))]) : phase.resolve(expression, opts.resolve);
  phase.checkResultWindow(indices, req.from + req.size);
  if (context === null) {
    // A search-idle shard that owes a refresh refreshes first; the search then starts again from here.
    const owed = awaitSearchActive(indices);
    if (owed !== null) return owed.then(() => startPlainSearch(phase, expression, req, opts, start));
  }
  const targets = context ? context.targets : phase.targets(indices);
  const stats = phase.stats(targets);
  const now = Date.now();
  // post_filter narrows the hits only: shards rank `query AND post_filter` (the filter does not
  // score) and aggregate over `query` alone.
  const hitsQuery = req.postFilter === null ? req.query : filteredQuery(req.query ?? { kind: 'match_all', boost: 1, name: null }, [req.postFilter]);
  // `indices_boost` and `slice` wrap each index's plan (null: neither, the plans stay the cache's).
  const adjust = shardQueryAdjuster(req, indices, phase, opts.resolve, context === null ? null : context.scroll === true ? 'scroll' : 'pit');
  const plans = adjusted(adjust, phase.plan(indices, hitsQuery, stats, now));
  // Aggregations and highlighting see the query without post_filter.
  const queryPlans = req.postFilter === null || (req.aggs === null && req.highlight === null) ? plans : adjusted(adjust, phase.plan(indices, req.query, stats, now));
  const aggPlans: SearchAggPlans | null = req.aggs === null ? null : planSearchAggs(
    indices, req.aggs, queryPlans, stats, now, (index, e) => shardFailure([index], e),
  );
  const suggestPlans: SearchSuggestPlans | null = req.suggest === null ? null
    : planSearchSuggest(indices, req.suggest, (index, e) => shardFailure([index], e));
  const highlights = req.highlight === null ? null : planHighlight(indices, req.highlight, queryPlans, (q) => phase.plan(indices, q, stats, now), false);
  // Only indices with sort keys have an entry (a score-ordered search, nearly all, makes no map).
  let sortKeys: Map<IndexService, ExecSort[] | null> | null = null;
  // A rescored search collects at least every window (ES's QueryPhase does the same per shard).
  const rescore = req.rescore ? planRescore(phase, indices, req, req.rescore, stats, now) : null;
  const k = rescore === null ? req.from + req.size : rescoreTopN(req.from + req.size, req.rescore!);
  let searchAfter: SortValue[] | null = null;
  // Only with `collapse`: each index's collapse field, as its shards read it.
  let collapses: Map<IndexService, ExecCollapse> | null = null;
  for (let indexPos = 0; indexPos < indices.length; indexPos++) {
    const index = indices[indexPos];
    try {
      const keys = req.sort && !isScoreOnly(req.sort) ? resolveSort(req.sort, index, indexPos) : null;
      if (keys !== null) (sortKeys ??= new Map()).set(index, keys);
      if (context?.searchAfter) searchAfter = [...context.searchAfter];
      else if (req.searchAfter && keys) searchAfter = resolveSearchAfter(req.searchAfter, keys);
      else if (req.searchAfter) throw new IllegalArgumentError('search_after needs a sort');
      if (req.collapse) (collapses ??= new Map()).set(index, resolveCollapse(req, index, context?.scroll === true));
    } catch (e) {
      if (e instanceof EsError) throw shardFailure([index], e);
      throw e;
    }
  }
  const sorts: ReadonlyMap<IndexService, ExecSort[] | null> = sortKeys ?? NO_SORT_KEYS;

  // Explanations are computed by the coordinator's fetch, from the plans and statistics the query
  // phase ran with, so each `_explanation.value` is the hit's `_score`.
  const explain = req.explain
    ? (index: IndexService) => (h: { segment: Segment; doc: number } & RescoredHit) => {
      const first = explainDoc(plans.get(index)!, h.segment, h.doc, stats);
      return renderExplanation(rescore === null ? first.explanation
        : explainRescored(first, rescore.get(index)!, h.rescored, (query) => explainDoc(query, h.segment, h.doc, stats)));
    }
    : null;
  // One shard in all: query and fetch in one round trip (ES's query_and_fetch), unless hits wait
  // for their groups' searches (collapse.inner_hits) before they are rendered.
  const expands = (req.collapse?.innerHits.length ?? 0) > 0;
  const singleShard = targets.length === 1 && explain === null && !expands
    ? shardFetch(req, targets[0].index, shownSortKeys(context, sorts.get(targets[0].index) ?? null), highlights?.get(targets[0].index) ?? null)
    : null;
  const state: PlainSearchState = { phase, expression, req, opts, start, context, targets, sorts, highlights, aggPlans, suggestPlans, singleShard, rescore, explain };
  const run = (pool: SearchPool, segments: readonly SegmentRef[], t: ShardTarget) => pool.search(segments, {
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
    rescore: rescore === null ? null : { rescorers: rescore.get(t.index)!, pageEnd: req.from + req.size },
    collapse: collapses?.get(t.index) ?? null,
  });
  const phaseOptions = queryPhaseOptions(allowPartial, opts.source ?? null);
  if (expands) return phase.queryPhase(targets, run, phaseOptions).then((q) => finishExpandedSearch(state, q));
  return phase.queryPhaseThen(targets, run, phaseOptions, state, finishPlainSearch);
}

/** A collapsed search with `inner_hits`: the page's groups are searched, then the page is fetched with them. */
async function finishExpandedSearch(s: PlainSearchState, q: QueryPhaseResults<ShardSearchResult>): Promise<SearchOutcome> {
  const page = pageHits(s, q.results);
  const { resolve, context, allowPartialSearchResults, restTotalHitsAsInt } = s.opts;
  const inner = await expandGroups(s.req, page.map((h) => h.collapseValue ?? null), restTotalHitsAsInt ?? false,
    (group) => plainSearch(s.phase, s.expression, group, { resolve, context, allowPartialSearchResults, restTotalHitsAsInt }));
  return finishPlainSearch(s, q, page.map((h, i) => ({ ...h, hit: { ...h.hit, innerHits: inner[i] } })));
}

/** The page's hits merged from every shard's (one per group with `collapse`). */
function pageHits(s: PlainSearchState, results: ReadonlyArray<ShardSearchResult | null>): MergedHit[] {
  return mergedHits(s, results).slice(s.req.from, s.req.from + s.req.size);
}

/** Every shard's hits merged: one per group with `collapse`, rescored with `rescore` (never both: refused). */
function mergedHits(s: PlainSearchState, results: ReadonlyArray<ShardSearchResult | null>): MergedHit[] {
  const merged = mergeShardHits(s.targets, results, s.sorts);
  if (s.req.collapse) return topGroups(merged);
  if (s.rescore === null) return merged;
  return rescoreMerged(merged, rescoreTopN(s.req.from + s.req.size, s.req.rescore!), s.req.rescore!, s.targets, results);
}

/** How the query phase treats the shard's answer; the same object for every search that quotes no source in the slow log (`_msearch` items). */
function queryPhaseOptions(allowPartial: boolean, source: SlowLogSource): QueryPhaseOptions<ShardSearchResult> {
  if (source === null) return allowPartial ? ALLOW_PARTIAL : NO_PARTIAL;
  return { allowPartial, timedOut: shardTimedOut, slowLog: { source, totalHits: shardTotalHits } };
}

/** The sort keys hits show (a scroll hides its tiebreaker). */
function shownSortKeys(context: SearchContextView | null, keys: readonly ExecSort[] | null): readonly ExecSort[] | null {
  if (keys === null || context?.visibleSortKeys == null) return keys;
  return context.visibleSortKeys === 0 ? null : keys.slice(0, context.visibleSortKeys);
}

/** Totals, the page (the shard's rendered one, or merged and fetched here) and the response. */
function finishPlainSearch(s: PlainSearchState, { results, failures }: QueryPhaseResults<ShardSearchResult>, expanded?: readonly MergedHit[]): SearchOutcome {
  const { req, opts, context, targets, highlights, aggPlans, suggestPlans, explain } = s;
  const answered = results.length === 1 && results[0] !== null ? results as readonly ShardSearchResult[] : results.filter(isAnswered);
  const totals = addTotals(answered, answered, req.trackTotalHitsUpTo);
  if (context?.total) ({ value: totals.total, gte: totals.gte } = context.total);
  let hitsJson: string | Uint8Array;
  let empty: boolean;
  let lastSort: readonly SortValue[] | null = null;
  if (s.singleShard) {
    // The only shard answered: with it failed, the query phase has thrown.
    const only = results[0]!;
    hitsJson = only.rendered ?? '[]';
    empty = only.hits.length / HIT_STRIDE <= req.from;
    // The shard fetched in the same task as its query (its time is in the query's).
    if (!empty) fetchPhaseEndedOn(targets[0], 0);
    lastSort = only.sortValues?.at(-1) ?? null;
  } else {
    let page = expanded;
    if (page === undefined) {
      const merged = mergedHits(s, results);
      // ES's max_score is the best rescored score.
      if (s.rescore !== null && merged.length > 0) totals.maxScore = merged[0].hit.score;
      page = merged.slice(req.from, req.from + req.size);
    }
    lastSort = page.at(-1)?.hit.sortValues ?? null;
    hitsJson = fetchPage(page, (index, first) => ({ ...fetchSpec(req, index, shownSortKeys(context, first.sortKeys), highlights?.get(index) ?? null), explain: explain?.(index) ?? null }), {
      log: s.phase.options.slowLog ?? null, request: { source: opts.source ?? null, totalShards: targets.length }, totalHits: totals.total,
    });
    empty = page.length === 0;
  }
  const took = Math.round(performance.now() - s.start);
  return {
    lastSort,
    total: { value: totals.total, gte: totals.gte },
    // Spelled out rather than `{ ...totals, took, … }`: V8 gives a spread followed by more
    // properties a fresh hidden class on every call (perf: ~5% of the coordinator thread per
    // `_search`, and megamorphic reads downstream).
    body: renderSearchResponse(req, hitsJson, {
      total: totals.total, gte: totals.gte, maxScore: totals.maxScore, terminatedEarly: totals.terminatedEarly, timedOut: totals.timedOut,
      took, shards: shardsHeader(targets.length, failures),
      restTotalHitsAsInt: opts.restTotalHitsAsInt ?? false, empty,
      aggregations: aggPlans === null ? undefined : renderSearchAggs(aggPlans, targets, results),
      // Options always show their score, whatever the hits' sort.
      suggest: suggestPlans === null ? undefined
        : renderSearchSuggest(suggestPlans, targets, results, (index) => ({ ...fetchSpec(req, index, null, null), tracksScores: true, fields: null })),
    }),
  };
}

function adjusted(adjust: PlanAdjuster | null, plans: ReadonlyMap<IndexService, Exec>): ReadonlyMap<IndexService, Exec> {
  return adjust === null ? plans : adjust(plans);
}

const NO_SORT_KEYS: ReadonlyMap<IndexService, ExecSort[] | null> = new Map();

// Module functions rather than arrows at the call: a search allocates no closures for them.
const shardTimedOut = (r: ShardSearchResult): boolean => r.timedOut;
const shardTotalHits = (r: ShardSearchResult): number => r.totalHits;
const ALLOW_PARTIAL: QueryPhaseOptions<ShardSearchResult> = { allowPartial: true, timedOut: shardTimedOut, slowLog: { source: null, totalHits: shardTotalHits } };
const NO_PARTIAL: QueryPhaseOptions<ShardSearchResult> = { allowPartial: false, timedOut: shardTimedOut, slowLog: { source: null, totalHits: shardTotalHits } };
const isAnswered = (r: ShardSearchResult | null): r is ShardSearchResult => r !== null;

function compareHits(a: MergedHit, b: MergedHit, keys: readonly ExecSort[] | null): number {
  if (keys === null) {
    if (a.hit.score !== b.hit.score) return b.hit.score - a.hit.score;
  } else {
    const c = compareSortValues(keys, a.hit.sortValues!, b.hit.sortValues!);
    if (c !== 0) return c;
  }
  return a.target.indexPos - b.target.indexPos || a.indexOrder - b.indexOrder;
}

function mergeShardHits(
  targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult | null>, sorts: ReadonlyMap<IndexService, ExecSort[] | null>,
): MergedHit[] {
  const all: MergedHit[] = [];
  results.forEach((r, i) => {
    if (r === null) return;
    const t = targets[i];
    for (let h = 0; h * HIT_STRIDE < r.hits.length; h++) {
      const o = h * HIT_STRIDE;
      all.push({
        target: t,
        hit: { score: r.hits[o], segment: t.snapshot.segments[r.hits[o + 1]].reader, doc: r.hits[o + 2], sortValues: r.sortValues ? r.sortValues[h] : null },
        indexOrder: r.hits[o + 3],
        sortKeys: sorts.get(t.index) ?? null,
        at: h,
        collapseValue: r.collapseValues?.[h],
      });
    }
  });
  const keys = targets.length > 0 ? sorts.get(targets[0].index) ?? null : null;
  // Each shard's list is already ordered; a full sort of the union is simplest and k is small.
  return all.sort((a, b) => compareHits(a, b, keys));
}

/**
 * The merged hits of a collapsed search, one per group (ES CollapseTopFieldDocs.merge): each
 * shard sent its top groups, so a group's first hit in the merged order is its best over all
 * shards, and the first from + size groups are the page's whatever the number of shards.
 */
function topGroups(merged: readonly MergedHit[]): MergedHit[] {
  const seen = new Set<SortValue | undefined>();
  const out: MergedHit[] = [];
  for (const h of merged) {
    if (seen.has(h.collapseValue)) continue;
    seen.add(h.collapseValue);
    out.push(h);
  }
  return out;
}
