/**
 * Compressed postings of text, keyword and completion fields (segment formats 3 and 4): per block
 * of BLOCK_SIZE postings, the doc id gaps and the freqs in 0, 1, 2 or 4 bytes each, the widths the
 * fewest the block needs. Short documents take ~1–2 bytes per posting this way instead of the 8 of
 * a u32 doc + u32 freq. Whole bytes rather than Lucene's bit packing, for the reason
 * feature-postings.ts gives: in JS a bit-unpack costs several times a byte read per posting.
 *
 * A block starts at byte PostingBlockOffsets[b] of the field's PostingPacked section:
 *
 *   [widths u8: gap width code in bits 0–1, freq width code in bits 2–3, SPARSE_FREQS bit 4,
 *               SKIPS bit 5, WIDE_SKIPS bit 6]
 *   with SKIPS: [(⌈n / SUB_BLOCK⌉ − 1) × (lastDoc − last doc of sub-block j), 2 bytes each, 4 with WIDE_SKIPS]
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
 * Skip entries (format 4; format 3 blocks have none and read as one sub-block): the last doc of
 * each SUB_BLOCK postings but the block's last, as its distance below the block's last doc. A
 * skipping `advance` (and a scorer positioned at a block's start) decodes only the sub-block that
 * holds its target, from that sub-block's end down — ≤ 32 gaps instead of up to 127 — for ~0.05
 * bytes a posting. A consecutive block (no gaps) needs none: its docs are computed.
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

/** Postings per sub-block: the granularity of skip entries, and of what a skipping `advance` decodes. */
export const SUB_BLOCK = 32;
const SUB_SHIFT = 5;
const BYTES = [0, 1, 2, 4];
/** Widths-byte flag: freqs as a bitmap of the postings with freq > 1 plus their freq − 2 in a byte each. */
const SPARSE_FREQS = 16;
/** Widths-byte flag: skip entries follow the widths byte (2 bytes each, or 4 with WIDE_SKIPS). */
const SKIPS = 32;
const WIDE_SKIPS = 64;
const codeFor = (max: number) => (max === 0 ? 0 : max < 0x100 ? 1 : max < 0x10000 ? 2 : 3);
/** Skip entries of a block of n postings that has them: one per sub-block but the last. */
const skipCount = (n: number) => ((n + SUB_BLOCK - 1) >>> SUB_SHIFT) - 1;

/**
 * Encodes a field's flat postings (docs ascending per term, freqs ≥ 1 or null) into blocks;
 * `blockStart` gives each term's first block (postings [postingsStart[t], …) in blocks of BLOCK_SIZE).
 */
export function encodePostings(postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array | null): PackedPostings {
  const blocks = blockStart[termCount];
  const blockOffsets = new Uint32Array(blocks + 1);
  // First pass: widths and sizes, so the section is allocated once at its final size.
  const widths = new Uint8Array(blocks);
  const bytes = layoutBlocks(postingsStart, termCount, blockStart, docs, freqs, widths, blockOffsets);
  blockOffsets[blocks] = bytes;
  const out = new Uint8Array(bytes);
  writeBlocks(out, postingsStart, termCount, blockStart, docs, freqs, widths, blockOffsets);
  return { blockOffsets, bytes: out };
}

// encodePostings' two passes are functions of their own: a build runs each once, so a fresh worker
// compiles them on the fly (OSR); in one function the first pass's compile deoptimized in the second
// pass, which had no type feedback yet, and both were compiled again (issue 19).

/** Each block's width and offset; returns the section's size in bytes. */
function layoutBlocks(
  postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array | null, widths: Uint8Array, blockOffsets: Uint32Array,
): number {
  let bytes = 0;
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) {
      const layout = layoutBlock(docs, freqs, p, Math.min(p + BLOCK_SIZE, end));
      widths[b] = layout & 0xff;
      blockOffsets[b] = bytes;
      bytes += layout >>> 8;
    }
  }
  return bytes;
}

