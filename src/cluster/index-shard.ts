/**
 * A shard: the indexing buffer (recent writes), the published segments, and the live version map
 * that makes GET and versioning realtime. Writes are applied synchronously on the coordinator (one
 * thread, so no locks); refresh turns the buffer into a segment built by a worker and publishes a
 * new snapshot; merges combine adjacent small segments in the background.
 *
 * Deletes are recorded as (`_id`, seqNo): at refresh every copy of that id with a smaller seqNo is
 * marked deleted in a new (copy-on-write) live-docs bitset, which also re-applies cleanly to the
 * output of a merge that ran meanwhile.
 *
 * Durability: every write is appended to the shard's translog before it is acknowledged (callers
 * await `sync()`); a flush persists the current snapshot's segments and live docs and commits its
 * checkpoint, after which older translog generations are trimmed. Recovery loads the commit and
 * replays the translog ops above its checkpoint through the same write path.
 */
import { VersionConflictError } from '../errors/index.js';
import {
  countLive, docForId, isLive, openSegment, readSource, withDeletes, type DocumentParseLimits, type IndexTextSettings, type RootMapping,
} from '../index/index.js';
import {
  COMMIT_VERSION, CorruptFileError, type Commit, type CommittedSegment, type ShardStore, type TranslogOp, type TranslogOptions,
} from '../storage/index.js';
import type { SegmentRef } from '../../workers/protocol.js';
import type { SearchPool } from './search-pool.js';
import type { BufferedDoc, DocVersion, LatestOp, PublishedSegment, ShardSnapshot } from './shard-state.js';
import { ShardStats, timedWrite, WRITE_TIMING_SAMPLE } from './indices/shard-stats.js';

/** Merge this many adjacent segments of the same size tier (LogMergePolicy's merge factor). */
const MERGE_FACTOR = 10;
/**
 * A refresh with more buffered docs than this builds several segments at once, one per pool
 * thread (Lucene's per-thread writers flush separate segments concurrently for the same reason).
 */
const PARALLEL_BUILD_MIN_DOCS = 4000;
/** Heap bytes a buffered document costs beyond its strings (objects, map entries). */
const BUFFERED_DOC_OVERHEAD = 200;

export interface ShardContext {
  readonly indexName: string;
  readonly indexUuid: string;
  readonly pool: SearchPool;
  /** The mapping and limits segments are built with (the index's current ones). */
  buildInputs(): { mapping: RootMapping; limits: DocumentParseLimits; text: IndexTextSettings };
  readonly store: ShardStore;
  /** `index.translog.*` settings, read when the translog opens and when settings change. */
  translogOptions(): TranslogOptions;
  /** `index.translog.flush_threshold_size` in bytes. */
  flushThresholdBytes(): number;
}

/** What recovery found, for the start-up log and for replay. */
export interface ShardRecovery {
  /** Translog ops above the commit's checkpoint, in order: to be replayed. */
  readonly ops: TranslogOp[];
  /** Damage found (corrupt segment files, torn or damaged translog records). */
  readonly problems: string[];
  /** Documents in segment files that could not be read (provably lost). */
  readonly lostDocs: number;
  /** Translog records that could not be read (acknowledged writes that are lost). */
  readonly lostOps: number;
  /** Largest write order found (the index's tie-break counter continues after it). */
  readonly maxIndexOrder: number;
}

export interface WriteOutcome {
  readonly seqNo: number;
  readonly version: number;
  readonly result: 'created' | 'updated' | 'deleted' | 'not_found';
}

