/**
 * A shard's operation counters (ES IndexingStats, SearchStats, RefreshStats, FlushStats,
 * MergeStats), read by `_stats`, `_nodes/stats` and `_cat`. The hot paths (every write, every
 * shard search) only add to plain number fields of an object the shard already holds: no
 * allocation, no map lookup, no clock read beyond the one the operation needs for its own time.
 * Times are summed in milliseconds as doubles; the views round them.
 */
export class ShardStats {
  indexTotal = 0;
  indexTimeMs = 0;
  indexFailed = 0;
  deleteTotal = 0;
  deleteTimeMs = 0;

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
