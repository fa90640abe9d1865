/**
 * `_id` → doc across the segments of a shard, for the version lookup every write makes (ES
 * `VersionsAndSeqNoResolver`). A bulk of new documents probes every segment for every id and
 * finds nothing, so the cost is the misses: the id is encoded and hashed once for all segments,
 * and a segment whose ids all sort below or above it (byte order) is skipped without touching its
 * hash table. Ids that grow with time (sequence numbers, timestamps, the time-based auto ids) fall
 * outside the range of all but the newest segments.
 *
 * A segment's id range is computed on its first lookup (one pass over its ids) and kept beside
 * it, so nothing changes in the segment format and threads that never look ids up pay nothing.
 */
import { encodeKey, fnv1a, scratchBytes } from './bytes.js';
import type { Segment } from './segment-reader.js';

interface IdRange {
  /** The smallest and the largest id of the segment, as UTF-8 bytes. */
  readonly min: Uint8Array;
  readonly max: Uint8Array;
}

const ranges = new WeakMap<Segment, IdRange>();

function compareBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i] - b[bStart + i];
    if (d !== 0) return d;
  }
  return aEnd - aStart - (bEnd - bStart);
}

function idRange(segment: Segment): IdRange {
  let range = ranges.get(segment);
  if (range !== undefined) return range;
  const { ids, maxDoc } = segment;
  const bytes = ids.bytes;
  let min = 0;
  let max = 0;
  for (let doc = 1; doc < maxDoc; doc++) {
    const start = ids.start(doc);
    const end = ids.start(doc + 1);
    if (compareBytes(bytes, start, end, bytes, ids.start(min), ids.start(min + 1)) < 0) min = doc;
    else if (compareBytes(bytes, start, end, bytes, ids.start(max), ids.start(max + 1)) > 0) max = doc;
  }
  // Copies: the range outlives nothing it points into, and stays valid whatever the views do.
  range = { min: bytes.slice(ids.start(min), ids.start(min + 1)), max: bytes.slice(ids.start(max), ids.start(max + 1)) };
  ranges.set(segment, range);
  return range;
}

let keyLength = 0;
let keyHash = 0;

/** Makes `id` the key the following `docForIdKey` calls look for (encoded and hashed once). */
export function setIdKey(id: string): void {
  keyLength = encodeKey(id);
  keyHash = fnv1a(scratchBytes(), 0, keyLength);
}

/**
 * The doc (live or not) holding the id last given to `setIdKey` in `segment`, or -1. Call it right
 * after `setIdKey`: any other key lookup in between (terms, `docForId`) overwrites the key.
 */
export function docForIdKey(segment: Segment): number {
  if (segment.maxDoc === 0) return -1;
  const key = scratchBytes();
  const range = idRange(segment);
  if (compareBytes(key, 0, keyLength, range.min, 0, range.min.length) < 0) return -1;
  if (compareBytes(key, 0, keyLength, range.max, 0, range.max.length) > 0) return -1;
  return segment.ids.lookup(key, keyLength, keyHash);
}
