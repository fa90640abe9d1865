/**
 * One shard's part of a search (the query phase): run the executable query over each segment,
 * collect the top k by score (block-max MaxScore for term disjunctions, accumulation for long
 * learned-sparse ones, exhaustive otherwise) or by
 * sort values, and count hits up to `track_total_hits`. The result is packed into typed arrays so
 * it crosses threads cheaply. A `deadline` (ES `timeout`) stops collection early; what was
 * collected is returned with `timedOut` set.
 */
import { isLive, type Segment } from '../index/index.js';
import type { ShardView } from './exec/shard-view.js';
import type { Exec } from './plan/exec-nodes.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import { NO_DEADLINE, SearchDeadline } from './exec/deadline.js';
import { compareSortValues, SortValueReader, TopFieldDocs, type ExecSort, type SortValue } from './exec/field-sort.js';
import { featureAccumulateTopK, prefersAccumulation } from './exec/feature-taat.js';
import { maxScoreTopK } from './exec/max-score.js';
import { NO_MORE_DOCS } from './exec/scorer.js';
import type { TermScorer } from './exec/term-scorer.js';
import { TopScoreDocs } from './exec/top-docs.js';
import { renderHitsBytes, type FetchSpec } from './fetch-render.js';
import { aggsNeedScores, collectAggs } from './aggs/aggregate.js';
import { allLiveDocs, matchingDocs } from './aggs/doc-lists.js';
import { collectDisjunction, disjunctionLeaves } from './exec/disjunction-docs.js';
import type { AggPartial, ExecAgg } from './aggs/exec-aggs.js';
import type { CompletionShardResult, ExecCompletion } from './suggest/exec-suggest.js';
import { suggestCompletion } from './suggest/completion-suggester.js';
import { lastAtMost } from '../common/sorted-search.js';
import { rescoreOrder, rescoreQueryScores, type ExecRescore } from './rescore.js';
import { CollapseValueReader, CollapsingTopDocs, type ExecCollapse, type HitOrder } from './exec/collapsing-top-docs.js';
import { searchKnnCandidates } from './knn-candidates.js';

export type { ShardView } from './exec/shard-view.js';
export type { ExecCollapse } from './exec/collapsing-top-docs.js';

export interface ShardSearchRequest {
  readonly query: Exec;
  /** Hits this shard must return: from + size. */
  readonly k: number;
  /** Count hits exactly up to this many; -1 = don't count. */
  readonly trackTotalHitsUpTo: number;
  readonly minScore: number | null;
  /** null = by score, descending. */
  readonly sort: readonly ExecSort[] | null;
  readonly trackScores: boolean;
  readonly searchAfter: readonly SortValue[] | null;
  /** Stop after this many hits per shard (0 = no limit). */
  readonly terminateAfter: number;
  /**
   * Single-shard searches also fetch: render hits [from, k) here (ES's query_and_fetch), so the
   * coordinator only wraps the response. null = query phase only.
   */
  readonly fetch?: { readonly from: number; readonly spec: FetchSpec } | null;
  /**
   * Absolute Date.now() time after which the shard stops collecting and returns what it has
   * (ES `timeout`); absent or NO_DEADLINE = no timeout.
   */
  readonly deadline?: number;
  /**
   * Aggregations over every live doc matching `query` — the search's query without its
   * `post_filter`, so buckets count documents the post filter later removes from the hits.
   */
  readonly aggs?: { readonly aggs: readonly ExecAgg[]; readonly query: Exec } | null;
  /** Completion suggestions, run next to the query (they do not depend on it), in request order. */
  readonly suggest?: readonly ExecCompletion[] | null;
  /**
   * Query rescorers (score order only; `k` is already at least every window): each one's score of
   * every hit is computed here (search/rescore.ts). With `fetch` (the only shard) the shard also
   * applies them and keeps the hits up to `pageEnd` (from + size), else the coordinator does after merging.
   */
  readonly rescore?: { readonly rescorers: readonly ExecRescore[]; readonly pageEnd: number } | null;
  /** `collapse`: `k` counts groups, each hit the best of its group (searchCollapsed); absent/null = none. */
  readonly collapse?: ExecCollapse | null;
  /**
   * The kNN pre-phase (search/knn-candidates.ts): the top `k` matches of `query` (a `knn_exact` plan)
   * by score, ties by index-wide write order, among part `part` of `parts` of each segment's docs (a
   * large shard's scan is split over the search threads); nothing else of the request applies.
   * Absent/null = a search.
   */
  readonly knnCandidates?: { readonly part: number; readonly parts: number } | null;
}

