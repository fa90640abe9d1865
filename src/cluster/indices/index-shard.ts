/**
 * A shard: the indexing buffer (recent writes) and the live version map that makes GET and
 * versioning realtime, over the published segments (shard-segments.ts) and the commit and
 * translog (shard-durability.ts). Writes are applied synchronously on the coordinator (one
 * thread, so no locks); refresh hands the buffer to a worker that builds a segment and publishes a
 * new snapshot; merges combine adjacent small segments in the background.
 *
 * Durability: every write is appended to the shard's translog before it is acknowledged (callers
 * await `sync()`); recovery replays the translog ops above the commit's checkpoint through the
 * same write path.
 */
import { VersionConflictError } from '../../errors/index.js';
import { docForIdKey, isLive, readSource, setIdKey } from '../../index/index.js';
import type { TranslogOp } from '../../storage/index.js';
import { ShardDurability, type ShardRecovery } from './shard-durability.js';
import { ShardSegments } from './shard-segments.js';
import type { DocVersion, ShardContext, ShardSnapshot } from './shard-state.js';
import { IndexingBuffer } from './indexing-buffer.js';
import { ShardStats, timedWrite, WRITE_TIMING_SAMPLE } from './shard-stats.js';

export type { ShardContext } from './shard-state.js';
export type { ShardRecovery } from './shard-durability.js';

/** Heap bytes a buffered document costs beyond its strings (objects, map entries). */
const BUFFERED_DOC_OVERHEAD = 200;
/** Heap bytes of one version map entry beyond its id (map slot, op object), as ES's estimate. */
const VERSION_MAP_ENTRY_OVERHEAD = 96;

export interface WriteOutcome {
  readonly seqNo: number;
  readonly version: number;
  readonly result: 'created' | 'updated' | 'deleted' | 'not_found';
}

export class IndexShard {
  /** Writes since the last refresh started: documents, deletes and their live version map. */
  private buffer = new IndexingBuffer();
  /** The buffer a refresh in progress is building, still consulted by realtime reads. */
  private refreshingBuffer: IndexingBuffer | null = null;
  private nextSeqNo = 0;
  private refreshQueue: Promise<void> = Promise.resolve();
  private refreshPending: Promise<void> | null = null;
  /** Approximate heap bytes held by buffered (unrefreshed) documents: the indexing buffer budget. */
  bufferedBytes = 0;
  /** The same estimate for the documents a refresh in flight is building (ES's bytes "writing"). */
  refreshingBytes = 0;
  /** Operation counters for the stats APIs (plain increments on the hot paths). */
  readonly stats = new ShardStats();
  /** Notified after each refresh publishes (refresh=wait_for listeners). */
  private refreshListeners: Array<() => void> = [];
  private flushScheduled = false;
  /** When a search last read this shard (performance.now(); ES `lastSearcherAccess`): its creation until then. */
  private lastSearcherAccess = performance.now();
  /** A scheduled refresh was skipped while the shard was search idle: the next search refreshes first. */
  private refreshOwedToSearch = false;
  /** Set when recovery found damage: the index reports red health. */
  recoveredWithLoss = false;
  private readonly segments: ShardSegments;
  private readonly durability: ShardDurability;

  constructor(readonly shardId: number, private readonly ctx: ShardContext) {
    this.segments = new ShardSegments(shardId, ctx, this.stats);
    this.durability = new ShardDurability(ctx, this.segments, this.stats);
  }

  /** The published point-in-time view searches read. */
  get snapshot(): ShardSnapshot {
    return this.segments.snapshot;
  }

  get primaryTerm(): number {
    return 1;
  }

  get maxSeqNo(): number {
    return this.nextSeqNo - 1;
  }

  /** Estimated heap bytes of the live version maps (ES `segments.version_map_memory_in_bytes`). */
  get versionMapBytes(): number {
    return (this.buffer.latest.size + this.buffer.deletes.size + (this.refreshingBuffer?.latest.size ?? 0)) * VERSION_MAP_ENTRY_OVERHEAD;
  }

