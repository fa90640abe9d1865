/**
 * Compressed postings of sparse_vector / rank_features fields (segment format 2): per block of
 * BLOCK_SIZE postings, frame of reference in whole bytes — the doc id gaps in 1, 2 or 4 bytes and
 * the encoded weights (feature-weights.ts, 16-bit codes) minus the block's smallest in 1 or 2, each
 * width the fewest the block needs. ELSER-like vectors take ~3.6 bytes per posting this way instead
 * of the 8 of a u32 doc + u32 freq. Whole bytes rather than Lucene's bit packing: in JS a bit-unpack
 * costs ~3× a flat scan per posting, byte-aligned reads ~1.5×, and the term-at-a-time scan is what
 * sparse search spends its time on.
 *
 * A block starts at a 4-byte aligned offset FeatureBlockOffsets[b] of the field's FeaturePacked
 * section:
 *
 *   [first doc u32] [gap width u8] [weight width u8] [weight min u16]
 *   [(n − 1) × (gap − 1), gap width each] [pad to the weight width] [n × (code − min), weight width each] [pad to 4]
 *
 * Block skip data (last doc and max code per block, for advance and block-max bounds) stays in
 * the BlockLastDoc / BlockMaxFreq sections shared with text postings. Segments of format 1 keep
 * flat PostingDocs / PostingFreqs for these fields; `decodeFeatureTerm` serves both.
 */
import { BLOCK_SIZE } from './format.js';
import { decodeFeatureWeight } from './feature-weights.js';

export interface FeaturePostings {
  /** Byte offset in the packed section of each block, blocks + 1 entries. */
  readonly blockOffsets: Uint32Array;
  /** The packed section as bytes, u16s and u32s (its length is a multiple of 4). */
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;
}

/** Views of a packed section (8-byte aligned in the segment, length a multiple of 4). */
export function featurePostingsOf(blockOffsets: Uint32Array, packed: Uint8Array): FeaturePostings {
  const { buffer, byteOffset, byteLength } = packed;
  return { blockOffsets, u8: packed, u16: new Uint16Array(buffer, byteOffset, byteLength >>> 1), u32: new Uint32Array(buffer, byteOffset, byteLength >>> 2) };
}

const widthFor = (max: number) => (max < 0x100 ? 1 : max < 0x10000 ? 2 : 4);
/** n rounded up to a multiple of `to` (1, 2 or 4); arithmetic, not bit masks: sections may pass 2 GB. */
const align = (n: number, to: number) => n + ((to - (n % to)) % to);

/** Bytes of a block of `n` postings with these widths (from a 4-aligned start, padded to 4). */
function blockBytes(n: number, gapWidth: number, freqWidth: number): number {
  return align(align(8 + (n - 1) * gapWidth, freqWidth) + n * freqWidth, 4);
}

/**
 * Encodes a field's flat postings (docs ascending per term, freqs the encoded weights) into blocks;
 * `blockStart` gives each term's first block (postings [postingsStart[t], …) in blocks of BLOCK_SIZE).
 */
export function encodeFeaturePostings(postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array): { blockOffsets: Uint32Array; packed: Uint8Array } {
  const blocks = blockStart[termCount];
  const blockOffsets = new Uint32Array(blocks + 1);
  // First pass: widths and sizes, so the section is allocated once at its final size.
  const widths = new Uint8Array(blocks * 2);
  const mins = new Uint16Array(blocks);
  let bytes = 0;
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const n = Math.min(BLOCK_SIZE, end - p);
      let maxGap = 0;
      let minFreq = freqs[p];
      let maxFreq = freqs[p];
      for (let i = p + 1; i < p + n; i++) {
        const gap = docs[i] - docs[i - 1] - 1;
        if (gap > maxGap) maxGap = gap;
        if (freqs[i] < minFreq) minFreq = freqs[i];
        if (freqs[i] > maxFreq) maxFreq = freqs[i];
      }
      widths[2 * b] = widthFor(maxGap);
      widths[2 * b + 1] = widthFor(maxFreq - minFreq); // codes are 16-bit: 1 or 2
      mins[b] = minFreq;
      blockOffsets[b] = bytes;
      bytes += blockBytes(n, widths[2 * b], widths[2 * b + 1]);
    }
  }
  blockOffsets[blocks] = bytes;
  const packed = new Uint8Array(bytes);
  const fp = featurePostingsOf(blockOffsets, packed);
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const n = Math.min(BLOCK_SIZE, end - p);
      const gapWidth = widths[2 * b];
      const freqWidth = widths[2 * b + 1];
      const min = mins[b];
      let o = blockOffsets[b];
      fp.u32[o >>> 2] = docs[p];
      packed[o + 4] = gapWidth;
      packed[o + 5] = freqWidth;
      fp.u16[(o + 6) >>> 1] = min;
      o += 8;
      for (let i = p + 1; i < p + n; i++, o += gapWidth) put(fp, o, gapWidth, docs[i] - docs[i - 1] - 1);
      o = align(o, freqWidth);
      for (let i = p; i < p + n; i++, o += freqWidth) put(fp, o, freqWidth, freqs[i] - min);
    }
  }
  return { blockOffsets, packed };
}

