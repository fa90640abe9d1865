/**
 * Placement of model allocations on ML nodes: a pure function of the node inventory, what other
 * deployments already use, and the request. Rules (ES TrainedModelAssignmentRebalancer, simplified
 * to one greedy pass, deterministic):
 * - a node hosts allocations only if it is an ML node (`mlMemoryBytes` > 0);
 * - each allocation needs `threads_per_allocation` free processors on one node;
 * - a node hosting k allocations of a deployment holds `estimateMemoryUsageBytes(model, k)` for it;
 * - allocations spread: the next one goes to the node holding the fewest of this deployment's
 *   allocations, then the one with the most free processors, then by name.
 * A request that cannot be fully placed gets what fits plus ES's per-node explanation.
 */
import { estimateMemoryUsageBytes, type ModelMemory } from './memory-estimate.js';
import { byteSizeString, MIN_ML_NODE_MEMORY_BYTES, mlMemoryBytes, type MlNodeSpec } from './ml-node.js';

/** Allocations per node name (nodes with none are absent). */
export type Allocations = Readonly<Record<string, number>>;

export interface PlacedDeployment {
  readonly threadsPerAllocation: number;
  readonly memory: ModelMemory;
  readonly allocations: Allocations;
}

export interface PlacementRequest {
  readonly threadsPerAllocation: number;
  readonly memory: ModelMemory;
  readonly targetAllocations: number;
  /** Allocations the deployment already holds (growing after capacity was freed); none for a new one. */
  readonly current?: Allocations;
}

export interface Placement {
  readonly allocations: Allocations;
  readonly allocationCount: number;
  /** Why fewer than the target were placed (ES `allocation_status` reason); null when all were. */
  readonly reason: string | null;
}

export interface NodeLoad {
  readonly usedProcessors: number;
  readonly usedMemoryBytes: number;
}

export function totalAllocations(a: Allocations): number {
  let n = 0;
  for (const k of Object.keys(a)) n += a[k];
  return n;
}

/** Processors and memory the given deployments use on each node. */
export function nodeLoads(nodes: readonly MlNodeSpec[], deployments: readonly PlacedDeployment[]): Map<string, NodeLoad> {
  const loads = new Map<string, NodeLoad>(nodes.map((n) => [n.name, { usedProcessors: 0, usedMemoryBytes: 0 }]));
  for (const d of deployments) {
    for (const [node, count] of Object.entries(d.allocations)) {
      const l = loads.get(node);
      if (!l || count === 0) continue;
      loads.set(node, {
        usedProcessors: l.usedProcessors + count * d.threadsPerAllocation,
        usedMemoryBytes: l.usedMemoryBytes + estimateMemoryUsageBytes(d.memory, count),
      });
    }
  }
  return loads;
}

export function placeAllocations(nodes: readonly MlNodeSpec[], others: readonly PlacedDeployment[], request: PlacementRequest): Placement {
  const loads = nodeLoads(nodes, others);
  const mine: Record<string, number> = { ...(request.current ?? {}) };
  let count = totalAllocations(mine);
  const free = (node: MlNodeSpec) => {
    const l = loads.get(node.name)!;
    const k = mine[node.name] ?? 0;
    return {
      processors: node.allocatedProcessors - l.usedProcessors - k * request.threadsPerAllocation,
      memory: mlMemoryBytes(node) - l.usedMemoryBytes - estimateMemoryUsageBytes(request.memory, k),
      k,
    };
  };
  let reasons: string[] = [];
  while (count < request.targetAllocations) {
    let best: MlNodeSpec | null = null;
    let bestKey: [number, number] = [Infinity, -Infinity];
    reasons = [];
    for (const node of nodes) {
      const f = free(node);
      const why = refusal(node, f, request);
      if (why !== null) {
        reasons.push(`Could not assign (more) allocations on node [${node.name}]. Reason: ${why}`);
        continue;
      }
      if (f.k < bestKey[0] || (f.k === bestKey[0] && f.processors > bestKey[1])) {
        best = node;
        bestKey = [f.k, f.processors];
      }
    }
    if (!best) break;
    mine[best.name] = (mine[best.name] ?? 0) + 1;
    count++;
  }
  const allocations: Record<string, number> = {};
  for (const node of nodes) if ((mine[node.name] ?? 0) > 0) allocations[node.name] = mine[node.name];
  return { allocations, allocationCount: count, reason: count < request.targetAllocations ? reasons.join('|') || 'No ML nodes are configured' : null };
}

/** Why one more allocation does not fit on `node` (ES AssignmentPlan explanations), or null. */
function refusal(node: MlNodeSpec, f: { processors: number; memory: number; k: number }, request: PlacementRequest): string | null {
  if (node.memoryBytes < MIN_ML_NODE_MEMORY_BYTES) {
    return `This node is not an ML node: it has [${byteSizeString(node.memoryBytes)}] of memory, less than the [${byteSizeString(MIN_ML_NODE_MEMORY_BYTES)}] an ML node needs.`;
  }
  const needed = estimateMemoryUsageBytes(request.memory, f.k + 1) - estimateMemoryUsageBytes(request.memory, f.k);
  if (needed > f.memory) {
    return `This node has insufficient available memory. Available memory for ML [${mlMemoryBytes(node)} (${byteSizeString(mlMemoryBytes(node))})], free memory [${Math.max(0, f.memory)} (${byteSizeString(Math.max(0, f.memory))})], estimated memory required for this model [${needed} (${byteSizeString(needed)})].`;
  }
  if (request.threadsPerAllocation > f.processors) {
    return `This node has insufficient allocated processors. Available processors [${node.allocatedProcessors}], free processors [${Math.max(0, f.processors)}], processors required for each allocation of this model [${request.threadsPerAllocation}].`;
  }
  return null;
}

/** Fewer allocations (`_update` down): taken from the nodes holding the most, last node name first. */
export function reduceAllocations(current: Allocations, target: number): Allocations {
  const mine: Record<string, number> = { ...current };
  let count = totalAllocations(mine);
  while (count > target) {
    const names = Object.keys(mine).filter((n) => mine[n] > 0).sort((a, b) => mine[b] - mine[a] || (a < b ? 1 : -1));
    mine[names[0]]--;
    if (mine[names[0]] === 0) delete mine[names[0]];
    count--;
  }
  return mine;
}
