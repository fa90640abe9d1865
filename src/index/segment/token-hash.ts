/**
 * Raw token text → term id while building a segment, for analyzers whose filters map each token
 * to a term by its text alone (`Analyzer.analyzeInterned`). A token seen before in the segment costs
 * one hash over its chars and one comparison with chars kept in a flat pool: no slice, no
 * lowercased copy, no string hashing in the runtime. The filters run once per distinct raw token
 * (`The` and `the` are two raw tokens, one term), and the term goes into the field's TermHash then.
 *
 * The role Lucene's BytesRefHash plays over the token bytes; open addressing, linear probing,
 * entries appended in a typed-array pool so probes touch no string objects.
 */
import type { TokenFilter, TokenInterner } from '../../analysis/index.js';
import { releaseScratch, scratchInt32, scratchUint16 } from './scratch-pool.js';
import { hashChars, type TermHash } from './term-hash.js';

/** Marks a raw token the filters removed (a stop word): the analyzer skips its position. */
const REMOVED = -1;

/** Ints per slot: the hash, where the chars start in the pool, length + 1 (0 = empty slot), term id. */
const SLOT = 4;
const HASH = 0;
const START = 1;
const LENGTH = 2;
const VALUE = 3;

export class TokenHash implements TokenInterner {
  /** One record of SLOT ints per slot, so a probe reads one cache line, then the chars. */
  private table: Int32Array;
  private mask: number;
  private chars: Uint16Array;
  private charCount = 0;
  private count = 0;

  constructor(private readonly terms: TermHash, capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(size * SLOT);
    this.mask = size - 1;
    this.chars = new Uint16Array(size * 4);
  }

  /** Distinct raw tokens seen. */
  get size(): number {
    return this.count;
  }

  intern(text: string, start: number, end: number, filter: TokenFilter): number | null {
    const h = hashChars(text, start, end);
    const length = end - start;
    const { table, chars, mask } = this;
    let slot = h & mask;
    for (;;) {
      const r = slot * SLOT;
      const stored = table[r + LENGTH];
      if (stored === 0) break;
      if (table[r + HASH] === h && stored === length + 1) {
        const s = table[r + START];
        let i = 0;
        while (i < length && chars[s + i] === text.charCodeAt(start + i)) i++;
        if (i === length) {
          const id = table[r + VALUE];
          return id === REMOVED ? null : id;
        }
      }
      slot = (slot + 1) & mask;
    }
    const term = filter(text.slice(start, end));
    const id = term === null ? REMOVED : this.terms.add(term);
    this.append(slot, h, id, text, start, end);
    return term === null ? null : id;
  }

  private append(slot: number, hash: number, id: number, text: string, start: number, end: number): void {
    const at = this.charCount;
    const length = end - start;
    if (at + length > this.chars.length) {
      const chars = scratchUint16(Math.max(this.chars.length * 2, at + length), false);
      chars.set(this.chars);
      releaseScratch(this.chars);
      this.chars = chars;
    }
    const chars = this.chars;
    for (let i = 0; i < length; i++) chars[at + i] = text.charCodeAt(start + i);
    this.charCount = at + length;
    const r = slot * SLOT;
    this.table[r + HASH] = hash;
    this.table[r + START] = at;
    this.table[r + LENGTH] = length + 1;
    this.table[r + VALUE] = id;
    if (++this.count * 2 >= this.mask + 1) this.grow();
  }

  /**
   * Gives the table and the chars back to the scope's pool once the segment's tokens are all in
   * (issue 22: a later phase of the build reuses them); the hash is empty afterwards.
   */
  release(): void {
    releaseScratch(this.table);
    releaseScratch(this.chars);
    this.table = new Int32Array(16 * SLOT);
    this.mask = 15;
    this.chars = new Uint16Array(64);
    this.charCount = 0;
    this.count = 0;
  }

  /** Doubles the table; records keep their hashes, so no chars are hashed again. */
  private grow(): void {
    const old = this.table;
    const size = (this.mask + 1) * 2;
    const mask = size - 1;
    const table = scratchInt32(size * SLOT);
    for (let r = 0; r < old.length; r += SLOT) {
      if (old[r + LENGTH] === 0) continue;
      let slot = old[r + HASH] & mask;
      while (table[slot * SLOT + LENGTH] !== 0) slot = (slot + 1) & mask;
      for (let k = 0; k < SLOT; k++) table[slot * SLOT + k] = old[r + k];
    }
    releaseScratch(old);
    this.table = table;
    this.mask = mask;
  }
}
