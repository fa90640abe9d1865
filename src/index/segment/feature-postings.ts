/**
 * Compressed postings of sparse_vector / rank_features fields (segment format 2): per block of
 * BLOCK_SIZE postings, frame-of-reference bit packing as Lucene's ForUtil does — the doc id gaps
 * and the encoded weights (feature-weights.ts, 16 significant bits) each packed with the fewest bits
 * the block needs. ELSER-like vectors take ~3 bytes per posting this way instead of the 8 of a
 * u32 doc + u32 freq, and a term-at-a-time scan moves fewer bytes through the memory bus.
 *
 * A block is a run of u32 words in the field's FeaturePacked section, starting at
 * FeatureBlockOffsets[b]:
 *
 *   [first doc] [docBits | freqBits << 6 | freqMin << 11] [(n − 1) gaps − 1, docBits each] [n freqs − freqMin, freqBits each]
 *
 * Values are packed LSB first, each run starting on a word boundary. Block skip data (last doc and
 * max freq per block, for advance and block-max bounds) stays in the BlockLastDoc / BlockMaxFreq
 * sections shared with text postings. Segments of format 1 keep flat PostingDocs / PostingFreqs for
 * these fields; `featureTermPostings` serves both.
 */
import { BLOCK_SIZE } from './format.js';

export interface FeaturePostings {
  /** Word offset in `packed` of each block, blocks + 1 entries. */
  readonly blockOffsets: Uint32Array;
  readonly packed: Uint32Array;
}

function bitsFor(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

const packedWords = (count: number, bits: number) => (count * bits + 31) >>> 5;

/** Packs `count` values (minus `sub`) of `values` from `from` with `bits` bits each into out[w...]; returns the next word. */
function pack(values: Uint32Array, from: number, count: number, sub: number, bits: number, out: Uint32Array, w: number, gaps: boolean): number {
  if (bits === 0) return w;
  let bit = 0;
  for (let i = 0; i < count; i++) {
    const v = (gaps ? values[from + i + 1] - values[from + i] - 1 : values[from + i] - sub) >>> 0;
    const word = w + (bit >>> 5);
    const shift = bit & 31;
    out[word] |= v << shift;
    if (shift + bits > 32) out[word + 1] |= v >>> (32 - shift);
    bit += bits;
  }
  return w + packedWords(count, bits);
}

/**
 * Encodes a field's flat postings (docs ascending per term, freqs the encoded weights) into blocks;
 * `blockStart` gives each term's first block (postings [postingsStart[t], …) in blocks of BLOCK_SIZE).
 */
export function encodeFeaturePostings(postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array): FeaturePostings {
  const blocks = blockStart[termCount];
  const blockOffsets = new Uint32Array(blocks + 1);
  // First pass: bit widths and sizes, so the packed section is allocated once at its final size.
  const headers = new Uint32Array(blocks);
  let words = 0;
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
      const docBits = bitsFor(maxGap);
      const freqBits = bitsFor(maxFreq - minFreq);
      headers[b] = (docBits | (freqBits << 6) | (minFreq << 11)) >>> 0;
      blockOffsets[b] = words;
      words += 2 + packedWords(n - 1, docBits) + packedWords(n, freqBits);
    }
  }
  blockOffsets[blocks] = words;
  const packed = new Uint32Array(words);
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const n = Math.min(BLOCK_SIZE, end - p);
      const header = headers[b];
      let w = blockOffsets[b];
      packed[w++] = docs[p];
      packed[w++] = header;
      w = pack(docs, p, n - 1, 0, header & 63, packed, w, true);
      pack(freqs, p, n, header >>> 11, (header >>> 6) & 31, packed, w, false);
    }
  }
  return { blockOffsets, packed };
}

/**
 * Decodes block `b` (of `n` postings) into docs[at…] and freqs[at…]. The loops are the generic
 * shift-and-mask unpack: one or two word reads per value, no branches on the data.
 */
export function decodeFeatureBlock(fp: FeaturePostings, b: number, n: number, docs: Uint32Array | Int32Array, freqs: Uint32Array | Int32Array, at: number): void {
  const packed = fp.packed;
  let w = fp.blockOffsets[b];
  let doc = packed[w];
  const header = packed[w + 1];
  w += 2;
  const docBits = header & 63;
  docs[at] = doc;
  if (docBits === 0) {
    for (let i = 1; i < n; i++) docs[at + i] = ++doc;
  } else {
    const mask = docBits === 32 ? -1 : (1 << docBits) - 1;
    for (let i = 1, bit = 0; i < n; i++, bit += docBits) {
      const word = w + (bit >>> 5);
      const shift = bit & 31;
      let v = packed[word] >>> shift;
      if (shift + docBits > 32) v |= packed[word + 1] << (32 - shift);
      doc += ((v & mask) >>> 0) + 1;
      docs[at + i] = doc;
    }
    w += packedWords(n - 1, docBits);
  }
  const freqBits = (header >>> 6) & 31;
  const freqMin = header >>> 11;
  if (freqBits === 0) {
    for (let i = 0; i < n; i++) freqs[at + i] = freqMin;
  } else {
    const mask = (1 << freqBits) - 1;
    for (let i = 0, bit = 0; i < n; i++, bit += freqBits) {
      const word = w + (bit >>> 5);
      const shift = bit & 31;
      let v = packed[word] >>> shift;
      if (shift + freqBits > 32) v |= packed[word + 1] << (32 - shift);
      freqs[at + i] = freqMin + (v & mask);
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
