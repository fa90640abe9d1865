/**
 * Aggregations in three steps (ES Aggregator → InternalAggregation.reduce → toXContent): each
 * shard collects partials over its matching docs; the coordinator reduces the shards' partials
 * and renders the `aggregations` object. One file per aggregation family holds its three steps;
 * this file dispatches and holds what bucket aggregations share.
 */
import type { Segment } from '../../index/index.js';
import { BucketBudget, type MergedBucket, type SubAggregations } from './buckets.js';
import type { AggPartial, BucketSubs, CompositePartial, ExecAgg, ExecBucketOrder, FixedBucketsPartial, KeyedBucketsPartial, PercentilesPartial, StringStatsPartial, TopHitsPartial, TopMetricsPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { collectTerms, renderTerms } from './terms.js';
import { collectMultiTerms, renderMultiTerms } from './multi-terms.js';
import { renderRareTerms } from './rare-terms.js';
import { collectMetric, metricSortValue, reduceMetric, renderMetric } from './metrics.js';
import { collectWeightedAvg } from './weighted-avg.js';
import { collectStringStats, reduceStringStats, renderStringStats } from './string-stats.js';
import { collectPercentiles, percentilesSortValue, reducePercentiles, renderPercentiles } from './percentiles.js';
import { collectRange, renderRange } from './range.js';
import { collectHistogram, renderHistogram } from './histogram.js';
import { collectDateHistogram, renderDateHistogram } from './date-histogram.js';
import { collectFilter, collectFilters, collectGlobal, renderFilter, renderFilters } from './filter.js';
import { collectComposite, reduceComposite, renderComposite, type CompositeBucket } from './composite.js';
import { collectTopHits, reduceTopHits, renderTopHits, type DocScores, type ReducedTopHits } from './top-hits.js';
import { collectTopMetrics, reduceTopMetrics, renderTopMetrics, topMetricsSortValue, type ReducedTopMetric } from './top-metrics.js';

/** The way back into this dispatch for bucket aggregations' sub-aggregations; `scores` are the shard's (top_hits reads them). */
function subAggregations(scores: DocScores): SubAggregations {
  return {
    collect: (subAggs, segments, buckets) => collectBucketSubs(subAggs, segments, buckets, scores),
    render: (subAggs, bucket, budget) => renderBucketBody(subAggs, bucket, budget),
    orderValue: (subAggs, bucket, order) => bucketOrderValue(subAggs, bucket, order),
  };
}
const SUB_AGGS: SubAggregations = subAggregations(null);

/**
 * Each aggregation's partial over `docs`; `scores` holds the query's score of every matching doc
 * when some `top_hits` ranks or shows them (aggsNeedScores), else null. `everyDoc` lists every
 * live doc of the shard, for `global` aggregations (top level only, so only the top passes it).
 */
export function collectAggs(
  aggs: readonly ExecAgg[], segments: readonly Segment[], docs: DocLists, scores: DocScores = null, everyDoc: (() => DocLists) | null = null,
): AggPartial[] {
  const sub = scores === null ? SUB_AGGS : subAggregations(scores);
  return aggs.map((agg) => {
    switch (agg.kind) {
      case 'terms': return collectTerms(agg, segments, docs, sub);
      case 'multi_terms': return collectMultiTerms(agg, segments, docs, sub);
      case 'rare_terms': return collectTerms({ source: agg.source, subs: agg.subs, minDocCount: 1 }, segments, docs, sub);
      case 'metric': return agg.type === 'weighted_avg' ? collectWeightedAvg(agg, segments, docs) : collectMetric(agg, segments, docs);
      case 'percentiles': return collectPercentiles(agg, segments, docs);
      case 'string_stats': return collectStringStats(agg, segments, docs);
      case 'range': return collectRange(agg, segments, docs, sub);
      case 'histogram': return collectHistogram(agg, segments, docs, sub);
      case 'date_histogram': return collectDateHistogram(agg, segments, docs, sub);
      case 'filter': return collectFilter(agg, segments, docs, sub);
      case 'filters': return collectFilters(agg, segments, docs, sub);
      case 'global': return collectGlobalAgg(agg, segments, everyDoc);
      case 'top_hits': return collectTopHits(agg, segments, docs, scores);
      case 'top_metrics': return collectTopMetrics(agg, segments, docs, scores);
      case 'composite': return collectComposite(agg, segments, docs, sub);
    }
  });
}

/**
 * GlobalAggregator runs a match_all of its own over the shard: its docs are every live one, each
 * scored 1 (match_all's constant score), which a `top_hits` below it shows.
 */
function collectGlobalAgg(agg: Extract<ExecAgg, { kind: 'global' }>, segments: readonly Segment[], everyDoc: (() => DocLists) | null): AggPartial {
  if (everyDoc === null) throw new Error(`global aggregation [${agg.name}] collected below the top level`);
  const all = everyDoc();
  const scores: DocScores = aggsNeedScores(agg.subs) ? { docs: all, scores: all.map((l) => new Float64Array(l.length).fill(1)) } : null;
  return collectGlobal(agg, segments, all, scores === null ? SUB_AGGS : subAggregations(scores));
}

/** Whether some aggregation of the tree needs the query's scores (a `top_hits` by score or tracking them, a `top_metrics` by score). */
export function aggsNeedScores(aggs: readonly ExecAgg[]): boolean {
  return aggs.some((a) => (a.kind === 'top_hits' ? a.tracksScores : a.kind === 'top_metrics' ? a.sort.kind === 'score' : aggsNeedScores(a.subs)));
}

/**
 * Marks every `top_hits` partial of one shard's result with the shard (its position among the
 * request's targets) and its index's position, which the reduce breaks ties by and the fetch reads.
 */
export function stampTopHits(aggs: readonly ExecAgg[], partials: readonly AggPartial[], target: number, indexPos: number): void {
  for (let a = 0; a < aggs.length; a++) {
    const p = partials[a];
    if (p.kind === 'top_hits') {
      p.target = target;
      p.indexPos = indexPos;
    } else if ((p.kind === 'keyed_buckets' || p.kind === 'fixed_buckets' || p.kind === 'composite') && aggs[a].subs.length > 0) {
      for (const bucket of p.subs) stampTopHits(aggs[a].subs, bucket, target, indexPos);
    }
  }
}

/**
 * A reduced aggregation: bucket aggregations keep their shards' partials per bucket, and reduce
 * the sub-aggregations only of the buckets they render.
 */
export type Reduced =
  | { readonly kind: 'keyed'; readonly buckets: Map<string | number, MergedBucket> }
  | { readonly kind: 'fixed'; readonly buckets: MergedBucket[] }
  | { readonly kind: 'metric'; readonly value: AggPartial & { kind: 'metric' } }
  | { readonly kind: 'percentiles'; readonly value: PercentilesPartial }
  | { readonly kind: 'top_hits'; readonly value: ReducedTopHits }
  | { readonly kind: 'top_metrics'; readonly value: readonly ReducedTopMetric[] }
  | { readonly kind: 'string_stats'; readonly value: StringStatsPartial }
  | { readonly kind: 'composite'; readonly buckets: CompositeBucket[] };

/** `shards[i]`: shard i's partials, one per aggregation of `aggs`. */
export function reduceAggs(aggs: readonly ExecAgg[], shards: ReadonlyArray<readonly AggPartial[]>): Reduced[] {
  return aggs.map((agg, a) => {
    const parts = shards.map((s) => s[a]);
    if (agg.kind === 'metric') return { kind: 'metric', value: reduceMetric(parts as Array<AggPartial & { kind: 'metric' }>) };
    if (agg.kind === 'percentiles') return { kind: 'percentiles', value: reducePercentiles(agg, parts as PercentilesPartial[]) };
    if (agg.kind === 'top_hits') return { kind: 'top_hits', value: reduceTopHits(agg, parts as TopHitsPartial[]) };
    if (agg.kind === 'top_metrics') return { kind: 'top_metrics', value: reduceTopMetrics(agg, parts as TopMetricsPartial[]) };
    if (agg.kind === 'string_stats') return { kind: 'string_stats', value: reduceStringStats(parts as StringStatsPartial[]) };
    if (agg.kind === 'composite') return { kind: 'composite', buckets: reduceComposite(agg, parts as CompositePartial[]) };
    if (agg.kind === 'terms' || agg.kind === 'multi_terms' || agg.kind === 'rare_terms' || agg.kind === 'histogram' || agg.kind === 'date_histogram') return { kind: 'keyed', buckets: mergeKeyed(parts as KeyedBucketsPartial[]) };
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
    if (reduced.kind === 'top_metrics') return topMetricsSortValue(reduced.value, order.metric ?? 0);
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
      case 'multi_terms': out[agg.name] = renderMultiTerms(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'rare_terms': out[agg.name] = renderRareTerms(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'histogram': out[agg.name] = renderHistogram(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'date_histogram': out[agg.name] = renderDateHistogram(agg, keyedOf(r), budget, SUB_AGGS); break;
      case 'range': out[agg.name] = renderRange(agg, fixedOf(r), budget, SUB_AGGS); break;
      case 'filter': case 'global': out[agg.name] = renderFilter(agg, fixedOf(r)[0], budget, SUB_AGGS); break;
      case 'filters': out[agg.name] = renderFilters(agg, fixedOf(r), budget, SUB_AGGS); break;
      case 'top_hits': out[agg.name] = renderTopHits(agg, (r as Extract<Reduced, { kind: 'top_hits' }>).value, budget.fetch); break;
      case 'string_stats': out[agg.name] = renderStringStats(agg, (r as Extract<Reduced, { kind: 'string_stats' }>).value); break;
      case 'top_metrics': out[agg.name] = renderTopMetrics(agg, (r as Extract<Reduced, { kind: 'top_metrics' }>).value); break;
      case 'composite': out[agg.name] = renderComposite(agg, (r as Extract<Reduced, { kind: 'composite' }>).buckets, budget, SUB_AGGS); break;
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
function collectBucketSubs(subAggs: readonly ExecAgg[], segments: readonly Segment[], buckets: ReadonlyArray<{ toDocLists(): DocLists }>, scores: DocScores): BucketSubs {
  if (subAggs.length === 0) return [];
  return buckets.map((b) => collectAggs(subAggs, segments, b.toDocLists(), scores));
}