  /** Documents written but not yet refreshed. */
  get pendingOps(): number {
    return this.buffer.latest.size + this.buffer.deletes.size;
  }

  // ---- realtime reads ---------------------------------------------------------------------------

  /** The newest state of `id`: buffer, then a refresh in flight, then segments newest first. */
  lookup(id: string): DocVersion | null {
    return this.buffer.lookup(id) ?? this.refreshingBuffer?.lookup(id) ?? this.lookupRefreshed(id);
  }

  /** The state of `id` the last refresh published, segments newest first (a GET with `realtime=false`). */
  lookupRefreshed(id: string): DocVersion | null {
    const segs = this.snapshot.segments;
    if (segs.length === 0) return null;
    setIdKey(id);
    for (let i = segs.length - 1; i >= 0; i--) {
      const s = segs[i];
      const doc = docForIdKey(s.reader);
      if (doc < 0) continue;
      const live = isLive(s.liveDocs, doc);
      return {
        exists: live,
        version: s.reader.version.get(doc),
        seqNo: s.reader.seqNo.get(doc),
        source: live ? readSource(s.reader, doc) ?? '' : null,
      };
    }
    return null;
  }

  /** True when the newest copy of `id` is still in the indexing buffer (not yet in a segment). */
  isBuffered(id: string): boolean {
    if (this.buffer.latest.has(id)) return this.buffer.holds(id);
    return this.refreshingBuffer?.holds(id) ?? false;
  }

  // ---- writes -----------------------------------------------------------------------------------

  private conflict(reason: string): VersionConflictError {
    return new VersionConflictError(reason, this.ctx.indexName, this.ctx.indexUuid, this.shardId);
  }

  /** Checks `op_type=create` and `if_seq_no`/`if_primary_term` before a write (ES InternalEngine). */
  checkPreconditions(id: string, prev: DocVersion | null, opts: { create: boolean; ifSeqNo: number | null; ifPrimaryTerm: number | null }): void {
    if (opts.create && prev?.exists) {
      throw this.conflict(`[${id}]: version conflict, document already exists (current version [${prev.version}])`);
    }
    if (opts.ifSeqNo !== null || opts.ifPrimaryTerm !== null) {
      const seq = opts.ifSeqNo ?? -2;
      const term = opts.ifPrimaryTerm ?? 0;
      if (!prev?.exists) {
        throw this.conflict(`[${id}]: version conflict, required seqNo [${seq}], primary term [${term}]. but no document was found`);
      }
      if (prev.seqNo !== seq || term !== this.primaryTerm) {
        throw this.conflict(`[${id}]: version conflict, required seqNo [${seq}], primary term [${term}]. current document has seqNo [${prev.seqNo}] and primary term [${this.primaryTerm}]`);
      }
    }
  }

  index(id: string, source: string, indexOrder: number, prev: DocVersion | null): WriteOutcome {
    const start = timedWrite(this.stats.indexTotal) ? performance.now() : -1;
    const seqNo = this.nextSeqNo;
    const version = prev ? prev.version + 1 : 1;
    // The translog record first: if it cannot be appended, nothing changes.
    this.ctx.store.translog!.append({ op: 'index', seqNo, version, indexOrder, id, source });
    this.nextSeqNo++;
    this.applyIndex(id, source, seqNo, version, indexOrder, prev);
    this.stats.indexTotal++;
    if (start >= 0) this.stats.indexTimeMs += (performance.now() - start) * WRITE_TIMING_SAMPLE;
    return { seqNo, version, result: prev?.exists ? 'updated' : 'created' };
  }

  delete(id: string, prev: DocVersion | null): WriteOutcome {
    const start = timedWrite(this.stats.deleteTotal) ? performance.now() : -1;
    const seqNo = this.nextSeqNo;
    const version = prev ? prev.version + 1 : 1;
    this.ctx.store.translog!.append({ op: 'delete', seqNo, version, id });
    this.nextSeqNo++;
    this.applyDelete(id, seqNo, version, prev);
    this.stats.deleteTotal++;
    if (start >= 0) this.stats.deleteTimeMs += (performance.now() - start) * WRITE_TIMING_SAMPLE;
    return { seqNo, version, result: prev?.exists ? 'deleted' : 'not_found' };
  }

