/**
 * Parsed aggregations + one index's mapping → planned aggregations (ES ValuesSourceConfig.resolve):
 * field types decide how values are read and keys rendered; fields without doc values fail as ES
 * does (`text`: fielddata disabled; types an aggregation cannot read: "not supported for
 * aggregation"); `missing` is converted to the field's type; filters are planned as queries.
 * Runs on the coordinator, per index; errors are that index's shard failures.
 */
import { compiledFormat, denseVectorDocValuesError, type ResolvedField } from '../../index/index.js';
import { fielddataError, fielddataNotSupportedError } from '../fielddata-errors.js';
import { AggregationExecutionError, IllegalArgumentError, NumberFormatError, ParseError } from '../../errors/index.js';
import type { AggNode, FieldConfig, MissingValue, PipelineAgg, RangeAgg, TermsOrder, TopHitsAgg, TopMetricsAgg } from '../../dsl/aggs/agg-nodes.js';
import { resolveSortKeys } from '../plan/sort-resolution.js';
import { resolveFetchFields } from '../fetch-fields.js';
import { readDateFormat } from '../../dsl/aggs/agg-parse.js';
import { DateParseError, parseDateMath } from '../../common/dates/index.js';
import { javaParseDouble } from '../../common/java-double.js';
import type { PlanContext } from '../plan/context.js';
import { planQuery } from '../plan/planner.js';
import { compositeParentError, planComposite } from './plan-composite.js';
import { EXTENDED_STATS_VALUES, STATS_VALUES, type ExecAgg, type ExecBucketOrder, type ExecTopHits, type ExecTopMetrics, type ExecRangeBucket, type StatsValue, type ValuesSource, type ValuesType } from './exec-aggs.js';

export { fielddataError, fielddataNotSupportedError };

/** ES IndexSettings.MAX_INNER_RESULT_WINDOW_SETTING's default. */
const DEFAULT_MAX_INNER_RESULT_WINDOW = 100;

const INTEGRAL = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
const FLOATING = new Set(['double', 'float', 'half_float', 'scaled_float']);

function valuesType(field: ResolvedField): ValuesType | null {
  if (field.type === 'keyword') return 'keyword';
  if (field.type === 'date') return 'date';
  if (field.type === 'boolean') return 'boolean';
  if (INTEGRAL.has(field.type)) return 'long';
  if (FLOATING.has(field.type)) return 'double';
  return null;
}

function unsupported(field: ResolvedField, aggType: string): IllegalArgumentError {
  return new IllegalArgumentError(`Field [${field.path}] of type [${field.type}] is not supported for aggregation [${aggType}]`);
}

/**
 * A date an aggregation was given (`missing`, range bounds, `extended_bounds`): ES's DateMathParser
 * failure is a parse_exception (400), not a server error.
 */
function aggDate(text: string, ctx: PlanContext, format: string, timeZone?: string): number {
  try {
    return parseDateMath(text, ctx.now, compiledFormat(format), false, timeZone);
  } catch (e) {
    if (e instanceof DateParseError) throw new ParseError(e.message);
    throw e;
  }
}

function numberOf(v: MissingValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v.trim());
  if (v.trim() === '' || Number.isNaN(n)) throw new NumberFormatError(v.trim() === '' ? null : v);
  return n;
}

