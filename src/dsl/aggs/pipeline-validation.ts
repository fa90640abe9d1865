/**
 * The pipeline checks of ES SearchRequest.validate (AggregatorFactories.Builder.validate): at each
 * level of the tree, the pipelines' order (a pipeline reading another runs after it; every path must
 * name an aggregation of the level), then each pipeline's own checks (a sibling pipeline reads a
 * multi-bucket aggregation, a parent pipeline sits in a histogram…). Every problem is collected into
 * one action_request_validation_exception, as ES does.
 */
import { ActionRequestValidationError, IllegalArgumentError, previewInput } from '../../errors/index.js';
import type { AggNode, PipelineAgg } from './agg-nodes.js';
import { containsBucketKey, parseAggregationPath, pathAsStrings } from './aggregation-path.js';

export function validatePipelines(aggs: readonly AggNode[]): void {
  const errors: string[] = [];
  validateLevel(aggs, null, errors);
  validateChildren(aggs, errors);
  if (errors.length > 0) throw new ActionRequestValidationError(errors);
}

function validateChildren(aggs: readonly AggNode[], errors: string[]): void {
  for (const agg of aggs) {
    if (agg.kind === 'pipeline') continue;
    validateLevel(agg.subs, agg, errors);
    validateChildren(agg.subs, errors);
  }
}

function validateLevel(level: readonly AggNode[], parent: AggNode | null, errors: string[]): void {
  let ordered: PipelineAgg[];
  try {
    ordered = resolvePipelineOrder(level);
  } catch (e) {
    if (!(e instanceof IllegalArgumentError)) throw e;
    errors.push(e.message);
    return;
  }
  for (const p of ordered) validateOne(p, level, parent, errors);
}

/**
 * AggregatorFactories.Builder.resolvePipelineAggregatorOrder: the level's pipelines, each after the
 * pipelines its paths read (a depth-first walk, iterative so a long chain cannot overflow the stack).
 */
export function resolvePipelineOrder(level: readonly AggNode[]): PipelineAgg[] {
  const aggs = new Map<string, AggNode>();
  const pipelines = new Map<string, PipelineAgg>();
  for (const a of level) {
    if (a.kind === 'pipeline') pipelines.set(a.name, a);
    else aggs.set(a.name, a);
  }
  const unmarked = new Set(pipelines.values());
  const marked = new Set<PipelineAgg>();
  const ordered: PipelineAgg[] = [];
  for (const start of pipelines.values()) {
    if (!unmarked.has(start)) continue;
    const stack = [{ p: start, next: 0 }];
    marked.add(start);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next < frame.p.bucketsPaths.length) {
        const dep = dependency(frame.p.bucketsPaths[frame.next++], aggs, pipelines);
        if (dep === null || !unmarked.has(dep)) continue;
        if (marked.has(dep)) throw new IllegalArgumentError(`Cyclical dependency found with pipeline aggregator [${dep.name}]`);
        marked.add(dep);
        stack.push({ p: dep, next: 0 });
      } else {
        stack.pop();
        marked.delete(frame.p);
        unmarked.delete(frame.p);
        ordered.push(frame.p);
      }
    }
  }
  return ordered;
}

/** The pipeline a path reads first, or null when it reads an aggregation (whose path must exist). */
function dependency(path: string, aggs: ReadonlyMap<string, AggNode>, pipelines: ReadonlyMap<string, PipelineAgg>): PipelineAgg | null {
  if (path === '_count' || path === '_key') return null;
  const elements = parseAggregationPath(path);
  const first = elements[0]?.name;
  let agg = first === undefined ? undefined : aggs.get(first);
  if (agg === undefined) {
    const p = first === undefined ? undefined : pipelines.get(first);
    if (p === undefined) throw new IllegalArgumentError(`No aggregation found for path [${previewInput(path)}]`);
    return p;
  }
  for (let i = 1; i < elements.length; i++) {
    const name = elements[i].name;
    const last = i === elements.length - 1;
    if (last && (name.toLowerCase() === '_key' || name === '_count')) break;
    const sub: AggNode | undefined = agg.subs.find((s) => s.kind !== 'pipeline' && s.name === name)
      ?? (last ? agg.subs.find((s) => s.kind === 'pipeline' && s.name === name) : undefined);
    if (sub === undefined) throw new IllegalArgumentError(`No aggregation [${previewInput(name)}] found for path [${previewInput(path)}]`);
    agg = sub;
  }
  return null;
}

function validateOne(p: PipelineAgg, level: readonly AggNode[], parent: AggNode | null, errors: string[]): void {
  switch (p.type) {
    case 'cumulative_sum':
      if (p.bucketsPaths.length !== 1) errors.push(`buckets_path must contain a single entry for aggregation [${p.name}]`);
      sequentiallyOrdered(p, parent, false, errors);
      return;
    case 'serial_diff': sequentiallyOrdered(p, parent, false, errors); return;
    case 'derivative': sequentiallyOrdered(p, parent, true, errors); return;
    case 'bucket_sort':
      // ValidationContext.validateHasParent; ES then fails at reduce time under a single-bucket parent.
      if (parent === null) errors.push(`bucket_sort aggregation [${p.name}] must be declared inside of another aggregation`);
      else if (cardinality(parent) !== 'many') errors.push(`bucket_sort aggregation [${p.name}] must be declared inside a multi-bucket aggregation`);
      if (p.sort.length === 0 && p.size === null && p.from === 0) {
        errors.push(`[${p.name}] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort`);
      }
      return;
    default: bucketMetricsPath(p, level, errors);
  }
}