  private applyIndex(id: string, source: string, seqNo: number, version: number, indexOrder: number, prev: DocVersion | null): void {
    // The indexing buffer's budget counts what the document cost as heap strings (UTF-16) plus the
    // entry and map overhead, as before its bytes moved off the heap: the same documents fill the
    // 48mb index buffer, so refreshes and throttling come when they did.
    this.bufferedBytes += 2 * (source.length + id.length) + BUFFERED_DOC_OVERHEAD;
    this.buffer.addDoc(id, source, seqNo, version, indexOrder);
    if (prev) this.buffer.deletes.set(id, seqNo);
  }

  private applyDelete(id: string, seqNo: number, version: number, prev: DocVersion | null): void {
    this.buffer.addDelete(id, seqNo, version);
    if (prev?.exists) this.buffer.deletes.set(id, seqNo);
  }

  /** Re-applies a recovered translog op (its seq_no, version and write order as recorded). */
  replay(op: TranslogOp): void {
    const prev = this.lookup(op.id);
    if (op.op === 'index') {
      this.applyIndex(op.id, op.source, op.seqNo, op.version, op.indexOrder, prev);
    } else {
      this.applyDelete(op.id, op.seqNo, op.version, prev);
    }
  }

  /** Applies changed `index.translog.*` settings. */
  reconfigureTranslog(): void {
    this.ctx.store.translog?.configure(this.ctx.translogOptions());
  }

  /**
   * Resolves once every write made before the call is durable (translog fsynced, shared with
   * concurrent writers); may start a flush when the translog has grown past its threshold.
   */
  async sync(): Promise<void> {
    const translog = this.ctx.store.translog!;
    await translog.sync();
    if (!this.flushScheduled && translog.sizeBytes > this.ctx.flushThresholdBytes()) {
      this.flushScheduled = true;
      void this.flush().catch(() => undefined).finally(() => (this.flushScheduled = false));
    }
  }

  // ---- refresh ----------------------------------------------------------------------------------

  /** Milliseconds since a search last read this shard (ES `search_idle_time`). */
  searchIdleTimeMs(now = performance.now()): number {
    return now - this.lastSearcherAccess;
  }

  /** ES IndexShard.isSearchIdle: no search has read this shard for `idleAfterMs` (`index.search.idle.after`). */
  isSearchIdle(idleAfterMs: number): boolean {
    return this.searchIdleTimeMs() >= idleAfterMs;
  }

  /**
   * The refresh timer's tick (ES IndexShard.scheduledRefresh). With `idleAfterMs` (the index has no
   * explicit `refresh_interval`), a shard that no search has read for that long skips the refresh
   * and owes it to the next search instead, so a bulk load nobody searches builds fewer, larger
   * segments; a `refresh=wait_for` write still gets its refresh.
   */
  scheduledRefresh(idleAfterMs: number | null): void {
    if (this.pendingOps === 0) return;
    if (idleAfterMs !== null && this.refreshListeners.length === 0 && this.isSearchIdle(idleAfterMs)) {
      this.refreshOwedToSearch = true;
      return;
    }
    void this.refresh().catch(() => undefined);
  }

  /**
   * A search is about to read this shard (ES awaitShardSearchActive): it is active again, and when it
   * skipped a scheduled refresh while idle, that refresh runs first and the search waits for it. Null
   * (nothing to wait for) on every other search, so the common path does not await.
   */
  awaitSearchActive(): Promise<void> | null {
    this.lastSearcherAccess = performance.now();
    if (!this.refreshOwedToSearch) return null;
    this.refreshOwedToSearch = false;
    // A failed refresh keeps its writes buffered (doRefresh); the search reads what is published.
    return this.pendingOps > 0 ? this.refresh().catch(() => undefined) : null;
  }

