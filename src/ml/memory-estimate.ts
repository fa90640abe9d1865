/**
 * How much native memory a deployment needs: ES StartTrainedModelDeploymentAction
 * .estimateMemoryUsageBytes for PyTorch models —
 *   max(240 MB + 2 × model bytes, per_deployment + per_allocation × allocations + model bytes)
 * (the model is held twice while it loads; the second form applies when the model declares its
 * per-deployment / per-allocation memory, as `.sparse_model_2` does).
 */

const MB = 1024 * 1024;

/** ES StartTrainedModelDeploymentAction.MEMORY_OVERHEAD: the inference process itself. */
export const MEMORY_OVERHEAD_BYTES = 240 * MB;

export interface ModelMemory {
  /** `model_size_bytes`: the artifact's size. */
  readonly modelBytes: number;
  /** Memory the deployment needs once, whatever its allocations (ES `per_deployment_memory_bytes`). */
  readonly perDeploymentMemoryBytes: number;
  /** Memory each allocation adds (ES `per_allocation_memory_bytes`). */
  readonly perAllocationMemoryBytes: number;
}

export function estimateMemoryUsageBytes(m: ModelMemory, numberOfAllocations: number): number {
  if (numberOfAllocations === 0) return 0;
  const base = MEMORY_OVERHEAD_BYTES + 2 * m.modelBytes;
  if (m.perDeploymentMemoryBytes === 0 && m.perAllocationMemoryBytes === 0) return base;
  return Math.max(base, m.perDeploymentMemoryBytes + m.perAllocationMemoryBytes * numberOfAllocations + m.modelBytes);
}
