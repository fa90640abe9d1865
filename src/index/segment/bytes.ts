/**
 * Byte-level helpers for the segment's string tables (terms, ids): UTF-8 encoding into one blob,
 * code-point ordering (= UTF-8 byte order, as Lucene sorts terms), FNV-1a hashing and an
 * open-addressing hash table from string to ordinal that lives in the SharedArrayBuffer itself, so
 * every thread can look terms up without building anything.
 */
import { Buffer } from 'node:buffer';
import { scratchInt32, scratchUint32, scratchUint8 } from './scratch-pool.js';

export interface StringTable {
  readonly bytes: Uint8Array;
  /** offsets[i]..offsets[i+1] are the bytes of string i. */
  readonly offsets: Uint32Array;
}

/**
 * The strings as one UTF-8 blob with offsets. Short ASCII strings (terms, ids) are copied char by
 * char in JS; longer or non-ASCII ones go through Buffer's UTF-8 encoder. Buffer.byteLength and
 * Buffer#write per string cross into the runtime each time, and in a fresh build worker they run in
 * node's own not-yet-optimized JS: for a 10k-doc build's ~45k terms and ids, ~175 ms of its first
 * build against ~20 once warm (bench/build-cold.ts, issue 19). The bytes are the same.
 */
export function encodeStrings(strings: readonly string[]): StringTable {
  const n = strings.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += utf8Length(strings[i]);
  const bytes = scratchUint8(total, false);
  const offsets = scratchUint32(n + 1, false);
  let buf: Buffer | null = null;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = pos;
    const s = strings[i];
    const end = copyShortAscii(s, bytes, pos);
    if (end >= 0) pos = end;
    else pos += (buf ??= Buffer.from(bytes.buffer, bytes.byteOffset, total)).write(s, pos, 'utf8');
  }
  offsets[n] = pos;
  return { bytes, offsets };
}

/** Strings up to this long are scanned in JS for the ASCII fast path. */
const SHORT_STRING = 64;

function utf8Length(s: string): number {
  if (s.length <= SHORT_STRING) {
    let i = 0;
    while (i < s.length && s.charCodeAt(i) < 0x80) i++;
    if (i === s.length) return i;
  }
  return Buffer.byteLength(s, 'utf8');
}

/** Copies `s` to `bytes` at `pos` when it is short and ASCII: the end offset, else -1 (nothing written that matters). */
function copyShortAscii(s: string, bytes: Uint8Array, pos: number): number {
  if (s.length > SHORT_STRING) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return -1;
    bytes[pos + i] = c;
  }
  return pos + s.length;
}

/**
 * Orders strings by code point, which is UTF-8 byte order. JS `<` compares UTF-16 code units, which
 * differs only when a surrogate pair meets a BMP character ≥ U+E000, so fix up just that case.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      const sa = ca >= 0xd800 && ca <= 0xdfff;
      const sb = cb >= 0xd800 && cb <= 0xdfff;
      if (sa !== sb) return sa ? 1 : -1; // a surrogate (supplementary code point) sorts after any BMP char
      return ca - cb;
    }
  }
  return a.length - b.length;
}

export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hashTableSize(count: number): number {
  let size = 8;
  while (size < count * 2) size *= 2;
  return size;
}

/** Builds the hash table for a string table: slots hold ordinal + 1 (0 = empty). */
export function buildHashTable(table: StringTable, count: number): Int32Array {
  const size = hashTableSize(count);
  const mask = size - 1;
  const slots = scratchInt32(size);
  for (let ord = 0; ord < count; ord++) {
    let slot = fnv1a(table.bytes, table.offsets[ord], table.offsets[ord + 1]) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = ord + 1;
  }
  return slots;
}

/** A reusable scratch buffer for encoding lookup keys (one per thread). */
let scratch = Buffer.allocUnsafe(1024);

/** Encodes `s` into the thread's scratch buffer; returns the byte length. */
export function encodeKey(s: string): number {
  if (s.length * 3 > scratch.length) scratch = Buffer.allocUnsafe(s.length * 3 + 64);
  // Short ASCII keys (most terms and ids) are copied in JS: cheaper than the native write call.
  if (s.length <= 32) {
    const key = scratch;
    let i = 0;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      key[i] = c;
    }
    if (i === s.length) return i;
  }
  return scratch.write(s, 0, 'utf8');
}

export function scratchBytes(): Uint8Array {
  return scratch;
}

/** Looks up the key last written by `encodeKey`; returns its ordinal or -1. */
export function hashLookup(slots: Int32Array, bytes: Uint8Array, offsets: Uint32Array, keyLength: number): number {
  return hashLookupHashed(slots, bytes, offsets, keyLength, fnv1a(scratch, 0, keyLength));
}

/** `hashLookup` with the key's `fnv1a` already computed (one key probed in many tables). */
export function hashLookupHashed(slots: Int32Array, bytes: Uint8Array, offsets: Uint32Array, keyLength: number, hash: number): number {
  const key = scratch;
  const mask = slots.length - 1;
  let slot = hash & mask;
  for (;;) {
    const v = slots[slot];
    if (v === 0) return -1;
    const ord = v - 1;
    const start = offsets[ord];
    if (offsets[ord + 1] - start === keyLength) {
      let i = 0;
      while (i < keyLength && bytes[start + i] === key[i]) i++;
      if (i === keyLength) return ord;
    }
    slot = (slot + 1) & mask;
  }
}

/** Compares string `ord` of a table with the key in scratch (byte order). */
export function compareWithKey(bytes: Uint8Array, offsets: Uint32Array, ord: number, keyLength: number): number {
  const key = scratch;
  const start = offsets[ord];
  const len = offsets[ord + 1] - start;
  const n = Math.min(len, keyLength);
  for (let i = 0; i < n; i++) {
    const d = bytes[start + i] - key[i];
    if (d !== 0) return d;
  }
  return len - keyLength;
}

/** First ordinal whose string is ≥ the key in scratch (binary search over a sorted table). */
export function lowerBound(bytes: Uint8Array, offsets: Uint32Array, count: number, keyLength: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareWithKey(bytes, offsets, mid, keyLength) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when string `ord` starts with the key in scratch. */
export function hasKeyPrefix(bytes: Uint8Array, offsets: Uint32Array, ord: number, keyLength: number): boolean {
  const start = offsets[ord];
  if (offsets[ord + 1] - start < keyLength) return false;
  for (let i = 0; i < keyLength; i++) if (bytes[start + i] !== scratch[i]) return false;
  return true;
}

/** Decodes string `ord` of a table whose bytes may live in shared memory. */
export function decodeString(buf: Buffer, offsets: Uint32Array, ord: number): string {
  return buf.toString('utf8', offsets[ord], offsets[ord + 1]);
}
