/**
 * search/aggs — aggregations: planned per index on the coordinator (plan-aggs.ts), collected per
 * shard in workers over every matching live doc (before `post_filter`; a `global` over every live
 * doc), reduced and rendered on the
 * coordinator (aggregate.ts). Partials are plain data. One file per aggregation family.
 */
export * from './exec-aggs.js';
export { planAggregations, fielddataError, fielddataNotSupportedError } from './plan-aggs.js';
export { collectAggs, reduceAggs, renderAggs, stampTopHits } from './aggregate.js';
export type { TopHitsFetch, ReducedTopHit } from './top-hits.js';
export { BucketBudget } from './buckets.js';
export { matchingDocs } from './doc-lists.js';
export { hasPipelines, reducePipelines } from './pipelines/reduce-pipelines.js';
