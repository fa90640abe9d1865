/**
 * String → dense id while building a segment (the role of Lucene's BytesRefHash). Open addressing
 * with an FNV-1a hash over UTF-16 code units, computed in JS: tokens are fresh strings, and a
 * `Map` must hash each one in the runtime, which measured twice as slow per token.
 *
 * Slots are typed arrays holding each term's hash next to its id, so a probe compares numbers and
 * only dereferences a term string when the hashes agree, and growing touches no strings at all.
 */
import { compareCodePoints } from './bytes.js';

/** Ids below 2^29 share a float's 53 exact bits with a 24-bit prefix key. */
const ID_SPACE = 2 ** 29;

/**
 * 8 bits per char for a term's first three chars, monotone in code-point order (ties possible):
 * 0 past the end, ASCII as code + 1, and any other char 128 with nothing after it, since what
 * follows a non-ASCII char only orders terms that tie on it exactly.
 */
function prefixKey(term: string): number {
  let key = 0;
  let open = true;
  for (let i = 0; i < 3; i++) {
    const c = open && i < term.length ? term.charCodeAt(i) : -1;
    if (c >= 127) open = false;
    key = key * 256 + (c < 0 ? 0 : c < 127 ? c + 1 : 128);
  }
  return key;
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
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
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
   * The ids in code-point order of their terms (Lucene's term order, = UTF-8 byte order). Each id
   * is sorted natively as one float: a 24-bit key from its term's first three chars (order-keeping:
   * end of term < any char, ASCII in order, every other char above ASCII) over the id; only ids
   * whose keys tie are then compared as strings. With a comparator alone the sort of a refresh's
   * ~30k terms took as long as inverting its documents.
   */
  sortedIds(): Uint32Array {
    const terms = this.terms;
    const n = terms.length;
    const keyed = new Float64Array(n);
    for (let id = 0; id < n; id++) keyed[id] = prefixKey(terms[id]) * ID_SPACE + id;
    keyed.sort();
    const ids = new Uint32Array(n);
    for (let o = 0; o < n; o++) ids[o] = keyed[o] % ID_SPACE;
    for (let o = 0; o < n;) {
      const key = Math.floor(keyed[o] / ID_SPACE);
      let end = o + 1;
      while (end < n && Math.floor(keyed[end] / ID_SPACE) === key) end++;
      if (end - o > 1) ids.subarray(o, end).sort((a, b) => compareCodePoints(terms[a], terms[b]));
      o = end;
    }
    return ids;
  }

  private grow(): void {
    const size = this.slotIds.length * 2;
    const mask = size - 1;
    const slotIds = new Int32Array(size);
    const slotHashes = new Int32Array(size);
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
    this.slotIds = slotIds;
    this.slotHashes = slotHashes;
    this.mask = mask;
  }
}