export const HIT_STRIDE = 4; // score, segment ordinal, doc, index order

export interface ShardSearchResult {
  readonly totalHits: number;
  readonly totalRelation: 'eq' | 'gte';
  /** Best score seen (NaN when none or not tracked). */
  readonly maxScore: number;
  /** [score, segment ordinal, doc, index order] per hit, best first. */
  readonly hits: Float64Array;
  readonly sortValues: SortValue[][] | null;
  readonly terminatedEarly: boolean;
  /** The deadline passed before the search finished: hits and counts are what was collected until then. */
  readonly timedOut: boolean;
  /**
   * The rendered `hits.hits` array when the request asked to fetch: UTF-8 bytes in a buffer of its
   * own, which a worker transfers to the coordinator (the response is written from them as is).
   */
  readonly rendered?: Uint8Array;
  /** One partial per requested aggregation, reduced by the coordinator. */
  readonly aggs?: AggPartial[];
  /** One answer per requested suggestion, in request order. */
  readonly suggest?: CompletionShardResult[];
  /** With `rescore` and no fetch: [hit × rescorers + rescorer], each rescorer's score of each hit (NaN: no match). */
  readonly rescoreScores?: Float32Array;
  /** With `collapse`: each hit's collapse value (null: the document has none), for the coordinator's merge. */
  readonly collapseValues?: SortValue[];
}

/** Renders the requested page of a result (query_and_fetch). */
function withFetch(req: ShardSearchRequest, shard: ShardView, result: ShardSearchResult): ShardSearchResult {
  if (!req.fetch) return result;
  const page = [];
  for (let h = req.fetch.from; h * HIT_STRIDE < result.hits.length; h++) {
    const o = h * HIT_STRIDE;
    page.push({
      segment: shard.segments[result.hits[o + 1]],
      doc: result.hits[o + 2],
      score: result.hits[o],
      sortValues: result.sortValues ? result.sortValues[h] : null,
    });
  }
  const rendered = renderHitsBytes(page, req.fetch.spec);
  // Spelled out: a spread followed by another property gets a fresh hidden class per call in V8.
  // (Suggestions and aggregation partials are added after the fetch, in searchShard.) A collapsed
  // page's collapse values are not sent: the coordinator renders the shard's page as it is.
  return {
    totalHits: result.totalHits, totalRelation: result.totalRelation, maxScore: result.maxScore, hits: result.hits, sortValues: result.sortValues,
    terminatedEarly: result.terminatedEarly, timedOut: result.timedOut, rendered,
  };
}

/**
 * The term scorers of a pure disjunction of terms or features (match with OR, one term, a
 * learned-sparse query, …), else null. MaxScore needs every term score positive: a leaf of weight
 * 0 (a zero query-token weight) still matches, so such queries run exhaustively.
 */
