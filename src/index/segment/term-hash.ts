/**
 * String → dense id while building a segment (the role of Lucene's BytesRefHash). Open addressing
 * with an FNV-1a hash over UTF-16 code units, computed in JS: tokens are fresh strings, and a
 * `Map` must hash each one in the runtime, which measured twice as slow per token.
 *
 * Slots are typed arrays holding each term's hash next to its id, so a probe compares numbers and
 * only dereferences a term string when the hashes agree, and growing touches no strings at all.
 */
import { compareCodePoints } from './bytes.js';
import { releaseScratch, scratchInt32, scratchUint32 } from './scratch-pool.js';

/** FNV-1a over the UTF-16 units of text[start, end): the builder's hash for terms and raw tokens. */
export function hashChars(text: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Chars per radix pass, 8 bits each. */
const KEY_CHARS = 3;
/** The key value of a non-ASCII char: above every ASCII char, and nothing after it is keyed. */
const HIGH = 128;
/** Runs this short are finished with the comparator rather than another radix pass. */
const SMALL_RUN = 12;

/**
 * 8 bits per char for chars [depth, depth + KEY_CHARS) of a term, monotone in code-point order
 * among terms equal before `depth` (ties possible): 0 past the end, ASCII as code + 1, and any
 * other char HIGH with nothing after it, since what follows a non-ASCII char only orders terms that
 * tie on it exactly.
 */
function prefixKey(term: string, depth: number): number {
  let key = 0;
  let open = true;
  for (let i = depth; i < depth + KEY_CHARS; i++) {
    const c = open && i < term.length ? term.charCodeAt(i) : -1;
    if (c >= 127) open = false;
    key = (key << 8) | (c < 0 ? 0 : c < 127 ? c + 1 : HIGH);
  }
  return key;
}

/** Scratch of one sort: keys by position, the ping-pong buffers of the radix passes, the range stack. */
interface SortScratch {
  readonly keys: Uint32Array;
  readonly tmpKeys: Uint32Array;
  readonly tmpIds: Uint32Array;
  readonly counts: Uint32Array;
  /** Ranges still to sort, as (lo, hi, depth) triples. */
  stack: Int32Array;
}

/**
 * Sorts ids[0, n) by the code points of their terms: an MSD radix sort, KEY_CHARS chars per range.
 * Each range — terms equal in their first `depth` chars — gets an LSD radix sort (stable counting
 * sorts, one per key byte) by the key of its next chars; then each run of equal keys is sorted
 * further: pushed as a new range when the key was all ASCII, by the comparator when the run is
 * short or the key met a non-ASCII char. A key holding "past the end" cannot tie two distinct terms.
 *
 * The ranges go on an explicit stack, not recursion, and each loop is its own small function: the
 * sort runs once per build, so V8 optimizes it on the fly (OSR) in every fresh build worker, and the
 * recursive form was re-entered in optimized code that deoptimized at once ("insufficient type
 * feedback") — ~500 deopts per 10k-doc build in a fresh thread (bench/build-cold.ts, issue 19).
 */
function sortByPrefix(terms: readonly string[], ids: Uint32Array, n: number, s: SortScratch): void {
  let top = pushRange(s, 0, 0, n, 0);
  while (top > 0) {
    top -= 3;
    const lo = s.stack[top];
    const hi = s.stack[top + 1];
    const depth = s.stack[top + 2];
    computeKeys(terms, ids, s.keys, lo, hi, depth);
    for (let shift = 0; shift < 8 * KEY_CHARS; shift += 8) radixPass(ids, lo, hi, shift, s);
    top = splitRuns(terms, ids, lo, hi, depth, s, top);
  }
}

function pushRange(s: SortScratch, top: number, lo: number, hi: number, depth: number): number {
  if (top + 3 > s.stack.length) {
    const stack = new Int32Array(s.stack.length * 2);
    stack.set(s.stack);
    s.stack = stack;
  }
  s.stack[top] = lo;
  s.stack[top + 1] = hi;
  s.stack[top + 2] = depth;
  return top + 3;
}

function computeKeys(terms: readonly string[], ids: Uint32Array, keys: Uint32Array, lo: number, hi: number, depth: number): void {
  for (let i = lo; i < hi; i++) keys[i] = prefixKey(terms[ids[i]], depth);
}

/** One stable counting sort of ids[lo, hi) (and their keys) by the key byte at `shift`. */
function radixPass(ids: Uint32Array, lo: number, hi: number, shift: number, s: SortScratch): void {
  const { keys, tmpKeys, tmpIds, counts } = s;
  countKeyBytes(keys, counts, lo, hi, shift);
  bucketStarts(counts, lo);
  scatterByKeyByte(keys, ids, tmpKeys, tmpIds, counts, lo, hi, shift);
  keys.set(tmpKeys.subarray(lo, hi), lo);
  ids.set(tmpIds.subarray(lo, hi), lo);
}

// One loop per function: V8 keeps the code it compiled for a hot loop (OSR) after that code
// deoptimizes in what follows the loop, so a loop followed by code without type feedback yet
// deoptimized on every call of a fresh thread's first builds.

function countKeyBytes(keys: Uint32Array, counts: Uint32Array, lo: number, hi: number, shift: number): void {
  counts.fill(0);
  for (let i = lo; i < hi; i++) counts[(keys[i] >>> shift) & 255]++;
}

function bucketStarts(counts: Uint32Array, lo: number): void {
  for (let b = 0, at = lo; b < 256; b++) {
    const c = counts[b];
    counts[b] = at;
    at += c;
  }
}

function scatterByKeyByte(keys: Uint32Array, ids: Uint32Array, tmpKeys: Uint32Array, tmpIds: Uint32Array, counts: Uint32Array, lo: number, hi: number, shift: number): void {
  for (let i = lo; i < hi; i++) {
    const slot = counts[(keys[i] >>> shift) & 255]++;
    tmpKeys[slot] = keys[i];
    tmpIds[slot] = ids[i];
  }
}

/** Finishes or pushes each run of equal keys in ids[lo, hi); returns the new stack top. */
function splitRuns(terms: readonly string[], ids: Uint32Array, lo: number, hi: number, depth: number, s: SortScratch, top: number): number {
  const keys = s.keys;
  for (let o = lo; o < hi;) {
    const key = keys[o];
    let end = o + 1;
    while (end < hi && keys[end] === key) end++;
    if (end - o > 1) {
      if (end - o > SMALL_RUN && keyIsOpen(key)) top = pushRange(s, top, o, end, depth + KEY_CHARS);
      else sortByComparator(terms, ids, o, end);
    }
    o = end;
  }
  return top;
}

/** Whether a key's chars are all ASCII and none is past the end: terms tied on it may differ later. */
function keyIsOpen(key: number): boolean {
  for (let k = key, i = 0; i < KEY_CHARS; i++, k >>>= 8) if ((k & 255) === HIGH || (k & 255) === 0) return false;
  return true;
}

function sortByComparator(terms: readonly string[], ids: Uint32Array, lo: number, hi: number): void {
  comparedTerms = terms;
  ids.subarray(lo, hi).sort(compareTermIds);
  comparedTerms = NO_TERMS;
}

/**
 * The comparator is one module-level function reading the terms from here, not a closure per call:
 * V8 keeps a closure's optimized code only while a closure of it is alive, so a per-build closure's
 * code was compiled again after every full collection between builds (issue 19).
 */
let comparedTerms: readonly string[] = [];
const NO_TERMS: readonly string[] = [];

function compareTermIds(a: number, b: number): number {
  return compareCodePoints(comparedTerms[a], comparedTerms[b]);
}

export class TermHash {
  /** Per slot: id + 1 (0 = empty) and the hash of that term. */
  private slotIds: Int32Array;
  private slotHashes: Int32Array;
  private mask: number;
  readonly terms: string[] = [];

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slotIds = new Int32Array(size);
    this.slotHashes = new Int32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.terms.length;
  }

  /** The id of `term`, adding it when new. */
  add(term: string): number {
    const h = hashChars(term, 0, term.length);
    const { slotIds, slotHashes, mask, terms } = this;
    let slot = h & mask;
    for (;;) {
      const v = slotIds[slot];
      if (v === 0) break;
      if (slotHashes[slot] === h && terms[v - 1] === term) return v - 1;
      slot = (slot + 1) & mask;
    }
    const id = terms.length;
    terms.push(term);
    slotIds[slot] = id + 1;
    slotHashes[slot] = h;
    if (terms.length * 2 > slotIds.length) this.grow();
    return id;
  }

  /**
   * The ids in code-point order of their terms (Lucene's term order, = UTF-8 byte order): an MSD
   * radix sort three chars at a time (see sortByPrefix). With
   * a comparator alone the sort of a refresh's ~30k terms took as long as inverting its documents.
   */
  sortedIds(): Uint32Array {
    const n = this.terms.length;
    const ids = scratchUint32(n, false);
    for (let i = 0; i < n; i++) ids[i] = i;
    const scratch = { keys: scratchUint32(n, false), tmpKeys: scratchUint32(n, false), tmpIds: scratchUint32(n, false), counts: new Uint32Array(256), stack: new Int32Array(192) };
    sortByPrefix(this.terms, ids, n, scratch);
    releaseScratch(scratch.keys);
    releaseScratch(scratch.tmpKeys);
    releaseScratch(scratch.tmpIds);
    return ids;
  }

  /**
   * Gives the slots back to the scope's pool once every term is in (issue 22: a later phase of the
   * build reuses them); `terms` stays, `add` must not be called again.
   */
  releaseSlots(): void {
    releaseScratch(this.slotIds);
    releaseScratch(this.slotHashes);
    this.slotIds = new Int32Array(16);
    this.slotHashes = new Int32Array(16);
    this.mask = 15;
  }

  private grow(): void {
    const size = this.slotIds.length * 2;
    const mask = size - 1;
    const slotIds = scratchInt32(size);
    const slotHashes = scratchInt32(size, false);
    const oldIds = this.slotIds;
    const oldHashes = this.slotHashes;
    for (let s = 0; s < oldIds.length; s++) {
      const v = oldIds[s];
      if (v === 0) continue;
      let slot = oldHashes[s] & mask;
      while (slotIds[slot] !== 0) slot = (slot + 1) & mask;
      slotIds[slot] = v;
      slotHashes[slot] = oldHashes[s];
    }
    releaseScratch(oldIds);
    releaseScratch(oldHashes);
    this.slotIds = slotIds;
    this.slotHashes = slotHashes;
    this.mask = mask;
  }
}
