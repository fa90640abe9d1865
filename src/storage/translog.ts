/**
 * The per-shard write-ahead log (ES's translog). Every acknowledged write is a record here before
 * its response is sent: records are appended to an in-memory queue and one loop writes and fsyncs
 * whatever has accumulated, so concurrent requests share one fsync (group commit). With
 * `index.translog.durability: async` the loop runs on a timer instead and requests do not wait.
 *
 * Files: `translog-<generation>.tlog`, each a 16-byte header then records framed as
 *   [u32 body length][u32 CRC32 of body][body]
 * Body: u8 op, f64 seq_no, f64 version, (index: f64 write order), u32 id length, id (UTF-8),
 * (index: u32 source length, source (UTF-8)).
 *
 * A flush rolls to a new generation and trims generations whose every op is in committed segments.
 * Reading tells apart a torn last record (a write whose fsync never completed, so never
 * acknowledged: discarded) from damage elsewhere (reported: acknowledged writes may be lost).
 */
import { open, readdir, readFile, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fsyncDir } from './atomic-file.js';

export type TranslogOp =
  | { readonly op: 'index'; readonly seqNo: number; readonly version: number; readonly indexOrder: number; readonly id: string; readonly source: string }
  | { readonly op: 'delete'; readonly seqNo: number; readonly version: number; readonly id: string };

const HEADER_MAGIC = 0x54534c47; // "TSLG"
const HEADER_VERSION = 1;
const HEADER_BYTES = 16;
const OP_INDEX = 1;
const OP_DELETE = 2;

export interface TranslogOptions {
  readonly durability: 'request' | 'async';
  readonly syncIntervalMs: number;
}

export interface TranslogReadReport {
  readonly ops: TranslogOp[];
  /** Generations found, ascending, with the largest seq_no each holds (-1 when empty). */
  readonly generations: Array<{ generation: number; maxSeqNo: number; bytes: number }>;
  /** Problems met, for the start-up log; `lostRecords` counts damaged records that were skipped. */
  readonly warnings: string[];
  readonly lostRecords: number;
}

function fileName(generation: number): string {
  return `translog-${generation}.tlog`;
}

function header(generation: number): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.writeUInt32LE(HEADER_MAGIC, 0);
  h.writeUInt32LE(HEADER_VERSION, 4);
  h.writeDoubleLE(generation, 8);
  return h;
}

/** An upper bound of an op's record size: UTF-8 takes at most 3 bytes per UTF-16 unit. */
function maxRecordBytes(op: TranslogOp): number {
  return 8 + 1 + 8 + 8 + 8 + 4 + 3 * op.id.length + (op.op === 'index' ? 4 + 3 * op.source.length : 0);
}

/**
 * Writes `op`'s record into `buf` at `start` (room for maxRecordBytes assumed) and returns its
 * size. The strings are encoded straight into the record: no intermediate buffers per op.
 */
function writeOp(op: TranslogOp, buf: Buffer, start: number): number {
  let o = start + 8;
  buf[o++] = op.op === 'index' ? OP_INDEX : OP_DELETE;
  buf.writeDoubleLE(op.seqNo, o);
  o += 8;
  buf.writeDoubleLE(op.version, o);
  o += 8;
  if (op.op === 'index') {
    buf.writeDoubleLE(op.indexOrder, o);
    o += 8;
  }
  const idLength = buf.write(op.id, o + 4, 'utf8');
  buf.writeUInt32LE(idLength, o);
  o += 4 + idLength;
  if (op.op === 'index') {
    const sourceLength = buf.write(op.source, o + 4, 'utf8');
    buf.writeUInt32LE(sourceLength, o);
    o += 4 + sourceLength;
  }
  buf.writeUInt32LE(o - start - 8, start);
  buf.writeUInt32LE(crc32(buf.subarray(start + 8, o)) >>> 0, start + 4);
  return o - start;
}

/** One op's record (the file's framing), on its own. */
export function encodeOp(op: TranslogOp): Buffer {
  const buf = Buffer.allocUnsafe(maxRecordBytes(op));
  return buf.subarray(0, writeOp(op, buf, 0));
}

/**
 * Records are appended into chunks, so a group commit writes a few large buffers (a 5,000-doc bulk
 * is ~20 chunks) instead of one buffer per op. A shard's chunks grow from the first size to the
 * largest as they fill, so a shard that takes a document now and then holds a few KB.
 */
const FIRST_CHUNK_BYTES = 4 * 1024;
const MAX_CHUNK_BYTES = 64 * 1024;
/**
 * Full-size chunks a translog keeps for reuse once the group commit that wrote them is done (issue
 * 22): a 5,000-doc bulk fills ~20, which lived through the fsync and were often promoted by then,
 * so each stayed in glibc's heap until the coordinator's next full GC. Dropped at a roll (flush).
 */
