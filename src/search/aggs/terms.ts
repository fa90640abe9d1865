/**
 * `terms` (ES TermsAggregator / InternalTerms): one bucket per distinct value of the matching docs
 * (a doc counts once per value, however often it repeats). Shards return every bucket, so counts
 * are exact whatever the shard count: `doc_count_error_upper_bound` is 0 and
 * `sum_other_doc_count` counts the docs of the buckets beyond `size` (among those meeting
 * `min_doc_count`), as ES reports them when shards return all their terms.
 */
import { compileRegexp, matches } from '../../common/pattern/index.js';
import { termAt, type Segment } from '../../index/index.js';
import type { TermsFilter } from '../../dsl/aggs/agg-nodes.js';
import type { ExecAgg, ExecBucketOrder, ExecTerms, KeyedBucketsPartial } from './exec-aggs.js';
import { KeyedBucketCollector, type DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import { compareDoubles, type BucketBudget, type MergedBucket, type SubAggregations } from './buckets.js';
import { compareKeys, formatAsString } from './key-format.js';

/** What collecting terms reads (rare_terms collects as terms with a min_doc_count of 1). */
export type TermsCollection = Pick<ExecTerms, 'source' | 'subs' | 'minDocCount'>;

export function collectTerms(agg: TermsCollection, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): KeyedBucketsPartial {
  const withSubs = agg.subs.length > 0;
  const buckets = new KeyedBucketCollector<string | number>(segments.length, withSubs);
  const bucketOf = (key: string | number): number => buckets.bucketOf(key);
  const addDoc = (b: number, s: number, doc: number): void => buckets.addDoc(b, s, doc);
  const { counts, bucketDocs } = buckets;
  const missing = agg.source.missing;
  for (let s = 0; s < segments.length; s++) {
    const segment = segments[s];
    const list = docs[s];
    const { offsets, ords, numbers, field } = segmentValues(segment, agg.source);
    if (ords && field && offsets) {
      // Count per ordinal first and resolve each ordinal's term once.
      const termCount = field.info.termCount;
      const local = new Int32Array(termCount);
      const localBucket = withSubs ? new Int32Array(termCount).fill(-1) : null;
      for (let i = 0; i < list.length; i++) {
        const doc = list[i];
        const start = offsets[doc];
        const end = offsets[doc + 1];
        if (start === end) {
          if (missing !== null) addDoc(bucketOf(missing), s, doc);
          continue;
        }
        for (let j = start; j < end; j++) {
          const ord = ords[j];
          local[ord]++;
          if (localBucket) {
            if (localBucket[ord] < 0) localBucket[ord] = bucketOf(termAt(segment, field, ord));
            bucketDocs[localBucket[ord]].add(s, doc);
          }
        }
      }
      for (let ord = 0; ord < termCount; ord++) {
        if (local[ord] > 0 || agg.minDocCount === 0) counts[bucketOf(termAt(segment, field, ord))] += local[ord];
      }
    } else if (numbers && offsets) {
      for (let i = 0; i < list.length; i++) {
        const doc = list[i];
        const start = offsets[doc];
        const end = offsets[doc + 1];
        if (start === end && missing !== null) addDoc(bucketOf(missing), s, doc);
        for (let j = start; j < end; j++) {
          if (j > start && numbers[j] === numbers[j - 1]) continue;
          addDoc(bucketOf(numbers[j]), s, doc);
        }
      }
      // min_doc_count 0 lists every value the field has in the segment, matching or not.
      if (agg.minDocCount === 0) for (let j = 0; j < numbers.length; j++) bucketOf(numbers[j]);
    } else if (missing !== null) {
      for (let i = 0; i < list.length; i++) addDoc(bucketOf(missing), s, list[i]);
    }
  }
  return { kind: 'keyed_buckets', keys: buckets.keys, counts, subs: sub.collect(agg.subs, segments, bucketDocs) };
}

/**
 * A predicate for `include` / `exclude` (ES IncludeExclude). Regular expressions are Lucene's, run
 * as an automaton over the whole key (linear time: a client's `(a+)+b` cannot stall the
 * coordinator); exact values compare as the key's type (numbers by value, `true`/`false` as 1/0).
 */
export function termsFilter(f: TermsFilter, source: ExecTerms['source']): (key: string | number) => boolean {
  if ('regex' in f) {
    const dfa = compileRegexp(f.regex);
    return (key) => matches(dfa, typeof key === 'number' ? formatAsString(source, key) ?? String(key) : key);
  }
  const numeric = source.type === 'long' || source.type === 'double' || source.type === 'boolean';
  const set = new Set<string | number>(f.values.map((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    return numeric && typeof v === 'string' ? Number(v) : v;
  }));
  // Dates and booleans may also be listed as their formatted strings.
  return (key) => set.has(key) || (typeof key === 'number' && set.has(formatAsString(source, key) ?? ''));
}

/** What a terms-like aggregation (terms, multi_terms) ranks its buckets by. */
export interface BucketRanking {
  readonly order: readonly ExecBucketOrder[];
  readonly size: number;
  readonly subs: readonly ExecAgg[];
}

/**
 * The last step of InternalTerms.reduce: the eligible buckets sorted by `order` (a sub-aggregation
 * path reduced once per bucket, before sorting), the first `size` shown, the docs of the others
 * summed for `sum_other_doc_count`.
 */
export function rankBuckets<K>(
  spec: BucketRanking, eligible: Array<[K, MergedBucket]>, sub: SubAggregations, compareKey: (a: K, b: K) => number,
): { readonly shown: Array<[K, MergedBucket]>; readonly other: number } {
  const byPath = spec.order.map((o) => (o.key === 'path' ? new Map(eligible.map(([, b]) => [b, sub.orderValue(spec.subs, b, o)])) : null));
  eligible.sort(([ka, a], [kb, b]) => {
    for (let i = 0; i < spec.order.length; i++) {
      const o = spec.order[i];
      const values = byPath[i];
      const c = o.key === '_count' ? a.count - b.count : values ? compareDoubles(values.get(a)!, values.get(b)!) : compareKey(ka, kb);
      if (c !== 0) return o.desc ? -c : c;
    }
    return 0;
  });
  const shown = eligible.slice(0, spec.size);
  let other = 0;
  for (let i = shown.length; i < eligible.length; i++) other += eligible[i][1].count;
  return { shown, other };
}

export function renderTerms(agg: ExecTerms, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  const include = agg.include ? termsFilter(agg.include, agg.source) : null;
  const exclude = agg.exclude ? termsFilter(agg.exclude, agg.source) : null;
  const eligible: Array<[string | number, MergedBucket]> = [];
  for (const entry of merged) {
    if (entry[1].count < agg.minDocCount) continue;
    if ((include && !include(entry[0])) || (exclude && exclude(entry[0]))) continue;
    eligible.push(entry);
  }
  const { shown, other } = rankBuckets(agg, eligible, sub, compareKeys);
  budget.take(shown.length);
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: shown.map(([key, b]) => renderTermBucket(agg, key, b, budget, sub)),
  };
}

/** A bucket of terms (or rare_terms): its key (+ `key_as_string` for dates and booleans), doc_count, sub-aggregations. */
export function renderTermBucket(
  agg: Pick<ExecTerms, 'source' | 'subs'>, key: string | number, bucket: MergedBucket, budget: BucketBudget, sub: SubAggregations,
): Record<string, unknown> {
  const out: Record<string, unknown> = { key };
  const asString = typeof key === 'number' ? formatAsString(agg.source, key) : null;
  if (asString !== null) out.key_as_string = asString;
  return Object.assign(out, sub.render(agg.subs, bucket, budget));
}
