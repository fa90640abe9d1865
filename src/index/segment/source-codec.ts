/**
 * Block codecs for stored `_source` (ES `index.codec`, Lucene's stored-fields compression modes):
 * `default` stores each document in a block of its own, LZ4-compressed (Lucene's BEST_SPEED)
 * against the segment's preset dictionary, so a fetch decodes only its hit, with the hand-written
 * decoder of lz4-block.ts into a reused buffer; `best_compression` compresses blocks of many docs
 * with DEFLATE (zlib, as Lucene's BEST_COMPRESSION: ~1.6× smaller again, but each decode is a
 * native zlib call of tens of µs). Both use the segment's preset dictionary — a sample of its
 * documents, as Lucene's LZ4-with-preset-dictionary and DEFLATE-with-preset-dictionary modes do —
 * which is what makes blocks of one or a few short documents compress at all.
 *
 * A block on disk: [codec u8][uncompressed length, varint][payload]. Multi-doc blocks (Raw, Lz4,
 * Deflate) decode to [doc length varint × docs][doc bytes]; one-doc blocks (RawDoc, Lz4Doc) to the
 * doc's bytes alone. A block that does not shrink is kept raw, so the worst case costs a few bytes.
 */
import { Buffer } from 'node:buffer';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { lz4Decode } from './lz4-block.js';
import { wasmDecodeDoc, wasmMemoryBytes, WASM_MAX_DOC_BYTES } from './lz4-wasm.js';

export type IndexCodec = 'default' | 'best_compression';
export const INDEX_CODECS: readonly IndexCodec[] = ['default', 'best_compression'];

export enum BlockCodec {
  /** Many docs, raw (and format 3's one raw doc per block of the `default` codec). */
  Raw = 0,
  /** Many docs, LZ4 (format 3's `default`, 4-doc blocks; still read, no longer written). */
  Lz4 = 1,
  Deflate = 2,
  /** One doc, raw: read in place (format 4 on). */
  RawDoc = 3,
  /** One doc, LZ4 against the segment's dictionary (format 4's `default`). */
  Lz4Doc = 4,
}

/** zlib keeps at most the last 32 KB of a preset dictionary: a longer one would not help DEFLATE. */
export const MAX_DEFLATE_DICTIONARY_BYTES = 32 * 1024;

function writeVarint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

/** Reads a varint at `pos`; returns [value, next position]. */
export function readVarint(bytes: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    v += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [v, pos];
    shift += 7;
  }
}

/** Appends the varint encoding of each value to `out`. */
export function writeVarints(out: number[], values: readonly number[]): void {
  for (const v of values) writeVarint(out, v);
}

/** Receives a block as [codec][raw length varint][payload]. */
export interface BlockOutput {
  add(kind: BlockCodec, rawLength: number, payload: Uint8Array): void;
}

/** Writes a block's head ([codec u8][raw length varint]) at `pos` of `out`; returns the position after it. */
export function writeBlockHead(out: Uint8Array, pos: number, kind: BlockCodec, rawLength: number): number {
  out[pos++] = kind;
  let v = rawLength;
  while (v >= 0x80) {
    out[pos++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[pos++] = v;
  return pos;
}

/** A block of many docs (`best_compression`), DEFLATE-compressed (or raw when that is not smaller). */
export function compressBlock(raw: Uint8Array, dictionary: Uint8Array, out: BlockOutput): void {
  const payload = deflateRawSync(raw, dictionary.length > 0 ? { level: 6, dictionary } : { level: 6 });
  if (payload.length < raw.length) out.add(BlockCodec.Deflate, raw.length, payload);
  else out.add(BlockCodec.Raw, raw.length, raw);
}

/** A block of one doc (`default`), LZ4-compressed against the encoder's dictionary (or raw when that is not smaller). */
export function compressDoc(doc: Uint8Array, encoder: { encode(raw: Uint8Array): Uint8Array }, out: BlockOutput): void {
  const payload = encoder.encode(doc);
  if (payload.length < doc.length) out.add(BlockCodec.Lz4Doc, doc.length, payload);
  else out.add(BlockCodec.RawDoc, doc.length, doc);
}

/** The uncompressed bytes of any block (a new, unshared buffer). */
export function decompressBlock(block: Uint8Array, dictionary: Uint8Array): Buffer {
  const kind = block[0] as BlockCodec;
  const [length, start] = readVarint(block, 1);
  const payload = block.subarray(start);
  switch (kind) {
    case BlockCodec.Raw:
    case BlockCodec.RawDoc: {
      if (payload.length !== length) throw new Error(`corrupt stored fields block: ${payload.length} bytes stored, ${length} expected`);
      const out = Buffer.allocUnsafe(length);
      out.set(payload);
      return out;
    }
    case BlockCodec.Deflate: {
      const out = inflateRawSync(payload, dictionary.length > 0 ? { dictionary } : {});
      if (out.length !== length) throw new Error(`corrupt stored fields block: ${out.length} bytes decoded, ${length} expected`);
      return out;
    }
    case BlockCodec.Lz4:
    case BlockCodec.Lz4Doc: {
      const out = Buffer.allocUnsafe(length);
      lz4Decode(payload, 0, payload.length, dictionary, out, length);
      return out;
    }
    default:
      throw new Error(`corrupt stored fields block: unknown codec ${kind}`);
  }
}

/** True for the blocks that hold one doc and no length header (format 4 on). */
export function isDocBlock(kind: number): boolean {
  return kind === BlockCodec.RawDoc || kind === BlockCodec.Lz4Doc;
}

let docScratch = Buffer.allocUnsafe(0);

/**
 * Decodes the Lz4Doc block at `blocks[at, end)` for a fetch into the thread's scratch: sets
 * `into.buffer` and `into.start` and returns the doc's length; valid until the next call on this
 * thread. The WebAssembly decoder (lz4-wasm.ts) reads the segment's dictionary from its own copy;
 * documents over WASM_MAX_DOC_BYTES decode in JS into a scratch buffer, reading the dictionary in
 * place.
 */
export function decodeDocToScratch(blocks: Uint8Array, at: number, end: number, dictionary: Uint8Array, into: { buffer: Buffer; start: number }): number {
  let length = 0;
  let pos = at + 1;
  for (let shift = 0; ; shift += 7) {
    const b = blocks[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (length <= WASM_MAX_DOC_BYTES) {
    into.start = wasmDecodeDoc(blocks, pos, end, dictionary, length);
    into.buffer = wasmMemoryBytes();
    return length;
  }
  if (docScratch.length < length) docScratch = Buffer.allocUnsafe(length);
  lz4Decode(blocks, pos, end, dictionary, docScratch, length);
  into.buffer = docScratch;
  into.start = 0;
  return length;
}
