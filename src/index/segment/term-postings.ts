/**
 * One term's postings as flat arrays, whatever the segment's encoding — packed text postings
 * (format 3), packed feature postings (format 2 on) or the flat sections of older segments. For
 * the readers that want a whole term at once (merges, doc sets, statistics, term vectors); the
 * scoring loops decode block by block instead (TermScorer).
 */
import { BLOCK_SIZE } from './format.js';
import { decodeFeatureBlock, decodeFeatureTerm } from './feature-postings.js';
import { decodePostingsBlock } from './packed-postings.js';
import type { SegmentField } from './segment-reader.js';

export interface TermPostings {
  /** Doc ids ascending; index 0 is the term's first posting. */
  readonly docs: Uint32Array;
  /** Freqs (encoded weights for feature fields); null when the field has none. */
  readonly freqs: Uint32Array | null;
}

const scratchDocs = new Int32Array(BLOCK_SIZE);
const scratchFreqs = new Int32Array(BLOCK_SIZE);

/**
 * Term `ord`'s postings: fresh arrays when they had to be decoded, views of the segment's sections
 * otherwise. Either way the caller may keep them while the segment lives, and must not write them.
 */
export function readTermPostings(field: SegmentField, ord: number): TermPostings {
  if (field.features !== null) return decodeFeatureTerm(field, ord);
  const start = field.postingsStart![ord];
  const end = field.postingsStart![ord + 1];
  const packed = field.postings;
  if (packed === null) return { docs: field.docs!.subarray(start, end), freqs: field.freqs === null ? null : field.freqs.subarray(start, end) };
  const n = end - start;
  const docs = new Uint32Array(n);
  const freqs = field.info.hasFreqs ? new Uint32Array(n) : null;
  for (let b = field.blockStart![ord], at = 0; at < n; b++, at += BLOCK_SIZE) {
    const count = Math.min(BLOCK_SIZE, n - at);
    decodePostingsBlock(packed, b, count, field.blockLastDoc![b], scratchDocs, scratchFreqs);
    docs.set(scratchDocs.subarray(0, count), at);
    if (freqs !== null) freqs.set(scratchFreqs.subarray(0, count), at);
  }
  return { docs, freqs };
}

/**
 * Calls `visit` with each block of term `ord`'s postings, decoded into a scratch reused across
 * calls (valid only during the call): docs[0, n) ascending, and their freqs (null when the field
 * has none). For the scans that want no term-sized allocation: doc sets and disjunction counts,
 * and merges (which otherwise allocated two arrays per term and source segment).
 */
export function forEachTermBlock(field: SegmentField, ord: number, visit: (docs: Int32Array, n: number, freqs: Int32Array | null) => void): void {
  const start = field.postingsStart![ord];
  const end = field.postingsStart![ord + 1];
  const docs = scratchDocs;
  const freqs = field.info.hasFreqs ? scratchFreqs : null;
  for (let b = field.blockStart![ord], p = start; p < end; b++, p += BLOCK_SIZE) {
    const n = Math.min(BLOCK_SIZE, end - p);
    if (field.postings !== null) decodePostingsBlock(field.postings, b, n, field.blockLastDoc![b], docs, scratchFreqs);
    else if (field.features !== null) decodeFeatureBlock(field.features, b, n, docs, scratchFreqs, 0);
    else {
      for (let k = 0; k < n; k++) docs[k] = field.docs![p + k];
      if (freqs !== null) for (let k = 0; k < n; k++) freqs[k] = field.freqs![p + k];
    }
    visit(docs, n, freqs);
  }
}
