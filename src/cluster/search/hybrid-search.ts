/**
 * Hybrid search on the coordinator: several ranked lists (an rrf or linear retriever's standard leaves,
 * or the legacy `sub_searches`) fused by reciprocal rank fusion (rrf.ts) or a weighted sum of normalized
 * scores (linear-fusion.ts), in one scatter and one fetch.
 *
 * 1. Model texts of every list are encoded in one inference round (one call per model).
 * 2. Each list is planned once per index over the same index-wide statistics.
 * 3. Every shard gets one task per list (top `rank_window_size` by score, no counting) plus, when
 *    `track_total_hits` or `aggs` ask, one task over the union of the lists (ES's compound query:
 *    a `bool` should of the lists' queries, so `hits.total` counts and aggregations bucket every
 *    document matching any list, not only the fused page or windows).
 *    All are submitted in the same tick, so a busy pool batches them into shared tasks.
 * 4. Each list is merged globally (all shards, by score, ties by index then write order) and cut
 *    to its window — ranks are global, never per shard, so results do not depend on sharding.
 * 5. Lists are fused bottom-up (a nested rrf retriever's fused list, cut to its window, is one list of
 *    its parent); the page is cut from the fused list and only its documents are fetched.
 *
 * A shard that fails any of its tasks is a failed shard (its lists are left out, as ES leaves out a
 * failed shard's hits); the failure semantics are otherwise those of a plain search.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { Segment } from '../../index/index.js';
import { TRACK_TOTAL_HITS_DISABLED, type BoolQuery, type QueryNode, type SearchRequest } from '../../dsl/index.js';
import { validateFusion } from '../../dsl/rank.js';
import { fusionLeaves, withLeafQueries, type CompoundNode } from '../../dsl/retriever.js';
import { HIT_STRIDE, type ShardSearchRequest, type ShardSearchResult } from '../../search/index.js';
import type { SparseInference } from '../../ml/index.js';
import { awaitSearchActive } from '../indices/index-service.js';
import { resolveQueryInference } from './query-inference.js';
import { resolveKnnQueries } from './knn-phase.js';
import { linearCombination } from './linear-fusion.js';
import { reciprocalRankFusion, type RankedList } from './rrf.js';
import { planSearchAggs, renderSearchAggs, type SearchAggPlans } from './search-aggs.js';
import { planHighlight, unionOfPlans } from './search-highlight.js';
import {
  addTotals, fetchPage, fetchSpec, renderSearchResponse, shardFailure, shardsHeader,
  type SearchOptions, type SearchOutcome, type SearchPhase, type ShardTarget,
} from './search-phase.js';

/**
 * Document keys for fusion: index position × 2^40 + index-wide write order, so ascending keys are
 * the plain search's tie order (index, then write order). Write orders stay far below 2^40.
 */
const INDEX_KEY_STRIDE = 2 ** 40;

interface DocRef {
  readonly target: ShardTarget;
  readonly segment: Segment;
  readonly doc: number;
}

/** One list's hits from every shard, merged: best first, cut to the window. */
interface MergedList extends RankedList {
  readonly keys: number[];
  readonly scores: number[];
}

