/**
 * Stored `_source`, compressed in blocks (Lucene's compressing stored fields), each block compressed
 * with the index's codec (source-codec.ts) against the segment's preset dictionary:
 * - `default`: one document per block, LZ4 (lz4-block.ts). A fetch decodes its hit alone into a
 *   reused buffer (segment-reader.ts locateSource); nothing is cached.
 * - `best_compression`: blocks of up to 32 docs / 32 KB, DEFLATE. A decode costs a zlib call, so
 *   the last few decoded blocks are kept per thread (stored-fields-cache.ts): the hits of one page
 *   that share a block, and a scroll or a reindex reading in doc order, decode it once.
 *
 * A multi-doc block decodes to [doc length varint × docs][doc bytes, back to back]; a length of 0
 * is a doc with no stored source (`_source.enabled: false`). A one-doc block is the doc's bytes.
 *
 * Sections: SourceBlockDocs (first doc of each block, plus maxDoc; from format 4 just [maxDoc] when
 * every block holds one doc, block = doc), SourceBlockOffsets (byte offset of each block in
 * SourceBlocks, plus the end), SourceBlocks, SourceDictionary.
 */
import type { Buffer } from 'node:buffer';
import { BlockCodec, compressBlock, compressDoc, decompressBlock, isDocBlock, MAX_DEFLATE_DICTIONARY_BYTES, readVarint, writeBlockHead, writeVarints, type BlockOutput, type IndexCodec } from './source-codec.js';
import { Lz4DocEncoder } from './lz4-wasm-encode.js';
import { GrowableUint32 } from './growable.js';
import { releaseScratch, scratchUint8, trimmed } from './scratch-pool.js';
import { lastAtMost } from '../../common/sorted-search.js';

/** Docs and bytes per `best_compression` block: a zlib call has a fixed cost, so fewer, larger blocks. */
export const DEFLATE_BLOCK_LIMITS = { docs: 32, bytes: 32 * 1024 } as const;
/**
 * Segments of fewer docs keep no dictionary: from here on it costs ≤ 1/64 (DEFLATE) or 1/32 (LZ4,
 * whose window reaches twice as far back) of the source, and smaller segments are soon merged anyway.
 */
const DICTIONARY_MIN_DOCS = 4096;
/**
 * Dictionary samples: documents spread evenly over the segment, each cut to an equal share — at
 * least this many, and as many more as it takes to fill the dictionary with short documents.
 */
const DICTIONARY_SAMPLES = 64;
/** The LZ4 dictionary: as long as a match offset reaches back from a short doc's last byte. */
const LZ4_DICTIONARY_BYTES = 64 * 1024 - 1024;

export interface StoredFieldsSections {
  readonly blockDocs: Uint32Array;
  readonly blockOffsets: Uint32Array;
  readonly blocks: Uint8Array;
  readonly dictionary: Uint8Array;
}

/** `_source` bytes of doc `doc` (null or empty: none stored). */
export type SourceAt = (doc: number) => Uint8Array | null;

/** A preset dictionary: slices of documents spread over the segment (Lucene samples the chunk being written). */
function sampleDictionary(count: number, sourceAt: SourceAt, maxBytes: number): Uint8Array {
  if (count < DICTIONARY_MIN_DOCS) return new Uint8Array(0);
  // How long a sample is on average decides how many it takes to fill the dictionary.
  let probed = 0;
  for (let i = 0; i < DICTIONARY_SAMPLES; i++) probed += Math.min(sourceAt(Math.floor((i * count) / DICTIONARY_SAMPLES))?.length ?? 0, maxBytes / DICTIONARY_SAMPLES);
  const samples = Math.min(count, Math.max(DICTIONARY_SAMPLES, Math.ceil((maxBytes * DICTIONARY_SAMPLES) / Math.max(1, probed))));
  const share = Math.max(1, Math.floor(maxBytes / DICTIONARY_SAMPLES));
  const out = new Uint8Array(maxBytes);
  let pos = 0;
  for (let i = 0; i < samples && pos < out.length; i++) {
    const bytes = sourceAt(Math.floor((i * count) / samples));
    if (!bytes) continue;
    const n = Math.min(bytes.length, share, out.length - pos);
    out.set(bytes.subarray(0, n), pos);
    pos += n;
  }
  return out.slice(0, pos);
}

/** Where a merge writes compressed blocks' bytes as they are made: straight into its new segment. */
export type BlockWriteThrough = (bytes: Uint8Array) => void;

/**
 * Blocks appended one by one into one growing buffer, with their offsets — or, with `through`,
 * handed on as they come (a merge's: it writes them into the new segment, so the stored source, the
 * largest section, is never held twice). In a build's scratch scope the buffer is the pool's, and
 * `finish` hands out a view of it rather than a copy: its doublings (1, 2 then 4 MB for 16k short
 * docs) and the copy were fresh mappings every build, left for the next collection (issue 22).
 */