function termDisjunction(exec: Exec, ctx: SegmentSearchContext): TermScorer[] | null {
  if (exec.kind === 'term' || exec.kind === 'feature') {
    if (!(exec.weight > 0)) return null;
    const s = exec.kind === 'term' ? ctx.termScorer(exec) : ctx.featureScorer(exec);
    return s ? [s] : [];
  }
  if (exec.kind === 'bool' && exec.must.length === 0 && exec.filter.length === 0 && exec.mustNot.length === 0 && exec.minimumShouldMatch <= 1 && exec.should.length > 0) {
    const out: TermScorer[] = [];
    for (const c of exec.should) {
      if (c.kind === 'match_none') continue;
      if (c.kind !== 'term' && c.kind !== 'feature') return null;
      if (!(c.weight > 0)) return null;
      const s = c.kind === 'term' ? ctx.termScorer(c) : ctx.featureScorer(c);
      if (s) out.push(s);
    }
    return out;
  }
  return null;
}

/** The most postings any of the terms has (its document frequency in the segment). */
function maxCost(terms: readonly TermScorer[]): number {
  let max = 0;
  for (let i = 0; i < terms.length; i++) if (terms[i].cost() > max) max = terms[i].cost();
  return max;
}

/** The segment a shard-wide doc number falls in, from the segments' first numbers. */
const segmentOf = lastAtMost;

export function searchShard(req: ShardSearchRequest, shard: ShardView): ShardSearchResult {
  const deadline = new SearchDeadline(req.deadline ?? NO_DEADLINE);
  if (req.knnCandidates) return knnCandidatesResult(req, shard, deadline);
  const found = req.collapse ? searchCollapsed(req, shard, req.collapse, deadline)
    : req.sort === null ? searchByScore(req, shard, deadline) : searchBySort(req, shard, req.sort, deadline);
  const hits = withFetch(req, shard, req.rescore && req.sort === null && !req.collapse ? rescoreShard(req, req.rescore.rescorers, req.rescore.pageEnd, shard, found, deadline) : found);
  const result = req.suggest ? { ...hits, suggest: req.suggest.map((s) => suggestCompletion(s, shard, deadline)), timedOut: deadline.timedOut } : hits;
  if (!req.aggs) return result;
  // A second pass over the matches: the top-k collectors skip documents that cannot make the page,
  // while aggregations need all of them.
  // A top_hits by score reads the matching docs' scores, kept beside the doc lists.
  const scores: Float64Array[] | null = aggsNeedScores(req.aggs.aggs) ? [] : null;
  const docs = matchingDocs(req.aggs.query, shard.segments, shard.liveDocs, req.minScore, deadline, req.terminateAfter, scores);
  // `global` aggregations read every live doc instead, listed once if any asks.
  let everyDoc: Int32Array[] | null = null;
  const aggs = collectAggs(req.aggs.aggs, shard.segments, docs, scores === null ? null : { docs, scores }, () => (everyDoc ??= allLiveDocs(shard.segments, shard.liveDocs, deadline)));
  return { ...result, aggs, timedOut: deadline.timedOut };
}

function knnCandidatesResult(req: ShardSearchRequest, shard: ShardView, deadline: SearchDeadline): ShardSearchResult {
  const { top, bases } = searchKnnCandidates(req.query, req.k, req.knnCandidates!, shard, deadline);
  const hits = topScoreDocsHits(top, bases, shard);
  return {
    totalHits: -1, totalRelation: 'eq', maxScore: hits.length > 0 ? hits[0] : NaN, hits, sortValues: null,
    terminatedEarly: false, timedOut: deadline.timedOut,
  };
}

/** A top-k heap's hits, best first, as HIT_STRIDE rows (score, segment, doc, index order); `bases` each segment's first order key. */
function topScoreDocsHits(top: TopScoreDocs, bases: readonly number[], shard: ShardView): Float64Array {
  const size = top.sortBestFirst();
  const hits = new Float64Array(size * HIT_STRIDE);
  for (let i = 0; i < size; i++) {
    const order = top.orders[i];
    const s = segmentOf(bases, order);
    const doc = order - bases[s];
    const o = i * HIT_STRIDE;
    hits[o] = top.scores[i];
    hits[o + 1] = s;
    hits[o + 2] = doc;
    hits[o + 3] = shard.segments[s].indexOrder.get(doc);
  }
  return hits;
}

