/**
 * A large JSON response (`_bulk`'s items) as UTF-8 in buffers of at most JSON_CHUNK_BYTES, written to
 * the socket one after another under its Content-Length. Why not one string or one buffer: the server
 * runs with `MALLOC_MMAP_THRESHOLD_=131072` (issue 22's memory settings), so every buffer over 128 KB is
 * a fresh mapping whose pages the kernel faults in on first write (~4 ms per MB on the benchmark
 * machine), and JSON.stringify's answer for a 5,000-item bulk (~700 KB, a rope) was flattened into a
 * fresh large string and then encoded into a fresh buffer: twice that per request. Chunks of 64 KB come
 * from malloc's heap, whose pages are reused.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { releaseWhenWritten } from './release-when-written.js';

export const JSON_CHUNK_BYTES = 64 * 1024;
/**
 * Free 64 KB chunks kept for the next responses (2 MB: two 5,000-item bulks in flight use ~13 each).
 * Why reuse them: V8 counts every ArrayBuffer byte allocated since the last mark-compact against the
 * old generation's limit and starts incremental marking once what is left of it is less than the
 * young generation; a 5,000-doc `_bulk` allocated ~0.8 MB of fresh response chunks on the
 * coordinator, on top of its body's ~2.4 MB, and those bytes, not the heap, started most of its
 * mark-compacts (issue 19, `gc-i19bulk`; `_msearch` had the same cause, `gc-i19g`).
 */
const KEEP_CHUNKS = 32;
const freeChunks: Buffer[] = [];

function takeChunk(): Buffer {
  return freeChunks.pop() ?? Buffer.allocUnsafeSlow(JSON_CHUNK_BYTES);
}

/** Free chunks held now (tests). */
export function freeJsonChunks(): number {
  return freeChunks.length;
}

/** Lets every free chunk go to the collector (free-buffers.ts). */
export function dropFreeJsonChunks(): void {
  freeChunks.length = 0;
}
/** Items stringified per JSON.stringify call (~36 KB of bulk items, a young-generation string): one call per item costs ~3× as much. */
const ITEMS_PER_PIECE = 256;

const NON_ASCII = /[^\0-\x7f]/;

export class JsonChunks {
  constructor(
    readonly chunks: readonly Buffer[],
    readonly byteLength: number,
    /** The whole 64 KB buffers under `chunks` that came from the free list (given back by `release`). */
    private pooled: Buffer[] = [],
  ) {}

  /** The JSON text (for `filter_path` and `pretty`, which rewrite it). */
  toString(): string {
    return Buffer.concat(this.chunks as Buffer[], this.byteLength).toString('utf8');
  }

  /**
   * Gives the chunks back to the free list: only once nothing reads them any more (the text was
   * copied out, or the response was written to the socket). Once only; the chunks must not be read after.
   */
  release(): void {
    const pooled = this.pooled;
    this.pooled = [];
    for (let i = 0; i < pooled.length && freeChunks.length < KEEP_CHUNKS; i++) freeChunks.push(pooled[i]);
  }

  /** The body to send: the one buffer, or a stream of the chunks. */
  payload(): Buffer | Readable {
    return this.chunks.length === 1 ? this.chunks[0] : Readable.from(this.chunks, { objectMode: false });
  }
}

/** Appends JSON text into chunks. */
export class ChunkWriter {
  private readonly chunks: Buffer[] = [];
  private readonly pooled: Buffer[] = [];
  private chunk = this.take(0);
  /** Where the first chunk's text starts: room left before it for a head written last (finishWithHead). */
  private readonly headRoom: number;
  private at: number;
  private total = 0;

  constructor(headRoom = 0) {
    this.headRoom = headRoom;
    this.at = headRoom;
  }

  write(s: string): void {
    if (NON_ASCII.test(s)) {
      // Not split: its own chunk when it does not fit (only text with non-ASCII characters).
      const bytes = Buffer.byteLength(s);
      if (bytes > this.chunk.length - this.at) this.next(bytes);
      this.at += this.chunk.write(s, this.at, bytes, 'utf8');
      return;
    }
    // ASCII text is its own UTF-8: written in as many chunks as it fills.
    for (let from = 0; from < s.length; ) {
      if (this.at === this.chunk.length) this.next(0);
      const n = this.chunk.write(from === 0 ? s : s.slice(from), this.at, this.chunk.length - this.at, 'latin1');
      this.at += n;
      from += n;
    }
  }

