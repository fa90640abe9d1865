/**
 * What a shard's query becomes around the planned one, per index, as ES's DefaultSearchContext
 * builds it: the `indices_boost` of the index (index-boosts.ts), then the `slice` filter
 * (search-slice.ts). Applied to every plan a search runs (hits, aggregations), so aggregations see
 * the slice and `top_hits` the boosted scores, as in ES.
 */
import { ActionRequestValidationError, EsError } from '../../errors/index.js';
import type { SearchRequest } from '../../dsl/index.js';
import type { Exec, SliceExec } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import { boostedQuery, resolveIndexBoosts } from './index-boosts.js';
import type { ResolveOptions } from '../indices/index-resolver.js';
import { shardFailure, type SearchPhase } from './search-phase.js';
import { SLICE_OUTSIDE_CONTEXT, sliceFilter } from './search-slice.js';

export type PlanAdjuster = (plans: ReadonlyMap<IndexService, Exec>) => ReadonlyMap<IndexService, Exec>;

/**
 * The adjustment of a search's plans, or null when it has neither `indices_boost` nor `slice` (nearly
 * every search: its plans stay the plan cache's own objects, and nothing is allocated). A boost's
 * index expression is resolved by `phase` with the search's indices options `resolveOptions`;
 * `context` is the scroll or point in time searched.
 */
export function shardQueryAdjuster(
  req: SearchRequest, indices: readonly IndexService[], phase: Pick<SearchPhase, 'resolve'>, resolveOptions: ResolveOptions | undefined, context: 'scroll' | 'pit' | null,
): PlanAdjuster | null {
  if (!req.indicesBoost && !req.slice) return null;
  // Resolved before anything is searched: an expression naming nothing fails the request (TransportSearchAction).
  const boosts = req.indicesBoost ? resolveIndexBoosts(req.indicesBoost, (e) => phase.resolve(e, resolveOptions)) : null;
  let slices: Map<IndexService, SliceExec> | null = null;
  if (req.slice) {
    if (context === null) throw new ActionRequestValidationError([SLICE_OUTSIDE_CONTEXT]);
    slices = new Map();
    for (const index of indices) {
      try {
        slices.set(index, sliceFilter(req.slice, index, context));
      } catch (e) {
        if (e instanceof EsError) throw shardFailure([index], e);
        throw e;
      }
    }
  }
  return (plans) => {
    const out = new Map<IndexService, Exec>();
    for (const [index, exec] of plans) {
      let shardQuery = boosts === null ? exec : boostedQuery(exec, boosts.get(index) ?? 1);
      const slice = slices?.get(index);
      if (slice !== undefined) shardQuery = { kind: 'bool', must: [shardQuery], should: [], filter: [slice], mustNot: [], minimumShouldMatch: 0 };
      out.set(index, shardQuery);
    }
    return out;
  };
}