/** The first-pass hits with each rescorer's scores; the only shard (it fetches) also reorders them. */
function rescoreShard(
  req: ShardSearchRequest, rescore: readonly ExecRescore[], pageEnd: number, shard: ShardView, result: ShardSearchResult, deadline: SearchDeadline,
): ShardSearchResult {
  const first = result.hits;
  const count = first.length / HIT_STRIDE;
  const rescoreScores = rescoreQueryScores(rescore, count, (i) => first[i * HIT_STRIDE + 1], (i) => first[i * HIT_STRIDE + 2], shard, deadline);
  if (!req.fetch) return { ...result, rescoreScores, timedOut: deadline.timedOut };
  const scores = new Float64Array(count);
  for (let i = 0; i < count; i++) scores[i] = first[i * HIT_STRIDE];
  // One shard: ties break by index order, as they did in the first pass.
  const { order, scores: rescored } = rescoreOrder(rescore, scores, rescoreScores, (a, b) => first[a * HIT_STRIDE + 3] - first[b * HIT_STRIDE + 3]);
  const kept = Math.min(count, pageEnd);
  const hits = new Float64Array(kept * HIT_STRIDE);
  for (let p = 0; p < kept; p++) {
    const o = order[p] * HIT_STRIDE;
    hits.set(first.subarray(o, o + HIT_STRIDE), p * HIT_STRIDE);
    hits[p * HIT_STRIDE] = rescored[order[p]];
  }
  return { ...result, hits, maxScore: count > 0 ? rescored[order[0]] : result.maxScore, timedOut: deadline.timedOut };
}

function searchByScore(req: ShardSearchRequest, shard: ShardView, deadline: SearchDeadline): ShardSearchResult {
  const top = TopScoreDocs.reuse(req.k);
  const counting = req.trackTotalHitsUpTo >= 0;
  const limit = req.trackTotalHitsUpTo;
  let total = 0;
  let terminated = false;
  const bases: number[] = [];
  let base = 0;
  // Counting only (a hybrid search's union task, a size-0 match): a pure disjunction is counted
  // as the union of its postings, without scoring.
  const unionLeaves = req.k === 0 && counting && req.minScore === null && req.terminateAfter === 0 ? disjunctionLeaves(req.query) : null;
  for (let s = 0; s < shard.segments.length && !terminated && !deadline.expired(); s++) {
    const segment = shard.segments[s];
    const live = shard.liveDocs[s];
    bases.push(base);
    if (unionLeaves !== null) {
      if (total <= limit) total += collectDisjunction(unionLeaves, segment, live, new Uint32Array((segment.maxDoc + 31) >>> 5), limit - total);
      base += segment.maxDoc;
      continue;
    }
    const ctx = new SegmentSearchContext(segment, deadline, live);
    const terms = req.minScore === null && req.terminateAfter === 0 ? termDisjunction(req.query, ctx) : null;
    if (terms !== null) {
      let countLimit = counting && total <= limit ? limit - total : -1;
      if (countLimit >= 0 && live === null) {
        // With no deletes a term's postings are live matches, so the count can be known without
        // visiting them (Lucene's Weight#count): a single term matches its doc freq, and a term in
        // more documents than the count still needs proves the total past the limit (the answer
        // is `gte` whatever else matches). Either way the top k is collected without counting.
        if (terms.length === 1) {
          total += terms[0].cost();
          countLimit = -1;
        } else if (maxCost(terms) > countLimit) {
          total = limit + 1;
          countLimit = -1;
        }
      }
      if (terms.length > 0 && (req.k > 0 || countLimit >= 0)) {
        const n = prefersAccumulation(terms, segment.maxDoc)
          ? featureAccumulateTopK(terms, live, top, base, segment.maxDoc, countLimit, deadline)
          : maxScoreTopK(terms, live, top, base, segment.maxDoc, countLimit, deadline);
        if (n >= 0) total += n;
      }
    } else if (counting || req.k > 0) {
      const scorer = buildScorer(req.query, ctx);
      if (scorer) {
        const needScore = req.k > 0 || req.minScore !== null;
        // Docs come in increasing order and ties lose, so once the page is full and its worst hit
        // scores at least this segment's ceiling, no later doc can enter: scoring stops and
        // counting goes on to the limit (Lucene's TopScoreDocCollector with a total-hits
        // threshold). Constant-score queries — filters, prefixes, match_all — stop after k docs.
        // Every score is a float32 rounding of a sum bounded by maxScore(), and rounding is
        // monotone, so the rounded bound is safe.
        const ceiling = req.k > 0 && req.minScore === null && req.terminateAfter === 0 ? Math.fround(scorer.maxScore()) : Infinity;
        let saturated = false;
        for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
          if (deadline.expiredEvery()) break;
          if (!isLive(live, doc)) continue;
          if (saturated) {
            if (++total > limit) break;
            continue;
          }
          const score = needScore ? scorer.score() : 0;
          if (req.minScore !== null && score < req.minScore) continue;
          total++;
          top.offer(score, base + doc);
          if (req.terminateAfter > 0 && total >= req.terminateAfter) {
            terminated = true;
            break;
          }
          // Past the counting limit with nothing left to rank: stop early.
          if (req.k === 0 && counting && total > limit) break;
          if (top.minCompetitive >= ceiling) {
            if (!counting || total > limit) break;
            saturated = true;
          }
        }
      }
    }
    ctx.release();
    base += segment.maxDoc;
  }
  const hits = topScoreDocsHits(top, bases, shard);
  const size = hits.length / HIT_STRIDE;
  const gte = counting && total > limit;
  return {
    totalHits: counting ? (gte ? limit : total) : -1,
    totalRelation: gte ? 'gte' : 'eq',
    maxScore: size > 0 ? top.scores[0] : NaN,
    hits,
    sortValues: null,
    terminatedEarly: terminated,
    timedOut: deadline.timedOut,
  };
}

