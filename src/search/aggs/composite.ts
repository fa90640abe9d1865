/**
 * `composite` (ES CompositeAggregator, CompositeValuesCollectorQueue, InternalComposite): a bucket
 * per combination of the sources' values a doc has (every value of each source: a doc with two
 * tags and three prices makes six keys), in key order — source by source, each ascending or
 * descending, missing values where `missing_order` puts them — and only keys after `after`.
 *
 * Memory is bounded by `size`, not by the number of distinct keys: a shard keeps at most `size`
 * buckets in a max-heap over composite keys (ES's queue). A key after the heap's largest, once the
 * heap is full, can never be among the shard's first `size` keys and is skipped; a smaller one
 * evicts the largest. Sub-aggregations are collected in a second pass over the same docs, for the
 * buckets that survived only (ES's deferred collection). The coordinator merges the shards' sorted
 * lists and keeps `size`: a key among the first `size` overall is among its shards' first `size`,
 * so the result does not depend on the number of shards.
 */
import { compiledFormat, termAt, type Segment } from '../../index/index.js';
import { IllegalArgumentError, previewInput } from '../../errors/index.js';
import type { CompositeKey, CompositePartial, ExecComposite, ExecCompositeSource } from './exec-aggs.js';
import { BucketDocs, type DocLists } from './doc-lists.js';
import { segmentValues } from './field-values.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { compareKeys } from './key-format.js';
import { histogramKey } from './histogram.js';
import { rounding } from './date-histogram.js';

type Value = string | number | null;
type Compare = (a: CompositeKey, b: CompositeKey) => number;

/** One source's order (ES SingleDimensionValuesSource.compare with MissingOrder.compareAnyValueToMissing). */
function sourceComparator(s: ExecCompositeSource): (a: Value, b: Value) => number {
  const reverse = s.desc ? -1 : 1;
  // > 0: a value sorts after the missing bucket.
  const valueVsMissing = s.missingOrder === 'first' ? 1 : s.missingOrder === 'last' ? -1 : reverse;
  return (a, b) => {
    if (a === null) return b === null ? 0 : -valueVsMissing;
    if (b === null) return valueVsMissing;
    const c = compareKeys(a, b);
    return c === 0 ? 0 : c < 0 ? -reverse : reverse;
  };
}

/** Compares keys on their first `upto + 1` sources (all of them by default). */
function compositeComparator(agg: ExecComposite): { compare: Compare; prefix: (a: CompositeKey, b: CompositeKey, upto: number) => number } {
  const bySource = agg.sources.map(sourceComparator);
  const prefix = (a: CompositeKey, b: CompositeKey, upto: number): number => {
    for (let i = 0; i <= upto; i++) {
      const c = bySource[i](a[i], b[i]);
      if (c !== 0) return c;
    }
    return 0;
  };
  return { compare: (a, b) => prefix(a, b, bySource.length - 1), prefix };
}

/** The first `capacity` keys after `after` seen so far, with their doc counts: a max-heap by key. */
class CompositeQueue {
  private readonly slotOf = new Map<string, number>();
  private readonly ids: string[] = [];
  readonly keys: CompositeKey[] = [];
  readonly counts: number[] = [];
  private readonly heap: number[] = [];

  constructor(private readonly capacity: number, private readonly compare: Compare) {}

  /** The largest key kept once the queue is full (keys after it cannot enter), else null. */
  top(): CompositeKey | null {
    return this.heap.length === this.capacity ? this.keys[this.heap[0]] : null;
  }

  /** The slot of a kept key, or -1. */
  slot(key: CompositeKey): number {
    return this.slotOf.get(JSON.stringify(key)) ?? -1;
  }

  /** Counts one doc for `key` (already known to sort after `after`). */
  add(key: CompositeKey): void {
    const id = JSON.stringify(key);
    const known = this.slotOf.get(id);
    if (known !== undefined) {
      this.counts[known]++;
      return;
    }
    if (this.heap.length < this.capacity) {
      const slot = this.keys.length;
      this.keys.push(key.slice());
      this.counts.push(1);
      this.ids.push(id);
      this.slotOf.set(id, slot);
      this.heap.push(slot);
      this.siftUp(this.heap.length - 1);
      return;
    }
    const top = this.heap[0];
    if (this.compare(key, this.keys[top]) >= 0) return;
    // The largest key leaves for good: `capacity` smaller keys are already kept.
    this.slotOf.delete(this.ids[top]);
    this.keys[top] = key.slice();
    this.counts[top] = 1;
    this.ids[top] = id;
    this.slotOf.set(id, top);
    this.siftDown(0);
  }