function writeBlocks(
  out: Uint8Array, postingsStart: Uint32Array, termCount: number, blockStart: Uint32Array, docs: Uint32Array, freqs: Uint32Array | null, widths: Uint8Array, blockOffsets: Uint32Array,
): void {
  for (let t = 0; t < termCount; t++) {
    const end = postingsStart[t + 1];
    for (let b = blockStart[t], p = postingsStart[t]; p < end; b++, p += BLOCK_SIZE) writeBlock(out, blockOffsets[b], widths[b], docs, freqs, p, Math.min(p + BLOCK_SIZE, end));
  }
}

/**
 * Encodes postings term by term into a section written as its bytes come (a merge streams a field's
 * postings this way instead of holding the whole field's docs and freqs as u32 arrays, issue 22).
 * The bytes and offsets are the ones encodePostings gives; blocks are gathered into chunks of
 * CHUNK_BYTES before they are handed to `out`.
 */
export class PackedPostingsAppender {
  /** Bytes of the section so far (the next block's offset). */
  bytes = 0;
  private chunk = new Uint8Array(CHUNK_BYTES);
  private used = 0;

  constructor(private readonly out: (bytes: Uint8Array) => void) {}

  /** Postings docs/freqs[start, end) of one term as blocks firstBlock …, their offsets into `blockOffsets`. */
  addTerm(blockOffsets: Uint32Array, firstBlock: number, docs: Uint32Array, freqs: Uint32Array | null, start: number, end: number): void {
    for (let b = firstBlock, p = start; p < end; b++, p += BLOCK_SIZE) {
      const last = Math.min(p + BLOCK_SIZE, end);
      const layout = layoutBlock(docs, freqs, p, last);
      const size = layout >>> 8;
      if (this.used + size > this.chunk.length) {
        this.flush();
        if (size > this.chunk.length) this.chunk = new Uint8Array(size);
      }
      // writeBlock ORs the sparse-freq bitmap into place.
      this.chunk.fill(0, this.used, this.used + size);
      writeBlock(this.chunk, this.used, layout & 0xff, docs, freqs, p, last);
      blockOffsets[b] = this.bytes;
      this.bytes += size;
      this.used += size;
    }
  }

  /** Hands the last chunk to `out`. */
  flush(): void {
    if (this.used > 0) this.out(this.chunk.subarray(0, this.used));
    this.used = 0;
  }
}

const CHUNK_BYTES = 1 << 20;

/** A block's widths byte (bits 0–7) and its encoded size in bytes (above them). */
function layoutBlock(docs: Uint32Array, freqs: Uint32Array | null, p: number, last: number): number {
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
  const skips = gapCode === 0 ? 0 : skipCount(n);
  // The first entry is the largest distance.
  const wide = skips > 0 && docs[last - 1] - docs[p + SUB_BLOCK - 1] >= 0x10000;
  const widths = gapCode | (freqCode << 2) | (sparse ? SPARSE_FREQS : 0) | (skips > 0 ? SKIPS : 0) | (wide ? WIDE_SKIPS : 0);
  const size = 1 + skips * (wide ? 4 : 2) + (n - 1) * BYTES[gapCode] + (sparse ? ((n + 7) >>> 3) + above1 : n * BYTES[freqCode]);
  return size * 256 + widths;
}

