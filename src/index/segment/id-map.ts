/**
 * A segment's `_id`s: their UTF-8 bytes back to back (IdBytes), where each starts, and a hash table
 * from id to doc — the lookup every write makes (id-lookup.ts) and `GET /{index}/_doc/{id}`.
 *
 * Format 4 packs the two per-doc tables (issue 22: they were 4 + 4–8 bytes a doc):
 * - IdStarts: the starts in blocks of ID_BLOCK docs, a Uint32 per block and each doc's distance
 *   from its block's start in 8 bits (16 when a block's ids span 256 bytes or more). ES ids are at
 *   most 512 bytes, so a block spans < 2^16 (wider ones fall back to 32 bits).
 * - IdHash24: open addressing (linear probing, load ≤ 1/2 as before) with 3-byte slots (doc + 1,
 *   0 = empty) while maxDoc < 2^24 − 1; larger segments keep Int32 slots (IdHash).
 * Formats 1 to 3 (IdOffsets Uint32 per doc, IdHash Int32) are read as they are.
 */
import { fnv1a, hashTableSize } from './bytes.js';

export const ID_BLOCK = 16;
const ID_BLOCK_SHIFT = 4;
/** IdStarts header: [delta width u8][pad 7]. */
const STARTS_HEADER = 8;
const MAX_HASH24_DOCS = 0xfffffe;

export class IdMap {
  private constructor(
    readonly bytes: Uint8Array,
    /** Per block (or, formats 1–3, per doc with `deltas` null): where its ids start. */
    private readonly bases: Uint32Array,
    private readonly deltas: Uint8Array | Uint16Array | Uint32Array | null,
    /** Int32 slots, or 3-byte slots in a Uint8Array. */
    private readonly slots: Int32Array | null,
    private readonly slots24: Uint8Array | null,
  ) {}

  static read(bytes: Uint8Array, starts: Uint8Array | null, offsets: Uint32Array | null, hash: Int32Array | null, hash24: Uint8Array | null, maxDoc: number): IdMap {
    if (hash === null && hash24 === null) throw new Error('corrupt segment: missing section IdHash');
    if (starts === null) {
      if (offsets === null) throw new Error('corrupt segment: missing section IdOffsets');
      return new IdMap(bytes, offsets, null, hash, hash24);
    }
    const width = starts[0];
    const blocks = (maxDoc >>> ID_BLOCK_SHIFT) + 2;
    const basesAt = starts.byteOffset + STARTS_HEADER;
    const deltasAt = basesAt + 4 * blocks;
    if (width !== 1 && width !== 2 && width !== 4) throw new Error(`corrupt segment: id starts of ${width} bytes`);
    if (starts.length < STARTS_HEADER + 4 * blocks + width * (maxDoc + 1)) throw new Error('corrupt segment: id starts shorter than the ids');
    const buf = starts.buffer;
    const deltas = width === 1 ? new Uint8Array(buf, deltasAt, maxDoc + 1) : width === 2 ? new Uint16Array(buf, deltasAt, maxDoc + 1) : new Uint32Array(buf, deltasAt, maxDoc + 1);
    return new IdMap(bytes, new Uint32Array(buf, basesAt, blocks), deltas, hash, hash24);
  }

  /** Where doc's id starts in `bytes` (doc = maxDoc: the end of the last). */
  start(doc: number): number {
    const deltas = this.deltas;
    return deltas === null ? this.bases[doc] : this.bases[doc >>> ID_BLOCK_SHIFT] + deltas[doc];
  }

  /** The doc whose id is `key[0, keyLength)` with fnv1a `hash`, or −1. */
  lookup(key: Uint8Array, keyLength: number, hash: number): number {
    const slots = this.slots;
    const slots24 = this.slots24;
    const size = slots !== null ? slots.length : slots24!.length / 3;
    const mask = size - 1;
    const bytes = this.bytes;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      let v: number;
      if (slots !== null) v = slots[slot];
      else {
        const at = slot * 3;
        v = slots24![at] | (slots24![at + 1] << 8) | (slots24![at + 2] << 16);
      }
      if (v === 0) return -1;
      const doc = v - 1;
      const start = this.start(doc);
      if (this.start(doc + 1) - start === keyLength) {
        let i = 0;
        while (i < keyLength && bytes[start + i] === key[i]) i++;
        if (i === keyLength) return doc;
      }
    }
  }
}

/** IdStarts for ids whose starts are `offsets` (maxDoc + 1 of them, the last = total bytes). */
export function packIdStarts(offsets: Uint32Array): Uint8Array {
  const maxDoc = offsets.length - 1;
  const blocks = (maxDoc >>> ID_BLOCK_SHIFT) + 2;
  let span = 0;
  for (let doc = 0; doc <= maxDoc; doc++) span = Math.max(span, offsets[doc] - offsets[doc & ~(ID_BLOCK - 1)]);
  const width = span < 2 ** 8 ? 1 : span < 2 ** 16 ? 2 : 4;
  const out = new Uint8Array(STARTS_HEADER + 4 * blocks + width * (maxDoc + 1));
  out[0] = width;
  const bases = new Uint32Array(out.buffer, STARTS_HEADER, blocks);
  for (let b = 0; b < blocks; b++) bases[b] = offsets[Math.min(b << ID_BLOCK_SHIFT, maxDoc)];
  const deltasAt = STARTS_HEADER + 4 * blocks;
  const deltas = width === 1 ? new Uint8Array(out.buffer, deltasAt, maxDoc + 1) : width === 2 ? new Uint16Array(out.buffer, deltasAt, maxDoc + 1) : new Uint32Array(out.buffer, deltasAt, maxDoc + 1);
  for (let doc = 0; doc <= maxDoc; doc++) deltas[doc] = offsets[doc] - bases[doc >>> ID_BLOCK_SHIFT];
  return out;
}

/** The id hash table: 3-byte slots while they hold doc + 1, else null (write IdHash as before). */
export function buildIdHash24(bytes: Uint8Array, offsets: Uint32Array, maxDoc: number): Uint8Array | null {
  if (maxDoc > MAX_HASH24_DOCS) return null;
  const size = hashTableSize(maxDoc);
  const mask = size - 1;
  const slots = new Uint8Array(size * 3);
  for (let doc = 0; doc < maxDoc; doc++) {
    let slot = fnv1a(bytes, offsets[doc], offsets[doc + 1]) & mask;
    while ((slots[slot * 3] | slots[slot * 3 + 1] | slots[slot * 3 + 2]) !== 0) slot = (slot + 1) & mask;
    const v = doc + 1;
    slots[slot * 3] = v & 0xff;
    slots[slot * 3 + 1] = (v >>> 8) & 0xff;
    slots[slot * 3 + 2] = v >>> 16;
  }
  return slots;
}
