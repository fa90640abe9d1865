/**
 * Pipeline aggregations on the coordinator, after the final reduce and rendering (ES
 * InternalAggregations.topLevelReduce → reducePipelines): depth first, an aggregation's buckets
 * first run the pipelines below them, then the aggregation's own pipelines run, in dependency order
 * (dsl/aggs/pipeline-validation.ts) — sibling ones once per bucket, parent ones over the buckets —
 * and last the top level's sibling pipelines. Results are added to the rendered objects, after the
 * aggregations already there, as ES appends them. Shards never see pipelines, so the result does not
 * depend on how the index is sharded.
 */
import type { AggNode, PipelineAgg } from '../../../dsl/aggs/agg-nodes.js';
import { resolvePipelineOrder } from '../../../dsl/aggs/pipeline-validation.js';
import type { ExecAgg } from '../exec-aggs.js';
import { siblingPipeline } from './bucket-metrics.js';
import { bucketSort } from './bucket-sort.js';
import { histogramPipeline } from './histogram-pipelines.js';
import { bucketsOf, cardinality, setBuckets, withMeta, type AggDef, type BucketView } from './result-tree.js';

/** Whether a request has pipelines anywhere (the rest of the search never pays for them). */
export function hasPipelines(nodes: readonly AggNode[]): boolean {
  return nodes.some((n) => n.kind === 'pipeline' || hasPipelines(n.subs));
}

/** Per aggregation: its sub-aggregations with their pipelines, its own pipelines in order, and whether pipelines lie below it. */
interface PipelineTree {
  readonly subs: Map<AggDef, readonly AggDef[]>;
  readonly ordered: Map<AggDef | null, readonly PipelineAgg[]>;
  readonly below: Set<AggDef>;
}

/** `execs`: the planned aggregations `out` was rendered from; `nodes`: the request's, pipelines included. */
export function reducePipelines(execs: readonly ExecAgg[], nodes: readonly AggNode[], out: Record<string, unknown>): void {
  const tree: PipelineTree = { subs: new Map(), ordered: new Map(), below: new Set() };
  build(execs, nodes, null, tree);
  const subsOf = (d: AggDef): readonly AggDef[] => tree.subs.get(d) ?? [];
  const top: AggDef[] = [...execs, ...nodes.filter(isPipeline)];
  for (const e of execs) if (tree.below.has(e)) reduceAgg(e, out[e.name] as Record<string, unknown>, tree, subsOf);
  for (const p of tree.ordered.get(null) ?? []) out[p.name] = withMeta(p, siblingPipeline(p, { defs: top, body: out }, subsOf));
}

function isPipeline(n: AggNode): n is PipelineAgg {
  return n.kind === 'pipeline';
}

/** Walks the planned and the requested trees together (planning keeps the order of the non-pipeline aggregations). */
function build(execs: readonly ExecAgg[], nodes: readonly AggNode[], owner: AggDef | null, tree: PipelineTree): boolean {
  const pipelines = nodes.filter(isPipeline);
  let any = pipelines.length > 0;
  if (any) tree.ordered.set(owner, resolvePipelineOrder(nodes));
  nodes.filter((n) => !isPipeline(n)).forEach((n, i) => {
    const exec = execs[i];
    tree.subs.set(exec, [...exec.subs, ...n.subs.filter(isPipeline)]);
    if (build(exec.subs, n.subs, exec, tree)) {
      tree.below.add(exec);
      any = true;
    }
  });
  return any;
}

function reduceAgg(agg: AggDef, body: Record<string, unknown>, tree: PipelineTree, subsOf: (d: AggDef) => readonly AggDef[]): void {
  const subs = subsOf(agg);
  for (const bucket of bucketBodies(agg, body)) {
    for (const sub of subs) if (tree.below.has(sub)) reduceAgg(sub, bucket.body[sub.name] as Record<string, unknown>, tree, subsOf);
  }
  for (const p of tree.ordered.get(agg) ?? []) {
    switch (p.type) {
      case 'bucket_sort': setBuckets(body, bucketSort(p, agg, bucketsOf(agg, body), subsOf)); break;
      case 'cumulative_sum': case 'derivative': case 'serial_diff': histogramPipeline(p, agg, bucketsOf(agg, body), subsOf); break;
      default:
        for (const bucket of bucketBodies(agg, body)) bucket.body[p.name] = withMeta(p, siblingPipeline(p, { defs: subs, body: bucket.body }, subsOf));
    }
  }
}

/** A multi-bucket aggregation's buckets, or a single-bucket one as its one bucket. */
function bucketBodies(agg: AggDef, body: Record<string, unknown>): BucketView[] {
  return cardinality(agg) === 'one' ? [{ body, keyString: agg.name, slot: null }] : bucketsOf(agg, body);
}