function convertMissing(v: MissingValue | null, type: ValuesType, format: string | null, ctx: PlanContext): string | number | null {
  if (v === null) return null;
  switch (type) {
    case 'keyword': return String(v);
    case 'unmapped': return typeof v === 'boolean' ? String(v) : v;
    case 'boolean':
      if (v === true || v === 'true') return 1;
      if (v === false || v === 'false') return 0;
      throw new IllegalArgumentError(`Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
    case 'date':
      return typeof v === 'number' ? v : aggDate(String(v), ctx, format!);
    default: return numberOf(v);
  }
}

/**
 * Resolves `field` for aggregation `aggType`. `numericOnly`: keyword values are not numbers
 * (min/max/avg/sum, range, histogram).
 */
function resolveSource(
  ctx: PlanContext, aggType: string, fieldName: string, missing: MissingValue | null, numericOnly: boolean, formatOverride: string | null = null,
): ValuesSource {
  const field = ctx.mapping.fields.get(fieldName);
  if (!field) return { field: fieldName, type: 'unmapped', format: null, missing: convertMissing(missing, 'unmapped', null, ctx) };
  if (field.type === 'text') throw fielddataError(fieldName, ctx.index.name);
  if (field.type === 'search_as_you_type') throw fielddataNotSupportedError(field);
  if (field.type === 'dense_vector') throw denseVectorDocValuesError(field.path);
  const type = valuesType(field);
  if (type === null || (numericOnly && type === 'keyword')) throw unsupported(field, aggType);
  if (!field.docValues) {
    throw new IllegalArgumentError(`Can't load fielddata on [${fieldName}] because fielddata is unsupported on fields of type [${field.type}]. Use doc values instead.`);
  }
  const format = type === 'date' ? formatOverride ?? field.format : null;
  return { field: fieldName, type, format, missing: convertMissing(missing, type, format, ctx) };
}

/**
 * A metric's `format` beyond dates (whose patterns are checked before the field is resolved): ES
 * formats numbers with a Java DecimalFormat pattern, which is not built here, so it is refused,
 * not ignored.
 */
function checkFormat(aggType: string, source: ValuesSource): void {
  if (source.type === 'date' || source.type === 'unmapped') return;
  throw new IllegalArgumentError(`[format] of [${aggType}] aggregations on [${source.type}] fields is not supported by this server yet`);
}

function rangeBound(agg: RangeAgg, v: number | string | null, source: ValuesSource, ctx: PlanContext, open: number): number {
  if (v === null) return open;
  if (typeof v === 'number') return v;
  if (agg.kind === 'range') return numberOf(v);
  const format = source.format ?? agg.format ?? 'strict_date_optional_time||epoch_millis';
  return aggDate(v, ctx, format);
}

/**
 * A bucket order's sub-aggregation path (ES AggregationPath): `a>b>c`, each step but the last a
 * single-bucket aggregation, the last a single-value metric (optionally `.value`), a `stats`
 * aggregation with the value it sorts by (`.avg`, `.count`…), or a single-bucket aggregation (its
 * doc_count). A name may hold dots itself: the exact name is looked up first.
 */
function resolveOrder(o: TermsOrder, subs: readonly ExecAgg[]): ExecBucketOrder {
  if (o.key === '_count' || o.key === '_key') return { key: o.key, desc: o.desc, path: [] };
  const steps = o.key.split('>');
  const path: number[] = [];
  let value: StatsValue | undefined;
  let percent: number | undefined;
  let metric: number | undefined;
  let level = subs;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const dot = step.lastIndexOf('.');
    const exact = level.some((a) => a.name === step);
    const name = !last || exact || dot < 0 ? step : step.slice(0, dot);
    const key = name === step ? null : step.slice(dot + 1);
    const at = level.findIndex((a) => a.name === name);
    if (at < 0) {
      throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. The provided aggregation [${name}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`);
    }
    const sub = level[at];
    const usable = sub.kind === 'filter' || (last && (sub.kind === 'metric' || sub.kind === 'percentiles' || sub.kind === 'top_metrics'));
    if (!usable) {
      throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.`);
    }
    if (last && sub.kind === 'metric' && (sub.type === 'stats' || sub.type === 'extended_stats')) {
      const names: readonly string[] = sub.type === 'stats' ? STATS_VALUES : EXTENDED_STATS_VALUES;
      if (key === null) throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. When ordering on a multi-value metrics aggregation a metric name must be specified`);
      if (!names.includes(key)) {
        throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. Unknown value key [${key}] for multi-value metric aggregation [${name}]. Valid value keys are: [${names.join(', ')}]`);
      }
      value = key as StatsValue;
    } else if (last && sub.kind === 'top_metrics') {
      // InternalTopMetrics: a multi-value metric, a value per metric field, that only a size of 1 lets sort buckets.
      if (key === null) throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. When ordering on a multi-value metrics aggregation a metric name must be specified`);
      if (sub.size !== 1) throw new IllegalArgumentError(`[top_metrics] can only the be target if [size] is [1] but was [${sub.size}]`);
      metric = sub.metrics.findIndex((m) => m.name === key);
      if (metric < 0) {
        throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. Unknown value key [${key}] for multi-value metric aggregation [${name}]. Valid value keys are: [${sub.metrics.map((m) => m.name).join(', ')}]`);
      }
    } else if (last && sub.kind === 'percentiles' && sub.type === 'median_absolute_deviation') {
      if (key !== null && key !== 'value') {
        throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. The provided aggregation [${step}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`);
      }
    } else if (last && sub.kind === 'percentiles') {
      // InternalTDigestPercentiles.value(name): the key is a percent (or a value to rank), parsed as a double.
      if (key === null) throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. When ordering on a multi-value metrics aggregation a metric name must be specified`);
      percent = javaParseDouble(key);
      if (!Number.isFinite(percent)) throw new NumberFormatError(key);
    } else if (key !== null && key !== 'value') {
      throw new AggregationExecutionError(`Invalid aggregation order path [${o.key}]. The provided aggregation [${step}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`);
    }
    path.push(at);
    level = sub.subs;
  });
  if (percent !== undefined) return { key: 'path', desc: o.desc, path, percent };
  if (metric !== undefined) return { key: 'path', desc: o.desc, path, metric };
  return value === undefined ? { key: 'path', desc: o.desc, path } : { key: 'path', desc: o.desc, path, value };
}

