/**
 * A shard's published segments: the snapshot searches read, how refreshed documents become
 * segments (built by workers, in parallel chunks when there are many), how deletes become new
 * copy-on-write live-docs bitsets, and the background merges (which ones: merge-policy.ts).
 *
 * Deletes are recorded as (`_id`, seqNo): every copy of that id with a smaller seqNo is marked
 * deleted, which also re-applies cleanly to the output of a merge that ran meanwhile.
 */
import { countLive, docForId, isLive, openSegment, withDeletes } from '../../index/index.js';
import type { SegmentRef } from '../../../workers/protocol.js';
import type { PublishedSegment, ShardContext, ShardSnapshot } from './shard-state.js';
import type { IndexingBuffer } from './indexing-buffer.js';
import type { ShardStats } from './shard-stats.js';
import { findMerge } from './merge-policy.js';

/**
 * A refresh with more buffered docs than this builds several segments at once, one per pool
 * thread (Lucene's per-thread writers flush separate segments concurrently for the same reason).
 */
const PARALLEL_BUILD_MIN_DOCS = 4000;
/**
 * A build's transient arrays grow with its documents (~3 KB per short doc: the builder's event
 * logs, hash tables and CSR postings), so a refresh that fell behind — its buffer grew while a
 * background merge held a worker — built 100k+ docs per worker at once and took the load's RSS
 * peak up by hundreds of MB (issue 22). Past this much `_source` (UTF-16 code units, ~16k docs of
 * 256 bytes) a refresh is built in more chunks, at most one per pool thread at a time.
 */
const MAX_BUILD_SOURCE_CHARS = 4 << 20;

export type DeleteEntries = ReadonlyMap<string, number> | ReadonlyArray<[string, number]>;

export class ShardSegments {
  snapshot: ShardSnapshot = { segments: [], checkpoint: -1 };
  /** Next generation for segment and live-docs ids (recovery continues after the largest on disk). */
  generation = 0;
  closed = false;
  private merging: Promise<void> | null = null;
  /** Deletes refreshed while a merge runs: re-applied to its output. */
  private mergeDeletes: Array<[string, number]> | null = null;

  constructor(private readonly shardId: number, private readonly ctx: ShardContext, private readonly stats: ShardStats) {}

