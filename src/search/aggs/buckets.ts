/**
 * What bucket aggregations share: a bucket merged over the shards, the response's bucket budget,
 * and the way back into the aggregation dispatch for their sub-aggregations (SubAggregations,
 * passed in by aggregate.ts so the bucket aggregations need not import it back).
 */
import type { Segment } from '../../index/index.js';
import { DEFAULT_MAX_BUCKETS, TooManyBucketsError } from '../../errors/index.js';
import type { AggPartial, BucketSubs, ExecAgg, ExecBucketOrder } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import type { TopHitsFetch } from './top-hits.js';

export interface MergedBucket {
  count: number;
  /** Each shard's sub-aggregation partials for this bucket. */
  readonly subs: AggPartial[][];
}

/**
 * What rendering a response's aggregations carries along: the count of its buckets against
 * `search.max_buckets` (ES MultiBucketConsumer), and the fetch of `top_hits`' documents.
 */
export class BucketBudget {
  private used = 0;
  constructor(readonly limit = DEFAULT_MAX_BUCKETS, readonly fetch: TopHitsFetch | null = null) {}
  /** Takes n buckets; fails as ES does once the response would hold more than the limit. */
  take(n: number): void {
    this.used += n;
    if (this.used > this.limit) throw new TooManyBucketsError(this.used, this.limit);
  }
}

/** Java's Double.compare: NaN above everything, -0 below 0. */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return Object.is(a, b) ? 0 : Object.is(a, -0) ? -1 : 1;
}

/** Collecting, rendering and ordering by the sub-aggregations of buckets (aggregate.ts). */
export interface SubAggregations {
  /** Sub-aggregations of each bucket over its own docs; [] when there are none. */
  collect(subAggs: readonly ExecAgg[], segments: readonly Segment[], buckets: ReadonlyArray<{ toDocLists(): DocLists }>): BucketSubs;
  /** A bucket's `doc_count` and its sub-aggregations, reduced and rendered. */
  render(subAggs: readonly ExecAgg[], bucket: MergedBucket | undefined, budget: BucketBudget): Record<string, unknown>;
  /** The value a bucket sorts by under a sub-aggregation order path. */
  orderValue(subAggs: readonly ExecAgg[], bucket: MergedBucket, order: ExecBucketOrder): number;
}
