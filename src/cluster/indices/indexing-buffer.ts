/**
 * A shard's indexing buffer: the writes since the last refresh started, and their live version map.
 *
 * Each buffered document's `_source` is kept as UTF-8 bytes in large byte chunks outside the V8
 * heap, and its numbers in typed-array columns, not as a string and an object per document (issue
 * 22, issue 19): every buffered document lives until the next refresh (~1 s under load), so as
 * heap objects its source string, its BufferedDoc and its version-map op survived the young
 * generation's scavenges, were copied twice, promoted, and died in the old generation — the
 * coordinator's GC was ~21% of its `_bulk` CPU, and its heap at a 1M-doc load's peak was mostly
 * buffered documents plus their garbage. Only the id (the version map's key) stays a string. A
 * source is decoded again only when a reader asks (realtime GET, `_update`); a build task names the
 * chunks (SharedArrayBuffers) and where its documents lie in them (workers/protocol.ts
 * BuildSegmentTask): nothing is copied, and no fresh pages are touched per refresh.
 *
 * Chunks are recycled from one refresh's buffer to the next (`releaseChunks`): dropped, they would
 * be freed only at the coordinator's next full GC, which V8 starts for external memory only every
 * ~64 MB of it, so up to that much would pile up. A pool nobody takes from for a while is dropped
 * (POOL_IDLE_MS), before the idle collector's GC (cluster/idle-collector.ts) frees it.
 */
import { Buffer } from 'node:buffer';
import type { DocVersion } from './shard-state.js';

/** A build task's documents (workers/protocol.ts BuildSegmentTask): see IndexingBuffer.buildColumns. */
export interface BuildColumns {
  readonly ids: string[];
  readonly sourceChunks: SharedArrayBuffer[];
  readonly sourceRuns: Uint32Array;
  readonly runFirstDoc: Uint32Array;
  readonly sourceOffsets: Uint32Array;
  readonly sourceCharOffsets: Uint32Array;
  readonly numbers: Float64Array;
}

/** Bytes per pooled chunk: ~4k short documents. */
const CHUNK_BYTES = 1 << 20;
/** Free chunks kept for the next buffer: a 48mb index buffer of short docs holds ~25 MB of bytes. */
const MAX_FREE_CHUNKS = 96;
/** The free chunks are dropped when none was taken for this long (a load has ended). */
const POOL_IDLE_MS = 1000;

const freeChunks: Buffer[] = [];
let lastTakeMs = 0;
let poolTimer: NodeJS.Timeout | null = null;

/** A chunk over a SharedArrayBuffer: build tasks name it instead of copying the bytes out. */
const newChunk = (bytes: number): Buffer => Buffer.from(new SharedArrayBuffer(bytes));

function takeChunk(): Buffer {
  lastTakeMs = performance.now();
  return freeChunks.pop() ?? newChunk(CHUNK_BYTES);
}

function dropIdlePool(): void {
  poolTimer = null;
  if (freeChunks.length === 0) return;
  if (performance.now() - lastTakeMs >= POOL_IDLE_MS) freeChunks.length = 0;
  else armPoolTimer();
}

function armPoolTimer(): void {
  if (poolTimer !== null) return;
  poolTimer = setTimeout(dropIdlePool, POOL_IDLE_MS);
  poolTimer.unref();
}

/** A slot's value in the version map below zero: the -(k + 1)th delete op of the buffer. */
const deleteRef = (k: number): number => -k - 1;

/** Realtime view of a buffered op (DocVersion), its source decoded now. */
function versionOf(exists: boolean, version: number, seqNo: number, source: string | null): DocVersion {
  return { exists, version, seqNo, source };
}

export class IndexingBuffer {
  /** Documents appended, superseded ones included (slots 0..count-1). */
  count = 0;
  /** The latest op on each id since this buffer opened: a document slot (≥ 0) or a delete (deleteRef). */
  readonly latest = new Map<string, number>();
  /** Ids whose older copies in segments must be deleted at refresh, with the seq_no that replaced them. */
  readonly deletes = new Map<string, number>();
  readonly ids: string[] = [];
  private chunks: Buffer[] = [];
  private chunk: Buffer | null = null;
  private chunkUsed = 0;
  private capacity = 0;
  private chunkOf = new Uint32Array(0);
  private start = new Uint32Array(0);
  private end = new Uint32Array(0);
  /** The source's length in UTF-16 code units (what the build's chunking counts). */
  private chars = new Uint32Array(0);
  private seqNos = new Float64Array(0);
  private versions = new Float64Array(0);
  private indexOrders = new Float64Array(0);
  /** 1 = replaced or deleted before it was ever refreshed: not built into a segment. */
  private superseded = new Uint8Array(0);
  private deleteSeqNos: number[] = [];
  private deleteVersions: number[] = [];

