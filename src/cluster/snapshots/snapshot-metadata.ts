/**
 * What a snapshot records in its repository (`snap-<uuid>.json`) and how ES renders it: the
 * SnapshotInfo of `GET /_snapshot/{repo}/{snap}` and the SnapshotStatus of `…/_status`, whose
 * `stats.incremental` counts the files this snapshot copied and `stats.total` all it references.
 */
import type { StoredIndex } from '../indices/indices-service.js';
import type { IngestState } from '../../ingest/index.js';

export interface FileStats {
  file_count: number;
  size_in_bytes: number;
}

export interface ShardSnapshotStats {
  readonly incremental: FileStats;
  readonly total: FileStats;
  readonly start_time_in_millis: number;
  time_in_millis: number;
}

export interface SnapshotFile {
  readonly blob: string;
  readonly length: number;
}

export interface SnapshotSegment extends SnapshotFile {
  readonly generation: number;
  readonly max_doc: number;
  readonly live_docs: (SnapshotFile & { readonly generation: number }) | null;
}

export interface ShardSnapshot {
  /** The commit's checkpoint: every op up to it is in these segments. */
  readonly checkpoint: number;
  readonly segments: readonly SnapshotSegment[];
  readonly stats: ShardSnapshotStats;
}

export interface IndexSnapshot {
  readonly index: StoredIndex;
  readonly shards: readonly ShardSnapshot[];
}

export type SnapshotState = 'IN_PROGRESS' | 'SUCCESS';

export interface SnapshotMetadata {
  readonly snapshot: string;
  readonly uuid: string;
  readonly repository: string;
  readonly indices: readonly string[];
  readonly include_global_state: boolean;
  readonly metadata: Record<string, unknown> | null;
  readonly state: SnapshotState;
  readonly start_time_in_millis: number;
  readonly end_time_in_millis: number;
  readonly index_details: Readonly<Record<string, IndexSnapshot>>;
  /** Ingest pipelines, when the global state was included. */
  readonly global_state: { readonly ingest: IngestState } | null;
}

export interface VersionInfo {
  readonly id: number;
  readonly number: string;
}

export function allShards(meta: SnapshotMetadata): ShardSnapshot[] {
  return Object.values(meta.index_details).flatMap((d) => [...d.shards]);
}

export function shardCount(meta: SnapshotMetadata): number {
  return Object.values(meta.index_details).reduce((n, d) => n + Number(d.index.settings['index.number_of_shards'] ?? d.shards.length), 0);
}

/** Every blob a snapshot references. */
export function snapshotBlobs(meta: SnapshotMetadata): string[] {
  const out: string[] = [];
  for (const shard of allShards(meta)) {
    for (const s of shard.segments) {
      out.push(s.blob);
      if (s.live_docs) out.push(s.live_docs.blob);
    }
  }
  return out;
}

/** ES SnapshotInfo.toXContent (verbose; `verbose=false` keeps name, uuid, indices, data streams, state). */
export function renderSnapshotInfo(meta: SnapshotMetadata, version: VersionInfo, verbose: boolean): Record<string, unknown> {
  const base = { snapshot: meta.snapshot, uuid: meta.uuid, repository: meta.repository };
  if (!verbose) return { ...base, indices: meta.indices, data_streams: [], state: meta.state };
  const total = meta.state === 'SUCCESS' ? shardCount(meta) : 0;
  const done = meta.state === 'SUCCESS';
  const end = done ? meta.end_time_in_millis : 0;
  return {
    ...base,
    version_id: version.id,
    version: version.number,
    indices: meta.indices,
    data_streams: [],
    include_global_state: meta.include_global_state,
    ...(meta.metadata !== null ? { metadata: meta.metadata } : {}),
    state: meta.state,
    start_time: new Date(meta.start_time_in_millis).toISOString(),
    start_time_in_millis: meta.start_time_in_millis,
    ...(done ? { end_time: new Date(end).toISOString(), end_time_in_millis: end, duration_in_millis: end - meta.start_time_in_millis } : {}),
    failures: [],
    shards: { total, failed: 0, successful: total },
    feature_states: [],
  };
}

function addStats(into: { incremental: FileStats; total: FileStats }, s: ShardSnapshotStats): void {
  into.incremental.file_count += s.incremental.file_count;
  into.incremental.size_in_bytes += s.incremental.size_in_bytes;
  into.total.file_count += s.total.file_count;
  into.total.size_in_bytes += s.total.size_in_bytes;
}

function emptyStats(start: number, time: number) {
  return { incremental: { file_count: 0, size_in_bytes: 0 }, total: { file_count: 0, size_in_bytes: 0 }, start_time_in_millis: start, time_in_millis: time };
}

/** ES SnapshotStatus.toXContent; a running snapshot's unfinished shards are in stage INIT. */
export function renderSnapshotStatus(meta: SnapshotMetadata): Record<string, unknown> {
  const done = meta.state === 'SUCCESS';
  const elapsed = (done ? meta.end_time_in_millis : Date.now()) - meta.start_time_in_millis;
  const stats = emptyStats(meta.start_time_in_millis, elapsed);
  const counts = { initializing: 0, started: 0, finalizing: 0, done: 0, failed: 0, total: 0 };
  const indices: Record<string, unknown> = {};
  for (const name of meta.indices) {
    const detail = meta.index_details[name];
    const shardCountOf = detail ? Number(detail.index.settings['index.number_of_shards'] ?? detail.shards.length) : 0;
    const indexStats = emptyStats(meta.start_time_in_millis, 0);
    const indexCounts = { initializing: 0, started: 0, finalizing: 0, done: 0, failed: 0, total: shardCountOf };
    const shards: Record<string, unknown> = {};
    for (let i = 0; i < shardCountOf; i++) {
      const s = detail?.shards[i];
      if (s) {
        addStats(indexStats, s.stats);
        indexStats.time_in_millis = Math.max(indexStats.time_in_millis, s.stats.start_time_in_millis + s.stats.time_in_millis - meta.start_time_in_millis);
        indexCounts.done++;
        shards[String(i)] = { stage: 'DONE', stats: s.stats };
      } else {
        indexCounts.initializing++;
        shards[String(i)] = { stage: 'INIT', stats: emptyStats(meta.start_time_in_millis, 0) };
      }
    }
    addStats(stats, indexStats);
    for (const k of Object.keys(counts) as Array<keyof typeof counts>) counts[k] += indexCounts[k];
    indices[name] = { shards_stats: indexCounts, stats: indexStats, shards };
  }
  return {
    snapshot: meta.snapshot,
    repository: meta.repository,
    uuid: meta.uuid,
    state: done ? 'SUCCESS' : 'STARTED',
    include_global_state: meta.include_global_state,
    shards_stats: counts,
    stats,
    indices,
  };
}
