/**
 * `histogram` (ES HistogramAggregator, InternalHistogram): bucket key
 * `floor((value - offset) / interval) * interval + offset`; a doc counts once per bucket. With
 * `min_doc_count` 0 (the default) the reduce fills the gaps between the first and last key with
 * empty buckets, after checking `search.max_buckets` so a tiny interval cannot exhaust memory.
 */
import type { Segment } from '../../index/index.js';
import type { ExecHistogram, KeyedBucketsPartial } from './exec-aggs.js';
import { KeyedBucketCollector, type DocLists } from './doc-lists.js';
import { forEachNumericValues } from './field-values.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { formatAsString, javaDouble } from './key-format.js';

/** A value's histogram key (also composite's histogram source, with offset 0). */
export function histogramKey(interval: number, offset: number, v: number): number {
  return Math.floor((v - offset) / interval) * interval + offset;
}

function bucketKey(agg: ExecHistogram, v: number): number {
  return histogramKey(agg.interval, agg.offset, v);
}

export function collectHistogram(agg: ExecHistogram, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): KeyedBucketsPartial {
  return collectNumberBuckets(agg, segments, docs, sub, (v) => bucketKey(agg, v));
}

/** Buckets by the key `keyOf` rounds each value to (histogram and date_histogram); a doc counts once per bucket. */
export function collectNumberBuckets(
  agg: Pick<ExecHistogram, 'source' | 'subs'>, segments: readonly Segment[], docs: DocLists, sub: SubAggregations, keyOf: (v: number) => number,
): KeyedBucketsPartial {
  const buckets = new KeyedBucketCollector<number>(segments.length, agg.subs.length > 0);
  forEachNumericValues(segments, docs, agg.source, (values, start, end, s, doc) => {
    let previous = NaN;
    for (let j = start; j < end; j++) {
      const key = keyOf(values[j]);
      // Values are sorted, so equal keys are adjacent: count the doc once per bucket.
      if (key !== previous) buckets.addDoc(buckets.bucketOf(key), s, doc);
      previous = key;
    }
  });
  return { kind: 'keyed_buckets', keys: buckets.keys, counts: buckets.counts, subs: sub.collect(agg.subs, segments, buckets.bucketDocs) };
}

/** The smallest and largest merged key ([Infinity, -Infinity] when there is none). */
export function keyRange(merged: Map<string | number, MergedBucket>): [min: number, max: number] {
  let min = Infinity;
  let max = -Infinity;
  for (const k of merged.keys() as Iterable<number>) {
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

export function renderHistogram(agg: ExecHistogram, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  let filled: number[] | null = null;
  if (agg.minDocCount === 0) {
    const [min, max] = keyRange(merged);
    filled = [];
    if (min <= max) {
      budget.take(Math.floor((max - min) / agg.interval) + 1);
      // Keys are recomputed from the bucket index, as ES's nextKey rounds, so gaps land on bucket keys.
      for (let k = min; k <= max; k = bucketKey(agg, k + agg.interval + agg.interval / 2)) filled.push(k);
    }
  }
  return renderNumberBuckets(agg, filled, merged, budget, sub, (key) => formatAsString(agg.source, key));
}

/** What a histogram's buckets are rendered from (histogram and date_histogram). */
interface NumberBuckets {
  readonly subs: ExecHistogram['subs'];
  readonly minDocCount: number;
  readonly keyed: boolean;
  readonly order: ExecHistogram['order'];
}

/**
 * The buckets of a histogram's keys: `filled` (min_doc_count 0: the gaps already filled and
 * counted against the budget) or else the keys with at least min_doc_count documents; sorted by
 * the order, each with `key_as_string` when `asString` gives one, keyed by it (or by the key as
 * Java prints a double) under `keyed`.
 */
export function renderNumberBuckets(
  agg: NumberBuckets, filled: number[] | null, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations,
  asString: (key: number) => string | null,
): Record<string, unknown> {
  let keys = filled;
  if (keys === null) {
    keys = ([...merged.keys()] as number[]).filter((k) => merged.get(k)!.count >= agg.minDocCount);
    budget.take(keys.length);
  }
  const order = agg.order;
  keys.sort((a, b) => {
    const c = order.key === '_key' ? a - b : (merged.get(a)?.count ?? 0) - (merged.get(b)?.count ?? 0) || a - b;
    return order.desc ? -c : c;
  });
  const buckets = keys.map((key) => {
    const out: Record<string, unknown> = {};
    const text = asString(key);
    if (text !== null) out.key_as_string = text;
    out.key = key;
    return [text ?? javaDouble(key), Object.assign(out, sub.render(agg.subs, merged.get(key), budget))] as const;
  });
  if (!agg.keyed) return { buckets: buckets.map(([, b]) => b) };
  return { buckets: Object.fromEntries(buckets) };
}
