/**
 * Planning a `composite` aggregation (ES CompositeAggregationBuilder.doBuild and the
 * CompositeAggregator constructor): it must sit at the top of the tree (only `filter` parents are
 * allowed; plan-aggs.ts knows the parents), each source resolves its field, `size` is held to `search.max_buckets`, and `after` is
 * checked against the sources — its arity and names, then each value converted to its source's
 * type with ES's messages.
 */
import { DateParseError, parseDateMath } from '../../common/dates/index.js';
import { compiledFormat } from '../../index/index.js';
import { javaParseDouble } from '../../common/java-double.js';
import { DEFAULT_MAX_BUCKETS, EsError, IllegalArgumentError, ParseError, TooManyBucketsError, previewInput } from '../../errors/index.js';
import type { CompositeAgg, CompositeSourceSpec } from '../../dsl/aggs/agg-nodes.js';
import type { PlanContext } from '../plan/context.js';
import type { CompositeKey, ExecAgg, ExecComposite, ExecCompositeSource, ValuesSource } from './exec-aggs.js';

/**
 * How many key steps beyond one value per source a shard may take per pass. ES walks every
 * combination of a doc's values with no bound; a few multi-valued docs (4 sources × 16 values is
 * 65,536 keys each) and `size` 65,536 would hold a worker for minutes and, with sub-aggregations,
 * keep docs × size entries. 20M steps is a few seconds; single-valued docs never count.
 */
export const MAX_EXTRA_KEY_STEPS = 20_000_000;

/** plan-aggs.ts's field resolution, passed in (it imports this file). */
export type ResolveSource = (aggType: string, field: string, numericOnly: boolean, format: string | null) => ValuesSource;

/** How a source holds its values, which decides how an `after` value converts (ES's *ValuesSource.setAfter). */
type AfterKind = 'string' | 'long' | 'double' | 'boolean' | 'date';

function planSource(spec: CompositeSourceSpec, resolve: ResolveSource): { source: ExecCompositeSource; after: AfterKind } {
  const common = { name: spec.name, desc: spec.desc, missingBucket: spec.missingBucket, missingOrder: spec.missingOrder };
  if (spec.type === 'terms') {
    const source = resolve('terms', spec.field, false, null);
    const t = source.type;
    // TermsValuesSourceBuilder: a date field without `format` keeps its keys as epoch millis (RAW).
    const after: AfterKind = t === 'keyword' || t === 'unmapped' ? 'string' : t === 'double' ? 'double' : t === 'boolean' ? 'boolean' : 'long';
    return { source: { ...common, source, interval: 0, rounding: null, keyFormat: t === 'boolean' ? 'boolean' : 'raw' }, after };
  }
  if (spec.type === 'histogram') {
    const source = resolve('histogram', spec.field, true, null);
    return { source: { ...common, source, interval: spec.interval, rounding: null, keyFormat: source.type === 'date' ? 'date' : 'raw' }, after: 'double' };
  }
  const date = spec.date!;
  const resolved = resolve('date_histogram', spec.field, true, date.format);
  const source = { ...resolved, format: resolved.format ?? date.format ?? 'strict_date_optional_time||epoch_millis' };
  const rounding = { calendarUnit: date.calendarUnit, fixedMillis: date.fixedMillis, offsetMillis: date.offsetMillis, timeZone: date.timeZone ?? 'Z' };
  // DateHistogramValuesSourceBuilder: keys are epoch millis (RAW) unless the source names a `format`.
  return { source: { ...common, source, interval: 0, rounding, keyFormat: date.format === null ? 'raw' : 'date' }, after: date.format === null ? 'long' : 'date' };
}

/** The simple name of the Java class XContentParser.map() gives a JSON value. */
function javaClass(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Boolean';
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return 'Double';
    if (Math.abs(v) <= 2147483647) return 'Integer';
    return Math.abs(v) <= 9223372036854775807 ? 'Long' : 'BigInteger';
  }
  return Array.isArray(v) ? 'ArrayList' : 'HashMap';
}