  get empty(): boolean {
    return this.count === 0 && this.deletes.size === 0;
  }

  /** Appends an indexed document and makes it the id's latest op; its slot. */
  addDoc(id: string, source: string, seqNo: number, version: number, indexOrder: number): number {
    // The worst case of UTF-8 is 3 bytes per UTF-16 unit; a long source is measured instead.
    const reserve = source.length <= 4096 ? 3 * source.length : Buffer.byteLength(source, 'utf8');
    const chunk = this.room(reserve);
    const at = this.chunkUsed;
    const written = chunk.write(source, at, 'utf8');
    this.chunkUsed += written;
    return this.addSlot(id, this.chunks.length - 1, at, at + written, source.length, seqNo, version, indexOrder);
  }

  /** Appends a delete and makes it the id's latest op. */
  addDelete(id: string, seqNo: number, version: number): void {
    this.supersede(id);
    const k = this.deleteSeqNos.length;
    this.deleteSeqNos.push(seqNo);
    this.deleteVersions.push(version);
    this.latest.set(id, deleteRef(k));
  }

  private addSlot(id: string, chunk: number, start: number, end: number, chars: number, seqNo: number, version: number, indexOrder: number): number {
    this.supersede(id);
    const s = this.appendSlot(id, chunk, start, end, chars, seqNo, version, indexOrder);
    this.latest.set(id, s);
    return s;
  }

  /** Writes a slot's columns (not the version map); its slot. */
  private appendSlot(id: string, chunk: number, start: number, end: number, chars: number, seqNo: number, version: number, indexOrder: number): number {
    const s = this.count++;
    if (s === this.capacity) this.grow();
    this.ids.push(id);
    this.chunkOf[s] = chunk;
    this.start[s] = start;
    this.end[s] = end;
    this.chars[s] = chars;
    this.seqNos[s] = seqNo;
    this.versions[s] = version;
    this.indexOrders[s] = indexOrder;
    this.superseded[s] = 0;
    return s;
  }

  private supersede(id: string): void {
    const old = this.latest.get(id);
    if (old !== undefined && old >= 0) this.superseded[old] = 1;
  }

  /** The current chunk with at least `bytes` free, taking a new one when needed. */
  private room(bytes: number): Buffer {
    if (this.chunk !== null && this.chunk.length - this.chunkUsed >= bytes) return this.chunk;
    // A source larger than a chunk gets a chunk of its own (not pooled).
    const chunk = bytes > CHUNK_BYTES ? newChunk(bytes) : takeChunk();
    this.chunks.push(chunk);
    this.chunk = chunk;
    this.chunkUsed = 0;
    return chunk;
  }

