/**
 * Compressed postings of text, keyword and completion fields (segment format 3): per block of
 * BLOCK_SIZE postings, the doc id gaps and the freqs in 0, 1, 2 or 4 bytes each, the widths the
 * fewest the block needs. Short documents take ~1–2 bytes per posting this way instead of the 8 of
 * a u32 doc + u32 freq. Whole bytes rather than Lucene's bit packing, for the reason
 * feature-postings.ts gives: in JS a bit-unpack costs several times a byte read per posting.
 *
 * A block starts at byte PostingBlockOffsets[b] of the field's PostingPacked section:
 *
 *   [widths u8: gap width code in bits 0–1, freq width code in bits 2–3, SPARSE_FREQS bit 4]
 *   [(n − 1) × (docs[k + 1] − docs[k] − 1), k = 0 … n − 2, gap width each]
 *   [n × (freq − 1), freq width each]
 *     or with SPARSE_FREQS: [bitmap of the postings whose freq > 1, ⌈n / 8⌉ bytes] [their freq − 2, a byte each]
 *
 * Width codes 0, 1, 2, 3 mean 0, 1, 2, 4 bytes (little-endian, unaligned): a block of consecutive
 * docs stores no gaps, a block whose freqs are all 1 (and every block of a field without freqs)
 * no freqs. Most postings of short text have freq 1, so a block whose freqs are mostly 1 (and at
 * most 257) stores them as a bitmap of the exceptions when that is smaller: ~0.2 bytes a posting
 * instead of 1. The block's last doc is already in BlockLastDoc (for skipping), so the docs are rebuilt
 * backwards from it and a term of one posting costs a single byte here.
 *
 * Readers decode a block into a small reused Int32Array (TermScorer), so the scoring loops read one
 * typed-array kind whatever the widths; segments of formats 1 and 2 keep flat PostingDocs /
 * PostingFreqs, which the same readers copy block by block.
 */
import { BLOCK_SIZE } from './format.js';

export interface PackedPostings {
  /** Byte offset in `bytes` of each block, blocks + 1 entries. */
  readonly blockOffsets: Uint32Array;
  readonly bytes: Uint8Array;
}

const BYTES = [0, 1, 2, 4];
/** Widths-byte flag: freqs as a bitmap of the postings with freq > 1 plus their freq − 2 in a byte each. */
const SPARSE_FREQS = 16;
const codeFor = (max: number) => (max === 0 ? 0 : max < 0x100 ? 1 : max < 0x10000 ? 2 : 3);

/**
 * Encodes a field's flat postings (docs ascending per term, freqs ≥ 1 or null) into blocks;
 * `blockStart` gives each term's first block (postings [postingsStart[t], …) in blocks of BLOCK_SIZE).
 */
export function encodePostings(postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array | null): PackedPostings {
  const blocks = blockStart[termCount];
  const blockOffsets = new Uint32Array(blocks + 1);
  // First pass: widths and sizes, so the section is allocated once at its final size.
  const widths = new Uint8Array(blocks);
  let bytes = 0;
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const last = Math.min(p + BLOCK_SIZE, end);
      let maxGap = 0;
      let maxFreq = 0;
      let above1 = 0;
      for (let i = p + 1; i < last; i++) {
        const gap = docs[i] - docs[i - 1] - 1;
        if (gap > maxGap) maxGap = gap;
      }
      if (freqs !== null) {
        for (let i = p; i < last; i++) {
          if (freqs[i] - 1 > maxFreq) maxFreq = freqs[i] - 1;
          if (freqs[i] > 1) above1++;
        }
      }
      const n = last - p;
      const gapCode = codeFor(maxGap);
      const freqCode = codeFor(maxFreq);
      const sparse = maxFreq > 0 && maxFreq <= 256 && ((n + 7) >>> 3) + above1 < n * BYTES[freqCode];
      widths[b] = gapCode | (freqCode << 2) | (sparse ? SPARSE_FREQS : 0);
      blockOffsets[b] = bytes;
      bytes += 1 + (n - 1) * BYTES[gapCode] + (sparse ? ((n + 7) >>> 3) + above1 : n * BYTES[freqCode]);
    }
  }
  blockOffsets[blocks] = bytes;
  const out = new Uint8Array(bytes);
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const last = Math.min(p + BLOCK_SIZE, end);
      const gapWidth = BYTES[widths[b] & 3];
      const freqWidth = BYTES[(widths[b] >>> 2) & 3];
      let o = blockOffsets[b];
      out[o++] = widths[b];
      if (gapWidth > 0) for (let i = p + 1; i < last; i++, o += gapWidth) put(out, o, gapWidth, docs[i] - docs[i - 1] - 1);
      if ((widths[b] & SPARSE_FREQS) !== 0) {
        let v = o + ((last - p + 7) >>> 3);
        for (let i = p; i < last; i++) {
          if (freqs![i] === 1) continue;
          out[o + ((i - p) >>> 3)] |= 1 << ((i - p) & 7);
          out[v++] = freqs![i] - 2;
        }
      } else if (freqWidth > 0) {
        for (let i = p; i < last; i++, o += freqWidth) put(out, o, freqWidth, freqs![i] - 1);
      }
    }
  }
  return { blockOffsets, bytes: out };
}