  /** The kept slots in key order. */
  sortedSlots(): number[] {
    return this.heap.slice().sort((a, b) => this.compare(this.keys[a], this.keys[b]));
  }

  private greater(i: number, j: number): boolean {
    return this.compare(this.keys[this.heap[i]], this.keys[this.heap[j]]) > 0;
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i];
    this.heap[i] = this.heap[j];
    this.heap[j] = t;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.greater(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < n && this.greater(l, largest)) largest = l;
      if (r < n && this.greater(r, largest)) largest = r;
      if (largest === i) return;
      this.swap(i, largest);
      i = largest;
    }
  }
}

/** A source's values of one doc of one segment: distinct, in the source's order; [null] for a missing bucket, [] for none. */
type DocValuesReader = (doc: number) => Value[];

function sourceReader(s: ExecCompositeSource, segment: Segment): DocValuesReader {
  const { offsets, ords, numbers, field } = segmentValues(segment, s.source);
  const order = sourceComparator(s);
  const none: Value[] = s.missingBucket ? [null] : [];
  const round = s.rounding !== null ? rounding(s.rounding).round : null;
  const interval = s.interval;
  const terms = new Map<number, string>();
  const valueAt = ords && field
    ? (j: number): Value => {
      const ord = ords[j];
      let term = terms.get(ord);
      if (term === undefined) terms.set(ord, (term = termAt(segment, field, ord)));
      return term;
    }
    : numbers
      ? (j: number): Value => (round !== null ? round(numbers[j]) : interval > 0 ? histogramKey(interval, 0, numbers[j]) : numbers[j])
      : null;
  return (doc) => {
    if (offsets === null || valueAt === null || offsets[doc] === offsets[doc + 1]) return none;
    const values: Value[] = [];
    for (let j = offsets[doc]; j < offsets[doc + 1]; j++) values.push(valueAt(j));
    values.sort(order);
    // Rounding makes equal keys adjacent: a doc counts once per bucket.
    let n = 0;
    for (let i = 0; i < values.length; i++) if (i === 0 || order(values[i], values[n - 1]) !== 0) values[n++] = values[i];
    values.length = n;
    return values;
  };
}

/** A pass that took more key steps than the plan allows (plan-composite.ts MAX_EXTRA_KEY_STEPS). */
function tooManyCombinations(agg: ExecComposite): IllegalArgumentError {
  return new IllegalArgumentError(
    `[composite] aggregation [${previewInput(agg.name)}] would combine more than [${agg.maxExtraKeySteps}] values of multi-valued sources on a shard: narrow the query, lower [size] or use fewer multi-valued sources`,
  );
}

/**
 * Visits every key of every doc that can still enter the queue: a prefix before `after`'s skips
 * to the source's next value, a prefix after the full queue's largest key ends the source's values
 * (they come in order, so the rest are later still).
 */
function forEachKey(
  agg: ExecComposite, segments: readonly Segment[], docs: DocLists, queue: CompositeQueue, cmp: ReturnType<typeof compositeComparator>,
  visit: (key: CompositeKey, s: number, doc: number) => void,
): void {
  const n = agg.sources.length;
  const key: CompositeKey = new Array<Value>(n).fill(null);
  const perSource: Value[][] = new Array<Value[]>(n);
  const after = agg.after;
  let s = 0;
  let doc = 0;
  // Key steps past the first value of each source of each doc (a single-valued doc costs none).
  let extraSteps = 0;
  const walk = (level: number): void => {
    const values = perSource[level];
    for (let i = 0; i < values.length; i++) {
      if (i > 0 && ++extraSteps > agg.maxExtraKeySteps) throw tooManyCombinations(agg);
      key[level] = values[i];
      if (after !== null && cmp.prefix(key, after, level) < 0) continue;
      const top = queue.top();
      if (top !== null && cmp.prefix(key, top, level) > 0) return;
      if (level < n - 1) walk(level + 1);
      else if (after === null || cmp.compare(key, after) > 0) visit(key, s, doc);
    }
  };
  for (s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    const readers = agg.sources.map((src) => sourceReader(src, segments[s]));
    for (let i = 0; i < list.length; i++) {
      doc = list[i];
      let empty = false;
      for (let k = 0; k < n && !empty; k++) {
        perSource[k] = readers[k](doc);
        empty = perSource[k].length === 0;
      }
      if (!empty) walk(0);
    }
  }
}