  /** Builds the buffer's docs at `slots` into segments, in parallel chunks when there are many; in write order. */
  async build(buffer: IndexingBuffer, slots: Uint32Array): Promise<PublishedSegment[]> {
    const { mapping, limits, text, codec } = this.ctx.buildInputs();
    const threads = this.ctx.pool.threads;
    const sourceChars = buffer.sourceChars(slots);
    const n = slots.length;
    const chunks = Math.max(1, Math.min(threads, Math.floor(n / PARALLEL_BUILD_MIN_DOCS)), Math.ceil(sourceChars / MAX_BUILD_SOURCE_CHARS));
    const size = Math.ceil(n / chunks);
    const ids = Array.from({ length: chunks }, () => this.nextSegmentId());
    const built = new Array<{ sab: SharedArrayBuffer }>(chunks);
    let next = 0;
    // One lane per thread: a chunk's task (and its copy of the docs) is made when a lane takes it.
    const lane = async () => {
      while (next < chunks) {
        const c = next++;
        try {
          built[c] = await this.ctx.pool.build({
            segmentId: ids[c],
            mapping,
            limits,
            text,
            codec,
            ...buffer.buildColumns(slots, c * size, Math.min(n, (c + 1) * size)),
          });
        } catch (e) {
          next = chunks; // the refresh fails as a whole: no more chunks
          throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads, chunks) }, lane));
    return built.map((b, c) => this.publishable(ids[c], b.sab, null));
  }

  /** Publishes a refresh: the deletes applied to the current segments, the new ones appended. */
  publishRefresh(added: PublishedSegment[], deletes: ReadonlyMap<string, number>, checkpoint: number): void {
    const segments = this.applyDeletes(this.snapshot.segments, deletes);
    if (this.mergeDeletes) for (const e of deletes) this.mergeDeletes.push(e);
    this.publish([...segments, ...added], checkpoint);
  }

  /** `<index uuid>/<shard>/<generation>`: the segment id the pool and the store know it by. */
  segmentId(generation: number): string {
    return `${this.ctx.indexUuid}/${this.shardId}/${generation}`;
  }

  private nextSegmentId(): string {
    return this.segmentId(this.generation++);
  }

  /** Opens a segment (and its live docs) and announces its buffers to the workers. */
  publishable(id: string, sab: SharedArrayBuffer, liveDocs: Uint32Array | null): PublishedSegment {
    const reader = openSegment(id, sab);
    this.ctx.pool.announce(id, sab);
    let liveDocsId: string | null = null;
    if (liveDocs) {
      liveDocsId = `${id}#${this.generation++}`;
      this.ctx.pool.announce(liveDocsId, liveDocs.buffer as SharedArrayBuffer);
    }
    return { id, sab, reader, liveDocs, liveDocsId, liveCount: countLive(liveDocs, reader.maxDoc) };
  }

  /** New live docs for segments holding older copies of deleted/replaced ids. */
  private applyDeletes(segments: readonly PublishedSegment[], deletes: DeleteEntries): PublishedSegment[] {
    const entries = deletes instanceof Map ? [...deletes] : (deletes as Array<[string, number]>);
    if (entries.length === 0) return [...segments];
    return segments.map((s) => {
      const hits: number[] = [];
      for (const [id, seqNo] of entries) {
        const doc = docForId(s.reader, id);
        if (doc >= 0 && s.reader.seqNo.get(doc) < seqNo && isLive(s.liveDocs, doc)) hits.push(doc);
      }
      if (hits.length === 0) return s;
      return this.withLiveDocs(s, withDeletes(s.liveDocs, s.reader.maxDoc, hits));
    });
  }

  private withLiveDocs(s: PublishedSegment, liveDocs: Uint32Array): PublishedSegment {
    const liveDocsId = `${s.id}#${this.generation++}`;
    this.ctx.pool.announce(liveDocsId, liveDocs.buffer as SharedArrayBuffer);
    return { ...s, liveDocs, liveDocsId, liveCount: countLive(liveDocs, s.reader.maxDoc) };
  }

  /** Swaps in a new snapshot and lets workers drop buffers nothing references any more. */
  publish(segments: PublishedSegment[], checkpoint: number): void {
    const old = this.snapshot.segments;
    // Fully deleted segments leave the snapshot (Lucene drops them at the next commit too).
    this.snapshot = { segments: segments.filter((s) => s.liveCount > 0), checkpoint };
    const keep = new Set<string>();
    for (const s of this.snapshot.segments) {
      keep.add(s.id);
      if (s.liveDocsId) keep.add(s.liveDocsId);
    }
    for (const s of old) {
      if (!keep.has(s.id)) this.ctx.pool.drop(s.id);
      if (s.liveDocsId && !keep.has(s.liveDocsId)) this.ctx.pool.drop(s.liveDocsId);
    }
  }

  /** Stops merges and releases every buffer; the checkpoint stays. */
  close(): void {
    this.closed = true;
    for (const s of this.snapshot.segments) {
      this.ctx.pool.drop(s.id);
      if (s.liveDocsId) this.ctx.pool.drop(s.liveDocsId);
    }
    this.snapshot = { segments: [], checkpoint: this.snapshot.checkpoint };
  }

  // ---- merges -----------------------------------------------------------------------------------

  /** Starts the background merge the policy picks, if any (one at a time per shard). */
  maybeMerge(): void {
    if (this.merging || this.closed) return;
    const run = findMerge(this.snapshot.segments.map((s) => ({ bytes: s.sab.byteLength, maxDoc: s.reader.maxDoc, liveCount: s.liveCount })));
    if (run) void this.merge(run[0], run[1]).catch(() => undefined);
  }

  /** Merges everything into at most `maxSegments` segments (`_forcemerge`; the caller refreshed first). */
  async forceMerge(maxSegments: number): Promise<void> {
    while (this.merging) await this.merging.catch(() => undefined);
    const segs = this.snapshot.segments;
    const needsExpunge = segs.some((s) => s.liveCount < s.reader.maxDoc);
    if (segs.length <= maxSegments && !needsExpunge) return;
    // A force-merge typically follows a bulk load, whose bodies and build arrays are still in the
    // heaps: collected first, they are not added to the merge's peak (issue 22).
    this.ctx.pool.collectGarbage();
    if (maxSegments <= 1 || segs.length <= maxSegments) await this.merge(0, segs.length);
    else await this.merge(0, segs.length - maxSegments + 1);
  }

  private merge(from: number, to: number): Promise<void> {
    const run = this.runMerge(this.snapshot.segments.slice(from, to), this.snapshot.segments.slice(0, from));
    this.merging = run;
    this.mergeDeletes = [];
    return run.finally(() => {
      this.merging = null;
      this.mergeDeletes = null;
      this.maybeMerge();
    });
  }

  private async runMerge(sources: readonly PublishedSegment[], before: readonly PublishedSegment[]): Promise<void> {
    const start = performance.now();
    this.stats.mergeCurrent++;
    try {
      await this.mergeSegments(sources, before);
    } finally {
      this.stats.mergeCurrent--;
    }
    this.stats.mergeTotal++;
    this.stats.mergeTimeMs += performance.now() - start;
    for (const s of sources) {
      this.stats.mergeDocs += s.liveCount;
      this.stats.mergeSizeBytes += s.sab.byteLength;
    }
  }

  private async mergeSegments(sources: readonly PublishedSegment[], before: readonly PublishedSegment[]): Promise<void> {
    const refs: SegmentRef[] = sources.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId }));
    const id = this.nextSegmentId();
    const built = await this.ctx.pool.merge({ segmentId: id, sources: refs, codec: this.ctx.buildInputs().codec });
    if (this.closed) return;
    let merged = this.publishable(id, built.sab, null);
    [merged] = this.applyDeletes([merged], this.mergeDeletes ?? []);
    // Refreshes only append and deletes only remove, so the merged segment goes after whatever
    // is left of the segments that preceded its sources.
    const sourceIds = new Set(sources.map((s) => s.id));
    const beforeIds = new Set(before.map((s) => s.id));
    const current = this.snapshot.segments.filter((s) => !sourceIds.has(s.id));
    const head = current.filter((s) => beforeIds.has(s.id));
    const tail = current.filter((s) => !beforeIds.has(s.id));
    // A merge changes no content: the checkpoint stays that of the current snapshot.
    this.publish([...head, merged, ...tail], this.snapshot.checkpoint);
  }
}
