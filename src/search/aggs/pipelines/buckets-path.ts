/**
 * Reading a `buckets_path` in a bucket (ES InternalBucket.getProperty, the aggregations'
 * getProperty, BucketHelpers.resolveBucketValue with its gap policy and formatResolutionError).
 * A path that names nothing in a bucket (ES InvalidAggregationPathException) reads as null: the
 * bucket is left out, as ES does; a path to something that is not a number fails the search.
 */
import { AggregationExecutionError, IllegalArgumentError, previewInput } from '../../../errors/index.js';
import { javaDouble, javaParseDouble } from '../../../common/java-double.js';
import type { GapPolicy } from '../../../dsl/aggs/agg-nodes.js';
import { EXTENDED_STATS_VALUES, STATS_VALUES } from '../exec-aggs.js';
import { bucketKey, bucketsOf, cardinality, className, docCount, type AggDef, type BucketView, type Level } from './result-tree.js';

/** A resolved property: a number, an aggregation, or something else ES would name by its class. */
type Property = number | { readonly agg: AggDef; readonly body: Record<string, unknown> } | { readonly className: string };

/** null: an invalid path (InvalidAggregationPathException), which pipelines skip. */
type Resolved = Property | null;

/** The aggregation `name` of a level, if the level's body holds it (a pipeline may not have run on this bucket). */
export function findAgg(level: Level, name: string): { agg: AggDef; body: Record<string, unknown> } | null {
  const agg = level.defs.find((d) => d.name === name);
  const body = agg === undefined ? undefined : level.body[name];
  return agg === undefined || body === null || typeof body !== 'object' ? null : { agg, body: body as Record<string, unknown> };
}

/** The definitions of a bucket aggregation's sub-aggregations, pipelines included. */
export type SubsOf = (def: AggDef) => readonly AggDef[];

/** InternalBucket.getProperty(containingAggName, path). */
function bucketProperty(owner: AggDef, bucket: BucketView, subsOf: SubsOf, path: readonly string[]): Resolved {
  if (path.length === 0) return { className: 'Bucket' };
  if (path[0] === '_count' || path[0] === '_key') {
    if (path.length > 1) return null;
    if (path[0] === '_count') return docCount(bucket.body);
    const key = bucketKey(owner, bucket);
    return typeof key === 'string' ? { className: 'String' } : key;
  }
  return levelProperty({ defs: subsOf(owner), body: bucket.body }, subsOf, path);
}

function levelProperty(level: Level, subsOf: SubsOf, path: readonly string[]): Resolved {
  const found = findAgg(level, path[0]);
  return found === null ? null : aggProperty(found.agg, found.body, subsOf, path.slice(1));
}

/** InternalAggregation.getProperty(path) for each kind of result. */
function aggProperty(agg: AggDef, body: Record<string, unknown>, subsOf: SubsOf, path: readonly string[]): Resolved {
  if (path.length === 0) return { agg, body };
  const card = cardinality(agg);
  if (card === 'many') {
    const buckets = bucketsOf(agg, body);
    if (path[0] === '_bucket_count') return buckets.length;
    const key = path[0];
    if (key.length >= 2 && key.startsWith("'") && key.endsWith("'")) {
      const wanted = key.slice(1, -1);
      const bucket = buckets.find((b) => b.keyString === wanted);
      return bucket === undefined ? null : bucketProperty(agg, bucket, subsOf, path.slice(1));
    }
    // ES answers every bucket's property, as an Object[]: never a number.
    return { className: 'Object[]' };
  }
  if (card === 'one') {
    if (path[0] === '_count') return path.length > 1 ? null : docCount(body);
    return levelProperty({ defs: subsOf(agg), body }, subsOf, path);
  }
  const names = valueNames(agg);
  if (names === 'single') {
    if (path.length === 1 && path[0] === 'value') return numberOf(body.value);
    if (path.length === 1 && path[0] === 'normalized_value' && agg.kind === 'pipeline' && agg.type === 'derivative') return numberOf(body.normalized_value);
    if (path.length === 1 && path[0] === 'keys' && agg.kind === 'pipeline') return { className: 'String[]' };
    throw pathNotSupported(agg, path);
  }
  if (names === null || path.length > 1) throw pathNotSupported(agg, path);
  return names(path[0], body);
}

function pathNotSupported(agg: AggDef, path: readonly string[]): IllegalArgumentError {
  return new IllegalArgumentError(`path not supported for [${agg.name}]: [${previewInput(path.join(', '))}]`);
}

/** Rendered values: null (no value) reads as NaN, which every gap policy treats as missing. */
function numberOf(v: unknown): number {
  return typeof v === 'number' ? v : NaN;
}

type MultiValue = (name: string, body: Record<string, unknown>) => number;

/** 'single' for single-value metrics, a reader for multi-value ones, null for the rest (top_hits). */
function valueNames(agg: AggDef): 'single' | MultiValue | null {
  if (agg.kind === 'metric') {
    if (agg.type === 'stats') return statsValue(STATS_VALUES, 'InternalStats');
    if (agg.type === 'extended_stats') return statsValue(EXTENDED_STATS_VALUES, 'InternalExtendedStats');
    return 'single';
  }
  if (agg.kind === 'percentiles') return agg.type === 'median_absolute_deviation' ? 'single' : percentValue(agg.name);
  if (agg.kind === 'top_metrics') return topMetricsValue(agg);
  if (agg.kind === 'string_stats') return stringStatsValue;
  if (agg.kind === 'pipeline') {
    if (agg.type === 'stats_bucket') return statsValue(STATS_VALUES, 'InternalStats');
    if (agg.type === 'extended_stats_bucket') return statsValue(EXTENDED_STATS_VALUES, 'InternalExtendedStats');
    if (agg.type === 'percentiles_bucket') return percentValue(agg.name, agg.percents);
    return 'single';
  }
  return null;
}

