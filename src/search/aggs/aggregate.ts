/**
 * Aggregations in three steps (ES Aggregator → InternalAggregation.reduce → toXContent): each
 * shard collects partials over its matching docs; the coordinator reduces the shards' partials
 * and renders the `aggregations` object. One file per aggregation family holds its three steps;
 * this file dispatches and holds what bucket aggregations share.
 */
import type { Segment } from '../../index/index.js';
import { DEFAULT_MAX_BUCKETS, TooManyBucketsError } from '../../errors/aggregations.js';
import type { AggPartial, BucketSubs, ExecAgg, FixedBucketsPartial, KeyedBucketsPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { collectTerms, renderTerms } from './terms.js';
import { collectMetric, metricSortValue, reduceMetric, renderMetric } from './metrics.js';
import { collectRange, renderRange } from './range.js';
import { collectHistogram, renderHistogram } from './histogram.js';
import { collectFilter, collectFilters, renderFilter, renderFilters } from './filter.js';

export function collectAggs(aggs: readonly ExecAgg[], segments: readonly Segment[], docs: DocLists): AggPartial[] {
  return aggs.map((agg) => {
    switch (agg.t) {
      case 'terms': return collectTerms(agg, segments, docs);
      case 'metric': return collectMetric(agg, segments, docs);
      case 'range': return collectRange(agg, segments, docs);
      case 'histogram': return collectHistogram(agg, segments, docs);
      case 'filter': return collectFilter(agg, segments, docs);
      case 'filters': return collectFilters(agg, segments, docs);
    }
  });
}

/**
 * A reduced aggregation: bucket aggregations keep their shards' partials per bucket, and reduce
 * the sub-aggregations only of the buckets they render.
 */
export type Reduced =
  | { readonly t: 'keyed'; readonly buckets: Map<string | number, MergedBucket> }
  | { readonly t: 'fixed'; readonly buckets: MergedBucket[] }
  | { readonly t: 'metric'; readonly value: AggPartial & { t: 'metric' } };

export interface MergedBucket {
  count: number;
  /** Each shard's sub-aggregation partials for this bucket. */
  readonly subs: AggPartial[][];
}

/** `shards[i]`: shard i's partials, one per aggregation of `aggs`. */
export function reduceAggs(aggs: readonly ExecAgg[], shards: ReadonlyArray<readonly AggPartial[]>): Reduced[] {
  return aggs.map((agg, a) => {
    const parts = shards.map((s) => s[a]);
    if (agg.t === 'metric') return { t: 'metric', value: reduceMetric(parts as Array<AggPartial & { t: 'metric' }>) };
    if (agg.t === 'terms' || agg.t === 'histogram') return { t: 'keyed', buckets: mergeKeyed(parts as KeyedBucketsPartial[]) };
    return { t: 'fixed', buckets: mergeFixed(parts as FixedBucketsPartial[]) };
  });
}

function mergeKeyed(parts: readonly KeyedBucketsPartial[]): Map<string | number, MergedBucket> {
  const out = new Map<string | number, MergedBucket>();
  for (const p of parts) {
    for (let i = 0; i < p.keys.length; i++) {
      let b = out.get(p.keys[i]);
      if (!b) out.set(p.keys[i], (b = { count: 0, subs: [] }));
      b.count += p.counts[i];
      if (p.subs.length > 0) b.subs.push(p.subs[i]);
    }
  }
  return out;
}

function mergeFixed(parts: readonly FixedBucketsPartial[]): MergedBucket[] {
  const out: MergedBucket[] = [];
  for (const p of parts) {
    for (let i = 0; i < p.counts.length; i++) {
      if (!out[i]) out[i] = { count: 0, subs: [] };
      out[i].count += p.counts[i];
      if (p.subs.length > 0) out[i].subs.push(p.subs[i]);
    }
  }
  return out;
}

/**
 * The value a bucket sorts by under a sub-aggregation order path (see ExecBucketOrder): reduces
 * just the aggregations on the path, for this bucket.
 */
export function bucketOrderValue(subAggs: readonly ExecAgg[], bucket: MergedBucket, path: readonly number[]): number {
  let aggs = subAggs;
  let current = bucket;
  for (let i = 0; i < path.length; i++) {
    const at = path[i];
    const agg = aggs[at];
    const shards = current.subs.length > 0 ? current.subs : [collectAggs(aggs, [], [])];
    const reduced = reduceAggs([agg], shards.map((s) => [s[at]]))[0];
    if (reduced.t === 'metric') return metricSortValue(agg as Extract<ExecAgg, { t: 'metric' }>, reduced.value);
    const inner = reduced.t === 'fixed' && reduced.buckets[0] ? reduced.buckets[0] : { count: 0, subs: [] };
    if (i === path.length - 1) return inner.count;
    aggs = agg.subs;
    current = inner;
  }
  return current.count;
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

/** Counts the buckets of a response against `search.max_buckets` (ES MultiBucketConsumer). */
export class BucketBudget {
  private used = 0;
  constructor(readonly limit = DEFAULT_MAX_BUCKETS) {}
  /** Takes n buckets; fails as ES does once the response would hold more than the limit. */
  take(n: number): void {
    this.used += n;
    if (this.used > this.limit) throw new TooManyBucketsError(this.used, this.limit);
  }
}

export function renderAggs(aggs: readonly ExecAgg[], reduced: readonly Reduced[], budget: BucketBudget): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  aggs.forEach((agg, a) => {
    const r = reduced[a];
    switch (agg.t) {
      case 'metric': out[agg.name] = renderMetric(agg, (r as Extract<Reduced, { t: 'metric' }>).value); break;
      case 'terms': out[agg.name] = renderTerms(agg, keyedOf(r), budget); break;
      case 'histogram': out[agg.name] = renderHistogram(agg, keyedOf(r), budget); break;
      case 'range': out[agg.name] = renderRange(agg, fixedOf(r), budget); break;
      case 'filter': out[agg.name] = renderFilter(agg, fixedOf(r)[0], budget); break;
      case 'filters': out[agg.name] = renderFilters(agg, fixedOf(r), budget); break;
    }
    // ES prints `meta` first (InternalAggregation.toXContent).
    if (agg.meta !== undefined) out[agg.name] = { meta: agg.meta, ...(out[agg.name] as object) };
  });
  return out;
}

function keyedOf(r: Reduced): Map<string | number, MergedBucket> {
  return (r as Extract<Reduced, { t: 'keyed' }>).buckets;
}

function fixedOf(r: Reduced): MergedBucket[] {
  return (r as Extract<Reduced, { t: 'fixed' }>).buckets;
}

/** A bucket's `doc_count` and its sub-aggregations, reduced and rendered (ES InternalBucket). */
export function renderBucketBody(subAggs: readonly ExecAgg[], bucket: MergedBucket | undefined, budget: BucketBudget): Record<string, unknown> {
  const body: Record<string, unknown> = { doc_count: bucket?.count ?? 0 };
  if (subAggs.length === 0) return body;
  // A bucket no shard saw (an empty histogram gap, min_doc_count 0) still renders its empty sub-aggregations.
  const shards = bucket && bucket.subs.length > 0 ? bucket.subs : [collectAggs(subAggs, [], [])];
  return Object.assign(body, renderAggs(subAggs, reduceAggs(subAggs, shards), budget));
}

/** Sub-aggregations of each bucket over its own docs; [] when there are none (nothing to send). */
export function collectBucketSubs(subAggs: readonly ExecAgg[], segments: readonly Segment[], buckets: ReadonlyArray<{ toDocLists(): DocLists }>): BucketSubs {
  if (subAggs.length === 0) return [];
  return buckets.map((b) => collectAggs(subAggs, segments, b.toDocLists()));
}
