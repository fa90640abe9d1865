/**
 * ES CommonStats (the sections of `_stats`, `_nodes/stats` `indices`, `_cat/indices|shards`) for
 * one shard, summed over an index or over every index: docs, store, indexing, search, refresh,
 * flush, merges, segments. Computed when asked, from the shards' published snapshots and their
 * ShardStats counters — nothing here runs on the write or search paths.
 *
 * `store` is the bytes of the published segments and live-docs bitsets: the SharedArrayBuffers the
 * node holds, which are also what a flush writes (plus a 24-byte header per file).
 */
import { addSegmentMemory, emptySegmentMemory, type SegmentMemory } from '../../index/index.js';
import type { IndexService } from '../indices/index-service.js';
import type { IndexShard } from '../indices/index-shard.js';
import { segmentStoreBytes } from './segment-views.js';

/** The sections ES's `_stats` returns by default, in its order. */
export const INDEX_STATS_METRICS = ['docs', 'store', 'indexing', 'search', 'refresh', 'flush', 'merge', 'segments'] as const;
export type IndexStatsMetric = (typeof INDEX_STATS_METRICS)[number];

/** Plain sums of one shard or many; rendered by `renderCommonStats`. */
export interface StatsSums {
  docs: number;
  deleted: number;
  storeBytes: number;
  segments: number;
  /** Heap bytes of unrefreshed documents, buffered or being built by a refresh (ES's index_writer_memory). */
  bufferBytes: number;
  /** Estimated heap bytes of the live version maps (ids written since the last refresh). */
  versionMapBytes: number;
  /** Segment bytes by kind (SharedArrayBuffers). */
  segmentMemory: SegmentMemory;
  /** Live-docs bitsets of segments with deletes. */
  liveDocsBytes: number;
  indexTotal: number;
  indexTimeMs: number;
  indexFailed: number;
  deleteTotal: number;
  deleteTimeMs: number;
  /** Write requests held by indexing throttling right now, and the time they were held (ES is_throttled, throttle_time). */
  throttledNow: number;
  throttleTimeMs: number;
  queryTotal: number;
  queryTimeMs: number;
  queryCurrent: number;
  fetchTotal: number;
  fetchTimeMs: number;
  refreshTotal: number;
  refreshTimeMs: number;
  flushTotal: number;
  flushTimeMs: number;
  mergeTotal: number;
  mergeTimeMs: number;
  mergeCurrent: number;
  mergeDocs: number;
  mergeSizeBytes: number;
}

export function emptySums(): StatsSums {
  return {
    docs: 0, deleted: 0, storeBytes: 0, segments: 0, bufferBytes: 0, versionMapBytes: 0, segmentMemory: emptySegmentMemory(), liveDocsBytes: 0, indexTotal: 0, indexTimeMs: 0, indexFailed: 0, deleteTotal: 0, deleteTimeMs: 0, throttledNow: 0, throttleTimeMs: 0,
    queryTotal: 0, queryTimeMs: 0, queryCurrent: 0, fetchTotal: 0, fetchTimeMs: 0, refreshTotal: 0, refreshTimeMs: 0,
    flushTotal: 0, flushTimeMs: 0, mergeTotal: 0, mergeTimeMs: 0, mergeCurrent: 0, mergeDocs: 0, mergeSizeBytes: 0,
  };
}

/** Adds one shard's state and counters to `into`. */
export function addShard(into: StatsSums, shard: IndexShard): StatsSums {
  for (const s of shard.snapshot.segments) {
    into.docs += s.liveCount;
    into.deleted += s.reader.maxDoc - s.liveCount;
    into.storeBytes += segmentStoreBytes(s);
    into.segments++;
    addSegmentMemory(into.segmentMemory, s.reader);
    into.liveDocsBytes += s.liveDocs ? s.liveDocs.byteLength : 0;
  }
  into.bufferBytes += shard.bufferedBytes + shard.refreshingBytes;
  into.versionMapBytes += shard.versionMapBytes;
  const c = shard.stats;
  into.indexTotal += c.indexTotal;
  into.indexTimeMs += c.indexTimeMs;
  into.indexFailed += c.indexFailed;
  into.deleteTotal += c.deleteTotal;
  into.deleteTimeMs += c.deleteTimeMs;
  into.throttledNow += c.throttledNow;
  into.throttleTimeMs += c.throttleTimeMs;
  into.queryTotal += c.queryTotal;
  into.queryTimeMs += c.queryTimeMs;
  into.queryCurrent += c.queryCurrent;
  into.fetchTotal += c.fetchTotal;
  into.fetchTimeMs += c.fetchTimeMs;
  into.refreshTotal += c.refreshTotal;
  into.refreshTimeMs += c.refreshTimeMs;
  into.flushTotal += c.flushTotal;
  into.flushTimeMs += c.flushTimeMs;
  into.mergeTotal += c.mergeTotal;
  into.mergeTimeMs += c.mergeTimeMs;
  into.mergeCurrent += c.mergeCurrent;
  into.mergeDocs += c.mergeDocs;
  into.mergeSizeBytes += c.mergeSizeBytes;
  return into;
}

