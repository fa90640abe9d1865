/**
 * The LZ4 block format (lz4.org's LZ4_Block_format), with a preset dictionary: matches may reach
 * back past the start of the block into the bytes of a dictionary that precedes it (LZ4's
 * `LZ4_decompress_safe_usingDict`). Stored `_source` of the `default` codec is one document per
 * block against a per-segment dictionary (stored-fields.ts), so a fetch decodes only its own hit.
 *
 * Why hand-written: the decoder reads the dictionary where it lies in the segment's buffer instead
 * of copying it in front of the output (lz4js needs dictionary and output in one array: a 32 KB copy
 * per decode), and decodes into the caller's reused buffer. The encoder keeps the dictionary's hash
 * chains from block to block and only undoes the block's own entries after each block, so a block
 * of a few hundred bytes costs a few hundred hash insertions, not a pass over the dictionary; it
 * walks a bounded chain per position (LZ4 HC's idea, greedy) because with one short document per
 * block most of the gain comes from long matches into the dictionary.
 *
 * A sequence: token (literal length << 4 | match length − 4, 15 = more bytes follow, each 255 =
 * more again), the literals, a 2-byte little-endian offset (1..65535), the extra match length bytes.
 * The last sequence is literals only; as the format requires, the last 5 bytes are literals and no
 * match starts in the last 12.
 */

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
export const MAX_OFFSET = 65535;
const HASH_LOG = 16;
/** Chain candidates tried per position: more finds slightly longer matches for a slower build. */
const MAX_CHAIN = 16;

/** Thrown for a block that does not decode to the length it declares (or reads out of bounds). */
export class CorruptLz4BlockError extends Error {}

function corrupt(what: string): never {
  throw new CorruptLz4BlockError(`corrupt stored fields block: ${what}`);
}

/**
 * Decodes the LZ4 block `src[start, end)` into `dst[0, length)`, matches reaching back into
 * `dict`'s tail before the block's first byte. Throws unless it decodes to exactly `length` bytes.
 */
export function lz4Decode(src: Uint8Array, start: number, end: number, dict: Uint8Array, dst: Uint8Array, length: number): void {
  const dictLength = dict.length;
  let s = start;
  let d = 0;
  while (s < end) {
    const token = src[s++];
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        b = src[s++];
        lit += b;
      } while (b === 255 && s < end);
    }
    if (!(s + lit <= end && d + lit <= length)) corrupt(`literals overrun at ${s - start}`);
    if (lit < 32) {
      for (let i = 0; i < lit; i++) dst[d++] = src[s++];
    } else {
      dst.set(src.subarray(s, s + lit), d);
      s += lit;
      d += lit;
    }
    if (s === end) break; // the last sequence: literals only
    if (s + 2 > end) corrupt(`truncated offset at ${s - start}`);
    const offset = src[s] | (src[s + 1] << 8);
    s += 2;
    let match = (token & 15) + MIN_MATCH;
    if (match === 15 + MIN_MATCH) {
      let b: number;
      do {
        b = src[s++];
        match += b;
      } while (b === 255 && s < end);
    }
    if (!(offset > 0 && offset <= d + dictLength && d + match <= length)) corrupt(`bad match (offset ${offset}, length ${match}) at ${d}`);
    let from = d - offset;
    if (from < 0) {
      // The match starts in the dictionary's tail (and may run on into the block's first bytes).
      const inDict = Math.min(match, -from);
      const at = dictLength + from;
      for (let i = 0; i < inDict; i++) dst[d++] = dict[at + i];
      match -= inDict;
      from = 0;
    }
    if (match > 32 && from + match <= d) {
      dst.copyWithin(d, from, from + match);
      d += match;
    } else {
      // Byte by byte: an overlapping match repeats its first `offset` bytes, as the format means.
      for (let i = 0; i < match; i++) dst[d++] = dst[from++];
    }
  }
  if (d !== length) corrupt(`${d} bytes decoded, ${length} expected`);
}

/** The largest LZ4 block `length` input bytes can encode to (LZ4_compressBound). */
export function lz4Bound(length: number): number {
  return length + Math.floor(length / 255) + 16;
}

function hash4(w: Uint8Array, p: number): number {
  const v = w[p] | (w[p + 1] << 8) | (w[p + 2] << 16) | (w[p + 3] << 24);
  return Math.imul(v, 2654435761) >>> (32 - HASH_LOG);
}

/**
 * Encodes blocks against one preset dictionary. The dictionary's hash chains are built once; each
 * block is copied behind the dictionary in `window`, its positions chained in front of the
 * dictionary's, and those entries undone afterwards. One encoder per segment being written.
 */
export class Lz4DictEncoder {
  private readonly dictLength: number;
  private window: Uint8Array;
  /** Hash → last window position with that hash, −1 = none. */
  private readonly head: Int32Array;
  /** `head` as the dictionary alone left it, to undo a block's entries. */
  private readonly dictHead: Int32Array;
  /** Window position → the previous position with the same hash, −1 = none. */
  private prev: Int32Array;
  private touched: Int32Array;
  private out: Uint8Array;

