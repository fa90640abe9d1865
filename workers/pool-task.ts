/**
 * Whether this worker thread is running a pool task (a segment build or merge): a flag in shared
 * memory the coordinator reads before it sends searches down this thread's search channel, so a
 * search does not wait behind a build that takes hundreds of milliseconds while another thread is
 * free (workers/search.ts hands the flag over with the channel).
 */
export const poolTaskFlag = new Int32Array(new SharedArrayBuffer(4));

/** Runs a pool task with the flag raised. */
export function asPoolTask<T>(body: () => T): T {
  Atomics.store(poolTaskFlag, 0, 1);
  try {
    return body();
  } finally {
    Atomics.store(poolTaskFlag, 0, 0);
  }
}