function put(fp: FeaturePostings, o: number, width: number, v: number): void {
  if (width === 1) fp.u8[o] = v;
  else if (width === 2) fp.u16[o >>> 1] = v;
  else fp.u32[o >>> 2] = v;
}

function get(fp: FeaturePostings, o: number, width: number): number {
  return width === 1 ? fp.u8[o] : width === 2 ? fp.u16[o >>> 1] : fp.u32[o >>> 2];
}

/** Decodes block `b` (of `n` postings) into docs[at…] and freqs[at…]. */
export function decodeFeatureBlock(fp: FeaturePostings, b: number, n: number, docs: Uint32Array | Int32Array, freqs: Uint32Array | Int32Array, at: number): void {
  let o = fp.blockOffsets[b];
  let doc = fp.u32[o >>> 2];
  const gapWidth = fp.u8[o + 4];
  const freqWidth = fp.u8[o + 5];
  const min = fp.u16[(o + 6) >>> 1];
  o += 8;
  docs[at] = doc;
  for (let i = 1; i < n; i++, o += gapWidth) docs[at + i] = doc += get(fp, o, gapWidth) + 1;
  o = align(o, freqWidth);
  for (let i = 0; i < n; i++, o += freqWidth) freqs[at + i] = min + get(fp, o, freqWidth);
}

/**
 * Adds float32(weight × stored weight) — Lucene's linear FeatureQuery score — of each of the `n`
 * postings starting at block `firstBlock` to acc[doc]: the term-at-a-time scan of learned-sparse
 * queries, one fused loop per width combination so each reads its bytes in place.
 */
export function accumulateLinear(fp: FeaturePostings, firstBlock: number, n: number, weight: number, acc: Float64Array): void {
  const { u8, u16, u32 } = fp;
  for (let b = firstBlock, at = 0; at < n; b++, at += BLOCK_SIZE) {
    const count = Math.min(BLOCK_SIZE, n - at);
    let o = fp.blockOffsets[b];
    let doc = u32[o >>> 2];
    const gapWidth = u8[o + 4];
    const freqWidth = u8[o + 5];
    const min = u16[(o + 6) >>> 1];
    o += 8;
    let f = align(o + (count - 1) * gapWidth, freqWidth);
    if (freqWidth === 2) {
      f >>>= 1;
      acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u16[f++]));
      if (gapWidth === 2) {
        for (let i = 1, g = o >>> 1; i < count; i++) {
          doc += u16[g++] + 1;
          acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u16[f++]));
        }
      } else if (gapWidth === 1) {
        for (let i = 1, g = o; i < count; i++) {
          doc += u8[g++] + 1;
          acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u16[f++]));
        }
      } else {
        for (let i = 1, g = o >>> 2; i < count; i++) {
          doc += u32[g++] + 1;
          acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u16[f++]));
        }
      }
    } else {
      acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u8[f++]));
      for (let i = 1, g = o; i < count; i++, g += gapWidth) {
        doc += get(fp, g, gapWidth) + 1;
        acc[doc] += Math.fround(weight * decodeFeatureWeight(min + u8[f++]));
      }
    }
  }
}

/** The postings of one term as flat arrays (docs, encoded weights), index 0 = its first posting. */
export interface TermPostingArrays {
  readonly docs: Uint32Array;
  readonly freqs: Uint32Array;
}

/**
 * Term `ord`'s postings, decoded (format 2) or as views of the flat sections (format 1). The arrays
 * are fresh (or views): the caller may keep them while the segment lives.
 */
export function decodeFeatureTerm(
  field: { readonly features: FeaturePostings | null; readonly docs: Uint32Array | null; readonly freqs: Uint32Array | null; readonly postingsStart: Uint32Array | null; readonly blockStart: Uint32Array | null },
  ord: number,
): TermPostingArrays {
  const start = field.postingsStart![ord];
  const end = field.postingsStart![ord + 1];
  if (field.features === null) return { docs: field.docs!.subarray(start, end), freqs: field.freqs!.subarray(start, end) };
  const n = end - start;
  const docs = new Uint32Array(n);
  const freqs = new Uint32Array(n);
  for (let b = field.blockStart![ord], at = 0; at < n; b++, at += BLOCK_SIZE) decodeFeatureBlock(field.features, b, Math.min(BLOCK_SIZE, n - at), docs, freqs, at);
  return { docs, freqs };
}