/** Writes the block of postings [p, last) with widths byte `w` at out[o …] (zeroed: sparse freqs OR bits in). */
function writeBlock(out: Uint8Array, o: number, w: number, docs: Uint32Array, freqs: Uint32Array | null, p: number, last: number): void {
  const gapWidth = BYTES[w & 3];
  const freqWidth = BYTES[(w >>> 2) & 3];
  out[o++] = w;
  if ((w & SKIPS) !== 0) {
    const skipWidth = (w & WIDE_SKIPS) !== 0 ? 4 : 2;
    for (let j = 0, skips = skipCount(last - p); j < skips; j++, o += skipWidth) put(out, o, skipWidth, docs[last - 1] - docs[p + (j << SUB_SHIFT) + SUB_BLOCK - 1]);
  }
  if (gapWidth > 0) for (let i = p + 1; i < last; i++, o += gapWidth) put(out, o, gapWidth, docs[i] - docs[i - 1] - 1);
  if ((w & SPARSE_FREQS) !== 0) {
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

function put(out: Uint8Array, o: number, width: number, v: number): void {
  out[o] = v & 0xff;
  if (width === 1) return;
  out[o + 1] = (v >>> 8) & 0xff;
  if (width === 2) return;
  out[o + 2] = (v >>> 16) & 0xff;
  out[o + 3] = v >>> 24;
}

/**
 * A 4-byte value as int32: every one stored is below 2^31 (doc id gaps, skip distances, freqs − 1),
 * and int32 keeps the readers' arithmetic in small integers where a uint32 read would be a double.
 */
const i32At = (u8: Uint8Array, o: number) => u8[o] | (u8[o + 1] << 8) | (u8[o + 2] << 16) | (u8[o + 3] << 24);

/** Byte offset of the gaps of the block of `n` postings starting at byte `start`. */
function gapsAt(u8: Uint8Array, start: number, n: number): number {
  const w = u8[start];
  return (w & SKIPS) === 0 ? start + 1 : start + 1 + skipCount(n) * ((w & WIDE_SKIPS) !== 0 ? 4 : 2);
}

/**
 * Decodes the docs of block `b` (of `n` postings, the last of them `lastDoc`) into docs[0, n). One
 * loop per width, each reading bytes in place.
 */
export function decodeBlockDocs(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array): void {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const o = gapsAt(u8, start, n);
  const gapCode = u8[start] & 3;
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
    for (let k = n - 2, g = o + 4 * k; k >= 0; k--, g -= 4) docs[k] = doc -= i32At(u8, g) + 1;
  }
}

/**
 * Union counting (a disjunction's docs as bits): sets bit `doc − offset` in `bits` for the docs of
 * block `b` (of `n` postings, the last of them `lastDoc`) from posting `from` on, decoding the gaps
 * straight into the bits; the docs whose bit was already set are written to dups[0 …] (as doc −
 * offset) and their postings in the block to dupAt[0 …]. Returns how many. `dups` and `dupAt` must
 * hold n − from. One loop per gap width.
 */
export function markBlockDocs(
  pp: PackedPostings, b: number, n: number, lastDoc: number, from: number, bits: Uint32Array, offset: number, dups: Int32Array, dupAt: Int32Array,
): number {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const o = gapsAt(u8, start, n);
  const gapCode = u8[start] & 3;
  let l = lastDoc - offset;
  let d = 0;
  let w = bits[l >>> 5];
  if ((w & (1 << (l & 31))) === 0) bits[l >>> 5] = w | (1 << (l & 31));
  else {
    dupAt[d] = n - 1;
    dups[d++] = l;
  }
  // Gaps k = 0 … n − 2 are stored forwards: the docs come from the last one backwards.
  if (gapCode === 1) {
    for (let k = n - 2; k >= from; k--) {
      l -= u8[o + k] + 1;
      w = bits[l >>> 5];
      if ((w & (1 << (l & 31))) === 0) bits[l >>> 5] = w | (1 << (l & 31));
      else {
        dupAt[d] = k;
        dups[d++] = l;
      }
    }
  } else if (gapCode === 2) {
    for (let k = n - 2, g = o + 2 * k; k >= from; k--, g -= 2) {
      l -= (u8[g] | (u8[g + 1] << 8)) + 1;
      w = bits[l >>> 5];
      if ((w & (1 << (l & 31))) === 0) bits[l >>> 5] = w | (1 << (l & 31));
      else {
        dupAt[d] = k;
        dups[d++] = l;
      }
    }
  } else {
    for (let k = n - 2, g = o + 4 * k; k >= from; k--, g -= 4) {
      l -= gapCode === 0 ? 1 : i32At(u8, g) + 1;
      w = bits[l >>> 5];
      if ((w & (1 << (l & 31))) === 0) bits[l >>> 5] = w | (1 << (l & 31));
      else {
        dupAt[d] = k;
        dups[d++] = l;
      }
    }
  }
  return d;
}

/**
 * The union's pass 2 (union-window.ts): of the docs of block `b` (of `n` postings, the last of them
 * `lastDoc`) at postings [from, to), those whose bit `doc − offset` is set in `bits` go to
 * hits[0 …] (as doc − offset, in descending order) and their postings in the block to hitAt[0 …];
 * returns how many. The gaps are tested in place, as markBlockDocs marks them: a scan that decoded
 * the block first cost more than the test (`engine-i19d`). `hits` and `hitAt` must hold to − from.
 * One loop per gap width.
 */
export function findBlockDocs(
  pp: PackedPostings, b: number, n: number, lastDoc: number, from: number, to: number, bits: Uint32Array, offset: number, hits: Int32Array, hitAt: Int32Array,
): number {
  if (to <= from) return 0;
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const o = gapsAt(u8, start, n);
  const gapCode = u8[start] & 3;
  let l = lastDoc - offset;
  // Gaps k = 0 … n − 2 are stored forwards: the docs come from the last one backwards, those at
  // postings ≥ to (past the window) only decoded.
  let k = n - 1;
  while (k >= to) l -= gapBelow(u8, o, gapCode, k--);
  let d = 0;
  if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
    hitAt[d] = k;
    hits[d++] = l;
  }
  if (gapCode === 1) {
    for (k--; k >= from; k--) {
      l -= u8[o + k] + 1;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
        hitAt[d] = k;
        hits[d++] = l;
      }
    }
  } else if (gapCode === 2) {
    for (k--; k >= from; k--) {
      l -= (u8[o + 2 * k] | (u8[o + 2 * k + 1] << 8)) + 1;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
        hitAt[d] = k;
        hits[d++] = l;
      }
    }
  } else {
    for (k--; k >= from; k--) {
      l -= gapCode === 0 ? 1 : i32At(u8, o + 4 * k) + 1;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
        hitAt[d] = k;
        hits[d++] = l;
      }
    }
  }
  return d;
}

