/**
 * The decoded stored-fields blocks a thread read last (issue 22): a small LRU, so the hits of one
 * page that share a block, a `_mget` of neighbours and a scroll, reindex or merge reading in doc
 * order decode each block once. Bounded by entries and bytes; it holds decoded copies only, never a
 * segment's buffer, so a dropped segment is never pinned by it — its entries just age out.
 */
import type { DecodedBlock } from './stored-fields.js';

const MAX_ENTRIES = 64;
const MAX_BYTES = 2 * 1024 * 1024;
/** Key = owner × 2^32 + block (a segment's blocks are < 2^32), kept below 2^53 by wrapping owners. */
const BLOCK_SPACE = 2 ** 32;
const MAX_OWNER = 2 ** 20;

let nextOwner = 1;
const entries = new Map<number, DecodedBlock>();
let bytes = 0;

/** A key space for one opened segment's blocks. */
export function newCacheOwner(): number {
  if (nextOwner === MAX_OWNER) {
    // Reusing owner numbers: no entry of an earlier owner may survive to be found by a new one.
    nextOwner = 1;
    clearStoredFieldsCache();
  }
  return nextOwner++;
}

export function cachedBlock(owner: number, block: number, decode: () => DecodedBlock): DecodedBlock {
  const key = owner * BLOCK_SPACE + block;
  const hit = entries.get(key);
  if (hit) {
    // Most recently used last: Map keeps insertion order.
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const decoded = decode();
  entries.set(key, decoded);
  bytes += decoded.bytes.length;
  for (const [k, v] of entries) {
    if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
    if (k === key) break;
    entries.delete(k);
    bytes -= v.bytes.length;
  }
  return decoded;
}

/** What the cache holds now (tests, stats). */
export function storedFieldsCacheStats(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes };
}

/** Empties the cache (tests). */
export function clearStoredFieldsCache(): void {
  entries.clear();
  bytes = 0;
}
