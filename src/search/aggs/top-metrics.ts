/**
 * `top_metrics` (ES TopMetricsAggregator / InternalTopMetrics) in three steps. Collect: a shard
 * keeps each bucket's best `size` docs by the one sort key (a bounded heap; ties by index-wide
 * write order, so any sharding keeps the same docs) and reads their metrics: a keyword's smallest
 * term, the average of a multi-valued number (rounded for whole-number types, as ES's
 * MultiValueMode.AVG), `missing` for a doc without one. Reduce: the shards' lists merged by sort
 * value then write order, `size` kept. Render: `top: [{sort: [v], metrics: {field: v}}]`, dates
 * in their format and booleans as booleans, as ES's DocValueFormat prints them.
 */
import { termAt, type Segment } from '../../index/index.js';
import { compareSortValues, SortValueReader, TopFieldDocs, type FieldHit, type SortValue } from '../exec/field-sort.js';
import type { ExecTopMetrics, TopMetricsPartial, ValuesSource } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { formatAsString } from './key-format.js';
import { scoresOf, type DocScores } from './top-hits.js';

type MetricValue = string | number | null;

interface Candidate extends FieldHit {
  readonly segment: number;
  readonly doc: number;
}

/** One doc's value of a metric (ES's MetricValues loaders). */
function metricValue(segment: Segment, source: ValuesSource, doc: number): MetricValue {
  const { offsets, numbers, ords, field } = segmentValues(segment, source);
  const start = offsets ? offsets[doc] : 0;
  const end = offsets ? offsets[doc + 1] : 0;
  if (start === end) return source.missing;
  if (ords && field) return termAt(segment, field, ords[start]);
  if (!numbers) return null;
  if (end - start === 1) return numbers[start];
  let sum = 0;
  for (let j = start; j < end; j++) sum += numbers[j];
  const avg = sum / (end - start);
  return source.type === 'double' ? avg : Math.round(avg);
}

export function collectTopMetrics(agg: ExecTopMetrics, segments: readonly Segment[], docs: DocLists, scores: DocScores): TopMetricsPartial {
  const keys = [agg.sort];
  const top = new TopFieldDocs(keys, agg.size);
  const byScore = agg.sort.kind === 'score';
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    const segment = segments[s];
    // A score sort reads the query's scores (ES's BucketedSort.ForFloats: float scores).
    const segmentScores = byScore && scores !== null ? scoresOf(list, scores.docs[s], scores.scores[s]) : null;
    const reader = new SortValueReader(keys, segment);
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const score = segmentScores !== null ? Math.fround(segmentScores[i]) : 0;
      const hit: Candidate = { values: reader.read(doc, score), score, order: segment.indexOrder.get(doc), segment: s, doc };
      top.offer(hit);
    }
  }
  const ranked = top.sorted() as Candidate[];
  return {
    kind: 'top_metrics',
    sortValues: ranked.map((h) => h.values[0]),
    orders: ranked.map((h) => h.order),
    metrics: ranked.map((h) => agg.metrics.map((m) => metricValue(segments[h.segment], m.source, h.doc))),
  };
}

export interface ReducedTopMetric {
  readonly sortValue: SortValue;
  readonly metrics: readonly MetricValue[];
}

/** InternalTopMetrics.reduce: the shards' best merged by sort value (then write order), `size` kept. */
export function reduceTopMetrics(agg: ExecTopMetrics, parts: readonly TopMetricsPartial[]): ReducedTopMetric[] {
  const all: Array<ReducedTopMetric & { readonly order: number }> = [];
  for (const p of parts) {
    for (let i = 0; i < p.sortValues.length; i++) all.push({ sortValue: p.sortValues[i], order: p.orders[i], metrics: p.metrics[i] });
  }
  const keys = [agg.sort];
  all.sort((a, b) => compareSortValues(keys, [a.sortValue], [b.sortValue]) || a.order - b.order);
  return all.slice(0, agg.size);
}

/** InternalTopMetrics.sortValue: a metric of the best doc as a number (NaN when none, or not a number). */
export function topMetricsSortValue(reduced: readonly ReducedTopMetric[], metric: number): number {
  const v = reduced[0]?.metrics[metric];
  return typeof v === 'number' ? v : NaN;
}

/** DocValueFormat.format: dates as strings, booleans as booleans, other numbers raw (non-finite ones as Java names them). */
function renderValue(source: ValuesSource | null, v: SortValue): unknown {
  if (typeof v !== 'number') return v;
  if (!Number.isFinite(v)) return String(v);
  if (source?.type === 'date') return formatAsString(source, v);
  if (source?.type === 'boolean') return v !== 0;
  return v;
}

export function renderTopMetrics(agg: ExecTopMetrics, reduced: readonly ReducedTopMetric[]): Record<string, unknown> {
  return {
    top: reduced.map((t) => ({
      sort: [renderValue(agg.sortSource, t.sortValue)],
      metrics: Object.fromEntries(agg.metrics.map((m, i) => [m.name, renderValue(m.source, t.metrics[i])])),
    })),
  };
}
