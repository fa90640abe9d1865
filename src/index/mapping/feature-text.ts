/**
 * A `sparse_vector` / `rank_features` object read straight from the JSON text: each entry's name as
 * a range of the text and its weight as a float32, into reused typed arrays — no JS object per
 * document and no string per entry (the indexer interns names from the text, token-hash.ts).
 *
 * It reads only the plain form every encoder writes, `{"name": number, …}`: unescaped names, JSON
 * numbers, no name twice. Anything else (escapes, strings, nulls, nested values, repeated names,
 * malformed text) makes it answer -1, and the caller parses that object with `JSON.parse` and
 * validates it as before (feature-values.ts), so errors and edge cases behave exactly as they did.
 */
import { hashChars } from '../segment/term-hash.js';

/** The entries of the last successful scan: entry k is text[nameStart[k], nameEnd[k]) → weights[k] (float32). */
export interface FeatureEntries {
  count: number;
  nameStart: Int32Array;
  nameEnd: Int32Array;
  weights: Float64Array;
}

const entries: FeatureEntries = { count: 0, nameStart: new Int32Array(256), nameEnd: new Int32Array(256), weights: new Float64Array(256) };

/** Repeated-name check: open addressing over entry indexes, slots valid only with the current stamp. */
let slotEntry = new Int32Array(1024);
let slotStamp = new Int32Array(1024);
let slotHash = new Int32Array(1024);
let stamp = 0;

/** 10^k, exact in float64 for k ≤ 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Where the last number read ended. */
let numberEnd = 0;

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/**
 * The JSON number at `i` (ending at `numberEnd`) exactly as `Number()` reads it, or NaN when the
 * text there is not a JSON number. Up to 15 significant digits and a decimal exponent within ±22
 * the value is one correctly rounded multiply or divide of two exact doubles (Clinger's fast
 * path); anything longer goes through `Number()` of the slice.
 */
function readNumber(text: string, i: number): number {
  const from = i;
  let c = text.charCodeAt(i);
  const negative = c === 0x2d;
  if (negative) c = text.charCodeAt(++i);
  let m = 0;
  let significant = 0;
  let scale = 0;
  if (c === 0x30) c = text.charCodeAt(++i);
  else if (c >= 0x31 && c <= 0x39) {
    do {
      m = m * 10 + (c - 0x30);
      significant++;
      c = text.charCodeAt(++i);
    } while (c >= 0x30 && c <= 0x39);
  } else return NaN;
  if (c === 0x2e) {
    c = text.charCodeAt(++i);
    if (!(c >= 0x30 && c <= 0x39)) return NaN;
    do {
      if (significant > 0 || c !== 0x30) significant++;
      m = m * 10 + (c - 0x30);
      scale--;
      c = text.charCodeAt(++i);
    } while (c >= 0x30 && c <= 0x39);
  }
  let exponent = 0;
  if (c === 0x65 || c === 0x45) {
    c = text.charCodeAt(++i);
    let sign = 1;
    if (c === 0x2b || c === 0x2d) {
      if (c === 0x2d) sign = -1;
      c = text.charCodeAt(++i);
    }
    if (!(c >= 0x30 && c <= 0x39)) return NaN;
    do {
      if (exponent < 100_000) exponent = exponent * 10 + (c - 0x30);
      c = text.charCodeAt(++i);
    } while (c >= 0x30 && c <= 0x39);
    exponent *= sign;
  }
  numberEnd = i;
  const e = scale + exponent;
  if (significant > 15 || e > 22 || e < -22) return Number(text.slice(from, i));
  const v = e === 0 ? m : e > 0 ? m * POW10[e] : m / POW10[-e];
  return negative ? -v : v;
}

