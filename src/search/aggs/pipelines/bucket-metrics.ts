/**
 * Sibling pipelines (ES BucketMetricsPipelineAggregator and its subclasses): one result over the
 * buckets of the multi-bucket aggregation a sibling path reaches — `avg_bucket`, `sum_bucket`
 * (InternalSimpleValue), `min_bucket`, `max_bucket` (InternalBucketMetricValue, with the keys of
 * the buckets holding the value), `stats_bucket`, `extended_stats_bucket` (rendered as stats and
 * extended_stats are) and `percentiles_bucket` (nearest rank over the sorted values).
 */
import { AggregationExecutionError, IllegalArgumentError, previewInput } from '../../../errors/index.js';
import { javaDouble } from '../../../common/java-double.js';
import { containsBucketKey, parseAggregationPath, pathAsStrings } from '../../../dsl/aggs/aggregation-path.js';
import type { PipelineAgg } from '../../../dsl/aggs/agg-nodes.js';
import type { ExecMetric, MetricPartial } from '../exec-aggs.js';
import { renderMetric } from '../metrics.js';
import { findAgg, resolveBucketValue, type SubsOf } from './buckets-path.js';
import { bucketsOf, cardinality, type AggDef, type Level } from './result-tree.js';

/** The sibling pipeline's rendered result, from the aggregations of its level. */
export function siblingPipeline(p: PipelineAgg, level: Level, subsOf: SubsOf): Record<string, unknown> {
  const keys: string[] = [];
  const values: number[] = [];
  collectValues(p, level, subsOf, (key, value) => {
    keys.push(key);
    values.push(value);
  });
  return buildResult(p, keys, values);
}

/** BucketMetricsPipelineAggregator.doReduce: steps through single-bucket aggregations and `agg['key']` buckets to the multi-bucket one. */
function collectValues(p: PipelineAgg, level: Level, subsOf: SubsOf, collect: (key: string, value: number) => void): void {
  const raw = p.bucketsPaths[0];
  const path = parseAggregationPath(raw);
  let at = 0;
  let current = findAgg(level, path[0].name);
  if (current === null) return;
  while (at < path.length - 1) {
    if (current === null) {
      throw new IllegalArgumentError(`bucket_path [${previewInput(raw)}] expected aggregation with name [${previewInput(path[at].name)}] but was missing in search response`);
    }
    if (cardinality(current.agg) === 'one') {
      current = findAgg({ defs: subsOf(current.agg), body: current.body }, path[++at].name);
    } else if (containsBucketKey(path[at])) {
      const key = path[at].key!;
      if (cardinality(current.agg) !== 'many') {
        throw new AggregationExecutionError(`bucket_path [${previewInput(raw)}] indicates bucket_key [${previewInput(key)}] at position [${at}] but encountered on agg [${current.agg.name}] which is not a multi_bucket aggregation`, 500);
      }
      const bucket = bucketsOf(current.agg, current.body).find((b) => b.keyString === key.slice(1, -1));
      if (bucket === undefined) {
        throw new AggregationExecutionError(`missing bucket [${previewInput(key)}] for agg [${current.agg.name}] while extracting bucket path [${previewInput(raw)}]`, 500);
      }
      current = findAgg({ defs: subsOf(current.agg), body: bucket.body }, path[++at].name);
    } else {
      break;
    }
  }
  if (current === null || cardinality(current.agg) !== 'many') {
    throw new AggregationExecutionError(current === null ? 'did not find multi-bucket aggregation for extraction.' : `did not find multi-bucket aggregation for extraction. Found [${current.agg.name}]`, 500);
  }
  const rest = pathAsStrings(path.slice(at)).slice(1);
  const owner: AggDef = current.agg;
  for (const bucket of bucketsOf(owner, current.body)) {
    const value = resolveBucketValue(owner, bucket, subsOf, rest, p.gapPolicy);
    if (value !== null && !Number.isNaN(value)) collect(bucket.keyString, value);
  }
}

function buildResult(p: PipelineAgg, keys: readonly string[], values: readonly number[]): Record<string, unknown> {
  switch (p.type) {
    case 'sum_bucket': return simpleValue(sum(values));
    case 'avg_bucket': return simpleValue(values.length === 0 ? NaN : sum(values) / values.length);
    case 'max_bucket': return bucketMetricValue(keys, values, (a, b) => a > b, -Infinity);
    case 'min_bucket': return bucketMetricValue(keys, values, (a, b) => a < b, Infinity);
    case 'stats_bucket': case 'extended_stats_bucket': return stats(p, values);
    case 'percentiles_bucket': return percentiles(p, values);
    default: throw new Error(`not a sibling pipeline: ${p.type}`);
  }
}

function sum(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

/** InternalSimpleValue: `value`, null when NaN or infinite. */
export function simpleValue(value: number): Record<string, unknown> {
  return { value: Number.isFinite(value) ? value : null };
}

/** Max/MinBucketPipelineAggregator: the best value and every key holding it; InternalBucketMetricValue prints null for ±Infinity (no bucket). */
function bucketMetricValue(keys: readonly string[], values: readonly number[], better: (a: number, b: number) => boolean, start: number): Record<string, unknown> {
  let best = start;
  let bestKeys: string[] = [];
  values.forEach((v, i) => {
    if (better(v, best)) {
      best = v;
      bestKeys = [keys[i]];
    } else if (v === best) {
      bestKeys.push(keys[i]);
    }
  });
  return { value: Number.isFinite(best) ? best : null, keys: bestKeys };
}

/** Stats and ExtendedStatsBucketPipelineAggregator: InternalStats(Bucket) over the values, rendered as the stats metrics are (RAW format). */
function stats(p: PipelineAgg, values: readonly number[]): Record<string, unknown> {
  const m: MetricPartial = { kind: 'metric', count: 0, sum: 0, min: Infinity, max: -Infinity, sumOfSquares: 0, distinct: null };
  for (const v of values) {
    m.count++;
    m.sum += v;
    m.min = Math.min(m.min, v);
    m.max = Math.max(m.max, v);
    m.sumOfSquares += v * v;
  }
  const extended = p.type === 'extended_stats_bucket';
  const agg: ExecMetric = {
    kind: 'metric', type: extended ? 'extended_stats' : 'stats', name: p.name, subs: [],
    source: { field: '', type: 'double', format: null, missing: null }, ...(extended ? { sigma: p.sigma } : {}),
  };
  return renderMetric(agg, m);
}

/** PercentilesBucketPipelineAggregator: the value at rank round(p/100 × (n − 1)) of the sorted values; InternalPercentilesBucket's shapes. */
function percentiles(p: PipelineAgg, values: readonly number[]): Record<string, unknown> {
  const sorted = Float64Array.from(values).sort();
  const at = (percent: number): number | null => (sorted.length === 0 ? null : sorted[Math.round((percent / 100) * (sorted.length - 1))]);
  if (!p.keyed) return { values: p.percents.map((key) => ({ key, value: at(key) })) };
  return { values: Object.fromEntries(p.percents.map((key) => [javaDouble(key), at(key)])) };
}
