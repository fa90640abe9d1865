/**
 * Placement of model allocations on simulated ML nodes (src/ml/placement.ts): what fits, what
 * does not and why, partial placement, capacity shared by deployments and freed by a stop.
 */
import { describe, expect, it } from 'vitest';
import {
  estimateMemoryUsageBytes, MEMORY_OVERHEAD_BYTES, mlMemoryBytes, placeAllocations, reduceAllocations, type MlNodeSpec, type ModelMemory,
} from '../../src/ml/index.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const model: ModelMemory = { modelBytes: 100 * MB, perDeploymentMemoryBytes: 100 * MB, perAllocationMemoryBytes: 200 * MB };
const node = (name: string, memoryGb: number, processors: number): MlNodeSpec => ({ name, memoryBytes: memoryGb * GB, allocatedProcessors: processors });

describe('estimateMemoryUsageBytes (ES StartTrainedModelDeploymentAction)', () => {
  it('is 240 MB plus twice the model without per-deployment and per-allocation memory', () => {
    expect(estimateMemoryUsageBytes({ modelBytes: 10 * MB, perDeploymentMemoryBytes: 0, perAllocationMemoryBytes: 0 }, 3)).toBe(MEMORY_OVERHEAD_BYTES + 20 * MB);
  });

  it('grows with allocations once per_deployment + per_allocation × n + model exceeds that base', () => {
    expect(estimateMemoryUsageBytes(model, 1)).toBe(MEMORY_OVERHEAD_BYTES + 200 * MB);
    expect(estimateMemoryUsageBytes(model, 4)).toBe(100 * MB + 4 * 200 * MB + 100 * MB);
    expect(estimateMemoryUsageBytes(model, 0)).toBe(0);
  });
});

describe('mlMemoryBytes', () => {
  it('gives ML 30% of a node minus the native code overhead, and nothing on nodes under 4 GB', () => {
    expect(mlMemoryBytes(node('a', 16, 8))).toBe(Math.floor(16 * GB * 0.3) - 30 * MB);
    expect(mlMemoryBytes(node('b', 3, 8))).toBe(0);
  });
});

describe('placeAllocations', () => {
  it('places every allocation when processors and memory suffice, spreading over nodes', () => {
    const p = placeAllocations([node('ml-1', 16, 8), node('ml-2', 16, 8)], [], { threadsPerAllocation: 2, memory: model, targetAllocations: 4 });
    expect(p).toEqual({ allocations: { 'ml-1': 2, 'ml-2': 2 }, allocationCount: 4, reason: null });
  });

  it('keeps an allocation\'s threads on one node', () => {
    // 3 free processors on each node: one 2-thread allocation each, never one split across both.
    const p = placeAllocations([node('ml-1', 16, 3), node('ml-2', 16, 3)], [], { threadsPerAllocation: 2, memory: model, targetAllocations: 3 });
    expect(p.allocations).toEqual({ 'ml-1': 1, 'ml-2': 1 });
    expect(p.allocationCount).toBe(2);
    expect(p.reason).toContain('Could not assign (more) allocations on node [ml-1]. Reason: This node has insufficient allocated processors. Available processors [3], free processors [1], processors required for each allocation of this model [2].');
  });

  it('places nothing on a node under 4 GB, and says why', () => {
    const p = placeAllocations([node('tiny', 2, 16)], [], { threadsPerAllocation: 1, memory: model, targetAllocations: 1 });
    expect(p.allocationCount).toBe(0);
    expect(p.reason).toBe('Could not assign (more) allocations on node [tiny]. Reason: This node is not an ML node: it has [2gb] of memory, less than the [4gb] an ML node needs.');
  });

  it('refuses when the memory estimate does not fit', () => {
    const big: ModelMemory = { modelBytes: 2 * GB, perDeploymentMemoryBytes: 0, perAllocationMemoryBytes: 0 };
    const p = placeAllocations([node('ml-1', 8, 8)], [], { threadsPerAllocation: 1, memory: big, targetAllocations: 1 });
    expect(p.allocationCount).toBe(0);
    expect(p.reason).toMatch(/This node has insufficient available memory\. Available memory for ML \[\d+ \(2\.4gb\)\], free memory \[\d+ \(2\.4gb\)\], estimated memory required for this model \[\d+ \(4\.2gb\)\]\./);
  });

  it('places part of a deployment when only some allocations fit', () => {
    const p = placeAllocations([node('ml-1', 16, 4)], [], { threadsPerAllocation: 1, memory: model, targetAllocations: 6 });
    expect(p.allocations).toEqual({ 'ml-1': 4 });
    expect(p.allocationCount).toBe(4);
    expect(p.reason).toContain('insufficient allocated processors');
  });

  it('counts memory per allocation on a node: later allocations stop when their added memory does not fit', () => {
    // 4 GB node: 1.2 GB - 30 MB for ML. 1 allocation: 440 MB; each further one adds 200 MB.
    const p = placeAllocations([node('ml-1', 4, 64)], [], { threadsPerAllocation: 1, memory: model, targetAllocations: 10 });
    const ml = mlMemoryBytes(node('ml-1', 4, 64));
    expect(estimateMemoryUsageBytes(model, p.allocationCount)).toBeLessThanOrEqual(ml);
    expect(estimateMemoryUsageBytes(model, p.allocationCount + 1)).toBeGreaterThan(ml);
    expect(p.reason).toContain('insufficient available memory');
  });

  it('shares node capacity between deployments, and a stop frees it', () => {
    const nodes = [node('ml-1', 16, 4)];
    const first = placeAllocations(nodes, [], { threadsPerAllocation: 2, memory: model, targetAllocations: 2 });
    expect(first.allocationCount).toBe(2);
    const other = { threadsPerAllocation: 2, memory: model, allocations: first.allocations };
    const second = placeAllocations(nodes, [other], { threadsPerAllocation: 1, memory: model, targetAllocations: 1 });
    expect(second.allocationCount).toBe(0);
    // The first deployment stopped: its processors are free again.
    expect(placeAllocations(nodes, [], { threadsPerAllocation: 1, memory: model, targetAllocations: 1 }).allocationCount).toBe(1);
  });

  it('grows a partially placed deployment from what it already holds', () => {
    const nodes = [node('ml-1', 16, 2), node('ml-2', 16, 2)];
    const p = placeAllocations(nodes, [], { threadsPerAllocation: 1, memory: model, targetAllocations: 4, current: { 'ml-1': 2 } });
    expect(p.allocations).toEqual({ 'ml-1': 2, 'ml-2': 2 });
  });

  it('says so when no nodes are configured', () => {
    expect(placeAllocations([], [], { threadsPerAllocation: 1, memory: model, targetAllocations: 1 }).reason).toBe('No ML nodes are configured');
  });
});

describe('reduceAllocations', () => {
  it('takes allocations from the nodes holding the most', () => {
    expect(reduceAllocations({ a: 3, b: 1 }, 2)).toEqual({ a: 1, b: 1 });
    expect(reduceAllocations({ a: 1, b: 1 }, 1)).toEqual({ a: 1 });
  });
});