export function collectComposite(agg: ExecComposite, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): CompositePartial {
  const cmp = compositeComparator(agg);
  const queue = new CompositeQueue(agg.size, cmp.compare);
  forEachKey(agg, segments, docs, queue, cmp, (key) => queue.add(key));
  const slots = queue.sortedSlots();
  let subs: CompositePartial['subs'] = [];
  if (agg.subs.length > 0) {
    // Second pass: each kept bucket's docs, for its sub-aggregations.
    const rank = new Map(slots.map((slot, i) => [slot, i]));
    const bucketDocs = slots.map(() => new BucketDocs(segments.length));
    forEachKey(agg, segments, docs, queue, cmp, (key, s, doc) => {
      const slot = queue.slot(key);
      if (slot >= 0) bucketDocs[rank.get(slot)!].add(s, doc);
    });
    subs = sub.collect(agg.subs, segments, bucketDocs);
  }
  return { kind: 'composite', keys: slots.map((i) => queue.keys[i]), counts: slots.map((i) => queue.counts[i]), subs };
}

export interface CompositeBucket {
  readonly key: CompositeKey;
  readonly bucket: MergedBucket;
}

/** Merges the shards' buckets by key and keeps the first `size` (InternalComposite.reduce). */
export function reduceComposite(agg: ExecComposite, parts: readonly CompositePartial[]): CompositeBucket[] {
  const merged = new Map<string, CompositeBucket>();
  for (const p of parts) {
    for (let i = 0; i < p.keys.length; i++) {
      const id = JSON.stringify(p.keys[i]);
      let b = merged.get(id);
      if (!b) merged.set(id, (b = { key: p.keys[i], bucket: { count: 0, subs: [] } }));
      b.bucket.count += p.counts[i];
      if (p.subs.length > 0) b.bucket.subs.push(p.subs[i]);
    }
  }
  const { compare } = compositeComparator(agg);
  return [...merged.values()].sort((a, b) => compare(a.key, b.key)).slice(0, agg.size);
}

/** A key value as ES's DocValueFormat prints it: RAW numbers and strings as they are, booleans, formatted dates. */
function formatValue(s: ExecCompositeSource, v: Value): unknown {
  if (v === null || typeof v === 'string') return v;
  if (s.keyFormat === 'boolean') return v !== 0;
  if (s.keyFormat === 'date') {
    const zone = s.rounding === null || s.rounding.timeZone === 'Z' ? undefined : s.rounding.timeZone;
    return compiledFormat(s.source.format!).format(v, zone);
  }
  return v;
}

function keyObject(agg: ExecComposite, key: CompositeKey): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Source names are the client's: defined as own properties, so `__proto__` is a name like any other.
  agg.sources.forEach((s, i) => Object.defineProperty(out, s.name, { value: formatValue(s, key[i]), enumerable: true, writable: true, configurable: true }));
  return out;
}

/** `after_key` (the last bucket's key, only when there are buckets) and the buckets (CompositeAggregation.toXContentFragment). */
export function renderComposite(agg: ExecComposite, buckets: readonly CompositeBucket[], budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  budget.take(buckets.length);
  const out: Record<string, unknown> = {};
  if (buckets.length > 0) out.after_key = keyObject(agg, buckets[buckets.length - 1].key);
  out.buckets = buckets.map(({ key, bucket }) => Object.assign({ key: keyObject(agg, key) }, sub.render(agg.subs, bucket, budget)));
  return out;
}
