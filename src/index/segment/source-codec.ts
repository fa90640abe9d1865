/**
 * Block codecs for stored `_source` (ES `index.codec`, Lucene's stored-fields compression modes):
 * `default` keeps each block raw (LZ4, Lucene's BEST_SPEED, was the default until its pure-JS decode
 * measured ~11 µs a fetched hit, +35% of a 10-hit `_search`; blocks written with it still read),
 * `best_compression` compresses with DEFLATE (zlib, as
 * Lucene's BEST_COMPRESSION: ~1.6× smaller again here, but each decode is a native zlib call with a
 * fixed cost of tens of µs). Both use the segment's preset dictionary — a sample of its documents,
 * as Lucene's LZ4-with-preset-dictionary and DEFLATE-with-preset-dictionary modes do — which is what
 * makes blocks of a few short documents compress at all.
 *
 * A block on disk: [codec u8][uncompressed length, varint][payload]. A block that does not shrink
 * is kept raw, so the worst case costs a few bytes per block.
 */
import lz4 from 'lz4js';
import { Buffer } from 'node:buffer';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export type IndexCodec = 'default' | 'best_compression';
export const INDEX_CODECS: readonly IndexCodec[] = ['default', 'best_compression'];

export enum BlockCodec {
  Raw = 0,
  Lz4 = 1,
  Deflate = 2,
}

/**
 * zlib keeps at most the last 32 KB of a preset dictionary, and LZ4's 16-bit offsets reach 64 KB back
 * from the end of a block, so a longer one would not help either codec.
 */
export const MAX_DICTIONARY_BYTES = 32 * 1024;

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

/** One block, compressed with `codec` (or raw when that does not make it smaller). */
export function compressBlock(raw: Uint8Array, codec: IndexCodec, dictionary: Uint8Array): Uint8Array {
  let payload: Uint8Array | null;
  let kind: BlockCodec;
  if (codec === 'best_compression') {
    payload = deflateRawSync(raw, dictionary.length > 0 ? { level: 6, dictionary } : { level: 6 });
    kind = BlockCodec.Deflate;
  } else {
    // `default` stores blocks raw: LZ4 (written until this was measured; still read below) cost
    // ~11 µs per fetched hit in pure JS, +35% of a 10-hit `_search`'s server CPU, for 36% fewer bytes.
    payload = null;
    kind = BlockCodec.Raw;
  }
  if (payload === null || payload.length >= raw.length) {
    payload = raw;
    kind = BlockCodec.Raw;
  }
  const head: number[] = [kind];
  writeVarint(head, raw.length);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

let decodeScratch = new Uint8Array(0);
/**
 * The dictionary whose bytes are in decodeScratch's prefix (LZ4 decodes after them). Weakly held:
 * the dictionary is a view of its segment's buffer, and a strong reference here pinned a whole
 * segment that a merge had consumed (~100 MB at 200k docs) in the thread that last decoded it.
 */
let scratchDictionary: WeakRef<Uint8Array> | null = null;

/** The uncompressed bytes of a block written by compressBlock (a new, unshared buffer). */
export function decompressBlock(block: Uint8Array, dictionary: Uint8Array): Buffer {
  const kind = block[0] as BlockCodec;
  const [length, start] = readVarint(block, 1);
  const payload = block.subarray(start);
  switch (kind) {
    case BlockCodec.Raw: {
      const out = Buffer.allocUnsafe(length);
      out.set(payload);
      return out;
    }
    case BlockCodec.Deflate: {
      const out = inflateRawSync(payload, dictionary.length > 0 ? { dictionary } : {});
      if (out.length !== length) throw new Error(`corrupt stored fields block: ${out.length} bytes decoded, ${length} expected`);
      return out;
    }
    case BlockCodec.Lz4: {
      const dict = dictionary;
      if (decodeScratch.length < dict.length + length) {
        decodeScratch = new Uint8Array(Math.max(dict.length + length, 2 * decodeScratch.length));
        scratchDictionary = null;
      }
      if (scratchDictionary?.deref() !== dictionary) {
        decodeScratch.set(dict, 0);
        scratchDictionary = new WeakRef(dictionary);
      }
      const end = lz4.decompressBlock(payload, decodeScratch, 0, payload.length, dict.length);
      if (end - dict.length !== length) throw new Error(`corrupt stored fields block: ${end - dict.length} bytes decoded, ${length} expected`);
      return Buffer.from(decodeScratch.subarray(dict.length, end));
    }
    default:
      throw new Error(`corrupt stored fields block: unknown codec ${kind}`);
  }
}