export class IndexShard {
  snapshot: ShardSnapshot = { segments: [], checkpoint: -1 };
  private buffer: BufferedDoc[] = [];
  private latest = new Map<string, LatestOp>();
  private deletes = new Map<string, number>();
  /** The version map of a refresh in progress, still consulted by realtime reads. */
  private refreshingLatest: Map<string, LatestOp> | null = null;
  private nextSeqNo = 0;
  private generation = 0;
  private refreshQueue: Promise<void> = Promise.resolve();
  private refreshPending: Promise<void> | null = null;
  /** Approximate heap bytes held by buffered (unrefreshed) documents: the indexing buffer budget. */
  bufferedBytes = 0;
  /** Operation counters for the stats APIs (plain increments on the hot paths). */
  readonly stats = new ShardStats();
  private merging: Promise<void> | null = null;
  private mergeDeletes: Array<[string, number]> | null = null;
  private closed = false;
  /** Notified after each refresh publishes (refresh=wait_for listeners). */
  private refreshListeners: Array<() => void> = [];
  private flushQueue: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  /** Files already written for segment ids and live-docs ids (a flush writes only new ones). */
  private readonly persistedFiles = new Map<string, string>();
  private committedCheckpoint = -1;
  /** Set when recovery found damage: the index reports red health. */
  recoveredWithLoss = false;

  constructor(readonly shardId: number, private readonly ctx: ShardContext) {}

  get primaryTerm(): number {
    return 1;
  }

  get maxSeqNo(): number {
    return this.nextSeqNo - 1;
  }

  /** Documents written but not yet refreshed. */
  get pendingOps(): number {
    return this.latest.size + this.deletes.size;
  }

  // ---- realtime reads ---------------------------------------------------------------------------

  private fromLatest(op: LatestOp): DocVersion {
    return op.kind === 'index'
      ? { exists: true, version: op.doc.version, seqNo: op.doc.seqNo, source: op.doc.source }
      : { exists: false, version: op.version, seqNo: op.seqNo, source: null };
  }

  /** The newest state of `id`: buffer, then a refresh in flight, then segments newest first. */
  lookup(id: string): DocVersion | null {
    const op = this.latest.get(id) ?? this.refreshingLatest?.get(id);
    if (op) return this.fromLatest(op);
    const segs = this.snapshot.segments;
    for (let i = segs.length - 1; i >= 0; i--) {
      const s = segs[i];
      const doc = docForId(s.reader, id);
      if (doc < 0) continue;
      const live = isLive(s.liveDocs, doc);
      return {
        exists: live,
        version: s.reader.version[doc],
        seqNo: s.reader.seqNo[doc],
        source: live ? readSource(s.reader, doc) ?? '' : null,
      };
    }
    return null;
  }