  /** Resolves once every write made before the call is searchable. */
  refresh(): Promise<void> {
    if (this.refreshPending) return this.refreshPending;
    const run = this.refreshQueue.then(async () => {
      this.refreshPending = null;
      this.refreshOwedToSearch = false;
      const start = performance.now();
      await this.doRefresh();
      this.stats.refreshTotal++;
      this.stats.refreshTimeMs += performance.now() - start;
    });
    this.refreshPending = run;
    this.refreshQueue = run.catch(() => undefined);
    return run;
  }

  /** True while a refresh is queued or running (the memory controller skips such shards). */
  get refreshing(): boolean {
    return this.refreshPending !== null || this.refreshingBuffer !== null;
  }

  /** Resolves after the next refresh publishes (`refresh=wait_for`). */
  waitForRefresh(): Promise<void> {
    return new Promise((resolve) => this.refreshListeners.push(resolve));
  }

  private async doRefresh(): Promise<void> {
    if (this.segments.closed) return;
    // Every op so far is either captured below or already in segments.
    const checkpoint = this.nextSeqNo - 1;
    if (this.buffer.empty) {
      // Only tombstones of absent docs (or nothing) since the last refresh: advance the checkpoint.
      this.buffer = new IndexingBuffer();
      this.segments.snapshot = { ...this.segments.snapshot, checkpoint };
      this.notifyRefreshed();
      return;
    }
    // Capture: new writes go to a fresh buffer while this refresh builds.
    const captured = this.buffer;
    const bufferedBytes = this.bufferedBytes;
    this.buffer = new IndexingBuffer();
    this.bufferedBytes = 0;
    this.refreshingBytes = bufferedBytes;
    this.refreshingBuffer = captured;
    try {
      const slots = captured.liveSlots();
      const added = slots.length > 0 ? await this.segments.build(captured, slots) : [];
      this.segments.publishRefresh(added, captured.deletes, checkpoint);
    } catch (e) {
      // Nothing acknowledged may be lost: put the captured writes back in front of newer ones.
      this.buffer = captured.absorb(this.buffer);
      this.bufferedBytes += bufferedBytes;
      throw e;
    } finally {
      this.refreshingBuffer = null;
      this.refreshingBytes = 0;
    }
    // Published: nothing reads the captured buffer any more (lookups decoded what they read).
    captured.releaseChunks();
    this.notifyRefreshed();
    this.segments.maybeMerge();
  }

  private notifyRefreshed(): void {
    const listeners = this.refreshListeners;
    this.refreshListeners = [];
    for (const l of listeners) l();
  }

  /** Merges everything into at most `maxSegments` segments (`_forcemerge`). */
  async forceMerge(maxSegments: number): Promise<void> {
    await this.refresh();
    await this.segments.forceMerge(maxSegments);
  }

  // ---- durability -------------------------------------------------------------------------------

  /** Persists the current snapshot and trims the translog (`_flush`, shutdown, translog size). */
  /** Whether a published segment is in the last commit (`_segments`' `committed`). */
  isCommitted(segmentId: string): boolean {
    return this.durability.isCommitted(segmentId);
  }

  flush(): Promise<void> {
    return this.durability.flush(() => this.refresh());
  }

  /** A flush that returns the snapshot it committed (null once the shard is closed): what a repository snapshot copies. */
  flushForSnapshot(): Promise<ShardSnapshot | null> {
    return this.durability.flushAndCapture(() => this.refresh());
  }

  /**
   * Loads the last commit and the translog, opens the translog for new writes, and returns the ops
   * to replay (shard-durability.ts); new writes continue after the largest seq_no found.
   */
  async recover(): Promise<ShardRecovery> {
    const { maxSeqNo, withLoss, ...recovery } = await this.durability.recover();
    this.nextSeqNo = maxSeqNo + 1;
    this.recoveredWithLoss = withLoss;
    return recovery;
  }

  /** A new, empty shard: opens its translog (recovered shards open it in `recover`). */
  open(): void {
    this.ctx.store.openTranslog(this.ctx.translogOptions(), []);
  }

  /** Stops background work and releases buffers; `closeStore` then closes the translog. */
  close(): void {
    this.segments.close();
    this.notifyRefreshed();
  }

  async closeStore(): Promise<void> {
    await this.ctx.store.translog?.close();
  }
}
