/**
 * Single-value metrics (ES Min/Max/Avg/Sum/ValueCount/CardinalityAggregator): every value of
 * every matching doc counts (multi-valued fields contribute each value; `missing` stands in for
 * docs without one). Cardinality is exact: shards send their distinct values, the coordinator
 * unions them. Sums use Kahan compensation, as ES's CompensatedSum does.
 */
import { termAt, type Segment } from '../../index/index.js';
import type { ExecMetric, MetricPartial, StatsValue } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { formatAsString } from './key-format.js';

function emptyMetric(distinct: boolean): MetricPartial {
  return { kind: 'metric', count: 0, sum: 0, min: Infinity, max: -Infinity, distinct: distinct ? [] : null };
}

export function collectMetric(agg: ExecMetric, segments: readonly Segment[], docs: DocLists): MetricPartial {
  const out = emptyMetric(agg.type === 'cardinality');
  const distinct = agg.type === 'cardinality' ? new Set<string | number>() : null;
  let compensation = 0;
  const add = (v: number): void => {
    out.count++;
    // Kahan summation: keeps sums of many doubles as exact as ES's.
    const y = v - compensation;
    const t = out.sum + y;
    compensation = t - out.sum - y;
    out.sum = t;
    if (v < out.min) out.min = v;
    if (v > out.max) out.max = v;
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
  let compensation = 0;
  for (const p of parts) {
    out.count += p.count;
    const y = p.sum - compensation;
    const t = out.sum + y;
    compensation = t - out.sum - y;
    out.sum = t;
    if (p.min < out.min) out.min = p.min;
    if (p.max > out.max) out.max = p.max;
    if (p.distinct) for (const v of p.distinct) distinct.add(v);
  }
  if (out.distinct) out.distinct = [...distinct];
  return out;
}

/**
 * The value a bucket order sorts by (ES SingleValue.value(), or a multi-value metric's named
 * value): empty min/max are ±Infinity, an empty avg NaN.
 */
export function metricSortValue(agg: ExecMetric, m: MetricPartial, value: StatsValue | null = null): number {
  const type = agg.type === 'stats' ? (value === 'count' ? 'value_count' : value!) : agg.type;
  switch (type) {
    case 'min': return m.count > 0 ? m.min : Infinity;
    case 'max': return m.count > 0 ? m.max : -Infinity;
    case 'avg': return m.count > 0 ? m.sum / m.count : NaN;
    case 'sum': return m.sum;
    case 'value_count': return m.count;
    case 'cardinality': return m.distinct!.length;
  }
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

/** `{ value }` (+ `value_as_string` for dates and booleans), null where ES prints null for no values. */
export function renderMetric(agg: ExecMetric, m: MetricPartial): Record<string, unknown> {
  if (agg.type === 'stats') return renderStats(agg, m);
  let value: number | null;
  switch (agg.type) {
    case 'min': value = m.count > 0 ? m.min : null; break;
    case 'max': value = m.count > 0 ? m.max : null; break;
    case 'avg': value = m.count > 0 ? m.sum / m.count : null; break;
    case 'sum': value = m.sum; break;
    case 'value_count': return { value: m.count };
    case 'cardinality': return { value: m.distinct!.length };
  }
  const out: Record<string, unknown> = { value };
  const asString = value === null ? null : formatAsString(agg.source, value);
  if (asString !== null) out.value_as_string = asString;
  return out;
}
