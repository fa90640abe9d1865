/**
 * A shard's segments as ES's segments API reports them (ES `Engine.segments()`, shown by
 * `GET /_segments` and `_cat/segments`): one row per segment searches read, with Lucene's name for
 * its generation and whether the last flush committed it. Capacity experiments read it to watch
 * how many segments a load leaves and what each one holds.
 */
import type { IndexShard } from '../indices/index-shard.js';
import { segmentGeneration } from '../indices/shard-durability.js';
import type { PublishedSegment } from '../indices/shard-state.js';

export interface SegmentView {
  /** Lucene's segment name: `_` and the generation in base 36 (IndexWriter.newSegmentName). */
  readonly name: string;
  readonly generation: number;
  /** Live documents. */
  readonly numDocs: number;
  readonly deletedDocs: number;
  readonly sizeBytes: number;
  readonly committed: boolean;
}

/** What a segment takes in the store: its bytes and its live-docs bitset (`_stats`' `store`). */
export function segmentStoreBytes(s: PublishedSegment): number {
  return s.sab.byteLength + (s.liveDocs ? s.liveDocs.byteLength : 0);
}

/** The shard's published segments in search order. */
export function segmentViews(shard: IndexShard): SegmentView[] {
  return shard.snapshot.segments.map((s) => {
    const generation = segmentGeneration(s.id);
    return {
      name: `_${generation.toString(36)}`,
      generation,
      numDocs: s.liveCount,
      deletedDocs: s.reader.maxDoc - s.liveCount,
      sizeBytes: segmentStoreBytes(s),
      committed: shard.isCommitted(s.id),
    };
  });
}