/** InternalTopMetrics.getProperty: a metric of the best doc (NaN without one), only a metric it has. */
function topMetricsValue(agg: Extract<AggDef, { kind: 'top_metrics' }>): MultiValue {
  return (name, body) => {
    if (!agg.metrics.some((m) => m.name === name)) throw pathNotSupported(agg, [name]);
    const top = body.top as ReadonlyArray<{ readonly metrics: Record<string, unknown> }> | undefined;
    return numberOf(top?.[0]?.metrics[name]);
  };
}

/** InternalStringStats.Metrics: what a buckets_path may name of a string_stats. */
const STRING_STATS_VALUES: readonly string[] = ['count', 'min_length', 'max_length', 'avg_length', 'entropy'];

/** InternalStringStats.value(name). */
function stringStatsValue(name: string, body: Record<string, unknown>): number {
  if (!STRING_STATS_VALUES.includes(name)) throw new IllegalArgumentError(`Unknown value [${previewInput(name)}] in string stats aggregation`);
  return numberOf(body[name]);
}

/** InternalStats.value(name): one of its Metrics, else Java's enum error. */
function statsValue(names: readonly string[], enumOwner: string): MultiValue {
  return (name, body) => {
    if (!names.includes(name)) throw new IllegalArgumentError(`No enum constant org.elasticsearch.search.aggregations.metrics.${enumOwner}.Metrics.${previewInput(name)}`);
    if (name.startsWith('std_') && !name.startsWith('std_deviation')) {
      const bounds = body.std_deviation_bounds as Record<string, unknown> | null | undefined;
      return numberOf(bounds?.[name.slice(4)]);
    }
    return numberOf(body[name]);
  };
}

/**
 * Percentiles' value(name): the value at the percent `name` (Java's Double.parseDouble), read from
 * the rendered values. percentiles_bucket (`computed`: its percents) knows no other percent, and
 * says so as ES does; ES computes any percent of a percentiles metric from its digest, which this
 * refuses.
 */
function percentValue(aggName: string, computed: readonly number[] | null = null): MultiValue {
  return (name, body) => {
    const percent = javaParseDouble(name);
    const values = body.values;
    if (Array.isArray(values)) {
      const entry = values.find((e: Record<string, unknown>) => e.key === percent) as Record<string, unknown> | undefined;
      if (entry !== undefined) return numberOf(entry.value);
    } else if (values !== null && typeof values === 'object' && javaDouble(percent) in values) {
      return numberOf((values as Record<string, unknown>)[javaDouble(percent)]);
    }
    if (computed !== null) {
      throw new IllegalArgumentError(`Percent requested [${javaDouble(percent)}] was not one of the computed percentiles.  Available keys are: [${previewInput(computed.map(javaDouble).join(', '))}]`);
    }
    throw new IllegalArgumentError(`a buckets_path to a percent [${javaDouble(percent)}] that [${aggName}] does not report is not supported by this server yet`);
  };
}

/** A percentiles result of one percent, which ES reads without naming it (value(name) with its own name). */
function singlePercent(agg: AggDef): number | null {
  if (agg.kind === 'percentiles' && agg.type !== 'median_absolute_deviation' && agg.keys.length === 1) return agg.keys[0];
  if (agg.kind === 'pipeline' && agg.type === 'percentiles_bucket' && agg.percents.length === 1) return agg.percents[0];
  return null;
}

/**
 * BucketHelpers.resolveBucketValue: the number the path names in one bucket of `owner`, after the
 * gap policy (`_count` is never a gap); null when the path names nothing there.
 */
export function resolveBucketValue(owner: AggDef, bucket: BucketView, subsOf: SubsOf, path: readonly string[], gapPolicy: GapPolicy): number | null {
  const property = bucketProperty(owner, bucket, subsOf, path);
  if (property === null) return null;
  let value: number;
  if (typeof property === 'number') value = property;
  else if ('agg' in property && valueNames(property.agg) === 'single') value = numberOf(property.body.value);
  else if ('agg' in property && singlePercent(property.agg) !== null) {
    // ES's REST test "Max pipeline on percentiles agg without specifying percent".
    value = (valueNames(property.agg) as MultiValue)(String(singlePercent(property.agg)), property.body);
  } else throw resolutionError(owner, path, property);
  if (path.length === 1 && path[0] === '_count') return value;
  return processValue(gapPolicy, docCount(bucket.body), value);
}

/** GapPolicy.processValue. */
function processValue(policy: GapPolicy, count: number, value: number): number {
  const bad = !Number.isFinite(value);
  if (policy === 'insert_zeros') return bad || count === 0 ? 0 : value;
  if (policy === 'skip') return bad || count === 0 ? NaN : value;
  return bad ? NaN : value;
}

/** BucketHelpers.formatResolutionError: an AggregationExecutionException, which ES answers with 500. */
function resolutionError(owner: AggDef, path: readonly string[], property: Exclude<Property, number>): AggregationExecutionError {
  const current = path.length === 0 ? owner.name : path[0];
  const prefix = 'buckets_path must reference either a number value or a single value numeric metric aggregation';
  if ('agg' in property && typeof valueNames(property.agg) === 'function') {
    return new AggregationExecutionError(`${prefix}, but [${previewInput(current)}] contains multiple values. Please specify which to use.`, 500);
  }
  const name = 'agg' in property ? className(property.agg) : property.className;
  return new AggregationExecutionError(`${prefix}, got: [${name}] at aggregation [${previewInput(current)}]`, 500);
}
