/**
 * `filter` and `filters` (ES FilterAggregator, FiltersAggregator): a bucket holds the parent's docs
 * that match its query; `filters` adds an `other` bucket for docs matching none. `global` (ES
 * GlobalAggregator) is one bucket of every live doc, whatever the query. Named filters
 * render as an object of buckets, anonymous ones as an array.
 */
import type { Segment } from '../../index/index.js';
import type { ExecFilter, ExecFilters, ExecGlobal, FixedBucketsPartial } from './exec-aggs.js';
import { BucketDocs, queryMatches, type DocLists } from './doc-lists.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import type { Exec } from '../plan/exec-nodes.js';

/** Buckets for `queries` (+ one for docs matching none when `other`), over the parent's docs. */
function collectQueries(queries: readonly Exec[], other: boolean, subs: ExecFilter['subs'], segments: readonly Segment[], docs: DocLists, sub: SubAggregations): FixedBucketsPartial {
  const n = queries.length + (other ? 1 : 0);
  const counts = new Array<number>(n).fill(0);
  const withSubs = subs.length > 0;
  const bucketDocs = withSubs ? Array.from({ length: n }, () => new BucketDocs(segments.length)) : [];
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    const matches = queries.map((q) => queryMatches(q, segments[s]));
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      let any = false;
      for (let q = 0; q < matches.length; q++) {
        if (matches[q][doc] === 0) continue;
        any = true;
        counts[q]++;
        if (withSubs) bucketDocs[q].add(s, doc);
      }
      if (other && !any) {
        counts[n - 1]++;
        if (withSubs) bucketDocs[n - 1].add(s, doc);
      }
    }
  }
  return { kind: 'fixed_buckets', counts, subs: sub.collect(subs, segments, bucketDocs) };
}

export function collectFilter(agg: ExecFilter, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): FixedBucketsPartial {
  return collectQueries([agg.query], false, agg.subs, segments, docs, sub);
}

export function collectFilters(agg: ExecFilters, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): FixedBucketsPartial {
  return collectQueries(agg.queries, agg.otherBucketKey !== null, agg.subs, segments, docs, sub);
}

/** `global`: `docs` are every live doc of the shard (aggregate.ts hands them over), one bucket of them all. */
export function collectGlobal(agg: ExecGlobal, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): FixedBucketsPartial {
  let count = 0;
  for (let s = 0; s < docs.length; s++) count += docs[s].length;
  const all = { toDocLists: () => docs };
  return { kind: 'fixed_buckets', counts: [count], subs: sub.collect(agg.subs, segments, [all]) };
}

/** A single-bucket aggregation (filter, global): its doc_count and sub-aggregations (ES InternalSingleBucketAggregation). */
export function renderFilter(agg: ExecFilter | ExecGlobal, bucket: MergedBucket | undefined, budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  return sub.render(agg.subs, bucket, budget);
}

export function renderFilters(agg: ExecFilters, buckets: readonly MergedBucket[], budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  const keys = agg.otherBucketKey !== null ? [...agg.keys, agg.otherBucketKey] : agg.keys;
  budget.take(keys.length);
  const rendered = keys.map((key, i) => [key, sub.render(agg.subs, buckets[i], budget)] as const);
  if (!agg.named) return { buckets: rendered.map(([, b]) => b) };
  return { buckets: Object.fromEntries(rendered) };
}
