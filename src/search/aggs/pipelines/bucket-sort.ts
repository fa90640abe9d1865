/**
 * ES BucketSortPipelineAggregator: sorts the parent's buckets by `_key`, `_count` or sub-aggregation
 * paths (a stable sort; a bucket whose every sort value is a skipped gap is dropped, a missing value
 * sorts last), then keeps `size` buckets from `from`. Without a sort it only truncates.
 */
import { parseAggregationPath, pathAsStrings } from '../../../dsl/aggs/aggregation-path.js';
import type { PipelineAgg } from '../../../dsl/aggs/agg-nodes.js';
import { compareKeys } from '../key-format.js';
import { compareDoubles } from '../buckets.js';
import { resolveBucketValue, type SubsOf } from './buckets-path.js';
import type { AggDef, BucketView } from './result-tree.js';

type SortValue = number | string | undefined;

export function bucketSort(p: PipelineAgg, owner: AggDef, buckets: readonly BucketView[], subsOf: SubsOf): BucketView[] {
  const size = p.size ?? buckets.length;
  if (p.from >= buckets.length) return [];
  if (p.sort.length === 0) return buckets.slice(p.from, p.from + size);
  const paths = p.sort.map((s) => (s.path === '_key' ? null : pathAsStrings(parseAggregationPath(s.path))));
  const skippable = p.gapPolicy !== 'insert_zeros';
  const rows: Array<{ bucket: BucketView; values: SortValue[] }> = [];
  for (const bucket of buckets) {
    const values = paths.map((path): SortValue => {
      if (path === null) return sortableKey(bucket);
      const v = resolveBucketValue(owner, bucket, subsOf, path, p.gapPolicy);
      return v === null || (skippable && Number.isNaN(v)) ? undefined : v;
    });
    if (values.some((v) => v !== undefined)) rows.push({ bucket, values });
  }
  rows.sort((a, b) => {
    for (let i = 0; i < p.sort.length; i++) {
      const x = a.values[i];
      const y = b.values[i];
      if (x === undefined && y === undefined) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? compareDoubles(x, y) : compareKeys(x, y);
      if (c !== 0) return p.sort[i].desc ? -c : c;
    }
    return 0;
  });
  return rows.slice(p.from, p.from + size).map((r) => r.bucket);
}

/** InternalBucket.getKey as a Comparable: numbers (dates as millis), or strings. */
function sortableKey(bucket: BucketView): SortValue {
  const key = bucket.body.key;
  return typeof key === 'number' || typeof key === 'string' ? key : bucket.keyString;
}
