/**
 * A shard's durability: a flush persists the current snapshot's segments and live docs and commits
 * its checkpoint, after which older translog generations are trimmed; recovery loads the commit
 * (verifying every file) and returns the translog ops above its checkpoint for replay through the
 * shard's write path. Every write reaches the translog before it is acknowledged (IndexShard.sync).
 */
import {
  COMMIT_VERSION, CorruptFileError, type Commit, type CommittedSegment, type TranslogOp,
} from '../../storage/index.js';
import type { ShardSegments } from './shard-segments.js';
import type { PublishedSegment, ShardContext, ShardSnapshot } from './shard-state.js';
import type { ShardStats } from './shard-stats.js';

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

/** Recovery's result plus what the shard's write path continues from. */
export interface RecoveredShard extends ShardRecovery {
  /** Largest seq_no in the commit, its segments or the translog (-1 when none). */
  readonly maxSeqNo: number;
  /** Damage was found: the index reports red health. */
  readonly withLoss: boolean;
}

export class ShardDurability {
  private flushQueue: Promise<void> = Promise.resolve();
  /** Files already written for segment ids and live-docs ids (a flush writes only new ones). */
  private readonly persistedFiles = new Map<string, string>();
  private committedCheckpoint = -1;
  /** Ids of the segments in the last commit (ES's `committed` in `_segments`). */
  private committedIds: ReadonlySet<string> = new Set();

  constructor(private readonly ctx: ShardContext, private readonly segments: ShardSegments, private readonly stats: ShardStats) {}

  /** Whether the segment is in the last commit, i.e. on disk and recovered without the translog. */
  isCommitted(segmentId: string): boolean {
    return this.committedIds.has(segmentId);
  }

  /** Persists the snapshot `refresh` publishes and trims the translog; flushes run one at a time. */
  async flush(refresh: () => Promise<void>): Promise<void> {
    await this.flushAndCapture(refresh);
  }

  /**
   * A flush that returns the shard snapshot it committed (null when the shard is closed): a
   * repository snapshot copies exactly these segments — the commit point, whatever refreshes and
   * merges publish after it.
   */
  flushAndCapture(refresh: () => Promise<void>): Promise<ShardSnapshot | null> {
    const run = this.flushQueue.then(async () => {
      const start = performance.now();
      const committed = await this.doFlush(refresh);
      this.stats.flushTotal++;
      this.stats.flushTimeMs += performance.now() - start;
      return committed;
    });
    this.flushQueue = run.then(() => undefined, () => undefined);
    return run;
  }

  private async doFlush(refresh: () => Promise<void>): Promise<ShardSnapshot | null> {
    if (this.segments.closed) return null;
    const store = this.ctx.store;
    const translog = store.translog!;
    await refresh();
    const snap = this.segments.snapshot;
    const unpersisted = snap.segments.some((s) => !this.persistedFiles.has(s.id) || (s.liveDocsId !== null && !this.persistedFiles.has(s.liveDocsId)));
    if (snap.checkpoint === this.committedCheckpoint && !unpersisted) return snap;
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
    this.committedIds = new Set(snap.segments.map((s) => s.id));
    await translog.trim(snap.checkpoint);
    await store.removeUnreferenced(commit);
    const referenced = new Set(snap.segments.flatMap((s) => (s.liveDocsId ? [s.id, s.liveDocsId] : [s.id])));
    for (const id of [...this.persistedFiles.keys()]) if (!referenced.has(id)) this.persistedFiles.delete(id);
    return snap;
  }

  /**
   * Loads the last commit (verifying every file) and the translog, publishes the intact segments,
   * opens the translog for new writes, and returns the ops to replay. A damaged segment file is
   * reported and skipped — its documents are provably lost — and the shard serves what is intact.
   */
  async recover(): Promise<RecoveredShard> {
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
    this.segments.generation = Math.max(await store.maxGeneration(), ...(commit?.segments.map((s) => s.generation) ?? [])) + 1;
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
      const id = this.segments.segmentId(c.generation);
      const seg = this.segments.publishable(id, sab, live);
      this.persistedFiles.set(id, c.file);
      if (seg.liveDocsId && c.liveDocsFile) this.persistedFiles.set(seg.liveDocsId, c.liveDocsFile);
      for (let d = 0; d < seg.reader.maxDoc; d++) {
        if (seg.reader.seqNo.get(d) > maxSeqNo) maxSeqNo = seg.reader.seqNo.get(d);
        if (seg.reader.indexOrder.get(d) > maxIndexOrder) maxIndexOrder = seg.reader.indexOrder.get(d);
      }
      segments.push(seg);
    }
    const checkpoint = commit?.checkpoint ?? -1;
    this.segments.snapshot = { segments: segments.filter((s) => s.liveCount > 0), checkpoint };
    this.committedIds = new Set(segments.map((s) => s.id));
    this.committedCheckpoint = lostDocs > 0 ? -2 : checkpoint;
    const log = await store.readTranslog();
    problems.push(...log.warnings);
    const ops = log.ops.filter((op) => op.seqNo > checkpoint);
    for (const op of log.ops) {
      if (op.seqNo > maxSeqNo) maxSeqNo = op.seqNo;
      if (op.op === 'index' && op.indexOrder > maxIndexOrder) maxIndexOrder = op.indexOrder;
    }
    store.openTranslog(this.ctx.translogOptions(), log.generations);
    const withLoss = commitLost || lostDocs > 0 || log.lostRecords > 0;
    return { ops, problems, lostDocs, lostOps: log.lostRecords, maxIndexOrder, maxSeqNo, withLoss };
  }
}

/** `<index uuid>/<shard>/<generation>` → generation. */
export function segmentGeneration(id: string): number {
  return Number(id.slice(id.lastIndexOf('/') + 1));
}

/** `<segment id>#<generation>` → generation. */
export function liveDocsGeneration(id: string): number {
  return Number(id.slice(id.lastIndexOf('#') + 1));
}
