/**
 * A JSON text held as pieces: strings, and UTF-8 bytes spliced in as they are. A search worker
 * renders a page's hits with their stored `_source` bytes into one buffer; the coordinator wraps it
 * in the response envelope and the server writes the pieces to the socket as bytes, so the stored
 * `_source` is never decoded to a string and encoded again (ES splices `_source` the same way).
 * Anything that needs the value (`filter_path`, `pretty`, rank evaluation) reads `toString()`.
 */
import { releasePage } from './page-leases.js';

export type JsonPiece = string | Uint8Array;

/** Strings up to this length are sized by their worst case (3 UTF-8 bytes per UTF-16 unit) instead of measured. */
const MEASURE_ABOVE_CHARS = 1024;

/** Node's writers without Buffer#write's argument handling (a call per piece or hit adds up). */
type TextWriter = Buffer & { utf8Write(s: string, offset: number, length: number): number; latin1Write(s: string, offset: number, length: number): number };

const NON_ASCII = /[^\0-\x7f]/;

/**
 * Writes `s` as UTF-8 into `out` at `at` (room for it is the caller's); returns the bytes written.
 * ASCII text (nearly all of a response's own text: names, ids, numbers) is its own UTF-8 and goes
 * through the one-byte writer, about 3× faster than UTF-8 encoding it.
 */
export function writeUtf8(out: Buffer, s: string, at: number): number {
  const w = out as TextWriter;
  return NON_ASCII.test(s) ? w.utf8Write(s, at, w.length - at) : w.latin1Write(s, at, w.length - at);
}

export class JsonPieces {
  private constructor(
    /** Strings and UTF-8 bytes; the first and last pieces are strings (an object's braces). */
    readonly pieces: readonly JsonPiece[],
  ) {}

  /** A JSON object: `head` opens it (`{…`), `tail` closes it (`…}`), `middle` is spliced between as is. */
  static object(head: string, middle: JsonPiece, tail: string): JsonPieces {
    return typeof middle === 'string' ? new JsonPieces([head + middle + tail]) : new JsonPieces([head, middle, tail]);
  }

  /** `open` + the items separated by commas + `close` (e.g. `_msearch`'s `responses`). */
  static join(open: string, items: ReadonlyArray<JsonPieces | string>, close: string): JsonPieces {
    const out: JsonPiece[] = [];
    let text = open;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) text += ',';
      const item = items[i];
      if (typeof item === 'string') {
        text += item;
        continue;
      }
      // Neighbouring strings are merged, so a page of string items stays one string.
      const parts = item.pieces;
      for (let p = 0; p < parts.length; p++) {
        const part = parts[p];
        if (typeof part === 'string') text += part;
        else {
          out.push(text, part);
          text = '';
        }
      }
    }
    out.push(text + close);
    return new JsonPieces(out);
  }

  /** This object with `member` (`"key":value`) added before its first member. */
  withFirstMember(member: string): JsonPieces {
    const pieces = this.pieces.slice();
    pieces[0] = `{${member},${(pieces[0] as string).slice(1)}`;
    return new JsonPieces(pieces);
  }

  /** This object with `member` (`"key":value`) added after its last member. */
  withLastMember(member: string): JsonPieces {
    const pieces = this.pieces.slice();
    const last = pieces.length - 1;
    pieces[last] = `${(pieces[last] as string).slice(0, -1)},${member}}`;
    return new JsonPieces(pieces);
  }

  /** The JSON text (decoding the byte pieces). Reads a leased page once (common/page-leases.ts). */
  toString(): string {
    const pieces = this.pieces;
    if (pieces.length === 1) return pieces[0] as string;
    let out = '';
    for (const p of pieces) {
      if (typeof p === 'string') out += p;
      else {
        out += Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8');
        releasePage(p);
      }
    }
    return out;
  }

  /** The UTF-8 bytes of the text, written once into one buffer. */
  toBuffer(): Buffer {
    const size = this.byteLengthBound();
    const out = Buffer.allocUnsafe(size);
    const at = this.writeInto(out);
    return at === size ? out : out.subarray(0, at);
  }

  /** At least the UTF-8 length of the text (short strings counted at their worst case), the room writeInto needs. */
  byteLengthBound(): number {
    let size = 0;
    for (const p of this.pieces) size += typeof p !== 'string' ? p.byteLength : p.length > MEASURE_ABOVE_CHARS ? Buffer.byteLength(p) : p.length * 3;
    return size;
  }

  /**
   * Writes the UTF-8 bytes of the text at the start of `out` (at least byteLengthBound() long);
   * returns their length. Reads a leased page once: once all its pages are copied out, a search
   * worker's page buffer goes back to the worker, to be written again (common/page-leases.ts).
   */
  writeInto(out: Buffer): number {
    let at = 0;
    for (const p of this.pieces) {
      if (typeof p === 'string') at += writeUtf8(out, p, at);
      else {
        out.set(p, at);
        at += p.byteLength;
        releasePage(p);
      }
    }
    return at;
  }
}
