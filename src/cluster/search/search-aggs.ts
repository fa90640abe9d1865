/**
 * Aggregations in the search flow on the coordinator: plan them once per index (field types come
 * from that index's mapping, filter queries are planned like the main query), hand each shard its
 * index's plan with the query to aggregate over (without `post_filter`), then reduce the shards'
 * partials and render the `aggregations` object. Shards that failed contribute nothing, as in ES.
 */
import { EsError, ReducePhaseError } from '../../errors/index.js';
import { DEFAULT_MAX_REGEX_LENGTH } from '../../common/pattern/index.js';
import type { AggNode } from '../../dsl/aggs/agg-nodes.js';
import {
  BucketBudget, hasPipelines, planAggregations, reduceAggs, reducePipelines, renderAggs, stampTopHits, type AggPartial, type Exec, type ExecAgg, type PlanContext, type ShardSearchResult, type StatsSource,
} from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import { stringifyWithText } from '../../common/json-text.js';
import type { ShardTarget } from './search-phase.js';
import { topHitsFetch } from './top-hits-fetch.js';
import type { NamedQueryPlans } from './named-queries.js';

export interface SearchAggPlans {
  /** The first index's plan: its field types decide how keys render (ES takes the first shard's result). */
  readonly render: readonly ExecAgg[];
  forShard(index: IndexService): { readonly aggs: readonly ExecAgg[]; readonly query: Exec };
  /** Whether some aggregation is a `top_hits` (its hits are fetched while rendering). */
  readonly topHits: boolean;
  /** The request's aggregations when some are pipelines (run on the rendered result), else null. */
  readonly pipelines: readonly AggNode[] | null;
}

export function planSearchAggs(
  indices: readonly IndexService[], aggs: readonly AggNode[], queries: ReadonlyMap<IndexService, Exec>, stats: StatsSource, now: number,
  fail: (index: IndexService, e: EsError) => Error,
): SearchAggPlans {
  const plans = new Map<IndexService, ExecAgg[]>();
  for (const index of indices) {
    try {
      plans.set(index, planAggregations({
        mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, maxRegexLength: index.resolvedSettings.maxRegexLength, stats, now,
        maxInnerResultWindow: index.resolvedSettings.maxInnerResultWindow, topMetricsMaxSize: index.resolvedSettings.topMetricsMaxSize,
        index: { name: index.name, uuid: index.uuid },
      }, aggs));
    } catch (e) {
      if (e instanceof EsError) throw fail(index, e);
      throw e;
    }
  }
  return {
    render: indices.length > 0 ? plans.get(indices[0])! : planAggregations(emptyContext(stats, now), aggs),
    forShard: (index) => ({ aggs: plans.get(index)!, query: queries.get(index)! }),
    topHits: hasTopHits(aggs),
    pipelines: hasPipelines(aggs) ? aggs : null,
  };
}

/** No index matched (e.g. a wildcard): ES still renders each aggregation, empty, every field unmapped. */
function emptyContext(stats: StatsSource, now: number): PlanContext {
  return { mapping: { fields: new Map() } as unknown as PlanContext['mapping'], defaultFields: [], maxRegexLength: DEFAULT_MAX_REGEX_LENGTH, stats, now, index: { name: '', uuid: '' } };
}

/**
 * `results[i]` is the answer of `targets[i]` (null: failed); `top_hits` fetch their hits from those
 * targets, matched against the search's named clauses (`named`; null: none) as its hits are.
 */
export function renderSearchAggs(
  plans: SearchAggPlans, targets: readonly ShardTarget[], results: ReadonlyArray<ShardSearchResult | null>, named: NamedQueryPlans | null = null,
): string {
  const shards: AggPartial[][] = [];
  results.forEach((r, i) => {
    if (!r?.aggs) return;
    if (plans.topHits) stampTopHits(plans.render, r.aggs, i, targets[i].indexPos);
    shards.push(r.aggs);
  });
  const budget = plans.topHits ? new BucketBudget(undefined, topHitsFetch(targets, named)) : new BucketBudget();
  const out = renderAggs(plans.render, reduceAggs(plans.render, shards), budget);
  if (plans.pipelines !== null) {
    try {
      reducePipelines(plans.render, plans.pipelines, out);
    } catch (e) {
      if (e instanceof EsError) throw new ReducePhaseError(e);
      throw e;
    }
  }
  // top_hits' hits are spliced in as the JSON text the fetch renders.
  return plans.topHits ? stringifyWithText(out) : JSON.stringify(out);
}

function hasTopHits(aggs: readonly AggNode[]): boolean {
  return aggs.some((a) => a.kind === 'top_hits' || hasTopHits(a.subs));
}