  constructor(dictionary: Uint8Array) {
    // Only the last MAX_OFFSET bytes are reachable from a block's first byte.
    const dict = dictionary.length > MAX_OFFSET ? dictionary.subarray(dictionary.length - MAX_OFFSET) : dictionary;
    this.dictLength = dict.length;
    this.window = new Uint8Array(dict.length + 4096);
    this.window.set(dict, 0);
    this.head = new Int32Array(1 << HASH_LOG).fill(-1);
    this.prev = new Int32Array(this.window.length).fill(-1);
    for (let p = 0; p + MIN_MATCH <= dict.length; p++) {
      const h = hash4(this.window, p);
      this.prev[p] = this.head[h];
      this.head[h] = p;
    }
    this.dictHead = this.head.slice();
    this.touched = new Int32Array(4096);
    this.out = new Uint8Array(lz4Bound(4096));
  }

  private reserve(length: number): void {
    const size = this.dictLength + length;
    if (this.window.length < size) {
      const grown = new Uint8Array(size + (size >> 1));
      grown.set(this.window.subarray(0, this.dictLength));
      this.window = grown;
      const prev = new Int32Array(grown.length).fill(-1);
      prev.set(this.prev.subarray(0, this.dictLength));
      this.prev = prev;
    }
    if (this.touched.length < length) this.touched = new Int32Array(length + (length >> 1));
    if (this.out.length < lz4Bound(length)) this.out = new Uint8Array(lz4Bound(length + (length >> 1)));
  }

  /** The LZ4 block of `raw` (a view of this encoder's buffer, valid until the next call). */
  encode(raw: Uint8Array): Uint8Array {
    const n = raw.length;
    this.reserve(n);
    const w = this.window;
    const head = this.head;
    const prev = this.prev;
    const out = this.out;
    const touched = this.touched;
    let touchedCount = 0;
    const base = this.dictLength;
    w.set(raw, base);
    const end = base + n;
    const matchLimit = end - LAST_LITERALS;
    const lastStart = end - MF_LIMIT;
    let o = 0;
    let anchor = base;
    let p = base;
    while (p <= lastStart) {
      // The longest match among the chain's first MAX_CHAIN candidates within reach.
      let bestLength = MIN_MATCH - 1;
      let bestFrom = -1;
      let cand = head[hash4(w, p)];
      for (let depth = 0; depth < MAX_CHAIN && cand >= 0 && p - cand <= MAX_OFFSET; depth++) {
        if (w[cand + bestLength] === w[p + bestLength]) {
          let len = 0;
          while (p + len < matchLimit && w[cand + len] === w[p + len]) len++;
          if (len > bestLength) {
            bestLength = len;
            bestFrom = cand;
            if (p + len >= matchLimit) break;
          }
        }
        cand = prev[cand];
      }
      let h = hash4(w, p);
      prev[p] = head[h];
      head[h] = p;
      touched[touchedCount++] = h;
      if (bestFrom < 0) {
        p++;
        continue;
      }
      o = this.sequence(out, o, w, anchor, p - anchor, p - bestFrom, bestLength);
      const next = p + bestLength;
      for (let q = p + 1; q < next && q <= lastStart; q++) {
        h = hash4(w, q);
        prev[q] = head[h];
        head[h] = q;
        touched[touchedCount++] = h;
      }
      p = next;
      anchor = p;
    }
    o = this.sequence(out, o, w, anchor, end - anchor, 0, 0);
    // Undo the block's chain entries: the next block sees the dictionary alone.
    for (let i = 0; i < touchedCount; i++) head[touched[i]] = this.dictHead[touched[i]];
    return out.subarray(0, o);
  }

  /** Writes one sequence (`matchLength` 0: the last, literals only); returns the new output position. */
  private sequence(out: Uint8Array, o: number, w: Uint8Array, literalsAt: number, literals: number, offset: number, matchLength: number): number {
    const m = matchLength === 0 ? 0 : matchLength - MIN_MATCH;
    const token = o++;
    out[token] = ((literals >= 15 ? 15 : literals) << 4) | (matchLength === 0 ? 0 : m >= 15 ? 15 : m);
    if (literals >= 15) o = writeLength(out, o, literals - 15);
    if (literals < 64) for (let i = 0; i < literals; i++) out[o++] = w[literalsAt + i];
    else {
      out.set(w.subarray(literalsAt, literalsAt + literals), o);
      o += literals;
    }
    if (matchLength === 0) return o;
    out[o++] = offset & 0xff;
    out[o++] = offset >>> 8;
    if (m >= 15) o = writeLength(out, o, m - 15);
    return o;
  }
}

function writeLength(out: Uint8Array, o: number, rest: number): number {
  while (rest >= 255) {
    out[o++] = 255;
    rest -= 255;
  }
  out[o++] = rest;
  return o;
}
