/**
 * The data a shard publishes for search: an immutable snapshot of segments with their live docs.
 * A search captures one snapshot and sees exactly that point in time, whatever refreshes and
 * merges publish meanwhile.
 */
import type { DocumentParseLimits, IndexCodec, IndexTextSettings, RootMapping, Segment } from '../../index/index.js';
import type { ShardStore, TranslogOptions } from '../../storage/index.js';
import type { SearchPool } from '../search-pool.js';

/** What a shard needs from its index: names, the pool that builds and merges, the store. */
export interface ShardContext {
  readonly indexName: string;
  readonly indexUuid: string;
  readonly pool: SearchPool;
  /** The mapping and limits segments are built with (the index's current ones). */
  buildInputs(): { mapping: RootMapping; limits: DocumentParseLimits; text: IndexTextSettings; codec: IndexCodec };
  readonly store: ShardStore;
  /** `index.translog.*` settings, read when the translog opens and when settings change. */
  translogOptions(): TranslogOptions;
  /** `index.translog.flush_threshold_size` in bytes. */
  flushThresholdBytes(): number;
}

export interface PublishedSegment {
  readonly id: string;
  readonly sab: SharedArrayBuffer;
  readonly reader: Segment;
  /** null = every document live. */
  readonly liveDocs: Uint32Array | null;
  readonly liveDocsId: string | null;
  readonly liveCount: number;
}

export interface ShardSnapshot {
  readonly segments: readonly PublishedSegment[];
  /** Every op with seq_no ≤ checkpoint is in these segments, none above (what a flush commits). */
  readonly checkpoint: number;
}

/** What a realtime lookup of an `_id` finds. */
export interface DocVersion {
  readonly exists: boolean;
  readonly version: number;
  readonly seqNo: number;
  /** The `_source` JSON as stored, when `exists`. */
  readonly source: string | null;
}
