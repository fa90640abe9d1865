/**
 * The rendered aggregations as pipelines read them (ES InternalAggregation.getProperty and
 * InternalMultiBucketAggregation.InternalBucket): pipelines run after the final reduce, on the
 * response's own objects, so they see exactly the buckets the response shows (after `size`,
 * `min_doc_count`, empty histogram buckets…). What the rendered JSON does not say — an
 * aggregation's type, a key's Java form — comes from the aggregation's definition.
 */
import { javaDouble } from '../../../common/java-double.js';
import type { PipelineAgg } from '../../../dsl/aggs/agg-nodes.js';
import { bucketCardinality, type BucketCardinality } from '../../../dsl/aggs/pipeline-validation.js';
import type { ExecAgg } from '../exec-aggs.js';

/** An aggregation's definition: planned (collected by shards) or a pipeline. */
export type AggDef = ExecAgg | PipelineAgg;

/** The aggregations of one level (the top, or a bucket's sub-aggregations) and their rendered bodies. */
export interface Level {
  readonly defs: readonly AggDef[];
  /** The top-level `aggregations` object, or a bucket's object: each aggregation under its name. */
  readonly body: Record<string, unknown>;
}

/** One bucket of a multi-bucket aggregation, as rendered. */
export interface BucketView {
  readonly body: Record<string, unknown>;
  /** InternalBucket.getKeyAsString: what max_bucket's `keys` and `agg['key']` paths name a bucket by. */
  readonly keyString: string;
  /** Where a keyed response holds the bucket (its property name); null in a list. */
  readonly slot: string | null;
}

export function cardinality(def: AggDef): BucketCardinality {
  return bucketCardinality(def.kind);
}

/** The buckets of a multi-bucket aggregation's rendered body, in response order. */
export function bucketsOf(def: AggDef, body: Record<string, unknown>): BucketView[] {
  const buckets = body.buckets;
  if (Array.isArray(buckets)) {
    return buckets.map((b: Record<string, unknown>, i) => ({ body: b, keyString: keyString(def, b, def.kind === 'filters' ? filterKey(def, i) : String(i)), slot: null }));
  }
  if (buckets !== null && typeof buckets === 'object') {
    return Object.entries(buckets as Record<string, Record<string, unknown>>).map(([slot, b]) => ({ body: b, keyString: keyString(def, b, slot), slot }));
  }
  return [];
}

/** Puts buckets back (bucket_sort), keyed responses as an object again. */
export function setBuckets(body: Record<string, unknown>, buckets: readonly BucketView[]): void {
  if (Array.isArray(body.buckets)) body.buckets = buckets.map((b) => b.body);
  else body.buckets = Object.fromEntries(buckets.map((b) => [b.slot!, b.body]));
}

function filterKey(def: AggDef, i: number): string {
  if (def.kind !== 'filters') return String(i);
  return i < def.keys.length ? def.keys[i] : def.otherBucketKey ?? String(i);
}

function keyString(def: AggDef, bucket: Record<string, unknown>, fallback: string): string {
  if (typeof bucket.key_as_string === 'string') return bucket.key_as_string;
  const key = bucket.key;
  if (typeof key === 'string') return key;
  if (typeof key === 'number') {
    if ((def.kind === 'terms' || def.kind === 'rare_terms') && def.source.type !== 'double') return String(key);
    return javaDouble(key);
  }
  // A composite key: Java's Map.toString.
  if (key !== null && typeof key === 'object') return `{${Object.entries(key).map(([k, v]) => `${k}=${String(v)}`).join(', ')}}`;
  return fallback;
}

/** What `_key` of a bucket is in Java: a number, a String, or (date_histogram) a ZonedDateTime. */
export function bucketKey(def: AggDef, bucket: BucketView): number | string | { className: string } {
  if (def.kind === 'date_histogram') return { className: 'ZonedDateTime' };
  if (def.kind === 'composite') return { className: 'LinkedHashMap' };
  const key = bucket.body.key;
  if (typeof key === 'number') return key;
  return typeof key === 'string' ? key : bucket.keyString;
}

export function docCount(bucket: Record<string, unknown>): number {
  return typeof bucket.doc_count === 'number' ? bucket.doc_count : 0;
}

/** The simple name of the Java class ES would hold for this result (named in path errors). */
export function className(def: AggDef): string {
  switch (def.kind) {
    case 'terms': return def.source.type === 'keyword' ? 'StringTerms' : def.source.type === 'double' ? 'DoubleTerms' : def.source.type === 'unmapped' ? 'UnmappedTerms' : 'LongTerms';
    case 'multi_terms': return 'InternalMultiTerms';
    case 'rare_terms': return def.source.type === 'keyword' ? 'StringRareTerms' : def.source.type === 'double' ? 'DoubleRareTerms' : def.source.type === 'unmapped' ? 'UnmappedRareTerms' : 'LongRareTerms';
    case 'histogram': return 'InternalHistogram';
    case 'date_histogram': return 'InternalDateHistogram';
    case 'range': return def.type === 'date_range' ? 'InternalDateRange' : 'InternalRange';
    case 'filters': return 'InternalFilters';
    case 'filter': return 'InternalFilter';
    case 'global': return 'InternalGlobal';
    case 'composite': return 'InternalComposite';
    case 'top_hits': return 'InternalTopHits';
    case 'top_metrics': return 'InternalTopMetrics';
    case 'string_stats': return 'InternalStringStats';
    case 'percentiles': return def.type === 'percentiles' ? 'InternalTDigestPercentiles' : def.type === 'percentile_ranks' ? 'InternalTDigestPercentileRanks' : 'InternalMedianAbsoluteDeviation';
    case 'metric': return METRIC_CLASS[def.type];
    case 'pipeline': return PIPELINE_CLASS[def.type];
  }
}

const METRIC_CLASS: Readonly<Record<string, string>> = {
  min: 'Min', max: 'Max', avg: 'InternalAvg', sum: 'Sum', value_count: 'InternalValueCount', cardinality: 'InternalCardinality',
  stats: 'InternalStats', extended_stats: 'InternalExtendedStats', weighted_avg: 'InternalWeightedAvg',
};

const PIPELINE_CLASS: Readonly<Record<string, string>> = {
  avg_bucket: 'InternalSimpleValue', sum_bucket: 'InternalSimpleValue', cumulative_sum: 'InternalSimpleValue', serial_diff: 'InternalSimpleValue',
  min_bucket: 'InternalBucketMetricValue', max_bucket: 'InternalBucketMetricValue', derivative: 'InternalDerivative',
  stats_bucket: 'InternalStatsBucket', extended_stats_bucket: 'InternalExtendedStatsBucket', percentiles_bucket: 'InternalPercentilesBucket',
  bucket_sort: 'InternalSimpleValue',
};

/** ES prints a pipeline's `meta` first, as any aggregation's (InternalAggregation.toXContent). */
export function withMeta(p: PipelineAgg, out: Record<string, unknown>): Record<string, unknown> {
  return p.meta === undefined ? out : { meta: p.meta, ...out };
}
