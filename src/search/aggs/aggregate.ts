/**
 * Aggregations in three steps (ES Aggregator → InternalAggregation.reduce → toXContent): each
 * shard collects partials over its matching docs; the coordinator reduces the shards' partials
 * and renders the `aggregations` object. One file per aggregation family holds its three steps;
 * this file dispatches and holds what bucket aggregations share.
 */
import type { Segment } from '../../index/index.js';
import { BucketBudget, type MergedBucket, type SubAggregations } from './buckets.js';
import type { AggPartial, BucketSubs, ExecAgg, ExecBucketOrder, FixedBucketsPartial, KeyedBucketsPartial, PercentilesPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { collectTerms, renderTerms } from './terms.js';
import { collectMetric, metricSortValue, reduceMetric, renderMetric } from './metrics.js';
import { collectPercentiles, percentilesSortValue, reducePercentiles, renderPercentiles } from './percentiles.js';
import { collectRange, renderRange } from './range.js';
import { collectHistogram, renderHistogram } from './histogram.js';
import { collectDateHistogram, renderDateHistogram } from './date-histogram.js';
import { collectFilter, collectFilters, renderFilter, renderFilters } from './filter.js';

/** The way back into this dispatch for bucket aggregations' sub-aggregations. */
const SUB_AGGS: SubAggregations = {
  collect: (subAggs, segments, buckets) => collectBucketSubs(subAggs, segments, buckets),
  render: (subAggs, bucket, budget) => renderBucketBody(subAggs, bucket, budget),
  orderValue: (subAggs, bucket, order) => bucketOrderValue(subAggs, bucket, order),
};

export function collectAggs(aggs: readonly ExecAgg[], segments: readonly Segment[], docs: DocLists): AggPartial[] {
  return aggs.map((agg) => {
    switch (agg.kind) {
      case 'terms': return collectTerms(agg, segments, docs, SUB_AGGS);
      case 'metric': return collectMetric(agg, segments, docs);
      case 'percentiles': return collectPercentiles(agg, segments, docs);
      case 'range': return collectRange(agg, segments, docs, SUB_AGGS);
      case 'histogram': return collectHistogram(agg, segments, docs, SUB_AGGS);
      case 'date_histogram': return collectDateHistogram(agg, segments, docs, SUB_AGGS);
      case 'filter': return collectFilter(agg, segments, docs, SUB_AGGS);
      case 'filters': return collectFilters(agg, segments, docs, SUB_AGGS);
    }
  });
}

/**
 * A reduced aggregation: bucket aggregations keep their shards' partials per bucket, and reduce
 * the sub-aggregations only of the buckets they render.
 */
export type Reduced =
  | { readonly kind: 'keyed'; readonly buckets: Map<string | number, MergedBucket> }
  | { readonly kind: 'fixed'; readonly buckets: MergedBucket[] }
  | { readonly kind: 'metric'; readonly value: AggPartial & { kind: 'metric' } }
  | { readonly kind: 'percentiles'; readonly value: PercentilesPartial };

/** `shards[i]`: shard i's partials, one per aggregation of `aggs`. */
export function reduceAggs(aggs: readonly ExecAgg[], shards: ReadonlyArray<readonly AggPartial[]>): Reduced[] {
  return aggs.map((agg, a) => {
    const parts = shards.map((s) => s[a]);
    if (agg.kind === 'metric') return { kind: 'metric', value: reduceMetric(parts as Array<AggPartial & { kind: 'metric' }>) };
    if (agg.kind === 'percentiles') return { kind: 'percentiles', value: reducePercentiles(agg, parts as PercentilesPartial[]) };
    if (agg.kind === 'terms' || agg.kind === 'histogram' || agg.kind === 'date_histogram') return { kind: 'keyed', buckets: mergeKeyed(parts as KeyedBucketsPartial[]) };
    return { kind: 'fixed', buckets: mergeFixed(parts as FixedBucketsPartial[]) };
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
function bucketOrderValue(subAggs: readonly ExecAgg[], bucket: MergedBucket, order: ExecBucketOrder): number {
  const path = order.path;
  let aggs = subAggs;
  let current = bucket;
  for (let i = 0; i < path.length; i++) {
    const at = path[i];
    const agg = aggs[at];
    const shards = current.subs.length > 0 ? current.subs : [collectAggs(aggs, [], [])];
    const reduced = reduceAggs([agg], shards.map((s) => [s[at]]))[0];
    if (reduced.kind === 'metric') return metricSortValue(agg as Extract<ExecAgg, { kind: 'metric' }>, reduced.value, order.value ?? null);
    if (reduced.kind === 'percentiles') return percentilesSortValue(agg as Extract<ExecAgg, { kind: 'percentiles' }>, reduced.value, order.percent);
    const inner = reduced.kind === 'fixed' && reduced.buckets[0] ? reduced.buckets[0] : { count: 0, subs: [] };
    if (i === path.length - 1) return inner.count;
    aggs = agg.subs;
    current = inner;
  }
  return current.count;
}

export function renderAggs(aggs: readonly ExecAgg[], reduced: readonly Reduced[], budget: BucketBudget): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  aggs.forEach((agg, a) => {
    const r = reduced[a];
    switch (agg.kind) {
      case 'metric': out[agg.name] = renderMetric(agg, (r as Extract<Reduced, { kind: 'metric' }>).value); break;
      case 'percentiles': out[agg.name] = renderPercentiles(agg, (r as Extract<Reduced, { kind: 'percentiles' }>).value); break;
      case 'terms': out[agg.name] = renderTerms(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'histogram': out[agg.name] = renderHistogram(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'date_histogram': out[agg.name] = renderDateHistogram(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'range': out[agg.name] = renderRange(agg, fixedOf(r), budget, SUB_AGGS); break;
      case 'filter': out[agg.name] = renderFilter(agg, fixedOf(r)[0], budget, SUB_AGGS); break;
      case 'filters': out[agg.name] = renderFilters(agg, fixedOf(r), budget, SUB_AGGS); break;
    }
    // ES prints `meta` first (InternalAggregation.toXContent).
    if (agg.meta !== undefined) out[agg.name] = { meta: agg.meta, ...(out[agg.name] as object) };
  });
  return out;
}

function keyedOf(r: Reduced): Map<string | number, MergedBucket> {
  return (r as Extract<Reduced, { kind: 'keyed' }>).buckets;
}

function fixedOf(r: Reduced): MergedBucket[] {
  return (r as Extract<Reduced, { kind: 'fixed' }>).buckets;
}

/** A bucket's `doc_count` and its sub-aggregations, reduced and rendered (ES InternalBucket). */
function renderBucketBody(subAggs: readonly ExecAgg[], bucket: MergedBucket | undefined, budget: BucketBudget): Record<string, unknown> {
  const body: Record<string, unknown> = { doc_count: bucket?.count ?? 0 };
  if (subAggs.length === 0) return body;
  // A bucket no shard saw (an empty histogram gap, min_doc_count 0) still renders its empty sub-aggregations.
  const shards = bucket && bucket.subs.length > 0 ? bucket.subs : [collectAggs(subAggs, [], [])];
  return Object.assign(body, renderAggs(subAggs, reduceAggs(subAggs, shards), budget));
}

/** Sub-aggregations of each bucket over its own docs; [] when there are none (nothing to send). */
function collectBucketSubs(subAggs: readonly ExecAgg[], segments: readonly Segment[], buckets: ReadonlyArray<{ toDocLists(): DocLists }>): BucketSubs {
  if (subAggs.length === 0) return [];
  return buckets.map((b) => collectAggs(subAggs, segments, b.toDocLists()));
}