function put(out: Uint8Array, o: number, width: number, v: number): void {
  out[o] = v & 0xff;
  if (width === 1) return;
  out[o + 1] = (v >>> 8) & 0xff;
  if (width === 2) return;
  out[o + 2] = (v >>> 16) & 0xff;
  out[o + 3] = v >>> 24;
}

/**
 * Decodes the docs of block `b` (of `n` postings, the last of them `lastDoc`) into docs[0, n). One
 * loop per width, each reading bytes in place.
 */
export function decodeBlockDocs(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array): void {
  const u8 = pp.bytes;
  const o = pp.blockOffsets[b] + 1;
  const gapCode = u8[o - 1] & 3;
  // Gaps k = 0 … n − 2 are stored forwards; the docs are rebuilt from the last one backwards.
  let doc = lastDoc;
  docs[n - 1] = doc;
  if (gapCode === 1) {
    for (let k = n - 2, g = o + k; k >= 0; k--, g--) docs[k] = doc -= u8[g] + 1;
  } else if (gapCode === 0) {
    for (let k = n - 2; k >= 0; k--) docs[k] = --doc;
  } else if (gapCode === 2) {
    for (let k = n - 2, g = o + 2 * k; k >= 0; k--, g -= 2) docs[k] = doc -= (u8[g] | (u8[g + 1] << 8)) + 1;
  } else {
    for (let k = n - 2, g = o + 4 * k; k >= 0; k--, g -= 4) docs[k] = doc -= ((u8[g] | (u8[g + 1] << 8) | (u8[g + 2] << 16) | (u8[g + 3] << 24)) >>> 0) + 1;
  }
}

/**
 * The docs of block `b` from its end down to the first doc ≥ `target` (the block's last doc,
 * `lastDoc`, must be ≥ target): fills docs[k, n) and returns k. Skipping with `advance` needs no
 * more — on average half a block — and the docs it leaves are the ones a forward iterator reads next.
 */
export function decodeBlockDocsFrom(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array, target: number): number {
  const u8 = pp.bytes;
  const o = pp.blockOffsets[b] + 1;
  const gapCode = u8[o - 1] & 3;
  let doc = lastDoc;
  docs[n - 1] = doc;
  let k = n - 1;
  if (gapCode === 1) {
    for (let g = o + k - 1; k > 0; k--, g--) {
      const prev = doc - u8[g] - 1;
      if (prev < target) break;
      docs[k - 1] = doc = prev;
    }
    return k;
  }
  if (gapCode === 0) {
    for (; k > 0 && doc - 1 >= target; k--) docs[k - 1] = --doc;
    return k;
  }
  decodeBlockDocs(pp, b, n, lastDoc, docs);
  k = 0;
  while (docs[k] < target) k++;
  return k;
}

/** Decodes the freqs of block `b` (of `n` postings) into freqs[0, n); 1 each for a field without freqs. */
export function decodeBlockFreqs(pp: PackedPostings, b: number, n: number, freqs: Int32Array): void {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const w = u8[start];
  const freqCode = (w >>> 2) & 3;
  let o = start + 1 + (n - 1) * BYTES[w & 3];
  if ((w & SPARSE_FREQS) !== 0) {
    freqs.fill(1, 0, n);
    const bitmapBytes = (n + 7) >>> 3;
    let v = o + bitmapBytes;
    for (let i = 0; i < bitmapBytes; i++) {
      let bits = u8[o + i];
      while (bits !== 0) {
        const low = bits & -bits;
        freqs[(i << 3) + 31 - Math.clz32(low)] = u8[v++] + 2;
        bits ^= low;
      }
    }
  } else if (freqCode === 0) {
    freqs.fill(1, 0, n);
  } else if (freqCode === 1) {
    for (let k = 0; k < n; k++, o++) freqs[k] = u8[o] + 1;
  } else if (freqCode === 2) {
    for (let k = 0; k < n; k++, o += 2) freqs[k] = (u8[o] | (u8[o + 1] << 8)) + 1;
  } else {
    for (let k = 0; k < n; k++, o += 4) freqs[k] = ((u8[o] | (u8[o + 1] << 8) | (u8[o + 2] << 16) | (u8[o + 3] << 24)) >>> 0) + 1;
  }
}

/** Decodes block `b` (of `n` postings, the last of them `lastDoc`) into docs[0, n) and freqs[0, n). */
export function decodePostingsBlock(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array, freqs: Int32Array): void {
  decodeBlockDocs(pp, b, n, lastDoc, docs);
  decodeBlockFreqs(pp, b, n, freqs);
}