/**
 * weighted_avg's sources (ES registers it for NUMERIC values sources only: dates and booleans are
 * refused); a source that was not given fails as ES's MultiValuesSource does once it is read.
 */
function numericSource(ctx: PlanContext, aggType: string, config: FieldConfig | null, member: string): ValuesSource {
  if (config === null) throw new IllegalArgumentError(`Could not find field name [${member}] in multiValuesSource`);
  const source = resolveSource(ctx, aggType, config.field, config.missing, true);
  if (source.type === 'date' || source.type === 'boolean') throw unsupported(ctx.mapping.fields.get(config.field)!, aggType);
  return source;
}

/** ES IndexSettings' `index.top_metrics_max_size` default. */
const DEFAULT_TOP_METRICS_MAX_SIZE = 10;

/**
 * TopMetricsAggregatorFactory.createInternal: the size bound, the metrics' sources (numbers, dates,
 * booleans, keywords), then the sort as the search resolves it; BucketedSort exists for numbers
 * and scores only.
 */
function planTopMetrics(ctx: PlanContext, agg: TopMetricsAgg): ExecTopMetrics {
  const max = ctx.topMetricsMaxSize ?? DEFAULT_TOP_METRICS_MAX_SIZE;
  if (agg.size > max) {
    throw new IllegalArgumentError(`[top_metrics.size] must not be more than [${max}] but was [${agg.size}]. This limit can be set by changing the [index.top_metrics_max_size] index level setting.`);
  }
  const metrics = agg.metrics.map((m) => ({ name: m.field, source: resolveSource(ctx, 'top_metrics', m.field, m.missing, false) }));
  const spec = agg.sort;
  if (spec.kind === 'doc' || spec.kind === 'shard_doc') {
    throw new IllegalArgumentError(`[${spec.kind === 'doc' ? '_doc' : '_shard_doc'}] sorts of [top_metrics] aggregations are not supported by this server yet`);
  }
  const [sort] = resolveSortKeys([spec], ctx.mapping, ctx.index);
  if (sort.kind === 'keyword') {
    // FieldSortBuilder.buildBucketedSort wraps the field data's refusal.
    throw new IllegalArgumentError(`error building sort for field [${sort.field}] of type [${ctx.mapping.fields.get(sort.field)?.type ?? 'keyword'}] in index [${ctx.index.name}]: only supported on numeric fields`);
  }
  const sortSource = spec.kind === 'field' && ctx.mapping.fields.has(spec.field) ? resolveSource(ctx, 'top_metrics', spec.field, null, false, spec.format) : null;
  return { kind: 'top_metrics', name: agg.name, subs: [], sort, sortSource, size: agg.size, metrics };
}