export function shardSums(shard: IndexShard): StatsSums {
  return addShard(emptySums(), shard);
}

export function indexSums(index: IndexService, into: StatsSums = emptySums()): StatsSums {
  for (const shard of index.shards) addShard(into, shard);
  return into;
}

const ms = (x: number) => Math.round(x);

/** ES CommonStats' JSON for the chosen sections (ES field names; counters this server has not are 0). */
export function renderCommonStats(s: StatsSums, metrics: readonly IndexStatsMetric[] = INDEX_STATS_METRICS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of metrics) {
    switch (m) {
      case 'docs':
        out.docs = { count: s.docs, deleted: s.deleted, total_size_in_bytes: s.storeBytes };
        break;
      case 'store':
        out.store = { size_in_bytes: s.storeBytes, total_data_set_size_in_bytes: s.storeBytes, reserved_in_bytes: 0 };
        break;
      case 'indexing':
        out.indexing = {
          index_total: s.indexTotal, index_time_in_millis: ms(s.indexTimeMs), index_current: 0, index_failed: s.indexFailed,
          delete_total: s.deleteTotal, delete_time_in_millis: ms(s.deleteTimeMs), delete_current: 0, noop_update_total: 0,
          is_throttled: s.throttledNow > 0, throttle_time_in_millis: ms(s.throttleTimeMs), write_load: 0,
        };
        break;
      case 'search':
        out.search = {
          open_contexts: 0, query_total: s.queryTotal, query_time_in_millis: ms(s.queryTimeMs), query_current: s.queryCurrent,
          fetch_total: s.fetchTotal, fetch_time_in_millis: ms(s.fetchTimeMs), fetch_current: 0,
          scroll_total: 0, scroll_time_in_millis: 0, scroll_current: 0, suggest_total: 0, suggest_time_in_millis: 0, suggest_current: 0,
        };
        break;
      case 'refresh':
        out.refresh = {
          total: s.refreshTotal, total_time_in_millis: ms(s.refreshTimeMs), external_total: s.refreshTotal,
          external_total_time_in_millis: ms(s.refreshTimeMs), listeners: 0,
        };
        break;
      case 'flush':
        out.flush = { total: s.flushTotal, periodic: 0, total_time_in_millis: ms(s.flushTimeMs) };
        break;
      case 'merge':
        out.merges = {
          current: s.mergeCurrent, current_docs: 0, current_size_in_bytes: 0, total: s.mergeTotal, total_time_in_millis: ms(s.mergeTimeMs),
          total_docs: s.mergeDocs, total_size_in_bytes: s.mergeSizeBytes, total_stopped_time_in_millis: 0, total_throttled_time_in_millis: 0,
          total_auto_throttle_in_bytes: 0,
        };
        break;
      case 'segments':
        out.segments = renderSegments(s);
        break;
    }
  }
  return out;
}

/**
 * ES's `segments` section. ES keeps postings, doc values and stored fields on disk and reports
 * only their small heap parts; here every segment lives in memory, so `memory_in_bytes` is the
 * whole of the segments' SharedArrayBuffers and the `*_memory_in_bytes` fields split it by kind
 * (ES's names where ES has the kind; `postings_`, `positions_`, `feature_postings_`, `id_map_`,
 * `seq_no_version_`, `completion_`, `vectors_`, `live_docs_` and `other_` are this server's own).
 */
function renderSegments(s: StatsSums): Record<string, unknown> {
  const m = s.segmentMemory;
  return {
    count: s.segments,
    memory_in_bytes: m.total + s.liveDocsBytes,
    terms_memory_in_bytes: m.terms,
    postings_memory_in_bytes: m.postings,
    positions_memory_in_bytes: m.positions,
    feature_postings_memory_in_bytes: m.featurePostings,
    stored_fields_memory_in_bytes: m.storedFields,
    term_vectors_memory_in_bytes: 0,
    norms_memory_in_bytes: m.norms,
    points_memory_in_bytes: m.points,
    doc_values_memory_in_bytes: m.docValues,
    completion_memory_in_bytes: m.completion,
    vectors_memory_in_bytes: m.vectors,
    id_map_memory_in_bytes: m.idMap,
    seq_no_version_memory_in_bytes: m.seqNoVersion,
    live_docs_memory_in_bytes: s.liveDocsBytes,
    other_memory_in_bytes: m.other,
    index_writer_memory_in_bytes: s.bufferBytes,
    version_map_memory_in_bytes: s.versionMapBytes,
    fixed_bit_set_memory_in_bytes: 0,
    file_sizes: {},
  };
}
