/**
 * `date_histogram` (ES DateHistogramAggregator, InternalDateHistogram, Rounding): a value's key is
 * the start of its calendar unit (month, week from Monday, …) or fixed interval on the wall clock of
 * `time_zone`, shifted by `offset`; a doc counts once per bucket. With `min_doc_count` 0 (the
 * default) the reduce fills the gaps between the first and last key — or `extended_bounds` — with
 * empty buckets, one `search.max_buckets` unit at a time so a tiny interval cannot exhaust memory.
 */
import { addCalendarUnits, localToUtc, parseTimeZone, roundToCalendarUnit } from '../../common/dates/index.js';
import { compiledFormat, type Segment } from '../../index/index.js';
import type { DateRounding, ExecDateHistogram, KeyedBucketsPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { collectNumberBuckets, keyRange, renderNumberBuckets } from './histogram.js';

/** The bucket key of a value, and the key after a key (ES Rounding.round and nextRoundingValue). */
export interface Rounding {
  round(v: number): number;
  next(key: number): number;
}

/** The rounding of a date_histogram or of composite's date_histogram source. */
export function rounding(agg: DateRounding): Rounding {
  const zone = parseTimeZone(agg.timeZone);
  const offset = agg.offsetMillis;
  const unit = agg.calendarUnit;
  if (unit !== null) {
    const round = (v: number) => roundToCalendarUnit(v - offset, unit, zone) + offset;
    return { round, next: (key) => round(addCalendarUnits(key - offset, unit, 1, zone) + offset) };
  }
  const ms = agg.fixedMillis;
  const fixedZone = zone.fixedOffsetMillis;
  if (fixedZone === fixedZone) {
    return { round: (v) => Math.floor((v + fixedZone - offset) / ms) * ms + offset - fixedZone, next: (key) => key + ms };
  }
  // A region zone: intervals are counted on its wall clock, which a DST change shifts.
  const round = (v: number) => {
    const local = v + zone.offsetAt(v);
    return localToUtc(zone, Math.floor((local - offset) / ms) * ms + offset, zone.offsetAt(v));
  };
  return { round, next: (key) => {
    const next = round(key + ms);
    return next > key ? next : round(key + 2 * ms);
  } };
}

export function collectDateHistogram(agg: ExecDateHistogram, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): KeyedBucketsPartial {
  return collectNumberBuckets(agg, segments, docs, sub, rounding(agg).round);
}

export function renderDateHistogram(
  agg: ExecDateHistogram, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations,
): Record<string, unknown> {
  let filled: number[] | null = null;
  if (agg.minDocCount === 0) {
    const { round, next } = rounding(agg);
    let [min, max] = keyRange(merged);
    if (agg.bounds?.min != null) min = Math.min(min, round(agg.bounds.min));
    if (agg.bounds?.max != null) max = Math.max(max, round(agg.bounds.max));
    filled = [];
    for (let k = min; k <= max; k = next(k)) {
      budget.take(1);
      filled.push(k);
    }
  }
  const format = agg.source.type === 'date' ? compiledFormat(agg.source.format!) : null;
  const zone = agg.timeZone === 'Z' ? undefined : agg.timeZone;
  return renderNumberBuckets(agg, filled, merged, budget, sub, (key) => (format === null ? null : format.format(key, zone)));
}
