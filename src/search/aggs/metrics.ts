/**
 * Metrics (ES Min/Max/Avg/Sum/ValueCount/Cardinality/Stats/ExtendedStatsAggregator): every value of
 * every matching doc counts (multi-valued fields contribute each value; `missing` stands in for
 * docs without one). Cardinality is exact: shards send their distinct values, the coordinator
 * unions them. Sums use Kahan compensation, as ES's CompensatedSum does. `weighted_avg` collects in
 * weighted-avg.ts into the same partial, reduced and rendered here.
 */
import { termAt, type Segment } from '../../index/index.js';
import type { ExecMetric, MetricPartial, StatsValue } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { formatAsString } from './key-format.js';
import { CompensatedSum } from './compensated-sum.js';

function emptyMetric(distinct: boolean): MetricPartial {
  return { kind: 'metric', count: 0, sum: 0, min: Infinity, max: -Infinity, sumOfSquares: 0, distinct: distinct ? [] : null };
}

export function collectMetric(agg: ExecMetric, segments: readonly Segment[], docs: DocLists): MetricPartial {
  const out = emptyMetric(agg.type === 'cardinality');
  const distinct = agg.type === 'cardinality' ? new Set<string | number>() : null;
  const squares = agg.type === 'extended_stats';
  let compensation = 0;
  let squaresCompensation = 0;
  const add = (v: number): void => {
    out.count++;
    // Kahan summation: keeps sums of many doubles as exact as ES's.
    const y = v - compensation;
    const t = out.sum + y;
    compensation = t - out.sum - y;
    out.sum = t;
    if (v < out.min) out.min = v;
    if (v > out.max) out.max = v;
    if (squares) {
      const ys = v * v - squaresCompensation;
      const ts = out.sumOfSquares + ys;
      squaresCompensation = ts - out.sumOfSquares - ys;
      out.sumOfSquares = ts;
    }
  };
  const missing = agg.source.missing;
  for (let s = 0; s < segments.length; s++) {
    const segment = segments[s];
    const list = docs[s];
    const { offsets, ords, numbers, field } = segmentValues(segment, agg.source);
    const seenOrds = distinct && ords && field ? new Uint8Array(field.info.termCount) : null;
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const start = offsets ? offsets[doc] : 0;
      const end = offsets ? offsets[doc + 1] : 0;
      if (start === end) {
        if (missing === null) continue;
        if (typeof missing === 'number') add(missing);
        else out.count++;
        distinct?.add(missing);
        continue;
      }
      if (ords) {
        // Keyword values have no numeric value: only value_count and cardinality reach here.
        out.count += end - start;
        if (seenOrds) for (let j = start; j < end; j++) seenOrds[ords[j]] = 1;
      } else if (numbers) {
        for (let j = start; j < end; j++) {
          add(numbers[j]);
          distinct?.add(numbers[j]);
        }
      }
    }
    if (seenOrds && field) for (let ord = 0; ord < seenOrds.length; ord++) if (seenOrds[ord]) distinct!.add(termAt(segment, field, ord));
  }
  if (distinct) out.distinct = [...distinct];
  return out;
}

export function reduceMetric(parts: readonly MetricPartial[]): MetricPartial {
  const out = emptyMetric(parts.some((p) => p.distinct !== null));
  const distinct = new Set<string | number>();
  const weights = new CompensatedSum();
  let weighted = false;
  let compensation = 0;
  let squaresCompensation = 0;
  for (const p of parts) {
    out.count += p.count;
    const y = p.sum - compensation;
    const t = out.sum + y;
    compensation = t - out.sum - y;
    out.sum = t;
    const ys = p.sumOfSquares - squaresCompensation;
    const ts = out.sumOfSquares + ys;
    squaresCompensation = ts - out.sumOfSquares - ys;
    out.sumOfSquares = ts;
    if (p.min < out.min) out.min = p.min;
    if (p.max > out.max) out.max = p.max;
    if (p.distinct) for (const v of p.distinct) distinct.add(v);
    if (p.weightSum !== undefined) {
      weighted = true;
      weights.add(p.weightSum);
    }
  }
  if (out.distinct) out.distinct = [...distinct];
  if (weighted) out.weightSum = weights.value;
  return out;
}

/**
 * The value a bucket order sorts by (ES SingleValue.value(), or a multi-value metric's named
 * value): empty min/max are ±Infinity, an empty avg NaN.
 */
