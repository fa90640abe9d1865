/**
 * One V8 isolate's heap by generation, in the shape of ES's `jvm.mem.pools` (young / old): how much
 * of a thread's heap is its young generation (the semi-spaces sized by `--max-semi-space-size`, which
 * a load grows to its limit) and how much is old space. Used for the main thread and, reported over
 * a channel, for each worker thread (issue 22: what a bulk load's RSS peak is made of).
 */
import { getHeapSpaceStatistics } from 'node:v8';

export interface HeapPool {
  /** Bytes of live and not yet collected objects in the pool's spaces. */
  readonly used: number;
  /** Bytes the pool's spaces have committed (V8's `space_size`): what the pool costs in RSS. */
  readonly committed: number;
}

export interface HeapPools {
  readonly young: HeapPool;
  readonly old: HeapPool;
}

/** V8's young-generation spaces; every other space (old, code, map, large objects) is the old pool. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** This isolate's young and old pools (a few µs: one V8 call per space). */
export function heapPools(): HeapPools {
  let youngUsed = 0;
  let youngCommitted = 0;
  let oldUsed = 0;
  let oldCommitted = 0;
  for (const s of getHeapSpaceStatistics()) {
    // The read-only space is shared by every isolate of the process and mapped from the binary.
    if (s.space_name === 'read_only_space') continue;
    if (YOUNG_SPACES.has(s.space_name)) {
      youngUsed += s.space_used_size;
      youngCommitted += s.space_size;
    } else {
      oldUsed += s.space_used_size;
      oldCommitted += s.space_size;
    }
  }
  return { young: { used: youngUsed, committed: youngCommitted }, old: { used: oldUsed, committed: oldCommitted } };
}