function searchBySort(req: ShardSearchRequest, shard: ShardView, keys: readonly ExecSort[], deadline: SearchDeadline): ShardSearchResult {
  const top = new TopFieldDocs(keys, req.k);
  const scan = scanMatches(req, shard, keys, { top, collapse: null }, deadline);
  return sortedResult(req, shard, keys, scan, top.sorted(), undefined, deadline);
}

/**
 * A shard's query phase with `collapse` (Lucene's CollapsingTopDocsCollector): every match is
 * scored (or its sort values read), counted for `hits.total` as without collapsing (ES counts
 * documents, not groups), and offered to the collapsing collector, which keeps the best hit of the
 * top from + size groups. No MaxScore or early termination: a group's best hit may come after a
 * page of other groups' hits is full.
 */
function searchCollapsed(req: ShardSearchRequest, shard: ShardView, collapse: ExecCollapse, deadline: SearchDeadline): ShardSearchResult {
  const keys = req.sort;
  const top = new CollapsingTopDocs(keys === null ? byScore : (a, b) => compareSortValues(keys, a.values!, b.values!) || a.order - b.order, req.k);
  const scan = scanMatches(req, shard, keys, { top, collapse }, deadline);
  const groups = top.sorted();
  return sortedResult(req, shard, keys, scan, groups, groups.map((g) => g.key), deadline);
}

const byScore: HitOrder = (a, b) => b.score - a.score || a.order - b.order;

interface MatchScan {
  readonly total: number;
  readonly maxScore: number;
  /** Each segment's first shard-local order (segment base). */
  readonly bases: readonly number[];
  readonly terminated: boolean;
}

