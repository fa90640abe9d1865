/**
 * `range` / `date_range` (ES RangeAggregator, InternalRange): a doc counts once in every range one
 * of its values falls in (`from` inclusive, `to` exclusive). Keys default to "from-to" with "*"
 * for an open end, numbers printed as Java doubles ("10.0-20.0") and dates with the format.
 */
import type { Segment } from '../../index/index.js';
import type { ExecRange, ExecRangeBucket, FixedBucketsPartial } from './exec-aggs.js';
import { BucketDocs, type DocLists } from './doc-lists.js';
import { forEachNumericValues } from './field-values.js';
import type { BucketBudget, MergedBucket, SubAggregations } from './buckets.js';
import { formatAsString, javaDouble } from './key-format.js';

export function collectRange(agg: ExecRange, segments: readonly Segment[], docs: DocLists, sub: SubAggregations): FixedBucketsPartial {
  const ranges = agg.ranges;
  const counts = new Array<number>(ranges.length).fill(0);
  const withSubs = agg.subs.length > 0;
  const bucketDocs = withSubs ? ranges.map(() => new BucketDocs(segments.length)) : [];
  forEachNumericValues(segments, docs, agg.source, (values, start, end, s, doc) => {
    for (let r = 0; r < ranges.length; r++) {
      const { from, to } = ranges[r];
      let hit = false;
      for (let j = start; j < end && !hit; j++) hit = values[j] >= from && values[j] < to;
      if (!hit) continue;
      counts[r]++;
      if (withSubs) bucketDocs[r].add(s, doc);
    }
  });
  return { kind: 'fixed_buckets', counts, subs: sub.collect(agg.subs, segments, bucketDocs) };
}

function boundText(agg: ExecRange, v: number): string {
  return agg.type === 'date_range' ? formatAsString(agg.source, v) ?? javaDouble(v) : javaDouble(v);
}

function rangeKey(agg: ExecRange, r: ExecRangeBucket): string {
  if (r.key !== null) return r.key;
  return `${r.from === -Infinity ? '*' : boundText(agg, r.from)}-${r.to === Infinity ? '*' : boundText(agg, r.to)}`;
}

export function renderRange(agg: ExecRange, buckets: readonly MergedBucket[], budget: BucketBudget, sub: SubAggregations): Record<string, unknown> {
  budget.take(agg.ranges.length);
  const rendered = agg.ranges.map((r, i) => {
    const out: Record<string, unknown> = {};
    if (!agg.keyed) out.key = rangeKey(agg, r);
    if (r.from !== -Infinity) {
      out.from = r.from;
      if (agg.type === 'date_range') out.from_as_string = boundText(agg, r.from);
    }
    if (r.to !== Infinity) {
      out.to = r.to;
      if (agg.type === 'date_range') out.to_as_string = boundText(agg, r.to);
    }
    return [rangeKey(agg, r), Object.assign(out, sub.render(agg.subs, buckets[i], budget))] as const;
  });
  if (!agg.keyed) return { buckets: rendered.map(([, b]) => b) };
  return { buckets: Object.fromEntries(rendered) };
}
