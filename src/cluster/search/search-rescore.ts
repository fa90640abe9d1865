/**
 * A plain search's `rescore` on the coordinator: ES's shard-level checks (a field sort, a window past
 * `index.max_rescore_window`), the rescore queries' model texts encoded with the query's, their plans
 * (the search's statistics, so rescore scores do not depend on sharding either), and, after the
 * shards answered, the rescorers applied to the merged global top hits (search/rescore.ts says why
 * that equals one shard holding every document).
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { QueryNode, RescoreNode, SearchRequest } from '../../dsl/index.js';
import { rescoreOrder, type ExecRescore, type SegmentStatsSource, type ShardSearchResult } from '../../search/index.js';
import type { SparseInference } from '../../ml/index.js';
import type { IndexService } from '../indices/index-service.js';
import { resolveQueriesInference } from './query-inference.js';
import { isScoreOnly, shardFailure, type SearchPhase, type ShardTarget } from './search-phase.js';

export type RescorePlans = ReadonlyMap<IndexService, readonly ExecRescore[]>;

/** The request with its query's and rescore queries' model texts replaced by token weights (one inference round). */
export function withRescoreInference(req: SearchRequest, inference: SparseInference | null): SearchRequest | Promise<SearchRequest> {
  const rescore = req.rescore!;
  const queries: Array<QueryNode | null> = [req.query, ...rescore.map((r) => r.query)];
  const resolved = resolveQueriesInference(queries, inference);
  const rebuild = (qs: readonly (QueryNode | null)[]): SearchRequest => (qs === queries ? req : {
    ...req, query: qs[0], rescore: rescore.map((r, i) => ({ ...r, query: qs[i + 1]! })),
  });
  return resolved instanceof Promise ? resolved.then(rebuild) : rebuild(resolved);
}

/** DefaultSearchContext.preProcess's rescore checks, per index (a failure of every shard of it), then each index's plans. */
export function planRescore(
  phase: SearchPhase, indices: readonly IndexService[], req: SearchRequest, rescore: readonly RescoreNode[], stats: SegmentStatsSource, now: number,
): RescorePlans {
  for (const index of indices) {
    if (req.sort !== null && !isScoreOnly(req.sort)) {
      throw shardFailure([index], new IllegalArgumentError('Cannot use [sort] option in conjunction with [rescore].'));
    }
    const max = index.resolvedSettings.maxRescoreWindow;
    for (const r of rescore) {
      if (r.windowSize > max) {
        throw shardFailure([index], new IllegalArgumentError(
          `Rescore window [${r.windowSize}] is too large. It must be less than [${max}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.`,
        ));
      }
    }
  }
  const plans = rescore.map((r) => phase.plan(indices, r.query, stats, now));
  const out = new Map<IndexService, ExecRescore[]>();
  for (const index of indices) {
    out.set(index, rescore.map((r, i) => ({
      query: plans[i].get(index)!, windowSize: r.windowSize, queryWeight: r.queryWeight, rescoreQueryWeight: r.rescoreQueryWeight, scoreMode: r.scoreMode,
    })));
  }
  return out;
}

/** A fetched hit of a rescored search: which rescorers' windows it was in (its explanation says so). */
export interface RescoredHit {
  readonly rescored?: Uint8Array;
}

interface MergedHitLike {
  readonly target: ShardTarget;
  readonly indexOrder: number;
  /** Position in its shard's list. */
  readonly at: number;
  readonly hit: { readonly score: number };
}

/**
 * The merged hits (best first by the first-pass score) rescored: the global top `n`, each with its
 * shard's rescore scores, combined and ordered again (ties by index, then write order, as merged).
 */
export function rescoreMerged<H extends MergedHitLike>(
  merged: readonly H[], n: number, rescore: readonly RescoreNode[], targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult | null>,
): H[] {
  const top = merged.length > n ? merged.slice(0, n) : merged;
  const byTarget = new Map<ShardTarget, Float32Array | undefined>();
  targets.forEach((t, i) => byTarget.set(t, results[i]?.rescoreScores));
  const width = rescore.length;
  const scores = new Float64Array(top.length * width).fill(NaN);
  top.forEach((h, i) => {
    const own = byTarget.get(h.target);
    if (own !== undefined) scores.set(own.subarray(h.at * width, (h.at + 1) * width), i * width);
  });
  const { order, scores: rescored, inWindow } = rescoreOrder(
    rescore, top.map((h) => h.hit.score), scores, (a, b) => top[a].target.indexPos - top[b].target.indexPos || top[a].indexOrder - top[b].indexOrder,
  );
  return Array.from(order, (i) => ({ ...top[i], hit: { ...top[i].hit, score: rescored[i], rescored: inWindow.subarray(i * width, (i + 1) * width) } }));
}
