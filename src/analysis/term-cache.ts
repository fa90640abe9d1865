/**
 * A cache from a token's text to what a (pure) filter chain made of it, looked up by the token's
 * range in the analysed text: a hit costs one hash over the chars and one comparison, and neither
 * slices the text nor allocates. Worth it for chains with a stemmer: natural-language text repeats
 * a small vocabulary (Zipf), so most tokens skip lowercasing, the stop set and the Porter stemmer.
 *
 * Open addressing with linear probing over parallel arrays (plain data, as the rest of the
 * project's hot structures). When half full it is emptied and refilled from scratch: the cache
 * only saves work, results never depend on what it holds.
 */

/** Marks an empty slot in `keys`. */
const EMPTY = undefined;

export interface TermCache {
  /** the token text of each slot, or undefined */
  readonly keys: (string | undefined)[];
  /** the chain's output for each slot: a term, or null when the chain removes the token */
  readonly values: (string | null)[];
  readonly hashes: Int32Array;
  readonly mask: number;
  /** slots in use; the cache is cleared when this reaches half the capacity */
  size: number;
}

/** A cache with `1 << capacityBits` slots, holding up to half as many terms. */
export function createTermCache(capacityBits: number): TermCache {
  const capacity = 1 << capacityBits;
  return {
    keys: new Array<string | undefined>(capacity).fill(EMPTY),
    values: new Array<string | null>(capacity).fill(null),
    hashes: new Int32Array(capacity),
    mask: capacity - 1,
    size: 0,
  };
}

/** FNV-1a over the UTF-16 units of text[start, end). */
export function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Finds text[start, end) whose hash is `hash`. Returns the slot index when present, or
 * `-(slot + 1)` for the empty slot where it would be stored.
 */
export function findTerm(cache: TermCache, text: string, start: number, end: number, hash: number): number {
  const { keys, hashes, mask } = cache;
  const length = end - start;
  let slot = hash & mask;
  while (true) {
    const key = keys[slot];
    if (key === EMPTY) return -(slot + 1);
    if (hashes[slot] === hash && key.length === length) {
      let i = 0;
      while (i < length && key.charCodeAt(i) === text.charCodeAt(start + i)) i++;
      if (i === length) return slot;
    }
    slot = (slot + 1) & mask;
  }
}

/**
 * Stores `value` for `key` at the empty slot `-(missing + 1)` that {@link findTerm} returned, or
 * starts over when the cache is half full. `key` must share no storage with a larger string (see
 * {@link detach}) or the cache would keep that string alive.
 */
export function storeTerm(cache: TermCache, missing: number, key: string, hash: number, value: string | null): void {
  if (cache.size * 2 >= cache.keys.length) {
    cache.keys.fill(EMPTY);
    cache.values.fill(null);
    cache.size = 0;
    const slot = findTerm(cache, key, 0, key.length, hash);
    missing = slot; // always empty now
  }
  const slot = -(missing + 1);
  cache.keys[slot] = key;
  cache.values[slot] = value;
  cache.hashes[slot] = hash;
  cache.size++;
}

/**
 * A copy of `s` sharing no storage with it. V8 represents a `slice()` of 13+ chars as a view that
 * keeps the whole sliced text alive, and filters often return their input unchanged; a cache
 * holding such views would pin every document it has seen. Joining an array builds a new string.
 */
export function detach(s: string): string {
  return s.split('').join('');
}