/** TopHitsAggregationBuilder.doBuild: the window check, then the sort as the search resolves it. */
function planTopHits(ctx: PlanContext, agg: TopHitsAgg): ExecTopHits {
  const window = agg.from + agg.size;
  const max = ctx.maxInnerResultWindow ?? DEFAULT_MAX_INNER_RESULT_WINDOW;
  if (window > max) {
    throw new IllegalArgumentError(
      `Top hits result window is too large, the top hits aggregator [${agg.name}]'s from + size must be less than or equal to: [${max}] but was [${window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
    );
  }
  // Lucene's top-docs collectors refuse an empty window. ES fails a shard when a bucket of it
  // collects a doc; here every shard of the index fails, so the answer does not depend on sharding.
  if (window === 0) throw new IllegalArgumentError('numHits must be > 0; please use TotalHitCountCollector if you just need the total hit count');
  // SortBuilder.buildSort: a lone `_score` descending is the default order, not a sort.
  const byScore = agg.sort === null || (agg.sort.length === 1 && agg.sort[0].kind === 'score' && agg.sort[0].order === 'desc');
  const sort = byScore ? null : resolveSortKeys(agg.sort!, ctx.mapping, ctx.index);
  // A script key is evaluated per bucket hit, where a search's collector would read it: not built here.
  if (sort?.some((k) => k.kind === 'script')) throw new IllegalArgumentError('[_script] sorts in [top_hits] are not supported by this server yet');
  const tracksScores = sort === null || agg.trackScores || sort.some((k) => k.kind === 'score');
  // Checked here so a refused field fails this index's shards; the coordinator resolves them again per index to fetch.
  resolveFetchFields(agg.fields, agg.docvalueFields, ctx.mapping.fields, (f) => fielddataError(f, ctx.index.name));
  return { kind: 'top_hits', name: agg.name, subs: [], from: agg.from, size: agg.size, sort, tracksScores, fetch: agg };
}

/**
 * The simple name of the ES factory class of each bucket aggregation, which composite names when
 * refusing a parent (`filter` is let through: a composite may sit under filters).
 */
const FACTORY_CLASS: Readonly<Record<string, string>> = {
  terms: 'TermsAggregatorFactory', multi_terms: 'MultiTermsAggregationFactory', rare_terms: 'RareTermsAggregatorFactory', histogram: 'HistogramAggregatorFactory', date_histogram: 'DateHistogramAggregatorFactory',
  range: 'RangeAggregatorFactory', date_range: 'DateRangeAggregatorFactory', filters: 'FiltersAggregatorFactory', global: 'GlobalAggregatorFactory',
  composite: 'CompositeAggregationFactory',
};

/**
 * `parent`: the factory class of the nearest ancestor that is not a `filter` (null at the top);
 * `parentName`: the name of the aggregation these sit in (null at the top).
 */
export function planAggregations(ctx: PlanContext, aggs: readonly AggNode[], parent: string | null = null, parentName: string | null = null): ExecAgg[] {
  // Pipeline aggregations run on the coordinator after the final reduce (search/aggs/pipelines/): shards never see them.
  return aggs.filter(isCollected).map((agg) => planAggregation(ctx, agg, parent, parentName));
}

type CollectedAgg = Exclude<AggNode, PipelineAgg>;

function isCollected(agg: AggNode): agg is CollectedAgg {
  return agg.kind !== 'pipeline';
}

function planAggregation(ctx: PlanContext, agg: CollectedAgg, parent: string | null, parentName: string | null): ExecAgg {
  // GlobalAggregatorFactory.createInternal: a plain AggregationExecutionException, so a 500 in ES.
  if (agg.kind === 'global' && parentName !== null) {
    throw new AggregationExecutionError(`Aggregation [${parentName}] cannot have a global sub-aggregation [${agg.name}]. Global aggregations can only be defined as top level aggregations`, 500);
  }
  const exec = planOne(ctx, agg, parent);
  return agg.meta === undefined ? exec : { ...exec, meta: agg.meta };
}

function planOne(ctx: PlanContext, agg: CollectedAgg, parent: string | null): ExecAgg {
  // ES builds a parent's factory before its children's: composite's parent check comes first.
  if (agg.kind === 'composite' && parent !== null) throw compositeParentError(parent);
  const subs = planAggregations(ctx, agg.subs, agg.kind === 'filter' ? parent : FACTORY_CLASS[agg.kind] ?? agg.kind, agg.name);
  const name = agg.name;
  switch (agg.kind) {
    case 'terms':
      return {
        kind: 'terms', name, subs, source: resolveSource(ctx, 'terms', agg.field, agg.missing, false),
        size: agg.size, order: agg.order.map((o) => resolveOrder(o, subs)), minDocCount: agg.minDocCount, include: agg.include, exclude: agg.exclude,
      };
    case 'rare_terms':
      return {
        kind: 'rare_terms', name, subs, source: resolveSource(ctx, 'rare_terms', agg.field, agg.missing, false),
        maxDocCount: agg.maxDocCount, include: agg.include, exclude: agg.exclude,
      };
    case 'multi_terms':
      return {
        kind: 'multi_terms', name, subs, sources: agg.terms.map((t) => resolveSource(ctx, 'multi_terms', t.field, t.missing, false)),
        size: agg.size, order: agg.order.map((o) => resolveOrder(o, subs)), minDocCount: agg.minDocCount, showTermDocCountError: agg.showTermDocCountError,
      };
    case 'min': case 'max': case 'avg': case 'sum': case 'stats':
      return { kind: 'metric', type: agg.kind, name, subs, source: resolveSource(ctx, agg.kind, agg.field, agg.missing, true) };
    case 'extended_stats':
      return { kind: 'metric', type: agg.kind, name, subs, source: resolveSource(ctx, agg.kind, agg.field, agg.missing, true), sigma: agg.sigma ?? 2 };
    case 'percentiles': case 'percentile_ranks': case 'median_absolute_deviation': {
      if (agg.format !== null && ctx.mapping.fields.get(agg.field)?.type === 'date') readDateFormat(agg.kind, agg.format);
      const source = resolveSource(ctx, agg.kind, agg.field, agg.missing, true, agg.format);
      if (agg.format !== null) checkFormat(agg.kind, source);
      return { kind: 'percentiles', type: agg.kind, name, subs, source, keys: agg.keys, keyed: agg.keyed, compression: agg.compression };
    }
    case 'weighted_avg': {
      const source = numericSource(ctx, 'weighted_avg', agg.value, 'value');
      return { kind: 'metric', type: 'weighted_avg', name, subs, source, weight: numericSource(ctx, 'weighted_avg', agg.weight, 'weight') };
    }
    case 'string_stats': {
      // ES registers string_stats for keyword values sources only.
      const source = resolveSource(ctx, 'string_stats', agg.field, agg.missing, false);
      if (source.type !== 'keyword' && source.type !== 'unmapped') throw unsupported(ctx.mapping.fields.get(agg.field)!, 'string_stats');
      return { kind: 'string_stats', name, subs, source, showDistribution: agg.showDistribution };
    }
    case 'value_count': case 'cardinality':
      return { kind: 'metric', type: agg.kind, name, subs, source: resolveSource(ctx, agg.kind, agg.field, agg.missing, false) };
    case 'range': case 'date_range': {
      const source = resolveSource(ctx, agg.kind, agg.field, agg.missing, true, agg.kind === 'date_range' ? agg.format : null);
      const ranges: ExecRangeBucket[] = agg.ranges.map((r) => ({
        key: r.key, from: rangeBound(agg, r.from, source, ctx, -Infinity), to: rangeBound(agg, r.to, source, ctx, Infinity),
      }));
      // RangeAggregator sorts its ranges by from, then to; buckets come out in that order.
      ranges.sort((a, b) => a.from - b.from || a.to - b.to);
      const dated = agg.kind === 'date_range' ? { ...source, format: source.format ?? agg.format ?? 'strict_date_optional_time' } : source;
      return { kind: 'range', type: agg.kind, name, subs, source: dated, ranges, keyed: agg.keyed };
    }
    case 'histogram':
      return {
        kind: 'histogram', name, subs, source: resolveSource(ctx, 'histogram', agg.field, agg.missing, true),
        interval: agg.interval, offset: agg.offset, minDocCount: agg.minDocCount, keyed: agg.keyed, order: agg.order,
      };
    case 'date_histogram': {
      const source = resolveSource(ctx, 'date_histogram', agg.field, agg.missing, true, agg.format);
      const dated = { ...source, format: source.format ?? agg.format ?? 'strict_date_optional_time||epoch_millis' };
      const instant = (v: string | number | null) => (v === null ? null : typeof v === 'number' ? v : aggDate(v, ctx, dated.format, agg.timeZone ?? undefined));
      return {
        kind: 'date_histogram', name, subs, source: dated, calendarUnit: agg.calendarUnit, fixedMillis: agg.fixedMillis, offsetMillis: agg.offsetMillis,
        timeZone: agg.timeZone ?? 'Z', minDocCount: agg.minDocCount, keyed: agg.keyed, order: agg.order,
        bounds: agg.extendedBounds === null ? null : { min: instant(agg.extendedBounds.min), max: instant(agg.extendedBounds.max) },
      };
    }
    case 'filter':
      return { kind: 'filter', name, subs, query: planQuery(ctx, agg.filter) };
    case 'global':
      return { kind: 'global', name, subs };
    case 'filters':
      return {
        kind: 'filters', name, subs, named: agg.named, keys: agg.keys, queries: agg.filters.map((f) => planQuery(ctx, f)),
        otherBucketKey: agg.otherBucketKey,
      };
    case 'top_hits':
      return planTopHits(ctx, agg);
    case 'top_metrics':
      return planTopMetrics(ctx, agg);
    case 'composite':
      return planComposite(ctx, agg, subs, (type, field, numericOnly, format) => resolveSource(ctx, type, field, null, numericOnly, format));
  }
}