class BlockSink implements BlockOutput {
  readonly offsets: GrowableUint32;
  private bytes: Uint8Array;
  private length = 0;
  constructor(blocks: number, bytesHint: number, private readonly through?: BlockWriteThrough) {
    this.offsets = new GrowableUint32(blocks + 1);
    // With `through`, only a block's head is staged here (a codec byte and a varint).
    this.bytes = through ? new Uint8Array(16) : scratchUint8(Math.max(1024, bytesHint), false);
  }
  add(kind: BlockCodec, rawLength: number, payload: Uint8Array): void {
    this.offsets.push(this.length);
    if (this.through) {
      const head = writeBlockHead(this.bytes, 0, kind, rawLength);
      if (this.length + head + payload.length > 0xffffffff) throw new Error(`stored fields too large (${this.length + head + payload.length} bytes)`);
      this.through(this.bytes.subarray(0, head));
      this.through(payload);
      this.length += head + payload.length;
      return;
    }
    const size = this.length + 11 + payload.length;
    if (size > 0xffffffff) throw new Error(`stored fields too large (${size} bytes)`);
    if (size > this.bytes.length) {
      const grown = scratchUint8(Math.min(0xffffffff + 11, Math.max(size, this.bytes.length * 2)), false);
      grown.set(this.bytes.subarray(0, this.length));
      releaseScratch(this.bytes);
      this.bytes = grown;
    }
    const pos = writeBlockHead(this.bytes, this.length, kind, rawLength);
    this.bytes.set(payload, pos);
    this.length = pos + payload.length;
  }
  finish(): { blockOffsets: Uint32Array; blocks: Uint8Array } {
    this.offsets.push(this.length);
    return { blockOffsets: this.offsets.toArray(), blocks: this.through ? new Uint8Array(0) : trimmed(this.bytes, this.length) };
  }
}

/**
 * One sink that lives as long as the module, so V8 keeps BlockSink's hidden class between builds
 * (issue 19): a class's shape is dropped a few full collections after its last instance died, and
 * every function specialised on it is deoptimized — the stored-fields encoder was compiled again
 * after each collection between two builds. Empty, it holds a few hundred bytes.
 */
export const BLOCK_SINK_SHAPE: object = new BlockSink(0, 0);

/**
 * Compresses `count` documents' sources into blocks. `sourceAt` is called in doc order once per doc
 * (after a few samples for the dictionary); what it returns is copied before the next call. With
 * `through`, the blocks' bytes are handed to it as they are made and `blocks` comes back empty.
 * `bytesHint`: the sources' length when the caller knows it, the blocks buffer's first size (their
 * compressed bytes are less; a pooled buffer's untouched tail is never faulted in).
 */
export function encodeStoredFields(count: number, sourceAt: SourceAt, codec: IndexCodec, through?: BlockWriteThrough, bytesHint?: number): StoredFieldsSections {
  return codec === 'best_compression' ? encodeDeflateBlocks(count, sourceAt, through, bytesHint ?? count * 32) : encodeDocBlocks(count, sourceAt, through, bytesHint ?? count * 64);
}

/** `default`: one LZ4 block per doc; SourceBlockDocs is just [count] (block = doc). */
function encodeDocBlocks(count: number, sourceAt: SourceAt, through: BlockWriteThrough | undefined, bytesHint: number): StoredFieldsSections {
  const dictionary = sampleDictionary(count, sourceAt, LZ4_DICTIONARY_BYTES);
  const encoder = new Lz4DocEncoder(dictionary);
  const sink = new BlockSink(count, bytesHint, through);
  const empty = new Uint8Array(0);
  for (let doc = 0; doc < count; doc++) compressDoc(sourceAt(doc) ?? empty, encoder, sink);
  return { blockDocs: Uint32Array.of(count), ...sink.finish(), dictionary };
}

function encodeDeflateBlocks(count: number, sourceAt: SourceAt, through: BlockWriteThrough | undefined, bytesHint: number): StoredFieldsSections {
  const dictionary = sampleDictionary(count, sourceAt, MAX_DEFLATE_DICTIONARY_BYTES);
  const limits = DEFLATE_BLOCK_LIMITS;
  const blockDocs = new GrowableUint32(Math.ceil(count / limits.docs) + 1);
  const sink = new BlockSink(Math.ceil(count / limits.docs), bytesHint, through);
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
    compressBlock(raw.subarray(0, size), dictionary, sink);
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
  return { blockDocs: blockDocs.toArray(), ...sink.finish(), dictionary };
}

/** A decoded block: its bytes and where each of its docs starts (docs + 1 entries). */
export interface DecodedBlock {
  readonly bytes: Buffer;
  readonly starts: Uint32Array;
}

/** True when every block holds one doc and block = doc (SourceBlockDocs is just [maxDoc], or, format 3, [0, 1, …, maxDoc]). */
export function oneDocPerBlock(blockDocs: Uint32Array): boolean {
  return blockDocs.length === 1 || blockDocs.length === blockDocs[blockDocs.length - 1] + 1;
}

/** The block holding `doc`. */
export function blockOf(blockDocs: Uint32Array, doc: number): number {
  return oneDocPerBlock(blockDocs) ? doc : lastAtMost(blockDocs, doc);
}

/** The first doc of `block`. */
export function firstDocOf(blockDocs: Uint32Array, block: number): number {
  return blockDocs.length === 1 ? block : blockDocs[block];
}

/** Decodes any block, whatever codec wrote it (a new buffer: merges, `best_compression` fetches, tests). */
export function decodeBlock(sections: StoredFieldsSections, block: number): DecodedBlock {
  const at = sections.blockOffsets[block];
  const bytes = decompressBlock(sections.blocks.subarray(at, sections.blockOffsets[block + 1]), sections.dictionary);
  if (isDocBlock(sections.blocks[at] as BlockCodec)) return { bytes, starts: Uint32Array.of(0, bytes.length) };
  const blockDocs = sections.blockDocs;
  const docs = blockDocs.length === 1 ? 1 : blockDocs[block + 1] - blockDocs[block];
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
