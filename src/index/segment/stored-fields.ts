/**
 * Stored `_source`, compressed in blocks (Lucene's compressing stored fields): documents are grouped
 * into blocks of a few documents (BLOCK_LIMITS), each block compressed with the
 * index's codec (source-codec.ts) against the segment's preset dictionary. Fetching one document
 * decodes its block; the last few decoded blocks are kept per thread (stored-fields-cache.ts), so the
 * hits of one page that share a block, and a scroll or a reindex reading in doc order, decode it once.
 *
 * A block decodes to [doc length varint × docs][doc bytes, back to back]; a length of 0 is a doc with
 * no stored source (`_source.enabled: false`).
 *
 * Sections (format 3): SourceBlockDocs (first doc of each block, plus maxDoc), SourceBlockOffsets
 * (byte offset of each block in SourceBlocks, plus the end), SourceBlocks, SourceDictionary.
 */
import type { Buffer } from 'node:buffer';
import { compressBlock, decompressBlock, MAX_DICTIONARY_BYTES, readVarint, writeVarints, type IndexCodec } from './source-codec.js';
import { GrowableUint32 } from './growable.js';
import { scratchUint8 } from './scratch-pool.js';
import { lastAtMost } from '../../common/sorted-search.js';

/**
 * Block sizes per codec, as Lucene's modes differ: `default` stores one raw doc per block, which the
 * fetch reads in place with no decode (bench/stored-fields.ts measures it: 10 hits ~1.8× the old
 * raw sections, against ~20× with 4-doc LZ4 blocks). `best_compression` pays a zlib call of fixed cost per block, so fewer, larger
 * blocks.
 */
export const BLOCK_LIMITS: Readonly<Record<IndexCodec, { docs: number; bytes: number }>> = {
  // One raw document per block: the fetch reads it in place (segment-reader.ts locateSource).
  default: { docs: 1, bytes: 4 * 1024 },
  best_compression: { docs: 32, bytes: 32 * 1024 },
};
/**
 * Segments of fewer docs keep no dictionary: it holds at most DICTIONARY_SAMPLES docs' worth of
 * bytes, so from here on it costs ≤ 1/64 of the source, and smaller segments are soon merged anyway.
 */
const DICTIONARY_MIN_DOCS = 4096;
/** Dictionary samples: this many documents spread over the segment, each cut to an equal share. */
const DICTIONARY_SAMPLES = 64;

export interface StoredFieldsSections {
  readonly blockDocs: Uint32Array;
  readonly blockOffsets: Uint32Array;
  readonly blocks: Uint8Array;
  readonly dictionary: Uint8Array;
}

/** `_source` bytes of doc `doc` (null or empty: none stored). */
export type SourceAt = (doc: number) => Uint8Array | null;

/** A preset dictionary: slices of documents spread over the segment (Lucene samples the chunk being written). */
function sampleDictionary(count: number, sourceAt: SourceAt): Uint8Array {
  if (count < DICTIONARY_MIN_DOCS) return new Uint8Array(0);
  const out = new Uint8Array(MAX_DICTIONARY_BYTES);
  const share = MAX_DICTIONARY_BYTES / DICTIONARY_SAMPLES;
  let pos = 0;
  const step = count / DICTIONARY_SAMPLES;
  for (let i = 0; i < DICTIONARY_SAMPLES && pos < out.length; i++) {
    const doc = Math.floor(i * step);
    const bytes = sourceAt(doc);
    if (!bytes) continue;
    const n = Math.min(bytes.length, share, out.length - pos);
    out.set(bytes.subarray(0, n), pos);
    pos += n;
  }
  return out.slice(0, pos);
}

/**
 * Compresses `count` documents' sources into blocks. `sourceAt` is called in doc order once per doc
 * (after a few samples for the dictionary); what it returns is copied before the next call.
 */
export function encodeStoredFields(count: number, sourceAt: SourceAt, codec: IndexCodec): StoredFieldsSections {
  const dictionary = codec === 'best_compression' ? sampleDictionary(count, sourceAt) : new Uint8Array(0);
  const limits = BLOCK_LIMITS[codec];
  const blockDocs = new GrowableUint32(Math.ceil(count / limits.docs) + 1);
  const blockOffsets = new GrowableUint32(Math.ceil(count / limits.docs) + 1);
  const compressed: Uint8Array[] = [];
  let compressedBytes = 0;
  // The pending block: its docs' lengths, and their bytes copied into `body` as they come (the
  // caller may reuse the memory it hands out: a decoded block, an encode buffer).
  let lengths: number[] = [];
  let body = new Uint8Array(limits.bytes * 2);
  let bodyBytes = 0;
  let raw = new Uint8Array(limits.bytes * 2);
  const flush = () => {
    const head: number[] = [];
    writeVarints(head, lengths);
    const size = head.length + bodyBytes;
    if (raw.length < size) raw = new Uint8Array(size);
    raw.set(head, 0);
    raw.set(body.subarray(0, bodyBytes), head.length);
    const block = compressBlock(raw.subarray(0, size), codec, dictionary);
    blockOffsets.push(compressedBytes);
    compressed.push(block);
    compressedBytes += block.length;
    if (compressedBytes > 0xffffffff) throw new Error(`stored fields too large (${compressedBytes} bytes)`);
    lengths = [];
    bodyBytes = 0;
  };
  for (let doc = 0; doc < count; doc++) {
    if (lengths.length === 0) blockDocs.push(doc);
    const bytes = sourceAt(doc);
    const n = bytes?.length ?? 0;
    if (bodyBytes + n > body.length) {
      const grown = new Uint8Array(Math.max(body.length * 2, bodyBytes + n));
      grown.set(body.subarray(0, bodyBytes));
      body = grown;
    }
    if (bytes && n > 0) body.set(bytes, bodyBytes);
    bodyBytes += n;
    lengths.push(n);
    if (lengths.length === limits.docs || bodyBytes >= limits.bytes) flush();
  }
  if (lengths.length > 0) flush();
  blockDocs.push(count);
  blockOffsets.push(compressedBytes);
  const blocks = scratchUint8(compressedBytes, false);
  let pos = 0;
  for (const b of compressed) {
    blocks.set(b, pos);
    pos += b.length;
  }
  return { blockDocs: blockDocs.toArray(), blockOffsets: blockOffsets.toArray(), blocks, dictionary };
}

/** A decoded block: its bytes and where each of its docs starts (docs + 1 entries). */
export interface DecodedBlock {
  readonly bytes: Buffer;
  readonly starts: Uint32Array;
}

export function decodeBlock(sections: StoredFieldsSections, block: number): DecodedBlock {
  const bytes = decompressBlock(sections.blocks.subarray(sections.blockOffsets[block], sections.blockOffsets[block + 1]), sections.dictionary);
  const docs = sections.blockDocs[block + 1] - sections.blockDocs[block];
  const starts = new Uint32Array(docs + 1);
  let pos = 0;
  const lengths: number[] = [];
  for (let i = 0; i < docs; i++) {
    let len: number;
    [len, pos] = readVarint(bytes, pos);
    lengths.push(len);
  }
  for (let i = 0; i < docs; i++) {
    starts[i] = pos;
    pos += lengths[i];
  }
  starts[docs] = pos;
  if (pos !== bytes.length) throw new Error(`corrupt stored fields block ${block}: lengths add up to ${pos} of ${bytes.length} bytes`);
  return { bytes, starts };
}

/** The block holding `doc` (blockDocs ends with maxDoc, which no doc reaches). */
export function blockOf(blockDocs: Uint32Array, doc: number): number {
  return lastAtMost(blockDocs, doc);
}
