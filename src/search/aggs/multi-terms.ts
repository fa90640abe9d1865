/**
 * `multi_terms` (ES MultiTermsAggregator / InternalMultiTerms): a bucket per combination of its
 * terms' values in a doc (every combination of multi-valued fields; a doc lacking a field, with
 * no `missing`, makes none). Keys travel as the JSON text of the value tuple, so terms' keyed
 * merge adds the shards up; shards return every bucket, so counts are exact and ranking is terms'
 * (rankBuckets). Keys print as ES's KeyConverters do: dates formatted, booleans as booleans, and
 * `key_as_string` the values joined with `|`.
 */
import { IllegalArgumentError, previewInput } from '../../errors/index.js';
import { termAt, type Segment } from '../../index/index.js';
import type { ExecMultiTerms, KeyedBucketsPartial, ValuesSource } from './exec-aggs.js';
import { KeyedBucketCollector, type DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { compareKeys, formatAsString, javaDouble } from './key-format.js';
import { rankBuckets } from './terms.js';

/**
 * Combinations past one per doc a shard may make: multi-valued terms multiply (three fields of 100
 * values are a million keys for one doc), and every distinct combination is a bucket held in memory.
 */
export const MAX_EXTRA_COMBINATIONS = 1_000_000;

type Term = string | number;

/** A doc's distinct values of one source (its `missing` when it has none; [] without one). */
function valuesReader(segment: Segment, source: ValuesSource): (doc: number) => readonly Term[] {
  const { offsets, ords, numbers, field } = segmentValues(segment, source);
  const none: readonly Term[] = source.missing === null ? [] : [source.missing];
  if (offsets && ords && field) {
    const terms = new Map<number, string>();
    return (doc) => {
      const start = offsets[doc];
      const end = offsets[doc + 1];
      if (start === end) return none;
      const out: Term[] = [];
      for (let j = start; j < end; j++) {
        let term = terms.get(ords[j]);
        if (term === undefined) terms.set(ords[j], (term = termAt(segment, field, ords[j])));
        out.push(term);
      }
      return out;
    };
  }
  if (offsets && numbers) {
    return (doc) => {
      const start = offsets[doc];
      const end = offsets[doc + 1];
      if (start === end) return none;
      const out: Term[] = [];
      for (let j = start; j < end; j++) if (j === start || numbers[j] !== numbers[j - 1]) out.push(numbers[j]);
      return out;
    };
  }
  return () => none;
}

function tooManyCombinations(agg: ExecMultiTerms): IllegalArgumentError {
  return new IllegalArgumentError(
    `[multi_terms] aggregation [${previewInput(agg.name)}] would combine more than [${MAX_EXTRA_COMBINATIONS}] values of multi-valued terms on a shard: narrow the query or use fewer multi-valued fields`,
  );
}

export function collectMultiTerms(agg: ExecMultiTerms, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): KeyedBucketsPartial {
  const buckets = new KeyedBucketCollector<string>(segments.length, agg.subs.length > 0);
  const n = agg.sources.length;
  const values: Array<readonly Term[]> = new Array(n);
  const combo: Term[] = new Array(n);
  let extra = 0;
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    const readers = agg.sources.map((source) => valuesReader(segments[s], source));
    docs: for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      let count = 1;
      for (let f = 0; f < n; f++) {
        values[f] = readers[f](doc);
        if (values[f].length === 0) continue docs;
        count *= values[f].length;
        if (count - 1 + extra > MAX_EXTRA_COMBINATIONS) throw tooManyCombinations(agg);
      }
      extra += count - 1;
      for (let c = 0; c < count; c++) {
        let rest = c;
        for (let f = n - 1; f >= 0; f--) {
          combo[f] = values[f][rest % values[f].length];
          rest = Math.floor(rest / values[f].length);
        }
        buckets.addDoc(buckets.bucketOf(JSON.stringify(combo)), s, doc);
      }
    }
  }
  return { kind: 'keyed_buckets', keys: buckets.keys, counts: buckets.counts, subs: sub.collect(agg.subs, segments, buckets.bucketDocs) };
}

/** InternalMultiTerms.TermsComparator: the values in turn, each in its natural order. */
function compareTuples(a: readonly Term[], b: readonly Term[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareKeys(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** KeyConverter.convert: what a value of the key array prints as. */
function keyValue(source: ValuesSource, v: Term): unknown {
  if (typeof v === 'string') return v;
  if (source.type === 'date') return formatAsString(source, v);
  if (source.type === 'boolean') return v !== 0;
  // An unmapped field's `missing` is a keyword (ES resolves unmapped terms as KEYWORD).
  return source.type === 'unmapped' ? String(v) : v;
}

/** Its `toString()`, as `key_as_string` joins them (Java's Double.toString for doubles). */
function keyString(source: ValuesSource, v: Term): string {
  const shown = keyValue(source, v);
  return typeof shown === 'number' && source.type === 'double' ? javaDouble(shown) : String(shown);
}

export function renderMultiTerms(agg: ExecMultiTerms, merged: Map<string | number, MergedBucket>, budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  const eligible: Array<[Term[], MergedBucket]> = [];
  for (const [key, bucket] of merged) if (bucket.count >= agg.minDocCount) eligible.push([JSON.parse(key as string) as Term[], bucket]);
  const { shown, other } = rankBuckets(agg, eligible, sub, compareTuples);
  budget.take(shown.length);
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: shown.map(([key, b]) => {
      const body = sub.render(agg.subs, b, budget);
      const out: Record<string, unknown> = {
        key: key.map((v, i) => keyValue(agg.sources[i], v)),
        key_as_string: key.map((v, i) => keyString(agg.sources[i], v)).join('|'),
        doc_count: body.doc_count,
      };
      if (agg.showTermDocCountError) out.doc_count_error_upper_bound = 0;
      return Object.assign(out, body);
    }),
  };
}