function sameChars(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** Whether entry `k` (already stored) repeats an earlier name of this object; records it otherwise. */
function repeated(text: string, k: number, hash: number): boolean {
  if ((k + 1) * 2 > slotEntry.length) {
    // Twice the slots, fresh stamps, and this object's entries so far entered again.
    const size = slotEntry.length * 2;
    slotEntry = new Int32Array(size);
    slotStamp = new Int32Array(size);
    slotHash = new Int32Array(size);
    stamp = 1;
    for (let e = 0; e < k; e++) if (!insert(text, e, hashChars(text, entries.nameStart[e], entries.nameEnd[e]))) return true;
  }
  return !insert(text, k, hash);
}

/**
 * Probes one insert may take. The hash is unseeded, so a client could send names crafted to share
 * low bits and make every insert walk one long cluster (quadratic in the names); past this many
 * probes the object is answered as "repeated", i.e. taken by the parsed path, which is always right.
 */
const MAX_PROBES = 64;

/** Adds entry k to the slots; false when an entry with the same name is there (or the probes run out). */
function insert(text: string, k: number, hash: number): boolean {
  const mask = slotEntry.length - 1;
  const start = entries.nameStart[k];
  const length = entries.nameEnd[k] - start;
  for (let s = hash & mask, probes = 0; ; s = (s + 1) & mask) {
    if (++probes > MAX_PROBES) return false;
    if (slotStamp[s] !== stamp) {
      slotStamp[s] = stamp;
      slotEntry[s] = k;
      slotHash[s] = hash;
      return true;
    }
    if (slotHash[s] === hash) {
      const other = slotEntry[s];
      const os = entries.nameStart[other];
      if (entries.nameEnd[other] - os === length && sameChars(text, os, start, length)) return false;
    }
  }
}

function ensureEntries(n: number): void {
  if (n <= entries.nameStart.length) return;
  const size = entries.nameStart.length * 2;
  const grow = <T extends Int32Array | Float64Array>(a: T, b: T): T => {
    b.set(a);
    return b;
  };
  entries.nameStart = grow(entries.nameStart, new Int32Array(size));
  entries.nameEnd = grow(entries.nameEnd, new Int32Array(size));
  entries.weights = grow(entries.weights, new Float64Array(size));
}

/**
 * Reads the object opening at text[start] (a `{`) into the shared entries; returns one past its
 * closing `}`, or -1 when it is not the plain form (see above). The entries stay valid until a
 * call for another object.
 */
export function scanFeatureText(text: string, start: number): number {
  // The parse that kept the object raw scanned it last; the indexer asks again right after.
  if (start === lastStart && text === lastText) return lastEnd;
  lastText = text;
  lastStart = start;
  lastEnd = scan(text, start);
  return lastEnd;
}

/**
 * Forgets the last scan's text: a document's source may be a slice of a whole `_bulk` body, which
 * the memo would otherwise keep alive after the load. The entries stay readable.
 */
export function forgetFeatureText(): void {
  lastText = '';
  lastStart = -1;
}

/** The arguments and answer of the last scan. */
let lastText = '';
let lastStart = -1;
let lastEnd = -1;

function scan(text: string, start: number): number {
  entries.count = 0;
  if (++stamp === 0x7fffffff) {
    slotStamp.fill(0);
    stamp = 1;
  }
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === 0x7d) return i + 1;
  for (let k = 0; ; k++) {
    if (text.charCodeAt(i) !== 0x22) return -1;
    const nameStart = i + 1;
    let h = 0x811c9dc5 | 0; // hashChars' FNV-1a, computed while the name is scanned
    let j = nameStart;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      // An escape, a control char (malformed) or the end of the text (NaN).
      if (!(c >= 0x20) || c === 0x5c) return -1;
      h = Math.imul(h ^ c, 0x01000193);
      j++;
    }
    i = skipSpace(text, j + 1);
    if (text.charCodeAt(i) !== 0x3a) return -1;
    i = skipSpace(text, i + 1);
    const value = readNumber(text, i);
    if (Number.isNaN(value)) return -1;
    ensureEntries(k + 1);
    entries.nameStart[k] = nameStart;
    entries.nameEnd[k] = j;
    entries.weights[k] = Math.fround(value);
    entries.count = k + 1;
    if (repeated(text, k, h)) return -1;
    i = skipSpace(text, numberEnd);
    const c = text.charCodeAt(i);
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c) return -1;
    i = skipSpace(text, i + 1);
  }
}

/** The entries the last `scanFeatureText` read. */
export function scannedFeatures(): Readonly<FeatureEntries> {
  return entries;
}