/** One `after` value as its source's value (ES LongValuesSource / DoubleValuesSource / BinaryValuesSource.setAfter). */
function afterValue(v: string | number | boolean, kind: AfterKind, source: ExecCompositeSource, ctx: PlanContext): string | number {
  switch (kind) {
    case 'string':
      if (typeof v === 'string' || (source.missingBucket && source.source.type === 'unmapped')) return String(v);
      throw new IllegalArgumentError(`invalid value, expected string, got ${javaClass(v)}`);
    case 'double':
      return typeof v === 'number' ? v : javaParseDouble(String(v));
    case 'boolean':
      if (typeof v === 'number') return Math.trunc(v);
      if (String(v) === 'true') return 1;
      if (String(v) === 'false') return 0;
      throw new IllegalArgumentError(`Cannot parse boolean [${previewInput(String(v))}], expected either [true] or [false]`);
    case 'date':
      if (typeof v === 'number') return Math.trunc(v);
      try {
        return parseDateMath(String(v), ctx.now, compiledFormat(source.source.format!), false, source.rounding?.timeZone);
      } catch (e) {
        if (e instanceof DateParseError) throw new IllegalArgumentError(e.message);
        throw e;
      }
    case 'long':
      // DocValueFormat.RAW.parseLong: a long, else a double rounded down.
      return typeof v === 'number' ? Math.trunc(v) : Math.floor(javaParseDouble(String(v)));
  }
}

type RawAfter = Array<string | number | boolean | null>;

/** CompositeAggregationBuilder.doBuild's checks of `after`: one comparable value per source, by name. */
function afterShape(after: Readonly<Record<string, unknown>>, sources: readonly ExecCompositeSource[]): RawAfter {
  const given = Object.keys(after).length;
  if (given !== sources.length) throw new IllegalArgumentError(`[after] has ${given} value(s) but [sources] has ${sources.length}`);
  return sources.map((source) => {
    if (!Object.prototype.hasOwnProperty.call(after, source.name)) throw new IllegalArgumentError(`Missing value for [after.${source.name}]`);
    const v = after[source.name];
    if (v === null && source.missingBucket) return null;
    if (v === null || typeof v === 'object') {
      throw new IllegalArgumentError(`Invalid value for [after.${source.name}], expected comparable, got [${javaClass(v)}]`);
    }
    return v as string | number | boolean;
  });
}

/** CompositeAggregator's queue.setAfterKey: each value converted to its source's type, or ES's parse_exception. */
function afterKey(agg: CompositeAgg, raw: RawAfter, planned: ReadonlyArray<{ source: ExecCompositeSource; after: AfterKind }>, ctx: PlanContext): CompositeKey {
  return raw.map((v, i) => {
    if (v === null) return null;
    try {
      return afterValue(v, planned[i].after, planned[i].source, ctx);
    } catch (e) {
      if (!(e instanceof EsError)) throw e;
      throw new ParseError(`Cannot set after key in the composite aggregation [${agg.name}] - ${e.reason}`, e);
    }
  });
}

/** CompositeAggregationBuilder.validateParentAggregations: `parent` is the simple name of the ancestor's ES factory class. */
export function compositeParentError(parent: string): IllegalArgumentError {
  return new IllegalArgumentError(`[composite] aggregation cannot be used with a parent aggregation of type: [${parent}]`);
}

/** A top-level composite (or one under `filter`s only: plan-aggs.ts checks the parents). */
export function planComposite(ctx: PlanContext, agg: CompositeAgg, subs: ExecAgg[], resolve: ResolveSource): ExecComposite {
  const planned = agg.sources.map((s) => planSource(s, resolve));
  const raw = agg.after === null ? null : afterShape(agg.after, planned.map((p) => p.source));
  // CompositeAggregator: a shard's queue holds `size` buckets, so `size` answers to search.max_buckets first.
  if (agg.size > DEFAULT_MAX_BUCKETS) throw new TooManyBucketsError(agg.size);
  const after = raw === null ? null : afterKey(agg, raw, planned, ctx);
  return { kind: 'composite', name: agg.name, subs, sources: planned.map((p) => p.source), size: agg.size, after, maxExtraKeySteps: MAX_EXTRA_KEY_STEPS };
}
