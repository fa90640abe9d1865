/**
 * Whitespace tokenisation straight into term ids, for ref-taat. Splitting each text into strings and
 * looking them up in a Map costs ~260 ns a token (every substring is allocated and hashed again);
 * hashing the characters in place and probing an open-addressing table costs about a third of that,
 * which is most of ref-taat's build time at 200k documents (6M tokens).
 *
 * A token is a maximal run of characters that are not JavaScript whitespace (`/\s/`), so the result
 * is exactly `text.split(/\s+/)` without empty strings.
 */

/** True for the characters JavaScript's `\s` matches. */
function isWhitespace(ch: number): boolean {
  if (ch <= 32) return ch === 32 || (ch >= 9 && ch <= 13);
  if (ch < 160) return false;
  return (
    ch === 160 || ch === 5760 || (ch >= 8192 && ch <= 8202) || ch === 8232 || ch === 8233 || ch === 8239 ||
    ch === 8287 || ch === 12288 || ch === 65279
  );
}

export class TermDictionary {
  /** terms[id] is the text of term `id`; ids are dense and in first-seen order. */
  readonly terms: string[] = [];
  private termHash = new Int32Array(1024);
  private slots = new Int32Array(1 << 12).fill(-1);
  private mask = (1 << 12) - 1;

  get size(): number {
    return this.terms.length;
  }

  /**
   * Writes the term ids of `text`'s tokens into out[at…] and returns the new end. With `add`, unseen
   * terms get new ids; without it they are skipped. `out` must have room for `maxTokens(text)` ids.
   */
  scan(text: string, add: boolean, out: Uint32Array, at: number): number {
    const len = text.length;
    let i = 0;
    while (i < len) {
      let ch = text.charCodeAt(i);
      if (isWhitespace(ch)) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5 | 0; // FNV-1a over UTF-16 code units
      do {
        h = Math.imul(h ^ ch, 0x01000193);
        if (++i >= len) break;
        ch = text.charCodeAt(i);
      } while (!isWhitespace(ch));
      const id = this.find(text, start, i, h, add);
      if (id >= 0) out[at++] = id;
    }
    return at;
  }

  /** Upper bound on the tokens in `text` (tokens are separated by at least one character). */
  static maxTokens(text: string): number {
    return (text.length + 1) >>> 1;
  }

  /** The id of the term text[start, end) with hash h, or -1 if absent and !add. */
  private find(text: string, start: number, end: number, h: number, add: boolean): number {
    const n = end - start;
    let slot = h & this.mask;
    for (;;) {
      const id = this.slots[slot];
      if (id === -1) break;
      if (this.termHash[id] === h) {
        const term = this.terms[id];
        if (term.length === n && text.startsWith(term, start)) return id;
      }
      slot = (slot + 1) & this.mask;
    }
    if (!add) return -1;
    const id = this.terms.length;
    this.terms.push(text.slice(start, end));
    if (id >= this.termHash.length) {
      const grown = new Int32Array(this.termHash.length * 2);
      grown.set(this.termHash);
      this.termHash = grown;
    }
    this.termHash[id] = h;
    this.slots[slot] = id;
    // Keep the load factor ≤ 1/2 so probes stay short.
    if (this.terms.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = this.termHash[id] & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