  /** True when the newest copy of `id` is still in the indexing buffer (not yet in a segment). */
  isBuffered(id: string): boolean {
    return (this.latest.get(id) ?? this.refreshingLatest?.get(id))?.kind === 'index';
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
    this.applyIndex({ id, source, seqNo, version, indexOrder, superseded: false }, prev);
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

  private applyIndex(doc: BufferedDoc, prev: DocVersion | null): void {
    // UTF-16 strings plus the entry and map overhead.
    this.bufferedBytes += 2 * (doc.source.length + doc.id.length) + BUFFERED_DOC_OVERHEAD;
    const old = this.latest.get(doc.id);
    if (old?.kind === 'index') old.doc.superseded = true;
    this.buffer.push(doc);
    this.latest.set(doc.id, { kind: 'index', doc });
    if (prev) this.deletes.set(doc.id, doc.seqNo);
  }

  private applyDelete(id: string, seqNo: number, version: number, prev: DocVersion | null): void {
    const old = this.latest.get(id);
    if (old?.kind === 'index') old.doc.superseded = true;
    this.latest.set(id, { kind: 'delete', seqNo, version });
    if (prev?.exists) this.deletes.set(id, seqNo);
  }

  /** Re-applies a recovered translog op (its seq_no, version and write order as recorded). */
  replay(op: TranslogOp): void {
    const prev = this.lookup(op.id);
    if (op.op === 'index') {
      this.applyIndex({ id: op.id, source: op.source, seqNo: op.seqNo, version: op.version, indexOrder: op.indexOrder, superseded: false }, prev);
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

  /** Resolves once every write made before the call is searchable. */
  refresh(): Promise<void> {
    if (this.refreshPending) return this.refreshPending;
    const run = this.refreshQueue.then(async () => {
      this.refreshPending = null;
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
    return this.refreshPending !== null || this.refreshingLatest !== null;
  }

  /** Resolves after the next refresh publishes (`refresh=wait_for`). */
  waitForRefresh(): Promise<void> {
    return new Promise((resolve) => this.refreshListeners.push(resolve));
  }

  private async doRefresh(): Promise<void> {
    if (this.closed) return;
    // Every op so far is either captured below or already in segments.
    const checkpoint = this.nextSeqNo - 1;
    if (this.buffer.length === 0 && this.deletes.size === 0) {
      // Only tombstones of absent docs (or nothing) since the last refresh: advance the checkpoint.
      this.latest.clear();
      this.snapshot = { ...this.snapshot, checkpoint };
      this.notifyRefreshed();
      return;
    }
    // Capture: new writes go to fresh structures while this refresh builds.
    const buffer = this.buffer;
    const latest = this.latest;
    const deletes = this.deletes;
    const bufferedBytes = this.bufferedBytes;
    this.buffer = [];
    this.latest = new Map();
    this.deletes = new Map();
    this.bufferedBytes = 0;
    this.refreshingLatest = latest;
    try {
      const docs = buffer.filter((d) => !d.superseded);
      const added = docs.length > 0 ? await this.buildSegments(docs) : [];
      const segments = this.applyDeletes(this.snapshot.segments, deletes);
      if (this.mergeDeletes) for (const e of deletes) this.mergeDeletes.push(e);
      this.publish([...segments, ...added], checkpoint);
    } catch (e) {
      // Nothing acknowledged may be lost: put the captured writes back in front of newer ones.
      this.buffer = [...buffer, ...this.buffer];
      this.bufferedBytes += bufferedBytes;
      for (const [id, op] of this.latest) latest.set(id, op);
      this.latest = latest;
      // A captured doc rewritten or deleted meanwhile was not marked superseded (the write went to
      // the fresh map): only the copy the version map points at may be built.
      for (const d of this.buffer) {
        const op = latest.get(d.id);
        d.superseded = !(op?.kind === 'index' && op.doc === d);
      }
      for (const [id, seq] of this.deletes) deletes.set(id, Math.max(seq, deletes.get(id) ?? -1));
      this.deletes = deletes;
      throw e;
    } finally {
      this.refreshingLatest = null;
    }
    this.notifyRefreshed();
    this.maybeMerge();
  }

  /** Builds the buffered docs into segments, in parallel chunks when there are many; in write order. */
  private async buildSegments(docs: BufferedDoc[]): Promise<PublishedSegment[]> {
    const { mapping, limits, text } = this.ctx.buildInputs();
    const chunks = Math.max(1, Math.min(this.ctx.pool.threads, Math.floor(docs.length / PARALLEL_BUILD_MIN_DOCS)));
    const size = Math.ceil(docs.length / chunks);
    const ids = Array.from({ length: chunks }, () => this.nextSegmentId());
    const built = await Promise.all(ids.map((segmentId, c) => this.ctx.pool.build({
      segmentId,
      mapping,
      limits,
      text,
      docs: docs.slice(c * size, (c + 1) * size).map(({ id, source, seqNo, version, indexOrder }) => ({ id, source, seqNo, version, indexOrder })),
    })));
    return built.map((b, c) => this.publishable(ids[c], b.sab, null));
  }

  private notifyRefreshed(): void {
    const listeners = this.refreshListeners;
    this.refreshListeners = [];
    for (const l of listeners) l();
  }

  private nextSegmentId(): string {
    return `${this.ctx.indexUuid}/${this.shardId}/${this.generation++}`;
  }

  private publishable(id: string, sab: SharedArrayBuffer, liveDocs: Uint32Array | null): PublishedSegment {
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
  private applyDeletes(segments: readonly PublishedSegment[], deletes: ReadonlyMap<string, number> | ReadonlyArray<[string, number]>): PublishedSegment[] {
    const entries = deletes instanceof Map ? [...deletes] : (deletes as Array<[string, number]>);
    if (entries.length === 0) return [...segments];
    return segments.map((s) => {
      const hits: number[] = [];
      for (const [id, seqNo] of entries) {
        const doc = docForId(s.reader, id);
        if (doc >= 0 && s.reader.seqNo[doc] < seqNo && isLive(s.liveDocs, doc)) hits.push(doc);
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
  private publish(segments: PublishedSegment[], checkpoint: number): void {
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

  // ---- merges -----------------------------------------------------------------------------------

  /** LogMergePolicy-style: MERGE_FACTOR adjacent segments in the same size tier (powers of 10). */
  private maybeMerge(): void {
    if (this.merging || this.closed) return;
    const segs = this.snapshot.segments;
    const tier = (s: PublishedSegment) => Math.floor(Math.log10(Math.max(1, s.liveCount)));
    for (let end = segs.length; end >= MERGE_FACTOR; end--) {
      const run = segs.slice(end - MERGE_FACTOR, end);
      if (run.every((s) => tier(s) === tier(run[0]))) {
        void this.merge(end - MERGE_FACTOR, end).catch(() => undefined);
        return;
      }
    }
  }

  /** Merges everything into at most `maxSegments` segments (`_forcemerge`). */
  async forceMerge(maxSegments: number): Promise<void> {
    await this.refresh();
    while (this.merging) await this.merging.catch(() => undefined);
    const segs = this.snapshot.segments;
    const needsExpunge = segs.some((s) => s.liveCount < s.reader.maxDoc);
    if (segs.length <= maxSegments && !needsExpunge) return;
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
    const built = await this.ctx.pool.merge({ segmentId: id, sources: refs });
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

  // ---- durability -------------------------------------------------------------------------------

  /** Persists the current snapshot and trims the translog (`_flush`, shutdown, translog size). */
  flush(): Promise<void> {
    const run = this.flushQueue.then(async () => {
      const start = performance.now();
      await this.doFlush();
      this.stats.flushTotal++;
      this.stats.flushTimeMs += performance.now() - start;
    });
    this.flushQueue = run.catch(() => undefined);
    return run;
  }

  private async doFlush(): Promise<void> {
    if (this.closed) return;
    const store = this.ctx.store;
    const translog = store.translog!;
    await this.refresh();
    const snap = this.snapshot;
    const unpersisted = snap.segments.some((s) => !this.persistedFiles.has(s.id) || (s.liveDocsId !== null && !this.persistedFiles.has(s.liveDocsId)));
    if (snap.checkpoint === this.committedCheckpoint && !unpersisted) return;
    // Ops after this point go to a new generation, so the old ones can go once committed.
    await translog.roll();
    const segments: CommittedSegment[] = [];
    for (const s of snap.segments) {
      const generation = segmentGeneration(s.id);
      let file = this.persistedFiles.get(s.id);
      if (!file) {
        file = await store.writeSegment(generation, s.sab);
        this.persistedFiles.set(s.id, file);
      }
      let liveDocsFile: string | null = null;
      if (s.liveDocs && s.liveDocsId) {
        liveDocsFile = this.persistedFiles.get(s.liveDocsId) ?? null;
        if (!liveDocsFile) {
          liveDocsFile = await store.writeLiveDocs(generation, liveDocsGeneration(s.liveDocsId), s.liveDocs);
          this.persistedFiles.set(s.liveDocsId, liveDocsFile);
        }
      }
      segments.push({ generation, file, maxDoc: s.reader.maxDoc, liveDocsFile });
    }
    const commit = { version: COMMIT_VERSION, checkpoint: snap.checkpoint, segments };
    await store.writeCommit(commit);
    this.committedCheckpoint = snap.checkpoint;
    await translog.trim(snap.checkpoint);
    await store.removeUnreferenced(commit);
    const referenced = new Set(snap.segments.flatMap((s) => (s.liveDocsId ? [s.id, s.liveDocsId] : [s.id])));
    for (const id of [...this.persistedFiles.keys()]) if (!referenced.has(id)) this.persistedFiles.delete(id);
  }

  /**
   * Loads the last commit (verifying every file) and the translog, opens the translog for new
   * writes, and returns the ops to replay. A damaged segment file is reported and skipped — its
   * documents are provably lost — and the shard serves what is intact.
   */
  async recover(): Promise<ShardRecovery> {
    const store = this.ctx.store;
    const problems: string[] = [];
    let lostDocs = 0;
    let commitLost = false;
    let commit: Commit | null;
    try {
      commit = await store.readCommit();
    } catch (e) {
      if (!(e instanceof CorruptFileError)) throw e;
      // Without the commit nothing says which files hold which ops: keep them aside, replay the translog.
      const files = await store.dataFiles();
      await store.quarantine(['commit.json', ...files]);
      problems.push(`${e.message}; the shard's segment files (${files.length}) were moved to corrupted/ and only the translog is replayed`);
      commit = null;
      commitLost = true;
    }
    this.generation = Math.max(await store.maxGeneration(), ...(commit?.segments.map((s) => s.generation) ?? [])) + 1;
    const segments: PublishedSegment[] = [];
    let maxSeqNo = commit?.checkpoint ?? -1;
    let maxIndexOrder = -1;
    for (const c of commit?.segments ?? []) {
      let sab: SharedArrayBuffer;
      let live: Uint32Array | null = null;
      try {
        sab = await store.readSegment(c.file);
        if (c.liveDocsFile) live = await store.readLiveDocs(c.liveDocsFile);
      } catch (e) {
        if (!(e instanceof CorruptFileError)) throw e;
        await store.quarantine(c.liveDocsFile ? [c.file, c.liveDocsFile] : [c.file]);
        problems.push(`${e.message}; segment ${c.generation} and its ${c.maxDoc} documents cannot be recovered (files moved to corrupted/)`);
        lostDocs += c.maxDoc;
        continue;
      }
      const id = `${this.ctx.indexUuid}/${this.shardId}/${c.generation}`;
      const seg = this.publishable(id, sab, live);
      this.persistedFiles.set(id, c.file);
      if (seg.liveDocsId && c.liveDocsFile) this.persistedFiles.set(seg.liveDocsId, c.liveDocsFile);
      for (let d = 0; d < seg.reader.maxDoc; d++) {
        if (seg.reader.seqNo[d] > maxSeqNo) maxSeqNo = seg.reader.seqNo[d];
        if (seg.reader.indexOrder[d] > maxIndexOrder) maxIndexOrder = seg.reader.indexOrder[d];
      }
      segments.push(seg);
    }
    const checkpoint = commit?.checkpoint ?? -1;
    this.snapshot = { segments: segments.filter((s) => s.liveCount > 0), checkpoint };
    this.committedCheckpoint = lostDocs > 0 ? -2 : checkpoint;
    const log = await store.readTranslog();
    problems.push(...log.warnings);
    const ops = log.ops.filter((op) => op.seqNo > checkpoint);
    for (const op of log.ops) {
      if (op.seqNo > maxSeqNo) maxSeqNo = op.seqNo;
      if (op.op === 'index' && op.indexOrder > maxIndexOrder) maxIndexOrder = op.indexOrder;
    }
    this.nextSeqNo = maxSeqNo + 1;
    store.openTranslog(this.ctx.translogOptions(), log.generations);
    this.recoveredWithLoss = commitLost || lostDocs > 0 || log.lostRecords > 0;
    return { ops, problems, lostDocs, lostOps: log.lostRecords, maxIndexOrder };
  }

  /** A new, empty shard: opens its translog (recovered shards open it in `recover`). */
  open(): void {
    this.ctx.store.openTranslog(this.ctx.translogOptions(), []);
  }

  /** Stops background work and releases buffers; `closeStore` then closes the translog. */
  close(): void {
    this.closed = true;
    for (const s of this.snapshot.segments) {
      this.ctx.pool.drop(s.id);
      if (s.liveDocsId) this.ctx.pool.drop(s.liveDocsId);
    }
    this.snapshot = { segments: [], checkpoint: this.snapshot.checkpoint };
    this.notifyRefreshed();
  }

  async closeStore(): Promise<void> {
    await this.ctx.store.translog?.close();
  }
}

/** `<index uuid>/<shard>/<generation>` → generation. */
function segmentGeneration(id: string): number {
  return Number(id.slice(id.lastIndexOf('/') + 1));
}

/** `<segment id>#<generation>` → generation. */
function liveDocsGeneration(id: string): number {
  return Number(id.slice(id.lastIndexOf('#') + 1));
}
