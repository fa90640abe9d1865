/**
 * Planned aggregations (what a shard needs to collect, plus what the coordinator needs to reduce
 * and render) and their per-shard partial results. Both are plain data: they cross threads by
 * structured clone (workers/protocol.ts).
 */
import type { MissingOrder, TermsFilter, TermsOrder, TopHitsAgg } from '../../dsl/aggs/agg-nodes.js';
import type { ExecSort, SortValue } from '../exec/field-sort.js';
export type { TermsOrder };
import type { Exec } from '../plan/exec-nodes.js';

/**
 * How a field's doc values are read and its keys rendered: keyword ordinals, or numbers (integer
 * types render integral keys, `double` ones as doubles, dates with `key_as_string`, booleans as
 * 0/1 with "false"/"true"). `unmapped` fields have no values.
 */
export type ValuesType = 'keyword' | 'long' | 'double' | 'date' | 'boolean' | 'unmapped';

export interface ValuesSource {
  readonly field: string;
  readonly type: ValuesType;
  /** Dates: the format `*_as_string` uses (the field's, or the aggregation's own). */
  readonly format: string | null;
  /** What documents without a value count as, already converted to the field's type; null = nothing. */
  readonly missing: string | number | null;
}

interface ExecAggCommon {
  readonly name: string;
  readonly subs: readonly ExecAgg[];
  readonly meta?: Readonly<Record<string, unknown>>;
}

/**
 * A terms order: by count, by key, or by a sub-aggregation's value — `path` is the chain of
 * sub-aggregation positions, every step but the last a `filter` (single bucket), the last a metric
 * (its value) or a `filter` (its doc_count).
 */
export interface ExecBucketOrder {
  readonly key: '_count' | '_key' | 'path';
  readonly desc: boolean;
  readonly path: readonly number[];
  /** The named value of a multi-value metric (`stats`) at the path's end. */
  readonly value?: StatsValue;
  /** The percent (or ranked value) of a `percentiles` (`percentile_ranks`) aggregation at the path's end. */
  readonly percent?: number;
  /** The position of the metric a `top_metrics` aggregation (of size 1) at the path's end sorts by. */
  readonly metric?: number;
}

export interface ExecTerms extends ExecAggCommon {
  readonly kind: 'terms';
  readonly source: ValuesSource;
  readonly size: number;
  readonly order: readonly ExecBucketOrder[];
  readonly minDocCount: number;
  /** Applied at reduce: counts are exact, so dropping a bucket there equals never collecting it. */
  readonly include: TermsFilter | null;
  readonly exclude: TermsFilter | null;
}

/** `rare_terms`: the terms of at most `maxDocCount` docs, collected as terms (every bucket, exact counts). */
export interface ExecRareTerms extends ExecAggCommon {
  readonly kind: 'rare_terms';
  readonly source: ValuesSource;
  readonly maxDocCount: number;
  readonly include: TermsFilter | null;
  readonly exclude: TermsFilter | null;
}

/** `multi_terms`: a bucket per combination of its sources' values (exact counts, as terms). */
export interface ExecMultiTerms extends ExecAggCommon {
  readonly kind: 'multi_terms';
  readonly sources: readonly ValuesSource[];
  readonly size: number;
  readonly order: readonly ExecBucketOrder[];
  readonly minDocCount: number;
  readonly showTermDocCountError: boolean;
}

export type MetricKind = 'min' | 'max' | 'avg' | 'sum' | 'value_count' | 'cardinality' | 'stats' | 'extended_stats' | 'weighted_avg';

/** The values a `stats` aggregation reports, which a bucket order names as `<agg>.<value>`. */
export const STATS_VALUES = ['count', 'min', 'max', 'avg', 'sum'] as const;
/** ES InternalExtendedStats.Metrics: what `extended_stats` adds, also nameable in an order path. */
export const EXTENDED_STATS_VALUES = [
  ...STATS_VALUES, 'sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population',
  'std_deviation_sampling', 'std_upper', 'std_lower', 'std_upper_population', 'std_lower_population', 'std_upper_sampling', 'std_lower_sampling',
] as const;
export type StatsValue = (typeof EXTENDED_STATS_VALUES)[number];

export interface ExecMetric extends ExecAggCommon {
  readonly kind: 'metric';
  /** The metric aggregation's ES type name (`avg`, `cardinality`…). */
  readonly type: MetricKind;
  readonly source: ValuesSource;
  /** extended_stats: how many standard deviations its bounds lie from the mean. */
  readonly sigma?: number;
  /** weighted_avg: the weights' source (`source` is the values'). */
  readonly weight?: ValuesSource;
}

/**
 * The t-digest metrics: `percentiles` / `percentile_ranks` (`keys`: the percents or the values to
 * rank, ascending) and `median_absolute_deviation` (no keys).
 */
