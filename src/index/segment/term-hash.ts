/**
 * String → dense id while building a segment (the role of Lucene's BytesRefHash). Open addressing
 * with an FNV-1a hash over UTF-16 code units, computed in JS: tokens are fresh strings, and a
 * `Map` must hash each one in the runtime, which measured twice as slow per token.
 */
export class TermHash {
  private keys: Array<string | null>;
  private ids: Int32Array;
  private mask: number;
  /** Each term's hash, by id: growing re-slots the terms without hashing their strings again. */
  private hashes: Int32Array;
  readonly terms: string[] = [];

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Array<string | null>(size).fill(null);
    this.ids = new Int32Array(size);
    this.mask = size - 1;
    // One more than the terms the table holds before it grows: the term that triggers growing.
    this.hashes = new Int32Array((size >>> 1) + 1);
  }

  get size(): number {
    return this.terms.length;
  }

  /** The id of `term`, adding it when new. */
  add(term: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < term.length; i++) {
      h ^= term.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    const keys = this.keys;
    let slot = h & this.mask;
    for (;;) {
      const k = keys[slot];
      if (k === null) break;
      if (k === term) return this.ids[slot];
      slot = (slot + 1) & this.mask;
    }
    const id = this.terms.length;
    keys[slot] = term;
    this.ids[slot] = id;
    this.terms.push(term);
    this.hashes[id] = h;
    if (this.terms.length * 2 > keys.length) this.grow();
    return id;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const keys = new Array<string | null>(size).fill(null);
    const ids = new Int32Array(size);
    const mask = size - 1;
    const hashes = new Int32Array((size >>> 1) + 1);
    hashes.set(this.hashes);
    const terms = this.terms;
    for (let id = 0; id < terms.length; id++) {
      let slot = hashes[id] & mask;
      while (keys[slot] !== null) slot = (slot + 1) & mask;
      keys[slot] = terms[id];
      ids[slot] = id;
    }
    this.keys = keys;
    this.ids = ids;
    this.mask = mask;
    this.hashes = hashes;
  }
}