/**
 * ValidationContext.validateParentAggSequentiallyOrdered (…WithoutSkips for derivative, which also
 * needs every bucket: min_doc_count 0).
 */
function sequentiallyOrdered(p: PipelineAgg, parent: AggNode | null, withoutSkips: boolean, errors: string[]): void {
  if (parent === null) {
    errors.push(`${p.type} aggregation [${p.name}] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent`);
  } else if (parent.kind === 'histogram' || parent.kind === 'date_histogram') {
    if (withoutSkips && parent.minDocCount !== 0) errors.push(`parent histogram of ${p.type} aggregation [${p.name}] must have min_doc_count of 0`);
  } else {
    errors.push(`${p.type} aggregation [${p.name}] must have a histogram, date_histogram or auto_date_histogram as parent`);
  }
}

export type BucketCardinality = 'none' | 'one' | 'many';

const MULTI_BUCKET: ReadonlySet<string> = new Set(['terms', 'multi_terms', 'rare_terms', 'histogram', 'date_histogram', 'range', 'date_range', 'filters', 'composite']);

/** AggregationBuilder.bucketCardinality, by the kind of a parsed or a planned aggregation (`filter` covers `missing`). */
export function bucketCardinality(kind: string): BucketCardinality {
  return MULTI_BUCKET.has(kind) ? 'many' : kind === 'filter' || kind === 'global' ? 'one' : 'none';
}

function cardinality(agg: AggNode): BucketCardinality {
  return bucketCardinality(agg.kind);
}

/** The builder classes ES names when a sibling pipeline's path does not reach a multi-bucket aggregation. */
const BUILDER_CLASS: Readonly<Record<string, string>> = {
  filter: 'bucket.filter.FilterAggregationBuilder', global: 'bucket.global.GlobalAggregationBuilder', min: 'metrics.MinAggregationBuilder', max: 'metrics.MaxAggregationBuilder',
  avg: 'metrics.AvgAggregationBuilder', sum: 'metrics.SumAggregationBuilder', value_count: 'metrics.ValueCountAggregationBuilder',
  cardinality: 'metrics.CardinalityAggregationBuilder', stats: 'metrics.StatsAggregationBuilder', extended_stats: 'metrics.ExtendedStatsAggregationBuilder',
  percentiles: 'metrics.PercentilesAggregationBuilder', percentile_ranks: 'metrics.PercentileRanksAggregationBuilder',
  median_absolute_deviation: 'metrics.MedianAbsoluteDeviationAggregationBuilder', weighted_avg: 'metrics.WeightedAvgAggregationBuilder', top_hits: 'metrics.TopHitsAggregationBuilder',
};

/**
 * BucketMetricsPipelineAggregationBuilder.validate: the path's first element is a sibling
 * aggregation; single-bucket aggregations with sub-aggregations and multi-bucket ones with a bucket
 * key (`terms['a']`) are stepped through; where that stops must be a multi-bucket aggregation.
 */
function bucketMetricsPath(p: PipelineAgg, level: readonly AggNode[], errors: string[]): void {
  const raw = p.bucketsPaths[0];
  const path = parseAggregationPath(raw);
  const siblings = level.filter((a) => a.kind !== 'pipeline');
  let pos = 0;
  let current = path[pos++];
  let agg: AggNode | undefined = current === undefined ? undefined : siblings.find((a) => a.name === current!.name);
  if (agg === undefined) {
    errors.push(`buckets_path aggregation does not exist for aggregation [${p.name}]: ${previewInput(raw)}`);
    return;
  }
  while (agg !== undefined && pos < path.length
    && ((cardinality(agg) === 'many' && containsBucketKey(current)) || (cardinality(agg) === 'one' && agg.subs.length > 0))) {
    current = path[pos++];
    const name = current.name;
    agg = agg.subs.find((s) => s.kind !== 'pipeline' && s.name === name);
  }
  if (agg === undefined) {
    errors.push(`buckets_path aggregation does not exist for aggregation [${p.name}]: [${previewInput(pathAsStrings(path.slice(0, pos)).join(', '))}]`);
    return;
  }
  if (cardinality(agg) !== 'many') {
    errors.push(`Unable to find unqualified multi-bucket aggregation in buckets_path. Path must include a multi-bucket aggregation for aggregation [${p.name}] found :org.elasticsearch.search.aggregations.${BUILDER_CLASS[agg.kind] ?? agg.kind} for buckets path: ${previewInput(raw)}`);
  }
}
