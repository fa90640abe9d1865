/**
 * ES collects a hit's highlighted fields in a java.util.HashMap (HighlightPhase) and renders them in
 * its iteration order. This reproduces that order for keys inserted in `keys` order into a map of
 * default capacity: buckets by the spread String.hashCode, ascending; insertion order within a
 * bucket (resizing keeps it). Clients never depend on it, but the response then reads as ES's.
 */

const DEFAULT_CAPACITY = 16;
const LOAD_FACTOR = 0.75;

export function javaHashMapOrder<T>(entries: ReadonlyArray<readonly [string, T]>): Array<readonly [string, T]> {
  let capacity = DEFAULT_CAPACITY;
  while (entries.length > capacity * LOAD_FACTOR) capacity *= 2;
  const bucket = (key: string) => (spread(stringHashCode(key)) & (capacity - 1)) >>> 0;
  return entries
    .map((e, i) => ({ e, i, b: bucket(e[0]) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.e);
}

/** java.lang.String.hashCode over UTF-16 code units. */
function stringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** HashMap.hash: the high bits folded into the low ones. */
function spread(h: number): number {
  return h ^ (h >>> 16);
}
