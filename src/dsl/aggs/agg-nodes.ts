/**
 * Parsed aggregations (ES AggregationBuilder), one node per named aggregation, with its
 * sub-aggregations. Defaults are filled here, at the edge; field types are resolved later, per
 * index, by the planner (search/aggs/plan-aggs.ts).
 */
import type { QueryNode } from '../query-nodes.js';
import type { SortSpec } from '../sort.js';
import type { SourceFilter } from '../source-filter.js';
import type { FieldAndFormat } from '../fields-and-formats.js';

/** A `missing` value as sent: applied to documents without the field. */
export type MissingValue = string | number | boolean;

export interface AggCommon {
  readonly name: string;
  readonly subs: readonly AggNode[];
  /** `meta`: echoed as is in the aggregation's response. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** `_count`, `_key`, or a path to a sub-aggregation's value (`avg_price`, `in_stock>avg_price`, `m.value`). */
export interface TermsOrder {
  readonly key: string;
  readonly desc: boolean;
}

/** `include` / `exclude` of terms (ES IncludeExclude): a regular expression, or exact values. */
export type TermsFilter = { readonly regex: string } | { readonly values: readonly (string | number | boolean)[] };

export interface TermsAgg extends AggCommon {
  readonly kind: 'terms';
  readonly field: string;
  readonly size: number;
  /** Parsed and validated; shards return every term (exact counts), so it does not change results. */
  readonly shardSize: number | null;
  readonly order: readonly TermsOrder[];
  readonly minDocCount: number;
  readonly missing: MissingValue | null;
  readonly include: TermsFilter | null;
  readonly exclude: TermsFilter | null;
}

/** ES `multi_terms`: a bucket per combination of its terms' values; exact counts, as `terms`. */
export interface MultiTermsAgg extends AggCommon {
  readonly kind: 'multi_terms';
  readonly terms: readonly FieldConfig[];
  readonly size: number;
  /** Validated only: shards return every bucket. */
  readonly shardSize: number | null;
  readonly order: readonly TermsOrder[];
  readonly minDocCount: number;
  readonly showTermDocCountError: boolean;
}

/** ES `rare_terms`: the terms of at most `maxDocCount` docs (exact here; ES's cuckoo filters may err). */
export interface RareTermsAgg extends AggCommon {
  readonly kind: 'rare_terms';
  readonly field: string;
  readonly maxDocCount: number;
  readonly missing: MissingValue | null;
  readonly include: TermsFilter | null;
  readonly exclude: TermsFilter | null;
}

export type MetricKind = 'min' | 'max' | 'avg' | 'sum' | 'value_count' | 'cardinality' | 'stats' | 'extended_stats';

export interface MetricAgg extends AggCommon {
  readonly kind: MetricKind;
  readonly field: string;
  readonly missing: MissingValue | null;
  /** extended_stats: the standard deviations its bounds lie from the mean (ES default 2). */
  readonly sigma?: number;
}

/** One source of an aggregation over several fields (ES MultiValuesSourceFieldConfig). */
export interface FieldConfig {
  readonly field: string;
  readonly missing: MissingValue | null;
}

/** ES `weighted_avg`: Σ value × weight / Σ weight; either source may be absent until planning refuses it. */
export interface WeightedAvgAgg extends AggCommon {
  readonly kind: 'weighted_avg';
  readonly value: FieldConfig | null;
  readonly weight: FieldConfig | null;
}

/** ES `string_stats`: lengths and character distribution of a keyword field's values. */
export interface StringStatsAgg extends AggCommon {
  readonly kind: 'string_stats';
  readonly field: string;
  readonly missing: MissingValue | null;
  readonly showDistribution: boolean;
}

/**
 * The t-digest metrics: ES `percentiles` / `percentile_ranks` (`keys`: the percents, or the values
 * to rank, ascending) and `median_absolute_deviation` (no keys: one value).
 */
export interface PercentilesAgg extends AggCommon {
  readonly kind: 'percentiles' | 'percentile_ranks' | 'median_absolute_deviation';
  readonly field: string;
  readonly keys: readonly number[];
  readonly keyed: boolean;
  /** `tdigest.compression` (ES default 100), or median_absolute_deviation's `compression` (default 1000). */
  readonly compression: number;
  readonly missing: MissingValue | null;
  /** `format`: a date format for `value_as_string` (date fields); null = the field's. */
  readonly format: string | null;
}

/** One `range` / `date_range` entry; `from` inclusive, `to` exclusive, as ES does. */
export interface RangeSpec {
  readonly key: string | null;
  readonly from: number | string | null;
  readonly to: number | string | null;
}

export interface RangeAgg extends AggCommon {
  readonly kind: 'range' | 'date_range';
  readonly field: string;
  readonly ranges: readonly RangeSpec[];
  readonly keyed: boolean;
  /** date_range only: the format of `from`/`to` and of `*_as_string`; null = the field's. */
  readonly format: string | null;
  readonly missing: MissingValue | null;
}

export interface HistogramAgg extends AggCommon {
  readonly kind: 'histogram';
  readonly field: string;
  readonly interval: number;
  readonly offset: number;
  readonly minDocCount: number;
  readonly keyed: boolean;
  readonly order: TermsOrder;
  readonly missing: number | null;
}

/** ES `date_histogram`: calendar or fixed intervals, on the wall clock of `time_zone`. */
export interface DateHistogramAgg extends AggCommon {
  readonly kind: 'date_histogram';
  readonly field: string;
  /** `calendar_interval` as a date-math unit, or null for a fixed interval. */
  readonly calendarUnit: 'y' | 'q' | 'M' | 'w' | 'd' | 'h' | 'm' | 's' | null;
  /** `fixed_interval` in ms (0 for a calendar interval). */
  readonly fixedMillis: number;
  readonly offsetMillis: number;
  readonly timeZone: string | null;
  readonly format: string | null;
  readonly minDocCount: number;
  readonly keyed: boolean;
  readonly order: TermsOrder;
  readonly missing: string | number | null;
  /** `extended_bounds`: dates (or date math) the empty buckets reach to, when min_doc_count is 0. */
  readonly extendedBounds: { readonly min: string | number | null; readonly max: string | number | null } | null;
}

export interface FilterAgg extends AggCommon {
  readonly kind: 'filter';
  readonly filter: QueryNode;
}

/** ES `global`: one bucket of every live document of the searched shards, whatever the query (top level only). */
export interface GlobalAgg extends AggCommon {
  readonly kind: 'global';
}

export interface FiltersAgg extends AggCommon {
  readonly kind: 'filters';
  /** Named filters render as an object of buckets, anonymous ones as an array. */
  readonly named: boolean;
  readonly keys: readonly string[];
  readonly filters: readonly QueryNode[];
  readonly otherBucketKey: string | null;
}

/** ES `top_hits`: each bucket's best `size` documents after `from`, as search hits. */
export interface TopHitsAgg extends AggCommon {
  readonly kind: 'top_hits';
  readonly from: number;
  readonly size: number;
  /** null: by score, as the search's default. */
  readonly sort: readonly SortSpec[] | null;
  readonly source: SourceFilter;
  /** `stored_fields: "_none_"`: hits without `_source`. */
  readonly storedFieldsNone: boolean;
  readonly trackScores: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  readonly fields: readonly FieldAndFormat[] | null;
  readonly docvalueFields: readonly FieldAndFormat[] | null;
}

/** ES `top_metrics`: the metrics of each bucket's best `size` documents by one `sort`. */
export interface TopMetricsAgg extends AggCommon {
  readonly kind: 'top_metrics';
  readonly sort: SortSpec;
  readonly size: number;
  readonly metrics: readonly FieldConfig[];
}

/**
 * A date rounding (date_histogram, composite's date_histogram source): `calendar_interval` as a
 * date-math unit or `fixed_interval` in ms, on the wall clock of `time_zone`, shifted by `offset`.
 */
export interface DateRoundingSpec {
  readonly calendarUnit: DateHistogramAgg['calendarUnit'];
  readonly fixedMillis: number;
  readonly offsetMillis: number;
  readonly timeZone: string | null;
  readonly format: string | null;
}

/** ES MissingOrder: where a source's missing bucket sorts (`default`: first ascending, last descending). */
export type MissingOrder = 'default' | 'first' | 'last';

/** One of composite's `sources` (ES CompositeValuesSourceBuilder): its name is the key's member. */
export interface CompositeSourceSpec {
  readonly name: string;
  readonly type: 'terms' | 'histogram' | 'date_histogram';
  readonly field: string;
  readonly desc: boolean;
  readonly missingBucket: boolean;
  readonly missingOrder: MissingOrder;
  /** histogram: the interval (> 0); 0 for the other types. */
  readonly interval: number;
  /** date_histogram: its rounding and `format`; null for the other types. */
  readonly date: DateRoundingSpec | null;
}

/** ES `composite`: every combination of the sources' values, in key order, a page of `size` after `after`. */
export interface CompositeAgg extends AggCommon {
  readonly kind: 'composite';
  readonly sources: readonly CompositeSourceSpec[];
  readonly size: number;
  /** `after` as sent: checked against the sources' field types when planning, as ES's doBuild does. */
  readonly after: Readonly<Record<string, unknown>> | null;
}

/** ES BucketHelpers.GapPolicy: what a pipeline does with a bucket that has no value (no documents, or NaN). */
export type GapPolicy = 'skip' | 'insert_zeros' | 'keep_values';

/** Sibling pipelines (ES BucketMetricsPipelineAggregator): one value over the buckets of a sibling aggregation. */
export type BucketMetricsType = 'avg_bucket' | 'sum_bucket' | 'min_bucket' | 'max_bucket' | 'stats_bucket' | 'extended_stats_bucket' | 'percentiles_bucket';

/** Parent pipelines: run over the buckets of the histogram (or, for bucket_sort, any multi-bucket aggregation) they sit in. */
export type ParentPipelineType = 'cumulative_sum' | 'derivative' | 'serial_diff' | 'bucket_sort';

/** A `bucket_sort` key: `_key`, `_count` or a buckets path to a sub-aggregation's value. */
export interface BucketSortKey {
  readonly path: string;
  readonly desc: boolean;
}

/**
 * A pipeline aggregation (ES PipelineAggregationBuilder): computed on the coordinator after the
 * final reduce, from other aggregations' results named by `bucketsPaths`. It has no sub-aggregations;
 * the members a type does not use keep their defaults.
 */
export interface PipelineAgg extends AggCommon {
  readonly kind: 'pipeline';
  readonly type: BucketMetricsType | ParentPipelineType;
  /** bucket_sort: its sort keys' paths (ES builds its buckets paths from them). */
  readonly bucketsPaths: readonly string[];
  readonly gapPolicy: GapPolicy;
  /** extended_stats_bucket (default 2). */
  readonly sigma: number;
  /** percentiles_bucket: the percents (default 1, 5, 25, 50, 75, 95, 99) and `keyed` (default true). */
  readonly percents: readonly number[];
  readonly keyed: boolean;
  /** derivative `unit` in ms: adds `normalized_value`; null without one. */
  readonly unitMillis: number | null;
  /** serial_diff (default 1). */
  readonly lag: number;
  /** bucket_sort. */
  readonly sort: readonly BucketSortKey[];
  readonly from: number;
  readonly size: number | null;
}

export type AggNode = TermsAgg | MultiTermsAgg | RareTermsAgg | MetricAgg | PercentilesAgg | RangeAgg | HistogramAgg | DateHistogramAgg | FilterAgg | FiltersAgg | GlobalAgg | WeightedAvgAgg | StringStatsAgg | TopHitsAgg | TopMetricsAgg | CompositeAgg | PipelineAgg;
