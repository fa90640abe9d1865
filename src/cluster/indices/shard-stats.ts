/**
 * A shard's operation counters (ES IndexingStats, SearchStats, RefreshStats, FlushStats,
 * MergeStats), read by `_stats`, `_nodes/stats` and `_cat`. The hot paths (every write, every
 * shard search) only add to plain number fields of an object the shard already holds: no
 * allocation, no map lookup, no clock read beyond the one the operation needs for its own time.
 * Times are summed in milliseconds as doubles; the views round them.
 *
 * Write times are sampled: a clock read costs ~0.35 µs on the reference VM (kvm-clock), two per
 * document would be a few percent of a bulk write, so one write in WRITE_TIMING_SAMPLE is timed and
 * its time counted WRITE_TIMING_SAMPLE times (an unbiased estimate of the total; counts are exact).
 */
export const WRITE_TIMING_SAMPLE = 64;

/** True for the writes whose time is measured: every WRITE_TIMING_SAMPLE-th, from the first. */
export function timedWrite(count: number): boolean {
  return (count & (WRITE_TIMING_SAMPLE - 1)) === 0;
}

export class ShardStats {
  indexTotal = 0;
  indexTimeMs = 0;
  indexFailed = 0;
  deleteTotal = 0;
  deleteTimeMs = 0;
  /** Write requests held right now because this shard's refreshes fell behind (indexing-memory-controller.ts). */
  throttledNow = 0;
  throttleTimeMs = 0;

  queryTotal = 0;
  queryTimeMs = 0;
  queryCurrent = 0;
  fetchTotal = 0;
  fetchTimeMs = 0;
  /** The last fetch phase counted here (search-stats.ts counts a shard once per page). */
  fetchRound = 0;

  refreshTotal = 0;
  refreshTimeMs = 0;
  flushTotal = 0;
  flushTimeMs = 0;

  mergeTotal = 0;
  mergeTimeMs = 0;
  mergeCurrent = 0;
  mergeDocs = 0;
  mergeSizeBytes = 0;
}