const MAX_SPARE_CHUNKS = 32;

function decodeBody(body: Buffer): TranslogOp | null {
  try {
    let o = 0;
    const type = body[o++];
    const seqNo = body.readDoubleLE(o);
    o += 8;
    const version = body.readDoubleLE(o);
    o += 8;
    let indexOrder = 0;
    if (type === OP_INDEX) {
      indexOrder = body.readDoubleLE(o);
      o += 8;
    } else if (type !== OP_DELETE) return null;
    const idLength = body.readUInt32LE(o);
    o += 4;
    const id = body.toString('utf8', o, o + idLength);
    o += idLength;
    if (type === OP_DELETE) return o === body.length ? { op: 'delete', seqNo, version, id } : null;
    const sourceLength = body.readUInt32LE(o);
    o += 4;
    if (o + sourceLength !== body.length) return null;
    return { op: 'index', seqNo, version, indexOrder, id, source: body.toString('utf8', o, o + sourceLength) };
  } catch {
    return null;
  }
}

/** The record at `o`: its op (null when damaged) and size (-1 when it runs past the end). */
function readRecord(bytes: Buffer, o: number): { op: TranslogOp | null; size: number } {
  if (o + 8 > bytes.length) return { op: null, size: -1 };
  const bodyLength = bytes.readUInt32LE(o);
  if (o + 8 + bodyLength > bytes.length) return { op: null, size: -1 };
  const body = bytes.subarray(o + 8, o + 8 + bodyLength);
  const op = (crc32(body) >>> 0) === bytes.readUInt32LE(o + 4) ? decodeBody(body) : null;
  return { op, size: 8 + bodyLength };
}

/** True when valid records run from `o` to the end of the file (and there is at least one). */
function canResync(bytes: Buffer, o: number): boolean {
  if (o >= bytes.length) return false;
  while (o < bytes.length) {
    const r = readRecord(bytes, o);
    if (!r.op) return false;
    o += r.size;
  }
  return true;
}

/**
 * Parses one file's records into `out`. A damaged record followed by valid ones is skipped and
 * counted as lost (its length field is intact, the bytes are not). An unreadable end of the last
 * file is a torn write — the crash hit before its fsync returned, so it was never acknowledged.
 * Anything else unreadable is reported as lost.
 */
function parseRecords(bytes: Buffer, file: string, isLast: boolean, out: TranslogOp[], warnings: string[]): { goodEnd: number; lost: number; torn: boolean } {
  let o = HEADER_BYTES;
  let lost = 0;
  while (o < bytes.length) {
    const rec = readRecord(bytes, o);
    if (rec.op) {
      out.push(rec.op);
      o += rec.size;
      continue;
    }
    if (rec.size > 0 && canResync(bytes, o + rec.size)) {
      lost++;
      warnings.push(`${file}: damaged record at byte ${o} (${rec.size} bytes) skipped; the write it held is lost`);
      o += rec.size;
      continue;
    }
    const torn = isLast && (rec.size < 0 || o + rec.size >= bytes.length);
    if (torn) warnings.push(`${file}: discarded a torn last record at byte ${o} (${bytes.length - o} bytes; its write was never acknowledged)`);
    else {
      lost++;
      warnings.push(`${file}: damaged data at byte ${o}; the remaining ${bytes.length - o} bytes cannot be read and the writes they held are lost`);
    }
    return { goodEnd: o, lost, torn };
  }
  return { goodEnd: o, lost, torn: false };
}

interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export class Translog {
  private handle: FileHandle | null = null;
  private generation = 0;
  /** Bytes appended (logical, across generations) and bytes written + fsynced. */
  private appended = 0;
  private durable = 0;
  /**
   * Encoded records not yet written: full chunks, then `chunk` up to `chunkUsed`; and the largest
   * seq_no among them (accounted to the generation they land in).
   */
  private pending: Buffer[] = [];
  /** The chunk records are appended to: bytes before `chunkSealed` are in `pending` already. */
  private chunk: Buffer = Buffer.alloc(0);
  private chunkSealed = 0;
  private chunkUsed = 0;
  private pendingMaxSeqNo = -1;
  /** Full-size chunks appends have moved past, with the logical offset their last record ends at. */
  private retired: Array<{ readonly chunk: Buffer; readonly end: number }> = [];
  /** Retired chunks whose records are durable: nothing reads them, appends take them first. */
  private spare: Buffer[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | null = null;
  /** The first generation's file being created (writes wait for it). */
  private opening: Promise<void> = Promise.resolve();
  /** The batch being written (a roll waits for it before closing the file it writes to). */
  private batch: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  /** Largest seq_no per generation still on disk (for trimming). */
  private readonly generationMaxSeqNo = new Map<number, number>();
  private readonly generationBytes = new Map<number, number>();
  private closed = false;
  /** Group commits done (fsyncs of the current generation), for stats and tests. */
  syncCount = 0;

  private constructor(private readonly dir: string, private options: TranslogOptions) {}

  /** Reads every generation in `dir` (recovery); torn tails of the last one are cut off. */
  static async read(dir: string): Promise<TranslogReadReport> {
    const files = (await readdir(dir).catch(() => [] as string[]))
      .map((f) => /^translog-(\d+)\.tlog$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const ops: TranslogOp[] = [];
    const warnings: string[] = [];
    const generations: TranslogReadReport['generations'] = [];
    let lostRecords = 0;
    for (let i = 0; i < files.length; i++) {
      const gen = files[i];
      const path = join(dir, fileName(gen));
      const bytes = await readFile(path);
      const isLast = i === files.length - 1;
      if (bytes.length < HEADER_BYTES) {
        // A kill while a roll created the file: records go to a generation only once its header is
        // fsynced, so this one never held any. Removed, so that it does not read as a damaged
        // generation once a later one follows it (a second kill before the next flush trimmed it).
        warnings.push(`${fileName(gen)}: discarded an incomplete new generation (${bytes.length} bytes)`);
        await unlink(path);
        continue;
      }
      if (bytes.readUInt32LE(0) !== HEADER_MAGIC || bytes.readDoubleLE(8) !== gen) {
        lostRecords++;
        warnings.push(`${fileName(gen)}: bad header; the generation (${bytes.length} bytes) is unreadable and lost`);
        generations.push({ generation: gen, maxSeqNo: -1, bytes: bytes.length });
        continue;
      }
      const before = ops.length;
      const { goodEnd, lost, torn } = parseRecords(bytes, fileName(gen), isLast, ops, warnings);
      lostRecords += lost;
      // Cut a torn tail off so the file reads cleanly once it is no longer the last generation.
      if (torn) await truncate(path, goodEnd);
      let max = -1;
      for (let k = before; k < ops.length; k++) max = Math.max(max, ops[k].seqNo);
      generations.push({ generation: gen, maxSeqNo: max, bytes: goodEnd });
    }
    return { ops, generations, warnings, lostRecords };
  }

  /**
   * Opens a new generation after the existing ones (which stay until trimmed). Returns at once:
   * the file is created in the background and the first group commit waits for it, so a new
   * index can take writes immediately.
   */
  static create(dir: string, options: TranslogOptions, existing: TranslogReadReport['generations']): Translog {
    const t = new Translog(dir, options);
    for (const g of existing) {
      t.generationMaxSeqNo.set(g.generation, g.maxSeqNo);
      t.generationBytes.set(g.generation, g.bytes);
    }
    const next = existing.length > 0 ? existing[existing.length - 1].generation + 1 : 1;
    t.generation = next;
    t.generationMaxSeqNo.set(next, -1);
    t.generationBytes.set(next, HEADER_BYTES);
    t.opening = t.openGeneration(next);
    // A failure surfaces through the writes that wait for the file.
    t.opening.catch((e: unknown) => (t.failure = e));
    t.configure(options);
    return t;
  }

  private async openGeneration(generation: number): Promise<void> {
    const fh = await open(join(this.dir, fileName(generation)), 'w');
    try {
      await fh.write(header(generation));
      await fh.sync();
      await fsyncDir(this.dir);
    } catch (e) {
      await fh.close();
      throw e;
    }
    this.handle = fh;
    this.generation = generation;
    this.generationMaxSeqNo.set(generation, this.generationMaxSeqNo.get(generation) ?? -1);
    this.generationBytes.set(generation, HEADER_BYTES);
  }

  configure(options: TranslogOptions): void {
    this.options = options;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (options.durability === 'async') {
      this.timer = setInterval(() => void this.flushPending().catch(() => undefined), Math.max(1, options.syncIntervalMs));
      this.timer.unref();
    }
  }

  /** Total bytes of the generations on disk (flush threshold). */
  get sizeBytes(): number {
    let n = 0;
    for (const b of this.generationBytes.values()) n += b;
    return n + (this.appended - this.durable);
  }

  append(op: TranslogOp): void {
    if (this.closed) throw new Error('translog is closed');
    if (this.failure) throw this.failure;
    const room = maxRecordBytes(op);
    if (this.chunk.length - this.chunkUsed < room) {
      this.sealChunk();
      if (this.chunk.length === MAX_CHUNK_BYTES) this.retired.push({ chunk: this.chunk, end: this.appended });
      const size = Math.max(Math.min(MAX_CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, 2 * this.chunk.length)), room);
      this.chunk = size === MAX_CHUNK_BYTES && this.spare.length > 0 ? this.spare.pop()! : Buffer.allocUnsafe(size);
      this.chunkSealed = this.chunkUsed = 0;
    }
    const size = writeOp(op, this.chunk, this.chunkUsed);
    this.chunkUsed += size;
    if (op.seqNo > this.pendingMaxSeqNo) this.pendingMaxSeqNo = op.seqNo;
    this.appended += size;
  }

  /**
   * Moves the current chunk's new records to `pending`. Appends continue after them in the same
   * chunk: a write in flight reads only the sealed bytes.
   */
  private sealChunk(): void {
    if (this.chunkUsed > this.chunkSealed) this.pending.push(this.chunk.subarray(this.chunkSealed, this.chunkUsed));
    this.chunkSealed = this.chunkUsed;
  }

  private get hasPending(): boolean {
    return this.pending.length > 0 || this.chunkUsed > this.chunkSealed;
  }

  /**
   * Resolves once everything appended before the call is on disk (request durability); with
   * async durability it resolves at once (the timer makes it durable within sync_interval).
   */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.options.durability === 'async' || this.durable >= this.appended) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ target: this.appended, resolve, reject });
      void this.flushPending().catch(() => undefined);
    });
  }

  /** Writes and fsyncs everything pending; concurrent callers share the running write. */
  private flushPending(): Promise<void> {
    if (this.writing) return this.writing;
    if (!this.hasPending) return Promise.resolve();
    this.writing = (async () => {
      try {
        await this.opening;
        while (this.hasPending) {
          this.batch = this.writeBatch();
          await this.batch;
        }
      } catch (e) {
        // A failed write or fsync: fail every waiting request and refuse further writes (ES fails
        // the shard); nothing acknowledged may depend on data that did not reach disk.
        this.failure = e;
        for (const w of this.waiters) w.reject(e);
        this.waiters = [];
        throw e;
      } finally {
        this.writing = null;
      }
    })();
    return this.writing;
  }

  /** One group commit: everything pending, written to the current generation and fsynced. */
  private async writeBatch(): Promise<void> {
    this.sealChunk();
    const batch = this.pending;
    const batchMaxSeqNo = this.pendingMaxSeqNo;
    this.pending = [];
    this.pendingMaxSeqNo = -1;
    const target = this.appended;
    let bytes = 0;
    for (const b of batch) bytes += b.length;
    // The file and its generation are taken together: a roll switches both between batches.
    const fh = this.handle!;
    const generation = this.generation;
    // Accounted before the write: a generation is never trimmed while it may hold a newer op.
    this.generationMaxSeqNo.set(generation, Math.max(this.generationMaxSeqNo.get(generation) ?? -1, batchMaxSeqNo));
    let written = 0;
    while (written < batch.length) {
      const { bytesWritten } = await fh.writev(batch.slice(written));
      // writev may be partial: skip fully written buffers, keep the rest.
      let left = bytesWritten;
      while (written < batch.length && left >= batch[written].length) left -= batch[written++].length;
      if (left > 0) batch[written] = batch[written].subarray(left);
    }
    await fh.datasync();
    this.syncCount++;
    this.generationBytes.set(generation, (this.generationBytes.get(generation) ?? 0) + bytes);
    this.durable = target;
    // Chunks whose every record is now on disk (batches are written in order).
    let done = 0;
    while (done < this.retired.length && this.retired[done].end <= target) {
      if (this.spare.length < MAX_SPARE_CHUNKS) this.spare.push(this.retired[done].chunk);
      done++;
    }
    if (done > 0) this.retired.splice(0, done);
    this.waiters = this.waiters.filter((w) => {
      if (w.target <= target) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /**
   * Starts a new generation; batches written after the switch go to it. Does not wait for the
   * writer to go idle (under steady load it never does), only for the batch using the old file.
   */
  async roll(): Promise<void> {
    await this.opening;
    const old = this.handle;
    await this.openGeneration(this.generation + 1);
    await this.batch.catch(() => undefined);
    await old?.close();
    this.spare = [];
  }

  /** Deletes generations (other than the current one) whose every op has seq_no ≤ checkpoint. */
  async trim(checkpoint: number): Promise<void> {
    for (const [gen, max] of [...this.generationMaxSeqNo]) {
      if (gen === this.generation || max > checkpoint) continue;
      await unlink(join(this.dir, fileName(gen))).catch(() => undefined);
      this.generationMaxSeqNo.delete(gen);
      this.generationBytes.delete(gen);
    }
    await fsyncDir(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    try {
      await this.opening;
      await this.flushPending();
    } finally {
      await this.handle?.close();
      this.handle = null;
    }
  }
}
