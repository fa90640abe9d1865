/**
 * The kNN pre-phase (ES's DFS phase for kNN: DfsPhase.executeKnnVectorQuery, then
 * SearchPhaseController.mergeKnnResults and DfsQueryPhase's KnnScoreDocQueryBuilder), before the
 * query phase, like query-inference.ts:
 *
 * 1. Every kNN search of the request — each top-level `knn` section (or a `knn` retriever), each
 *    `knn` query in the query tree or in a hybrid search's lists — is planned per index as an exact
 *    candidates search (`knn_exact`: the field's checks fail here, as ES's DFS phase fails).
 * 2. Every shard returns its top k by (score, index-wide write order), all searches of all shards
 *    submitted in one tick (search/knn-candidates.ts).
 * 3. The coordinator merges them into the global top k per search: ranks over all shards, never per
 *    shard, so the answer does not depend on the number of shards. (ES takes `num_candidates` per
 *    shard from an approximate HNSW search; exact search makes it moot.)
 * 4. Each kNN node is replaced by its matches (each index's write orders and scores); the query
 *    phase plans it as `knn_score_doc`. Top-level sections become `should` clauses beside `query`
 *    (ES: a bool should of the query and each section), so a hit scores the sum.
 *
 * Documents are named by index-wide write order, not by segment and doc, so the query phase may
 * capture newer snapshots (a refresh or merge in between) and still find exactly these documents;
 * one deleted meanwhile is simply gone.
 */
import { IllegalArgumentError, TooManyClausesError } from '../../errors/index.js';
import { NUM_CANDIDATES_LIMIT, forEachClause, mapClauses, someClause, type BoolQuery, type KnnIndexMatches, type KnnQuery, type QueryNode } from '../../dsl/index.js';
import { HIT_STRIDE, type Exec, type ShardSearchResult } from '../../search/index.js';
import { awaitSearchActive, type IndexService } from '../indices/index-service.js';
import { DEFAULT_MAX_CLAUSE_COUNT, shardFailure, type SearchOptions, type SearchPhase, type ShardTarget } from './search-phase.js';

const isUnresolvedKnn = (c: QueryNode): boolean => c.kind === 'knn' && c.matches === null;

/** Whether `query` holds a `knn` query still to resolve (asked on every search: allocates nothing). */
export function hasKnn(query: QueryNode | null): boolean {
  return query !== null && someClause(query, isUnresolvedKnn);
}

/** The search's query with its top-level kNN sections ORed in (ES: bool should of the query and each section). */
export function withKnnSections(query: QueryNode | null, sections: readonly KnnQuery[] | null | undefined): QueryNode | null {
  if (sections === null || sections === undefined || sections.length === 0) return query;
  if (query === null && sections.length === 1) return sections[0];
  const should = query === null ? [...sections] : [query, ...sections];
  const bool: BoolQuery = { kind: 'bool', must: [], should, filter: [], mustNot: [], minimumShouldMatch: null, boost: 1, name: null };
  return bool;
}

/**
 * A knn query's k (KnnVectorQueryBuilder.doToQuery): its own, else the request's size capped by
 * num_candidates; num_candidates (1.5 k, at most 10,000, when not given) bounds it, so no search
 * collects more than 10,000 candidates per shard.
 */
function resolvedK(node: KnnQuery, size: number): number {
  let k = node.k ?? (size < 0 ? 10 : size);
  if (node.k === null && node.numCandidates !== null) k = Math.min(k, node.numCandidates);
  const numCandidates = node.numCandidates ?? Math.round(Math.min(Math.fround(1.5 * k), NUM_CANDIDATES_LIMIT));
  if (numCandidates < k) return -1;
  return k;
}

/** A shard's candidates scan is split over the search threads only past this many docs a part. */
const MIN_DOCS_PER_PART = 16_384;

interface Pending {
  readonly node: KnnQuery;
  readonly k: number;
  plans: ReadonlyMap<IndexService, Exec> | null;
}

/**
 * Every query of `queries` with its kNN searches resolved to their global top k (`sizes[i]` is the
 * default k of knn queries in `queries[i]`). The same array, synchronously, when none has one.
 */
export function resolveKnnQueries<Q extends QueryNode | null>(
  phase: SearchPhase, expression: string | undefined, queries: readonly Q[], sizes: readonly number[], opts: SearchOptions, timeoutMs: number | null,
): readonly Q[] | Promise<readonly Q[]> {
  const pending: Pending[] = [];
  const byNode = new Map<KnnQuery, Pending>();
  queries.forEach((q, i) => {
    if (q === null) return;
    forEachClause(q, (c) => {
      if (c.kind !== 'knn' || c.matches !== null || byNode.has(c)) return;
      const p: Pending = { node: c, k: resolvedK(c, sizes[i]), plans: null };
      byNode.set(c, p);
      pending.push(p);
    });
  });
  if (pending.length === 0) return queries;
  return runPrePhase(phase, expression, pending, opts, timeoutMs).then((matches) => queries.map((q) => (q === null ? q
    : mapClauses(q, (c) => (c.kind === 'knn' && byNode.has(c) ? { ...c, matches: matches.get(byNode.get(c)!)! } : undefined)) as Q)));
}