/** Doc of posting k minus doc of posting k − 1 (k ≥ 1), the gaps at byte `o` stored with `gapCode`. */
function gapBelow(u8: Uint8Array, o: number, gapCode: number, k: number): number {
  if (gapCode === 0) return 1;
  if (gapCode === 1) return u8[o + k - 1] + 1;
  if (gapCode === 2) return (u8[o + 2 * (k - 1)] | (u8[o + 2 * (k - 1) + 1] << 8)) + 1;
  return i32At(u8, o + 4 * (k - 1)) + 1;
}

/**
 * Docs of block `b` from posting `hi` (whose doc is `doc`) down to posting `lo`, stopping before the
 * first doc below `target`: fills docs[k, hi] and returns k. One loop per gap width.
 */
function decodeDocsDown(u8: Uint8Array, o: number, gapCode: number, docs: Int32Array, hi: number, doc: number, lo: number, target: number): number {
  docs[hi] = doc;
  let k = hi;
  if (gapCode === 1) {
    for (let g = o + k - 1; k > lo; k--, g--) {
      const prev = doc - u8[g] - 1;
      if (prev < target) break;
      docs[k - 1] = doc = prev;
    }
  } else if (gapCode === 0) {
    for (; k > lo && doc - 1 >= target; k--) docs[k - 1] = --doc;
  } else if (gapCode === 2) {
    for (let g = o + 2 * (k - 1); k > lo; k--, g -= 2) {
      const prev = doc - (u8[g] | (u8[g + 1] << 8)) - 1;
      if (prev < target) break;
      docs[k - 1] = doc = prev;
    }
  } else {
    for (let g = o + 4 * (k - 1); k > lo; k--, g -= 4) {
      const prev = doc - i32At(u8, g) - 1;
      if (prev < target) break;
      docs[k - 1] = doc = prev;
    }
  }
  return k;
}

/** Decodes docs[from, n) of block `b` (of `n` postings, the last of them `lastDoc`). */
export function decodeBlockDocsTail(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array, from: number): void {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  decodeDocsDown(u8, gapsAt(u8, start, n), u8[start] & 3, docs, n - 1, lastDoc, from, -1);
}