export function metricSortValue(agg: ExecMetric, m: MetricPartial, value: StatsValue | null = null): number {
  if (agg.type === 'stats' || agg.type === 'extended_stats') {
    if (m.count === 0) return value === 'min' ? Infinity : value === 'max' ? -Infinity : value === 'count' || value === 'sum' ? 0 : NaN;
    return namedValues(m, agg.sigma ?? 2)[value!];
  }
  switch (agg.type) {
    case 'min': return m.count > 0 ? m.min : Infinity;
    case 'max': return m.count > 0 ? m.max : -Infinity;
    case 'avg': return m.count > 0 ? m.sum / m.count : NaN;
    case 'sum': return m.sum;
    case 'value_count': return m.count;
    case 'cardinality': return m.distinct!.length;
    // InternalWeightedAvg.value(): 0 / 0 when nothing was weighted.
    case 'weighted_avg': return m.sum / (m.weightSum ?? 0);
  }
}

/**
 * Every value `extended_stats` reports, for a non-empty partial (ES InternalExtendedStats): the
 * variances as (Σx² − (Σx)²/n) / n (population) or / (n − 1) (sampling), never below 0; the bounds
 * the mean ± sigma standard deviations.
 */
function namedValues(m: MetricPartial, sigma: number): Record<StatsValue, number> {
  const avg = m.sum / m.count;
  const spread = m.sumOfSquares - (m.sum * m.sum) / m.count;
  const population = Math.max(0, spread / m.count);
  const sampling = Math.max(0, spread / (m.count - 1));
  const std = Math.sqrt(population);
  const stdSampling = Math.sqrt(sampling);
  return {
    count: m.count, min: m.min, max: m.max, avg, sum: m.sum, sum_of_squares: m.sumOfSquares,
    variance: population, variance_population: population, variance_sampling: sampling,
    std_deviation: std, std_deviation_population: std, std_deviation_sampling: stdSampling,
    std_upper: avg + sigma * std, std_lower: avg - sigma * std, std_upper_population: avg + sigma * std, std_lower_population: avg - sigma * std,
    std_upper_sampling: avg + sigma * stdSampling, std_lower_sampling: avg - sigma * stdSampling,
  };
}

/** ES InternalStats: count, then min, max, avg and sum (null, and sum 0, when nothing was counted). */
function renderStats(agg: ExecMetric, m: MetricPartial): Record<string, unknown> {
  if (m.count === 0) return { count: 0, min: null, max: null, avg: null, sum: 0 };
  const values = { min: m.min, max: m.max, avg: m.sum / m.count, sum: m.sum };
  const out: Record<string, unknown> = { count: m.count, ...values };
  if (formatAsString(agg.source, m.min) !== null) {
    for (const [k, v] of Object.entries(values)) out[`${k}_as_string`] = formatAsString(agg.source, v);
  }
  return out;
}

const BOUNDS = ['upper', 'lower', 'upper_population', 'lower_population', 'upper_sampling', 'lower_sampling'] as const;
const SPREADS = ['sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population', 'std_deviation_sampling'] as const;

/**
 * ES InternalExtendedStats: the stats, then the sum of squares, variances, standard deviations and
 * `std_deviation_bounds` (all null when nothing was counted); `_as_string` forms for dates.
 */
function renderExtendedStats(agg: ExecMetric, m: MetricPartial): Record<string, unknown> {
  const out = renderStats(agg, m);
  if (m.count === 0) {
    for (const k of SPREADS) out[k] = null;
    out.std_deviation_bounds = Object.fromEntries(BOUNDS.map((b) => [b, null]));
    return out;
  }
  const v = namedValues(m, agg.sigma ?? 2);
  for (const k of SPREADS) out[k] = v[k];
  const bounds = Object.fromEntries(BOUNDS.map((b) => [b, v[`std_${b}` as StatsValue]]));
  out.std_deviation_bounds = bounds;
  if (formatAsString(agg.source, m.min) !== null) {
    for (const k of SPREADS) out[`${k}_as_string`] = formatAsString(agg.source, v[k]);
    out.std_deviation_bounds_as_string = Object.fromEntries(BOUNDS.map((b) => [b, formatAsString(agg.source, bounds[b])]));
  }
  return out;
}

/** `{ value }` (+ `value_as_string` for dates and booleans), null where ES prints null for no values. */
export function renderMetric(agg: ExecMetric, m: MetricPartial): Record<string, unknown> {
  if (agg.type === 'stats') return renderStats(agg, m);
  if (agg.type === 'extended_stats') return renderExtendedStats(agg, m);
  let value: number | null;
  switch (agg.type) {
    case 'min': value = m.count > 0 ? m.min : null; break;
    case 'max': value = m.count > 0 ? m.max : null; break;
    case 'avg': value = m.count > 0 ? m.sum / m.count : null; break;
    case 'sum': value = m.sum; break;
    case 'value_count': return { value: m.count };
    case 'cardinality': return { value: m.distinct!.length };
    // InternalWeightedAvg: null while the weights sum to 0.
    case 'weighted_avg': value = m.weightSum ? m.sum / m.weightSum : null; break;
  }
  const out: Record<string, unknown> = { value };
  const asString = value === null ? null : formatAsString(agg.source, value);
  if (asString !== null) out.value_as_string = asString;
  return out;
}