async function runPrePhase(
  phase: SearchPhase, expression: string | undefined, pending: readonly Pending[], opts: SearchOptions, timeoutMs: number | null,
): Promise<Map<Pending, ReadonlyMap<string, KnnIndexMatches>>> {
  const context = opts.context ?? null;
  const indices = context ? (context.indices ?? [...new Set(context.targets.map((t) => t.index))]) : phase.resolve(expression, opts.resolve);
  if (context === null) {
    const owed = awaitSearchActive(indices);
    if (owed !== null) await owed;
  }
  const targets = context ? context.targets : phase.targets(indices);
  const stats = phase.stats(targets);
  const now = Date.now();
  // Each kNN search is one clause of the query ES runs after its DFS phase: bounded by
  // indices.query.bool.max_clause_count before any shard scans for one.
  const maxClauses = phase.options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT;
  if (pending.length > maxClauses) throw shardFailure(indices, new TooManyClausesError(maxClauses), 'dfs');
  for (const p of pending) {
    // Lucene's KnnFloatVectorQuery refuses k < 1 (a knn query without k in a size-0 search), and
    // k past num_candidates (a knn query with a k of more than 10,000 and no num_candidates).
    // Failures here are ES's DFS phase's (its shards build the kNN query there).
    if (p.k === -1) throw shardFailure(indices, new IllegalArgumentError('[num_candidates] cannot be less than [k]'), 'dfs');
    if (p.k < 1) throw shardFailure(indices, new IllegalArgumentError(`k must be at least 1, got: ${p.k}`), 'dfs');
    p.plans = phase.plan(indices, { ...p.node, matches: 'candidates' }, stats, now, 'dfs');
  }
  const deadline = phase.deadline(timeoutMs);
  // Every search's candidates on every shard, each shard's scan split over the search threads when
  // it is large (one thread would scan it while the others idle): results[shard][search][part].
  const { results } = await phase.queryPhase(targets, (pool, segments, t) => {
    const docs = t.snapshot.segments.reduce((n, s) => n + s.reader.maxDoc, 0);
    const parts = Math.max(1, Math.min(pool.threads, Math.floor(docs / MIN_DOCS_PER_PART)));
    return Promise.all(pending.map((p) => Promise.all(Array.from({ length: parts }, (_, part) => pool.search(segments, {
      query: p.plans!.get(t.index)!, k: p.k, knnCandidates: { part, parts }, trackTotalHitsUpTo: -1, minScore: null,
      sort: null, trackScores: false, searchAfter: null, terminateAfter: 0, deadline,
    })))));
  }, { allowPartial: opts.allowPartialSearchResults ?? true, timedOut: (r) => r.some((parts) => parts.some((x) => x.timedOut)) });
  const out = new Map<Pending, ReadonlyMap<string, KnnIndexMatches>>();
  pending.forEach((p, i) => out.set(p, globalTopK(targets, results, i, p.k)));
  return out;
}

/** Search `i`'s top k over every answering shard, ties by index then write order, grouped by index uuid (orders ascending). */
function globalTopK(
  targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult[][] | null>, i: number, k: number,
): ReadonlyMap<string, KnnIndexMatches> {
  const all: Array<{ score: number; indexPos: number; order: number; uuid: string }> = [];
  results.forEach((r, s) => {
    if (r === null) return;
    const t = targets[s];
    for (const part of r[i]) {
      const h = part.hits;
      for (let o = 0; o < h.length; o += HIT_STRIDE) all.push({ score: h[o], indexPos: t.indexPos, order: h[o + 3], uuid: t.index.uuid });
    }
  });
  all.sort((a, b) => b.score - a.score || a.indexPos - b.indexPos || a.order - b.order);
  const byIndex = new Map<string, Array<{ order: number; score: number }>>();
  for (const d of all.slice(0, k)) {
    let list = byIndex.get(d.uuid);
    if (list === undefined) byIndex.set(d.uuid, (list = []));
    list.push({ order: d.order, score: d.score });
  }
  const out = new Map<string, KnnIndexMatches>();
  for (const [uuid, list] of byIndex) {
    list.sort((a, b) => a.order - b.order);
    out.set(uuid, { orders: Float64Array.from(list, (d) => d.order), scores: Float32Array.from(list, (d) => d.score) });
  }
  return out;
}