/**
 * For `advance`: decodes the sub-block of block `b` (of `n` postings, the last of them `lastDoc`,
 * which must be ≥ target) that holds the first doc ≥ `target` at a posting ≥ `from`, from that
 * sub-block's end down to that doc. Returns `(to << 8) | k`: docs[k, to) are decoded and docs[k]
 * is the doc sought. Format 3 blocks (no skip entries) decode from the block's end.
 */
export function decodeSubBlockFor(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array, from: number, target: number): number {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const w = u8[start];
  const gapCode = w & 3;
  let hi = n - 1;
  let hiDoc = lastDoc;
  let lo = from;
  if ((w & SKIPS) !== 0) {
    const skips = skipCount(n);
    const wide = (w & WIDE_SKIPS) !== 0;
    for (let j = from >>> SUB_SHIFT; j < skips; j++) {
      const below = wide ? i32At(u8, start + 1 + 4 * j) : u8[start + 1 + 2 * j] | (u8[start + 2 + 2 * j] << 8);
      if (lastDoc - below >= target) {
        hi = (j << SUB_SHIFT) + SUB_BLOCK - 1;
        hiDoc = lastDoc - below;
        break;
      }
    }
    lo = Math.max(from, hi & -SUB_BLOCK);
  } else if (gapCode === 0) {
    // Consecutive docs: the target's posting is known; its sub-block's end is where decoding starts.
    const at = Math.max(from, target - (lastDoc - n + 1));
    hi = Math.min(n - 1, at | (SUB_BLOCK - 1));
    hiDoc = lastDoc - (n - 1 - hi);
    lo = at;
  }
  const k = decodeDocsDown(u8, gapsAt(u8, start, n), gapCode, docs, hi, hiDoc, lo, target);
  return ((hi + 1) << 8) | k;
}

/** Decodes the freqs of block `b` (of `n` postings) into freqs[0, n); 1 each for a field without freqs. */
export function decodeBlockFreqs(pp: PackedPostings, b: number, n: number, freqs: Int32Array): void {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const w = u8[start];
  const freqCode = (w >>> 2) & 3;
  let o = gapsAt(u8, start, n) + (n - 1) * BYTES[w & 3];
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
    for (let k = 0; k < n; k++, o += 4) freqs[k] = i32At(u8, o) + 1;
  }
}

/** Set bits per byte value. */
const POPCOUNT = Uint8Array.from({ length: 256 }, (_, v) => {
  let c = 0;
  for (let x = v; x !== 0; x &= x - 1) c++;
  return c;
});

/**
 * The freq of posting k of block `b` (of `n` postings), read in place: for scoring the few postings
 * a probe or a non-essential scan matches without decoding the block's freqs.
 */
export function freqAt(pp: PackedPostings, b: number, n: number, k: number): number {
  const u8 = pp.bytes;
  const start = pp.blockOffsets[b];
  const w = u8[start];
  const o = gapsAt(u8, start, n) + (n - 1) * BYTES[w & 3];
  if ((w & SPARSE_FREQS) !== 0) {
    const byte = u8[o + (k >>> 3)];
    const bit = k & 7;
    if (((byte >>> bit) & 1) === 0) return 1;
    // The exception's rank among the set bits before it.
    let rank = POPCOUNT[byte & ((1 << bit) - 1)];
    for (let i = o, last = o + (k >>> 3); i < last; i++) rank += POPCOUNT[u8[i]];
    return u8[o + ((n + 7) >>> 3) + rank] + 2;
  }
  switch ((w >>> 2) & 3) {
    case 0: return 1;
    case 1: return u8[o + k] + 1;
    case 2: return (u8[o + 2 * k] | (u8[o + 2 * k + 1] << 8)) + 1;
    default: return i32At(u8, o + 4 * k) + 1;
  }
}

/** Decodes block `b` (of `n` postings, the last of them `lastDoc`) into docs[0, n) and freqs[0, n). */
export function decodePostingsBlock(pp: PackedPostings, b: number, n: number, lastDoc: number, docs: Int32Array, freqs: Int32Array): void {
  decodeBlockDocs(pp, b, n, lastDoc, docs);
  decodeBlockFreqs(pp, b, n, freqs);
}