export interface ExecPercentiles extends ExecAggCommon {
  readonly kind: 'percentiles';
  /** The aggregation's ES type name. */
  readonly type: 'percentiles' | 'percentile_ranks' | 'median_absolute_deviation';
  readonly source: ValuesSource;
  readonly keys: readonly number[];
  readonly keyed: boolean;
  readonly compression: number;
}

export interface ExecRangeBucket {
  /** The name the request gave, or null (the key is then built from the bounds). */
  readonly key: string | null;
  /** Bounds as numbers (-Infinity / Infinity when open); from inclusive, to exclusive. */
  readonly from: number;
  readonly to: number;
}

export interface ExecRange extends ExecAggCommon {
  readonly kind: 'range';
  /** The range aggregation's ES type name. */
  readonly type: 'range' | 'date_range';
  readonly source: ValuesSource;
  /** In ES's order: by from, then to (RangeAggregator sorts them). */
  readonly ranges: readonly ExecRangeBucket[];
  readonly keyed: boolean;
}

export interface ExecHistogram extends ExecAggCommon {
  readonly kind: 'histogram';
  readonly source: ValuesSource;
  readonly interval: number;
  readonly offset: number;
  readonly minDocCount: number;
  readonly keyed: boolean;
  readonly order: TermsOrder;
}

/**
 * A date_histogram: a value's key is the start of its calendar unit (`calendarUnit`) or fixed
 * interval (`fixedMillis`) on the wall clock of `timeZone`, shifted by `offsetMillis`.
 */
export interface ExecDateHistogram extends ExecAggCommon {
  readonly kind: 'date_histogram';
  readonly source: ValuesSource;
  readonly calendarUnit: 'y' | 'q' | 'M' | 'w' | 'd' | 'h' | 'm' | 's' | null;
  readonly fixedMillis: number;
  readonly offsetMillis: number;
  readonly timeZone: string;
  readonly minDocCount: number;
  readonly keyed: boolean;
  readonly order: TermsOrder;
  /** Keys the empty buckets reach to (extended_bounds, as instants), when min_doc_count is 0. */
  readonly bounds: { readonly min: number | null; readonly max: number | null } | null;
}

export interface ExecFilter extends ExecAggCommon {
  readonly kind: 'filter';
  readonly query: Exec;
}

/** `global`: one bucket of every live doc of the shard, collected apart from the query's matches. */
export interface ExecGlobal extends ExecAggCommon {
  readonly kind: 'global';
}

export interface ExecFilters extends ExecAggCommon {
  readonly kind: 'filters';
  readonly named: boolean;
  readonly keys: readonly string[];
  readonly queries: readonly Exec[];
  readonly otherBucketKey: string | null;
}

/**
 * `top_hits`: each bucket's best `from + size` documents by `sort` (null: by score), ties by
 * index then index-wide write order as the search's hits; fetched by the coordinator.
 */
export interface ExecTopHits extends ExecAggCommon {
  readonly kind: 'top_hits';
  readonly from: number;
  readonly size: number;
  readonly sort: readonly ExecSort[] | null;
  /** Whether scores are computed and hits show `_score` (score order, a `_score` key, or track_scores). */
  readonly tracksScores: boolean;
  /** What the fetch shows (`_source`, `version`, `fields`…), as parsed: read by the coordinator only. */
  readonly fetch: TopHitsAgg;
}

/** `string_stats`: value lengths and character counts of a keyword source. */
export interface ExecStringStats extends ExecAggCommon {
  readonly kind: 'string_stats';
  readonly source: ValuesSource;
  readonly showDistribution: boolean;
}

/** One metric of `top_metrics`: its name in the response (the field) and how its values are read. */
export interface ExecTopMetric {
  readonly name: string;
  readonly source: ValuesSource;
}

/**
 * `top_metrics`: each bucket's best `size` docs by one `sort` key (ties by index-wide write order),
 * and their metrics. `sortSource` says how a field's sort values print (dates formatted, booleans
 * as booleans); null for `_score`.
 */
export interface ExecTopMetrics extends ExecAggCommon {
  readonly kind: 'top_metrics';
  readonly sort: ExecSort;
  readonly sortSource: ValuesSource | null;
  readonly size: number;
  readonly metrics: readonly ExecTopMetric[];
}

/** A date rounding as date_histogram and composite's date_histogram source apply it (search/aggs/date-histogram.ts). */
export type DateRounding = Pick<ExecDateHistogram, 'calendarUnit' | 'fixedMillis' | 'offsetMillis' | 'timeZone'>;

/**
 * One composite source: a doc's values of `source` (its `missing` is always null: composite has
 * `missing_bucket` instead), rounded by a histogram `interval` or a date `rounding`, ordered
 * `desc` or not, a missing value sorting by `missingOrder`. `keyFormat` says how a key prints (ES's
 * DocValueFormat): `raw` numbers and keyword strings, `boolean` true/false, `date` a string in
 * `source.format` on the wall clock of `timeZone`.
 */
