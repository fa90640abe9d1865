/**
 * Parent pipelines over a histogram's buckets, in key order (ES CumulativeSumPipelineAggregator,
 * DerivativePipelineAggregator, SerialDiffPipelineAggregator): each adds its result to the
 * buckets it has one for, after the bucket's other aggregations.
 */
import { parseAggregationPath, pathAsStrings } from '../../../dsl/aggs/aggregation-path.js';
import type { PipelineAgg } from '../../../dsl/aggs/agg-nodes.js';
import { resolveBucketValue, type SubsOf } from './buckets-path.js';
import { simpleValue } from './bucket-metrics.js';
import { withMeta, type AggDef, type BucketView } from './result-tree.js';

export function histogramPipeline(p: PipelineAgg, owner: AggDef, buckets: readonly BucketView[], subsOf: SubsOf): void {
  const path = pathAsStrings(parseAggregationPath(p.bucketsPaths[0]));
  if (p.type === 'cumulative_sum') cumulativeSum(p, owner, buckets, subsOf, path);
  else if (p.type === 'derivative') derivative(p, owner, buckets, subsOf, path);
  else serialDiff(p, owner, buckets, subsOf, path);
}

/** The running sum of the finite values (gaps read as zeros, as ES forces insert_zeros), on every bucket. */
function cumulativeSum(p: PipelineAgg, owner: AggDef, buckets: readonly BucketView[], subsOf: SubsOf, path: readonly string[]): void {
  let sum = 0;
  for (const b of buckets) {
    const v = resolveBucketValue(owner, b, subsOf, path, 'insert_zeros');
    if (v !== null && Number.isFinite(v)) sum += v;
    b.body[p.name] = withMeta(p, simpleValue(sum));
  }
}

/**
 * The difference with the previous bucket's value (none on the first bucket, NaN — null — next to
 * a skipped gap); with `unit`, also divided by the keys' distance in that unit (`normalized_value`).
 */
function derivative(p: PipelineAgg, owner: AggDef, buckets: readonly BucketView[], subsOf: SubsOf, path: readonly string[]): void {
  let lastKey = 0;
  let lastValue: number | null = null;
  for (const b of buckets) {
    const key = typeof b.body.key === 'number' ? b.body.key : NaN;
    const value = resolveBucketValue(owner, b, subsOf, path, p.gapPolicy);
    if (lastValue !== null && value !== null) {
      const gradient = value - lastValue;
      const out = simpleValue(gradient);
      if (p.unitMillis !== null) {
        // InternalDerivative: normalized_value only for a positive key distance.
        const xDiff = (key - lastKey) / p.unitMillis;
        if (xDiff > 0) out.normalized_value = Number.isFinite(gradient / xDiff) ? gradient / xDiff : null;
      }
      b.body[p.name] = withMeta(p, out);
    }
    lastKey = key;
    lastValue = value;
  }
}

/** The difference with the value `lag` buckets back, where both are known. */
function serialDiff(p: PipelineAgg, owner: AggDef, buckets: readonly BucketView[], subsOf: SubsOf, path: readonly string[]): void {
  const values: number[] = [];
  buckets.forEach((b, i) => {
    const resolved = resolveBucketValue(owner, b, subsOf, path, p.gapPolicy);
    const value = resolved === null ? NaN : resolved;
    // ES keeps the last `lag` values in an EvictingQueue: its head is the value `lag` buckets back.
    const lagValue = i < p.lag ? NaN : values[i - p.lag];
    if (!Number.isNaN(value) && !Number.isNaN(lagValue)) b.body[p.name] = withMeta(p, simpleValue(value - lagValue));
    values.push(value);
  });
}
