/**
 * Whether this worker thread is running a pool task (a segment build or merge): a flag in shared
 * memory the coordinator reads before it sends searches down this thread's search channel, so a
 * search does not wait behind a build that takes hundreds of milliseconds while another thread is
 * free (workers/search.ts hands the flag over with the channel).
 */
export const poolTaskFlag = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs what this thread's search channel already holds (workers/search.ts registers it): a pool
 * task starts only once the searches queued for this thread are answered, so they never wait the
 * length of a build.
 */
let drainSearches: (() => void) | null = null;

/** Registers the search channel's drain (workers/search.ts, once per thread). */
export function setSearchDrain(drain: () => void): void {
  drainSearches = drain;
}

/**
 * Runs a pool task with the flag raised. The flag goes up first, so the coordinator queues no more
 * searches here; then the searches already queued on this thread's channel (a batch queued behind
 * a running one: cluster/search-pool.ts queueBehind) run before the task, whichever message the
 * event loop would have delivered first.
 */
export function asPoolTask<T>(body: () => T): T {
  Atomics.store(poolTaskFlag, 0, 1);
  try {
    drainSearches?.();
    return body();
  } finally {
    Atomics.store(poolTaskFlag, 0, 0);
  }
}