export interface ExecCompositeSource {
  readonly name: string;
  readonly source: ValuesSource;
  readonly desc: boolean;
  readonly missingBucket: boolean;
  readonly missingOrder: MissingOrder;
  readonly interval: number;
  readonly rounding: DateRounding | null;
  readonly keyFormat: 'raw' | 'boolean' | 'date';
}

/** A composite key: one value per source, null for a missing bucket. */
export type CompositeKey = Array<string | number | null>;

export interface ExecComposite extends ExecAggCommon {
  readonly kind: 'composite';
  readonly sources: readonly ExecCompositeSource[];
  readonly size: number;
  /** `after`, converted to each source's values; buckets must sort after it. */
  readonly after: CompositeKey | null;
  /** The key steps past one value per source a shard may take per pass (plan-composite.ts MAX_EXTRA_KEY_STEPS). */
  readonly maxExtraKeySteps: number;
}

export type ExecAgg = ExecTerms | ExecMultiTerms | ExecRareTerms | ExecMetric | ExecPercentiles | ExecRange | ExecHistogram | ExecDateHistogram | ExecFilter | ExecFilters | ExecGlobal | ExecStringStats | ExecTopHits | ExecTopMetrics | ExecComposite;

/** Sub-aggregation partials of each bucket, in bucket order; empty when there are no sub-aggregations. */
export type BucketSubs = AggPartial[][];

/** Terms (multi_terms too) and histograms: every bucket of the shard (exact counts: no shard_size cut). */
export interface KeyedBucketsPartial {
  readonly kind: 'keyed_buckets';
  readonly keys: Array<string | number>;
  readonly counts: number[];
  readonly subs: BucketSubs;
}

/** Range, filter(s) and global buckets: fixed positions known from the request. */
export interface FixedBucketsPartial {
  readonly kind: 'fixed_buckets';
  readonly counts: number[];
  readonly subs: BucketSubs;
}

/** Everything the single-value metrics need; values counts values (not docs), as ES does. */
export interface MetricPartial {
  readonly kind: 'metric';
  count: number;
  sum: number;
  min: number;
  max: number;
  /** extended_stats only (0 for the others): the sum of the values' squares. */
  sumOfSquares: number;
  /** cardinality only: the distinct values seen (exact). */
  distinct: Array<string | number> | null;
  /** weighted_avg only: Σ weight (its `sum` is Σ value × weight). */
  weightSum?: number;
}

/**
 * A t-digest (search/aggs/tdigest.ts): every value, ascending, while there are fewer than
 * 20 × compression of them (`exact`), else centroids sorted by mean (`means`, `weights`).
 */
export interface PercentilesPartial {
  readonly kind: 'percentiles';
  readonly compression: number;
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly exact: Float64Array | null;
  readonly means: Float64Array | null;
  readonly weights: Float64Array | null;
}


/** One shard's top hits of one bucket: hits it found, not yet fetched. */
export interface TopHitsPartial {
  readonly kind: 'top_hits';
  /** The bucket's documents on this shard (all of them counted: `relation` is always `eq`). */
  readonly total: number;
  /** Best score of the bucket's documents when scores are tracked; NaN otherwise. */
  readonly maxScore: number;
  /** [score, segment ordinal, doc, index-wide write order] per hit, best first (TOP_HIT_STRIDE). */
  readonly hits: Float64Array;
  /** Per hit, its sort values; null when sorted by score. */
  readonly sortValues: SortValue[][] | null;
  /** The request's shard that answered, and its index's position: stamped by the coordinator (-1 before). */
  target: number;
  indexPos: number;
}

export const TOP_HIT_STRIDE = 4;

/**
 * `string_stats` of one shard's bucket: values counted, their total and extreme lengths (UTF-16
 * code units, as Java's String.length), and each character's occurrences.
 */
export interface StringStatsPartial {
  readonly kind: 'string_stats';
  count: number;
  totalLength: number;
  minLength: number;
  maxLength: number;
  readonly chars: Array<[string, number]>;
}

/** One shard's best docs of one bucket for `top_metrics`, best first: sort value, write order, metric values. */
export interface TopMetricsPartial {
  readonly kind: 'top_metrics';
  readonly sortValues: SortValue[];
  readonly orders: number[];
  /** Per doc, one value per metric (null: the doc has none). */
  readonly metrics: Array<Array<string | number | null>>;
}

/** One shard's composite buckets: at most `size` of them, the first after `after`, in key order. */
export interface CompositePartial {
  readonly kind: 'composite';
  readonly keys: CompositeKey[];
  readonly counts: number[];
  readonly subs: BucketSubs;
}

export type AggPartial = KeyedBucketsPartial | FixedBucketsPartial | MetricPartial | PercentilesPartial | TopHitsPartial | TopMetricsPartial | StringStatsPartial | CompositePartial;
