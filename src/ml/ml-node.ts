/**
 * Simulated ML nodes: the inventory deployments are placed on. Only the inventory is simulated
 * (names, memory, allocated processors, from `--ml-nodes`); inference itself runs on real threads.
 * The capacity rules follow ES's: ML may use `xpack.ml.max_machine_memory_percent` (30%) of a
 * node's memory minus the native code overhead, and each allocation needs
 * `threads_per_allocation` of the node's allocated processors.
 */

export interface MlNodeSpec {
  readonly name: string;
  readonly memoryBytes: number;
  /** `node.processors` / allocated processors: what allocations' threads are counted against. */
  readonly allocatedProcessors: number;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * A node with less memory than this hosts no model allocations: threadsearch's stand-in for ES
 * requiring dedicated ML nodes to be sized for models (ELSER-class models need ~2 GB of native
 * memory, which 30% of a smaller node cannot give).
 */
export const MIN_ML_NODE_MEMORY_BYTES = 4 * GB;

/** ES `xpack.ml.max_machine_memory_percent` default. */
export const MAX_MACHINE_MEMORY_PERCENT = 30;

/** ES MachineLearning.NATIVE_EXECUTABLE_CODE_OVERHEAD: reserved once per ML node. */
export const NATIVE_EXECUTABLE_CODE_OVERHEAD_BYTES = 30 * MB;

/** Memory ML may use on a node (0 for a node too small to be an ML node). */
export function mlMemoryBytes(node: MlNodeSpec): number {
  if (node.memoryBytes < MIN_ML_NODE_MEMORY_BYTES) return 0;
  return Math.floor((node.memoryBytes * MAX_MACHINE_MEMORY_PERCENT) / 100) - NATIVE_EXECUTABLE_CODE_OVERHEAD_BYTES;
}

/** ES ByteSizeValue.toString(): the largest unit with a value ≥ 1, up to one decimal ("1.9gb", "240mb"). */
export function byteSizeString(bytes: number): string {
  const units: Array<[string, number]> = [['pb', 1024 ** 5], ['tb', 1024 ** 4], ['gb', GB], ['mb', MB], ['kb', 1024]];
  for (const [unit, size] of units) {
    if (Math.abs(bytes) >= size) {
      const v = Math.round((bytes / size) * 10) / 10;
      return `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;
    }
  }
  return `${bytes}b`;
}