/**
 * Every match in write order, scored when needed, its sort values read (`keys`), counted and
 * offered to the collector: the top field docs of a sorted search, or the groups of a collapsed one
 * (by score when `keys` is null). Branches, not a callback, choose the collector per match.
 */
function scanMatches(
  req: ShardSearchRequest, shard: ShardView, keys: readonly ExecSort[] | null,
  into: { readonly top: TopFieldDocs; readonly collapse: null } | { readonly top: CollapsingTopDocs; readonly collapse: ExecCollapse },
  deadline: SearchDeadline,
): MatchScan {
  const needScore = keys === null || req.trackScores || req.minScore !== null || keys.some((k) => k.kind === 'score' || (k.kind === 'script' && k.script.needsScore));
  let total = 0;
  let maxScore = NaN;
  let terminated = false;
  const bases: number[] = [];
  let base = 0;
  for (let s = 0; s < shard.segments.length && !terminated && !deadline.expired(); s++) {
    const segment = shard.segments[s];
    const live = shard.liveDocs[s];
    bases.push(base);
    const ctx = new SegmentSearchContext(segment, deadline, live);
    const scorer = buildScorer(req.query, ctx);
    if (scorer) {
      const reader = keys === null ? null : new SortValueReader(keys, segment);
      const collapseReader = into.collapse === null ? null : new CollapseValueReader(into.collapse, segment);
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        if (deadline.expiredEvery()) break;
        if (!isLive(live, doc)) continue;
        const score = needScore ? scorer.score() : NaN;
        if (req.minScore !== null && score < req.minScore) continue;
        const values = reader === null ? null : reader.read(doc, score);
        if (values !== null && req.searchAfter && compareSortValues(keys!, values, req.searchAfter) <= 0) continue;
        total++;
        if (needScore && !(score <= maxScore)) maxScore = score;
        // A collapsed search reads the value of every match, competitive or not: a multi-valued
        // document fails the search whichever shard it is on, so the answer does not depend on the
        // number of shards.
        if (collapseReader === null) (into.top as TopFieldDocs).offer({ values: values!, score, order: base + doc });
        else (into.top as CollapsingTopDocs).offer(collapseReader.read(doc), score, values, base + doc);
        if (req.terminateAfter > 0 && total >= req.terminateAfter) {
          terminated = true;
          break;
        }
      }
    }
    ctx.release();
    base += segment.maxDoc;
  }
  return { total, maxScore, bases, terminated };
}

/** The result of a scan: its ranked hits packed, with their sort values and (collapse) group values. */
function sortedResult(
  req: ShardSearchRequest, shard: ShardView, keys: readonly ExecSort[] | null, scan: MatchScan,
  ranked: ReadonlyArray<{ readonly score: number; readonly order: number; readonly values: SortValue[] | null }>,
  collapseValues: SortValue[] | undefined, deadline: SearchDeadline,
): ShardSearchResult {
  const hits = new Float64Array(ranked.length * HIT_STRIDE);
  ranked.forEach((h, i) => {
    const s = segmentOf(scan.bases, h.order);
    const doc = h.order - scan.bases[s];
    hits.set([h.score, s, doc, shard.segments[s].indexOrder.get(doc)], i * HIT_STRIDE);
  });
  const counting = req.trackTotalHitsUpTo >= 0;
  const gte = counting && scan.total > req.trackTotalHitsUpTo;
  const result: ShardSearchResult = {
    totalHits: counting ? (gte ? req.trackTotalHitsUpTo : scan.total) : -1,
    totalRelation: gte ? 'gte' : 'eq',
    maxScore: keys === null || req.trackScores || keys.some((k) => k.kind === 'score') ? scan.maxScore : NaN,
    hits,
    sortValues: keys === null ? null : ranked.map((h) => h.values!),
    terminatedEarly: scan.terminated,
    timedOut: deadline.timedOut,
  };
  return collapseValues === undefined ? result : { ...result, collapseValues };
}