  private grow(): void {
    const cap = Math.max(1024, this.capacity * 2);
    const widen = <T extends Uint32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.chunkOf = widen(this.chunkOf, (n) => new Uint32Array(n));
    this.start = widen(this.start, (n) => new Uint32Array(n));
    this.end = widen(this.end, (n) => new Uint32Array(n));
    this.chars = widen(this.chars, (n) => new Uint32Array(n));
    this.seqNos = widen(this.seqNos, (n) => new Float64Array(n));
    this.versions = widen(this.versions, (n) => new Float64Array(n));
    this.indexOrders = widen(this.indexOrders, (n) => new Float64Array(n));
    this.superseded = widen(this.superseded, (n) => new Uint8Array(n));
    this.capacity = cap;
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** What a realtime read of `id` finds in this buffer, or null when the buffer has no op on it. */
  lookup(id: string): DocVersion | null {
    const ref = this.latest.get(id);
    if (ref === undefined) return null;
    if (ref >= 0) return versionOf(true, this.versions[ref], this.seqNos[ref], this.source(ref));
    const k = -ref - 1;
    return versionOf(false, this.deleteVersions[k], this.deleteSeqNos[k], null);
  }

  /** True when the latest op on `id` here is an indexed document. */
  holds(id: string): boolean {
    const ref = this.latest.get(id);
    return ref !== undefined && ref >= 0;
  }

  /** A slot's `_source` text, decoded from its bytes. */
  source(slot: number): string {
    return this.chunks[this.chunkOf[slot]].toString('utf8', this.start[slot], this.end[slot]);
  }

  /** The slots a refresh builds (not superseded), in write order. */
  liveSlots(): Uint32Array {
    let n = 0;
    for (let s = 0; s < this.count; s++) n += 1 - this.superseded[s];
    const out = new Uint32Array(n);
    let k = 0;
    for (let s = 0; s < this.count; s++) if (this.superseded[s] === 0) out[k++] = s;
    return out;
  }

  /** Total UTF-16 length of the slots' sources. */
  sourceChars(slots: Uint32Array): number {
    let total = 0;
    for (let i = 0; i < slots.length; i++) total += this.chars[slots[i]];
    return total;
  }

  /**
   * Slots [from, to) of `slots` as a build task's columns: ids; the sources where they are — the
   * chunks they lie in (SharedArrayBuffers, shared with the worker, not copied: a chunk is reused
   * only after the refresh that built it has published) and runs of documents that follow one
   * another in one chunk (`sourceRuns`: chunk, first byte, end byte; `runFirstDoc`: the task's doc
   * each run starts at, and its doc count last); each doc's offset in the task's bytes and in their
   * text (UTF-16), so the worker decodes a run at once and slices it; and seqNo / version /
   * indexOrder in one Float64Array.
   */
  buildColumns(slots: Uint32Array, from: number, to: number): BuildColumns {
    const n = to - from;
    // Pushed, not preallocated: V8 serializes a holey array (`new Array(n)`) as a sparse one, key by key.
    const ids: string[] = [];
    const offsets = new Uint32Array(n + 1);
    const charOffsets = new Uint32Array(n + 1);
    const numbers = new Float64Array(3 * n);
    const chunkIndex = new Map<number, number>();
    const chunks: SharedArrayBuffer[] = [];
    const runs: number[] = [];
    const runFirstDoc: number[] = [];
    let bytes = 0;
    let chars = 0;
    let runChunk = -1;
    let runEnd = -1;
    for (let i = 0; i < n; i++) {
      const s = slots[from + i];
      ids.push(this.ids[s]);
      offsets[i] = bytes;
      charOffsets[i] = chars;
      bytes += this.end[s] - this.start[s];
      chars += this.chars[s];
      numbers[i] = this.seqNos[s];
      numbers[n + i] = this.versions[s];
      numbers[2 * n + i] = this.indexOrders[s];
      const c = this.chunkOf[s];
      if (c === runChunk && this.start[s] === runEnd) {
        runs[runs.length - 1] = runEnd = this.end[s];
        continue;
      }
      let k = chunkIndex.get(c);
      if (k === undefined) {
        chunkIndex.set(c, (k = chunks.length));
        chunks.push(this.chunks[c].buffer as SharedArrayBuffer);
      }
      runs.push(k, this.start[s], this.end[s]);
      runFirstDoc.push(i);
      runChunk = c;
      runEnd = this.end[s];
    }
    offsets[n] = bytes;
    charOffsets[n] = chars;
    runFirstDoc.push(n);
    return { ids, sourceChunks: chunks, sourceRuns: Uint32Array.from(runs), runFirstDoc: Uint32Array.from(runFirstDoc), sourceOffsets: offsets, sourceCharOffsets: charOffsets, numbers };
  }

  // ---- after a refresh ----------------------------------------------------------------------------

  /**
   * A failed refresh puts this (captured) buffer back in front of `newer`, the writes made while it
   * ran: newer's docs and deletes are appended after this buffer's, its version map entries win,
   * and only the copy the merged map points at stays buildable. Returns this buffer.
   */
  absorb(newer: IndexingBuffer): IndexingBuffer {
    const slotBase = this.count;
    for (let s = 0; s < newer.count; s++) {
      const src = newer.chunks[newer.chunkOf[s]];
      const len = newer.end[s] - newer.start[s];
      const chunk = this.room(len);
      const at = this.chunkUsed;
      src.copy(chunk, at, newer.start[s], newer.end[s]);
      this.chunkUsed += len;
      // Which copies stay buildable is settled below, once the version maps are merged.
      this.appendSlot(newer.ids[s], this.chunks.length - 1, at, at + len, newer.chars[s], newer.seqNos[s], newer.versions[s], newer.indexOrders[s]);
    }
    const deleteBase = this.deleteSeqNos.length;
    for (let k = 0; k < newer.deleteSeqNos.length; k++) {
      this.deleteSeqNos.push(newer.deleteSeqNos[k]);
      this.deleteVersions.push(newer.deleteVersions[k]);
    }
    for (const [id, ref] of newer.latest) this.latest.set(id, ref >= 0 ? ref + slotBase : deleteRef(-ref - 1 + deleteBase));
    for (let s = 0; s < this.count; s++) this.superseded[s] = this.latest.get(this.ids[s]) === s ? 0 : 1;
    for (const [id, seq] of newer.deletes) this.deletes.set(id, Math.max(seq, this.deletes.get(id) ?? -1));
    newer.releaseChunks();
    return this;
  }

  /** Hands this buffer's chunks to the next buffers; nothing may read this buffer afterwards. */
  releaseChunks(): void {
    for (const c of this.chunks) if (c.length === CHUNK_BYTES && freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
    this.chunks = [];
    this.chunk = null;
    this.chunkUsed = 0;
    armPoolTimer();
  }
}