  /**
   * At least `bytes` free in the current chunk, for the unchecked writes below (a new chunk when
   * not: the text is the same, only where one chunk ends moves).
   */
  room(bytes: number): void {
    if (bytes > this.chunk.length - this.at) this.next(bytes);
  }

  /** ASCII text (the caller checked it), inside the room asked for: no string or buffer made. */
  ascii(s: string): void {
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < s.length; i++) chunk[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** Bytes already encoded, inside the room asked for. */
  bytes(b: Uint8Array): void {
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < b.length; i++) chunk[at++] = b[i];
    this.at = at;
  }

  /** A number as JSON.stringify writes it, inside the room asked for (24 bytes); integers without a string. */
  number(n: number): void {
    if (!Number.isSafeInteger(n)) {
      this.ascii(JSON.stringify(n));
      return;
    }
    const chunk = this.chunk;
    if (n < 0) {
      chunk[this.at++] = 0x2d;
      n = -n;
    }
    let digits = 1;
    for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++;
    let at = this.at + digits;
    this.at = at;
    do {
      const q = Math.floor(n / 10);
      chunk[--at] = 0x30 + (n - q * 10);
      n = q;
    } while (n > 0);
  }

  private next(atLeast: number): void {
    if (this.at > 0) this.push();
    this.chunk = this.take(atLeast);
  }

  /** A 64 KB chunk from the free list, or a buffer of its own for a larger non-ASCII piece. */
  private take(atLeast: number): Buffer {
    if (atLeast > JSON_CHUNK_BYTES) return Buffer.allocUnsafe(atLeast);
    const chunk = takeChunk();
    this.pooled.push(chunk);
    return chunk;
  }

  private push(): void {
    const from = this.chunks.length === 0 ? this.headRoom : 0;
    this.chunks.push(this.chunk.subarray(from, this.at));
    this.total += this.at - from;
    this.at = 0;
  }

  finish(): JsonChunks {
    if (this.at > 0 || this.chunks.length === 0) this.push();
    return new JsonChunks(this.chunks, this.total, this.pooled);
  }

  /**
   * `head` (ASCII, at most the head room the writer was made with) before everything written,
   * then `tail`: a head known only at the end (a `took`) without copying the text after it.
   */
  finishWithHead(head: string, tail: string): JsonChunks {
    if (head.length > this.headRoom || NON_ASCII.test(head)) throw new Error(`head does not fit its room: ${head}`);
    this.write(tail);
    this.finish();
    const first = this.chunks[0];
    // The first chunk is a view from headRoom on; the head goes just before it, in the same buffer.
    const start = first.byteOffset - head.length;
    const buffer = Buffer.from(first.buffer, start, head.length + first.length);
    buffer.write(head, 0, head.length, 'latin1');
    this.chunks[0] = buffer;
    this.total += head.length;
    return new JsonChunks(this.chunks, this.total, this.pooled);
  }
}

function releaseChunks(body: JsonChunks): void {
  body.release();
}

/**
 * The payload to send `body` on `res`; its chunks go back to the free list once the response has
 * been written to the socket (`finish`). A response whose connection closes before it finished
 * does not give them back (a write may still hold one); the collector frees them then.
 */
export function sendChunks(body: JsonChunks, res: ServerResponse): Buffer | Readable {
  releaseWhenWritten(res, releaseChunks, body);
  return body.payload();
}

/**
 * `head` + the items as a JSON array's members (comma-separated, no brackets) + `tail`: e.g.
 * `{"took":3,"errors":false,"items":[` … `]}`. The same text as JSON.stringify of the whole.
 */
export function jsonChunksOf(head: string, items: readonly unknown[], tail: string): JsonChunks {
  const out = new ChunkWriter();
  out.write(head);
  for (let i = 0; i < items.length; i += ITEMS_PER_PIECE) {
    const piece = JSON.stringify(items.slice(i, i + ITEMS_PER_PIECE));
    out.write(i === 0 ? piece.slice(1, -1) : `,${piece.slice(1, -1)}`);
  }
  out.write(tail);
  return out.finish();
}