export async function hybridSearch(phase: SearchPhase, expression: string | undefined, req: SearchRequest, opts: SearchOptions): Promise<SearchOutcome> {
  const start = performance.now();
  validateFusion(req);
  // ES explains fused hits per retriever; this server explains plain searches only.
  if (req.explain) throw new IllegalArgumentError('[explain] is not supported by this server yet for retrievers and [rank]');
  const inferred = await resolveLeafInference(req.fusion!.root, phase.inference);
  const legacy = req.fusion!.legacy;
  const windows = leafWindows(inferred);
  // Each kNN list (a knn retriever, a legacy knn section, a knn query) gets its global top k; a
  // knn query without k takes its list's window as the request size.
  const leafQueries = fusionLeaves(inferred).map((l) => l.query);
  const withKnn = await resolveKnnQueries(phase, expression, leafQueries, windows, opts, req.timeoutMs);
  const root = withKnn === leafQueries ? inferred : withLeafQueries(inferred, withKnn);
  const leaves = fusionLeaves(root);
  const deadline = phase.deadline(req.timeoutMs);
  const allowPartial = opts.allowPartialSearchResults ?? true;
  const indices = phase.resolve(expression, opts.resolve);
  if (root.kind === 'linear' && root.multiField && indices.length > 1) {
    throw new IllegalArgumentError('[linear] cannot specify [query] when querying multiple indices');
  }
  phase.checkResultWindow(indices, Math.max(req.from + req.size, ...windows));
  if (req.searchAfter !== null) throw shardFailure(indices, new IllegalArgumentError('search_after needs a sort'));
  const owed = awaitSearchActive(indices);
  if (owed !== null) await owed;

  const targets = phase.targets(indices);
  const stats = phase.stats(targets);
  const now = Date.now();
  const plans = leaves.map((leaf) => phase.plan(indices, leaf.query, stats, now));
  // Totals and aggregations are over the union of the lists' matches (ES's compound query), in one
  // task per shard that collects no hits.
  const counts = req.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_DISABLED;
  const unionPlan = counts || req.aggs !== null ? phase.plan(indices, unionQuery(leaves.map((l) => l.query)), stats, now) : null;
  const aggPlans: SearchAggPlans | null = req.aggs === null ? null : planSearchAggs(indices, req.aggs, unionPlan!, stats, now, (index, e) => shardFailure([index], e));
  const highlights = planHighlight(indices, req.highlight, unionOfPlans(indices, plans), (q) => phase.plan(indices, q, stats, now), true);

  // Scatter: every task of the request in this tick (snapshots were captured with no await since),
  // so a busy pool batches them into shared tasks. A shard that fails any of its tasks has failed.
  const base = { sort: null, trackScores: false, searchAfter: null, terminateAfter: req.terminateAfter, fetch: null, deadline } as const;
  const { results, failures } = await phase.queryPhase(targets, (pool, segments, t) => {
    const requests: ShardSearchRequest[] = leaves.map((leaf, i) => ({
      ...base, query: plans[i].get(t.index)!, k: windows[i], trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED, minScore: leaf.minScore,
    }));
    if (unionPlan) {
      requests.push({
        ...base, query: unionPlan.get(t.index)!, k: 0, trackTotalHitsUpTo: req.trackTotalHitsUpTo, minScore: null, aggs: aggPlans?.forShard(t.index) ?? null,
      });
    }
    return Promise.all(requests.map((r) => pool.search(segments, r)));
  }, { allowPartial, timedOut: (r) => r.some((x) => x.timedOut) });

  // Global per-list merge, then fusion.
  const docs = new Map<number, DocRef>();
  const lists = leaves.map((_, i) => mergeList(targets, results, i, windows[i], docs));
  let cursor = 0;
  const fuse = (node: CompoundNode): Array<{ key: number; score: number }> => {
    const childLists = node.retrievers.map((c): RankedList => {
      if (c.kind === 'standard') return lists[cursor++];
      const fused = fuse(c).slice(0, c.rankWindowSize);
      return { keys: fused.map((d) => d.key), scores: fused.map((d) => d.score) };
    });
    return node.kind === 'rrf'
      ? reciprocalRankFusion(childLists, node.rankConstant, node.weights)
      : linearCombination(childLists, node.weights, node.normalizers, node.rankWindowSize, node.minScore);
  };
  let fused = fuse(root);
  // The legacy coordinator pages over every fused document; a retriever returns its top window.
  if (!legacy) fused = fused.slice(0, root.rankWindowSize);
  const page = fused.slice(req.from, req.from + req.size).map((d, i) => {
    const ref = docs.get(d.key)!;
    return { target: ref.target, hit: { segment: ref.segment, doc: ref.doc, score: d.score, sortValues: null, rank: legacy ? req.from + i + 1 : undefined } };
  });
  const hitsJson = fetchPage(page, (index) => fetchSpec(req, index, null, highlights?.get(index) ?? null));

  const answered = results.filter((r) => r !== null);
  const totals = addTotals(counts ? answered.map((r) => r[r.length - 1]) : [], answered.flat(), req.trackTotalHitsUpTo);
  return {
    body: renderSearchResponse(req, hitsJson, {
      ...totals, maxScore: fused.length > 0 ? fused[0].score : NaN, took: Math.round(performance.now() - start),
      shards: shardsHeader(targets.length, failures),
      restTotalHitsAsInt: opts.restTotalHitsAsInt ?? false, empty: page.length === 0,
      aggregations: aggPlans === null ? undefined : renderSearchAggs(aggPlans, targets, results.map((r) => (r === null ? null : r[r.length - 1]))),
    }),
  };
}

/** Every leaf's model texts encoded in one round: the leaves' queries go through as one `bool`. */
async function resolveLeafInference(root: CompoundNode, inference: SparseInference | null): Promise<CompoundNode> {
  const queries = fusionLeaves(root).map((l) => l.query);
  const all = unionQuery(queries);
  const resolved = await resolveQueryInference(all, inference);
  return resolved === all ? root : withLeafQueries(root, (resolved as BoolQuery).should);
}

/** A document matching any of `queries` (ES's compound query for totals and aggregations). */
function unionQuery(queries: readonly QueryNode[]): BoolQuery {
  return { kind: 'bool', must: [], should: queries, filter: [], mustNot: [], minimumShouldMatch: null, boost: 1, name: null };
}

/** Each leaf's window: the `rank_window_size` of the compound node it belongs to, in `fusionLeaves` order. */
function leafWindows(root: CompoundNode): number[] {
  const out: number[] = [];
  const walk = (n: CompoundNode) => {
    for (const c of n.retrievers) {
      if (c.kind === 'standard') out.push(n.rankWindowSize);
      else walk(c);
    }
  };
  walk(root);
  return out;
}

/** List `list`'s hits over all answering shards, best first (ties by index, write order), cut to `window`. */
function mergeList(
  targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult[] | null>, list: number, window: number, docs: Map<number, DocRef>,
): MergedList {
  const hits: Array<{ key: number; score: number }> = [];
  results.forEach((r, i) => {
    if (r === null) return;
    const t = targets[i];
    const h = r[list].hits;
    for (let o = 0; o < h.length; o += HIT_STRIDE) {
      const key = t.indexPos * INDEX_KEY_STRIDE + h[o + 3];
      hits.push({ key, score: h[o] });
      if (!docs.has(key)) docs.set(key, { target: t, segment: t.snapshot.segments[h[o + 1]].reader, doc: h[o + 2] });
    }
  });
  hits.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.key - b.key));
  const top = hits.slice(0, window);
  return { keys: top.map((x) => x.key), scores: top.map((x) => x.score) };
}

