/**
 * Block-packed text / keyword postings and narrow positions (segment format 3,
 * index/segment/packed-postings.ts): every doc id and freq decodes exactly as written for gaps and
 * freqs at each width boundary (255/256, 65535/65536, up to 2^31); the term scorer's skipping over
 * packed blocks finds what a scan of the flat postings finds; positions take the narrowest type
 * that holds them (u8, u16, u32 past 65535); segments of format 2 (flat postings, u32 positions)
 * still open and answer every query exactly as their format 3 rewrite, and merge with format 3
 * segments (with deletes) into packed postings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_SIZE, FORMAT_VERSION, Section, mergeSegments, openSegment, readId, readTermPostings, termAt, termOrd, writeSegment, type Segment,
} from '../../src/index/index.js';
import {
  SUB_BLOCK, decodeBlockDocsTail, decodePostingsBlock, decodeSubBlockFor, encodePostings, findBlockDocs, freqAt, markBlockDocs, type PackedPostings,
} from '../../src/index/segment/packed-postings.js';
import { SectionWriter } from '../../src/index/segment/sab-layout.js';
import { DIRECTORY_ENTRY_BYTES, HEADER_BYTES } from '../../src/index/segment/format.js';
import { encodeStrings } from '../../src/index/segment/bytes.js';
import { encodeStoredFields } from '../../src/index/segment/stored-fields.js';
import type { FieldInput } from '../../src/index/segment/segment-input.js';
import { bm25Score, normInverseCache } from '../../src/search/bm25.js';
import { TermScorer } from '../../src/search/exec/term-scorer.js';
import { NO_MORE_DOCS } from '../../src/search/exec/scorer.js';
import { InProcessIndex } from '../support/engine-harness.js';

/** Gaps and freqs on both sides of each width boundary (stored minus 1: 256 is the last 1-byte gap). */
const boundaryGap = fc.constantFrom(1, 2, 255, 256, 257, 65535, 65536, 65537, 1 << 20, 2 ** 31);
const boundaryFreq = fc.constantFrom(1, 2, 255, 256, 257, 65535, 65536, 65537, 1 << 24);
const termPostings = fc.array(
  fc.record({
    gaps: fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 300 }), boundaryGap), { minLength: 1, maxLength: 300 }),
    freqs: fc.oneof(
      fc.array(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 300 }), boundaryFreq), { minLength: 1, maxLength: 300 }),
      // mostly 1 (short text): the sparse bitmap form, with exceptions up to its limit of 257 and past it
      fc.array(fc.oneof({ weight: 12, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constantFrom(2, 3, 256, 257, 258) }), { minLength: 1, maxLength: 300 }),
    ),
  }),
  { minLength: 1, maxLength: 5 },
);

function flatten(terms: Array<{ gaps: number[]; freqs: number[] }>) {
  const docs: number[] = [];
  const freqs: number[] = [];
  const start = [0];
  for (const t of terms) {
    let doc = -1;
    t.gaps.forEach((g, i) => {
      if (doc + g > 2 ** 31 - 2) return; // doc ids are below 2^31 (Int32Array blocks)
      doc += g;
      docs.push(doc);
      freqs.push(t.freqs[i % t.freqs.length]);
    });
    start.push(docs.length);
  }
  const termCount = terms.length;
  const blockStart = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) blockStart[t + 1] = blockStart[t] + Math.ceil((start[t + 1] - start[t]) / BLOCK_SIZE);
  return { docs, freqs, start, termCount, blockStart };
}

interface BitsetBlock {
  packed: PackedPostings;
  docs: number[];
  /** The block's first posting, its number, its postings and last doc, and the bitset's doc offset. */
  p: number;
  b: number;
  n: number;
  last: number;
  offset: number;
}

/** Encodes `terms` (no freqs) and visits every block whose docs fit a bitset of at most 128 KB from a few docs below its first. */
function forEachBitsetBlock(terms: Array<{ gaps: number[]; freqs: number[] }>, visit: (block: BitsetBlock) => void): void {
  const { docs, start, termCount, blockStart } = flatten(terms);
  const packed = encodePostings(Uint32Array.from(start), termCount, blockStart, Uint32Array.from(docs), null);
  for (let t = 0; t < termCount; t++) {
    for (let b = blockStart[t], p = start[t]; p < start[t + 1]; b++, p += BLOCK_SIZE) {
      const n = Math.min(BLOCK_SIZE, start[t + 1] - p);
      const last = docs[p + n - 1];
      const offset = docs[p] - 3;
      if (last - offset < 1 << 20) visit({ packed, docs, p, b, n, last, offset });
    }
  }
}

/** A bitset over the block's docs (less `offset`) with bit 0 and the docs of the postings `pick` chooses set. */
function bitsetOf(docs: number[], p: number, n: number, last: number, offset: number, pick: (k: number) => boolean): { bits: Uint32Array; set: Set<number> } {
  const bits = new Uint32Array(((last - offset) >>> 5) + 2);
  const set = new Set<number>([0]);
  for (let k = 0; k < n; k++) if (pick(k)) set.add(docs[p + k] - offset);
  for (const l of set) bits[l >>> 5] |= 1 << (l & 31);
  return { bits, set };
}

describe('packed postings codec', () => {
  it('decodes every doc and freq as written, reads any freq in place, and finds any target decoding one sub-block', () => {
    fc.assert(fc.property(termPostings, fc.boolean(), (terms, withFreqs) => {
      const { docs, freqs, start, termCount, blockStart } = flatten(terms);
      const packed = encodePostings(Uint32Array.from(start), termCount, blockStart, Uint32Array.from(docs), withFreqs ? Uint32Array.from(freqs) : null);
      const d = new Int32Array(BLOCK_SIZE);
      const f = new Int32Array(BLOCK_SIZE);
      for (let t = 0; t < termCount; t++) {
        for (let b = blockStart[t], p = start[t]; p < start[t + 1]; b++, p += BLOCK_SIZE) {
          const n = Math.min(BLOCK_SIZE, start[t + 1] - p);
          const last = docs[p + n - 1];
          decodePostingsBlock(packed, b, n, last, d, f);
          expect([...d.subarray(0, n)]).toEqual(docs.slice(p, p + n));
          expect([...f.subarray(0, n)]).toEqual(withFreqs ? freqs.slice(p, p + n) : new Array(n).fill(1));
          for (let k = 0; k < n; k++) expect(freqAt(packed, b, n, k)).toBe(withFreqs ? freqs[p + k] : 1);
          // advance's partial decode: the sub-block holding the first doc ≥ target at a posting ≥ from
          for (const from of [0, 1, SUB_BLOCK - 1, SUB_BLOCK, n >> 1, n - 1]) {
            if (from >= n) continue;
            for (const target of [0, docs[p], docs[p] + 1, docs[p + (n >> 1)], docs[p + n - 2] ?? last, docs[p + n - 2] + 1, last]) {
              if (target > last) continue;
              const into = new Int32Array(BLOCK_SIZE).fill(-7);
              const r = decodeSubBlockFor(packed, b, n, last, into, from, target);
              const k = r & 0xff;
              const to = r >>> 8;
              const want = Math.max(from, docs.slice(p, p + n).findIndex((d) => d >= target));
              expect(k).toBe(want);
              expect(to).toBeGreaterThan(k);
              expect(to).toBeLessThanOrEqual(n);
              // at most the rest of one sub-block (format 4 writes skip entries, or computes consecutive docs)
              expect(to - 1 >>> 5).toBe(k >>> 5);
              expect([...into.subarray(k, to)]).toEqual(docs.slice(p + k, p + to));
              const tail = new Int32Array(BLOCK_SIZE).fill(-7);
              decodeBlockDocsTail(packed, b, n, last, tail, k);
              expect([...tail.subarray(k, n)]).toEqual(docs.slice(p + k, p + n));
            }
          }
        }
      }
    }), { numRuns: 150 });
  });

  it('marks a block\'s docs from any posting in a bitset, listing the docs whose bit was already set and their postings', () => {
    fc.assert(fc.property(termPostings, fc.nat(), (terms, seed) => {
      const dups = new Int32Array(BLOCK_SIZE);
      const dupAt = new Int32Array(BLOCK_SIZE);
      forEachBitsetBlock(terms, ({ packed, docs, p, b, n, last, offset }) => {
        for (const from of [0, 1, SUB_BLOCK, n - 1]) {
          if (from >= n) continue;
          // Some docs of the block (and some others) are set already.
          const { bits, set: preset } = bitsetOf(docs, p, n, last, offset, (k) => (k * 7 + seed) % 3 === 0);
          const count = markBlockDocs(packed, b, n, last, from, bits, offset, dups, dupAt);
          const marked = docs.slice(p + from, p + n).map((d) => d - offset);
          for (let j = 0; j < count; j++) expect(docs[p + dupAt[j]] - offset).toBe(dups[j]);
          expect([...dups.subarray(0, count)].sort((x, y) => x - y)).toEqual(marked.filter((l) => preset.has(l)));
          const set: number[] = [];
          for (let l = 0; l < bits.length * 32; l++) if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) set.push(l);
          expect(set).toEqual([...new Set([...preset, ...marked])].sort((x, y) => x - y));
        }
      });
    }), { numRuns: 100 });
  });

  it('finds the docs of a block\'s postings [from, to) whose bit is set, and their postings, without decoding the block', () => {
    fc.assert(fc.property(termPostings, fc.nat(), (terms, seed) => {
      const hits = new Int32Array(BLOCK_SIZE);
      const hitAt = new Int32Array(BLOCK_SIZE);
      forEachBitsetBlock(terms, ({ packed, docs, p, b, n, last, offset }) => {
        const { bits, set } = bitsetOf(docs, p, n, last, offset, (k) => (k * 5 + seed) % 3 === 0);
        const before = bits.slice();
        for (const [from, to] of [[0, n], [1, n], [0, n - 1], [SUB_BLOCK, n], [n - 1, n], [1, SUB_BLOCK + 1], [0, 0]]) {
          if (from > to || to > n) continue;
          const count = findBlockDocs(packed, b, n, last, from, to, bits, offset, hits, hitAt);
          const want = [];
          for (let k = to - 1; k >= from; k--) if (set.has(docs[p + k] - offset)) want.push(k);
          expect([...hitAt.subarray(0, count)]).toEqual(want);
          for (let j = 0; j < count; j++) expect(hits[j]).toBe(docs[p + hitAt[j]] - offset);
          expect(bits).toEqual(before);
        }
      });
    }), { numRuns: 100 });
  });

  it('takes one byte a posting for a dense term of freq-1 postings and one byte for a single posting', () => {
    const n = 10 * BLOCK_SIZE;
    const docs = Uint32Array.from({ length: n + 1 }, (_, i) => (i < n ? i * 3 : 5_000_000));
    const freqs = new Uint32Array(n + 1).fill(1);
    const packed = encodePostings(Uint32Array.of(0, n, n + 1), 2, Uint32Array.of(0, 10, 11), docs, freqs);
    // gaps of 3 (stored as 2: one byte), no freq bytes, a widths byte and three 2-byte skip entries
    // per block; the lone posting: its widths byte only
    expect(packed.blockOffsets[10]).toBe(10 * (1 + 3 * 2 + BLOCK_SIZE - 1));
    expect(packed.bytes.byteLength - packed.blockOffsets[10]).toBe(1);
  });

  it('writes skip entries at the 2/4-byte boundary, none for consecutive docs or blocks of one sub-block', () => {
    // A block's first skip entry is its last doc minus the 32nd doc: 65535 takes 2 bytes, 65536 four.
    const blockOf = (span: number) => Uint32Array.from({ length: BLOCK_SIZE }, (_, i) => (i < SUB_BLOCK ? i : i === BLOCK_SIZE - 1 ? SUB_BLOCK - 1 + span : SUB_BLOCK - 1 + i - SUB_BLOCK + 1));
    const sizes = [65_535, 65_536].map((span) => encodePostings(Uint32Array.of(0, BLOCK_SIZE), 1, Uint32Array.of(0, 1), blockOf(span), null).bytes.byteLength);
    // widths byte, 3 entries, 127 two-byte gaps (the last gap is large)
    expect(sizes).toEqual([1 + 3 * 2 + 127 * 2, 1 + 3 * 4 + 127 * 2]);
    const consecutive = Uint32Array.from({ length: BLOCK_SIZE }, (_, i) => 1000 + i);
    expect(encodePostings(Uint32Array.of(0, BLOCK_SIZE), 1, Uint32Array.of(0, 1), consecutive, null).bytes.byteLength).toBe(1);
    const one = Uint32Array.from({ length: SUB_BLOCK }, (_, i) => i * 2);
    expect(encodePostings(Uint32Array.of(0, SUB_BLOCK), 1, Uint32Array.of(0, 1), one, null).bytes.byteLength).toBe(SUB_BLOCK);
    for (const [docs, n] of [[blockOf(65_535), BLOCK_SIZE], [blockOf(65_536), BLOCK_SIZE], [consecutive, BLOCK_SIZE], [one, SUB_BLOCK]] as const) {
      const packed = encodePostings(Uint32Array.of(0, n), 1, Uint32Array.of(0, 1), docs, null);
      const d = new Int32Array(BLOCK_SIZE);
      const r = decodeSubBlockFor(packed, 0, n, docs[n - 1], d, 0, docs[n - 1]);
      expect(r & 0xff).toBe(n - 1);
      expect(d[n - 1]).toBe(docs[n - 1]);
    }
  });

  it('stores mostly-1 freqs as a bitmap of the others', () => {
    const docs = Uint32Array.from({ length: BLOCK_SIZE }, (_, i) => i * 2);
    const freqs = Uint32Array.from({ length: BLOCK_SIZE }, (_, i) => (i % 13 === 0 ? 2 + (i % 200) : 1));
    const packed = encodePostings(Uint32Array.of(0, BLOCK_SIZE), 1, Uint32Array.of(0, 1), docs, freqs);
    const exceptions = freqs.filter((f) => f > 1).length;
    // widths byte, 3 skip entries, 127 one-byte gaps, a 16-byte bitmap and a byte per freq > 1
    expect(packed.bytes.byteLength).toBe(1 + 3 * 2 + (BLOCK_SIZE - 1) + BLOCK_SIZE / 8 + exceptions);
    const d = new Int32Array(BLOCK_SIZE);
    const f = new Int32Array(BLOCK_SIZE);
    decodePostingsBlock(packed, 0, BLOCK_SIZE, docs[BLOCK_SIZE - 1], d, f);
    expect([...f]).toEqual([...freqs]);
  });
});

/** A segment of one text field with these postings per term (terms 't0', 't1', …), positions 0 … freq − 1. */
function segmentOf(maxDoc: number, terms: Array<{ docs: number[]; freqs: number[] }>): Segment {
  const docs: number[] = [];
  const freqs: number[] = [];
  const positions: number[] = [];
  const start = [0];
  for (const t of terms) {
    t.docs.forEach((d, i) => {
      docs.push(d);
      freqs.push(t.freqs[i]);
      for (let k = 0; k < t.freqs[i]; k++) positions.push(k);
    });
    start.push(docs.length);
  }
  const norms = new Uint8Array(maxDoc).fill(20);
  const field: FieldInput = {
    name: 'text', type: 'text', structure: 'text', indexed: true, terms: encodeStrings(terms.map((_, i) => `t${i}`)), termCount: terms.length,
    postingsStart: Uint32Array.from(start), docs: Uint32Array.from(docs), freqs: Uint32Array.from(freqs), positions: Uint32Array.from(positions),
    norms, docsWithField: new Uint32Array((maxDoc + 31) >>> 5).fill(0xffffffff), docValueOffsets: null, docValueNumbers: null, docValueOrds: null,
  };
  const ids = Array.from({ length: maxDoc }, (_, i) => String(i));
  return openSegment('s', writeSegment({
    maxDoc, ids: encodeStrings(ids), seqNo: new Float64Array(maxDoc), version: new Float64Array(maxDoc).fill(1), indexOrder: Float64Array.from(ids, Number),
    sources: encodeStoredFields(maxDoc, () => new Uint8Array(0), 'default'), fields: [field],
  }));
}

/** First index of `docs` (ascending) holding a value ≥ v. */
function lowerBound(docs: number[], v: number): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

describe('term scorer over packed blocks', () => {
  it('nextDoc, advance, freq and positions agree with the flat postings, in format 4 and format 3 blocks', () => {
    const maxDoc = 300_000;
    const docsOf = (gaps: number[]) => {
      const out: number[] = [];
      let d = -1;
      for (let i = 0; d + gaps[i % gaps.length] < maxDoc; i++) out.push((d += gaps[i % gaps.length]));
      return out;
    };
    const terms = [
      docsOf([1]).slice(0, 20_000), docsOf([1, 2, 3, 255, 256, 257]).slice(0, 20_000), docsOf([65535, 65536, 65537, 7]), docsOf([40_000]), [123_456], docsOf([3, 300, 5, 70_000]),
    ].map((docs) => ({ docs, freqs: docs.map((d) => (d % 97 === 0 ? 300 : d % 13 === 0 ? 256 : 1 + (d % 3))) }));
    const segment = segmentOf(maxDoc, terms);
    const format3 = openSegment('s3', asFormat3(segment));
    expect(format3.fields.get('text')!.postings!.bytes.byteLength).toBeLessThan(segment.fields.get('text')!.postings!.bytes.byteLength);
    const cache = normInverseCache(20);
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    for (const field of [segment.fields.get('text')!, format3.fields.get('text')!]) terms.forEach((t, ord) => {
      expect(field.postings).not.toBeNull();
      expect(field.docs).toBeNull();
      // nextDoc all the way
      const s = new TermScorer(field, ord, 1, cache, new Float64Array(256).fill(NaN));
      const seen: number[] = [];
      for (let d = s.nextDoc(); d !== NO_MORE_DOCS; d = s.nextDoc()) {
        seen.push(d);
        expect(s.freq()).toBe(t.freqs[seen.length - 1]);
      }
      expect(seen).toEqual(t.docs);
      // advance to random targets, with nextDoc between
      for (let round = 0; round < 10; round++) {
        const a = new TermScorer(field, ord, 1, cache, new Float64Array(256).fill(NaN));
        let target = rand(2000);
        let prev = -1;
        for (;;) {
          const step = rand(3) === 0 && prev >= 0;
          const got = step ? a.nextDoc() : a.advance(Math.max(target, prev + 1));
          const i = step ? lowerBound(t.docs, prev) + 1 : lowerBound(t.docs, Math.max(target, prev + 1));
          if (i >= t.docs.length) {
            expect(got).toBe(NO_MORE_DOCS);
            break;
          }
          expect(got).toBe(t.docs[i]);
          // scoring a probe reads its freq in place (before freq() decodes the block's freqs)
          expect(a.score()).toBe(bm25Score(1, t.freqs[i], cache[20]));
          expect(a.freq()).toBe(t.freqs[i]);
          const [from, to] = a.positionRange();
          expect(Array.from(a.positionsArray.subarray(from, to))).toEqual(Array.from({ length: t.freqs[i] }, (_, k) => k));
          prev = got;
          target = got + 1 + rand(rand(2) === 0 ? 300 : 30_000);
        }
        // Probing again from an earlier posting (union-window.ts): positionBefore(p), then advance
        // finds the first doc ≥ target at a posting ≥ p, wherever the scorer stood.
        for (let probe = 0; probe < 20; probe++) {
          const p = rand(t.docs.length);
          a.positionBefore(field.postingsStart![ord] + p);
          const want = Math.max(p, lowerBound(t.docs, target = rand(maxDoc)));
          const got = a.advance(target);
          expect(got).toBe(want < t.docs.length ? t.docs[want] : NO_MORE_DOCS);
          if (got !== NO_MORE_DOCS) {
            expect(a.i).toBe(field.postingsStart![ord] + want);
            expect(a.score()).toBe(bm25Score(1, t.freqs[want], cache[20]));
          }
        }
      }
    });
    // freqs of 300 need u16 positions? No: positions 0 … 299 do; the section is the narrowest that holds 299.
    expect(segment.fields.get('text')!.positions).toBeInstanceOf(Uint16Array);
  });
});

/** The segment rewritten the way format 2 stored text postings: flat u32 docs and freqs, u32 positions. */
function asFormat2(segment: Segment): ArrayBuffer {
  const sab = segment.sab;
  const count = new Uint32Array(sab, 0, 4)[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  const w = new SectionWriter();
  const dropped = new Set([Section.PostingBlockOffsets, Section.PostingPacked, Section.Positions8, Section.Positions16]);
  for (let i = 0; i < count; i++) {
    const kind = dir[i * 4] as Section;
    if (dropped.has(kind)) continue;
    w.add(kind, dir[i * 4 + 1], new Uint8Array(sab, dir[i * 4 + 2], dir[i * 4 + 3]).slice());
  }
  for (const f of segment.fields.values()) {
    if (f.postings !== null) {
      const docs: number[] = [];
      const freqs: number[] = [];
      for (let t = 0; t < f.info.termCount; t++) {
        const p = readTermPostings(f, t);
        docs.push(...p.docs);
        if (p.freqs) freqs.push(...p.freqs);
      }
      w.add(Section.PostingDocs, f.ord, Uint32Array.from(docs));
      if (f.info.hasFreqs) w.add(Section.PostingFreqs, f.ord, Uint32Array.from(freqs));
    }
    if (f.positions !== null && !(f.positions instanceof Uint32Array)) w.add(Section.Positions, f.ord, Uint32Array.from(f.positions));
  }
  const out = w.finish(segment.info);
  new Uint32Array(out, 0, 4)[1] = 2;
  const copy = new ArrayBuffer(out.byteLength);
  new Uint8Array(copy).set(new Uint8Array(out));
  return copy;
}

/** A format 4 packed block rewritten as format 3 wrote it: no skip entries (widths bits 5–6 clear). */
function withoutSkips(pp: PackedPostings, blockSizes: number[]): PackedPostings {
  const chunks: Uint8Array[] = [];
  const blockOffsets = new Uint32Array(blockSizes.length + 1);
  let at = 0;
  blockSizes.forEach((n, b) => {
    const block = pp.bytes.subarray(pp.blockOffsets[b], pp.blockOffsets[b + 1]);
    const w = block[0];
    const skipBytes = (w & 32) === 0 ? 0 : (Math.ceil(n / SUB_BLOCK) - 1) * ((w & 64) !== 0 ? 4 : 2);
    const out = new Uint8Array(block.length - skipBytes);
    out[0] = w & 31;
    out.set(block.subarray(1 + skipBytes), 1);
    chunks.push(out);
    blockOffsets[b] = at;
    at += out.length;
  });
  blockOffsets[blockSizes.length] = at;
  const bytes = new Uint8Array(at);
  chunks.forEach((c, b) => bytes.set(c, blockOffsets[b]));
  return { blockOffsets, bytes };
}

/** The segment rewritten the way format 3 stored packed postings (no skip entries). */
function asFormat3(segment: Segment): ArrayBuffer {
  const sab = segment.sab;
  const count = new Uint32Array(sab, 0, 4)[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  const w = new SectionWriter();
  const rewritten = new Map<number, PackedPostings>();
  for (const f of segment.fields.values()) {
    if (f.postings === null) continue;
    const sizes: number[] = [];
    for (let t = 0; t < f.info.termCount; t++) {
      for (let n = f.postingsStart![t + 1] - f.postingsStart![t]; n > 0; n -= BLOCK_SIZE) sizes.push(Math.min(n, BLOCK_SIZE));
    }
    rewritten.set(f.ord, withoutSkips(f.postings, sizes));
  }
  for (let i = 0; i < count; i++) {
    const kind = dir[i * 4] as Section;
    const ord = dir[i * 4 + 1];
    const pp = rewritten.get(ord);
    if (pp !== undefined && kind === Section.PostingPacked) w.add(kind, ord, pp.bytes);
    else if (pp !== undefined && kind === Section.PostingBlockOffsets) w.add(kind, ord, pp.blockOffsets);
    else w.add(kind, ord, new Uint8Array(sab, dir[i * 4 + 2], dir[i * 4 + 3]).slice());
  }
  const out = w.finish(segment.info);
  new Uint32Array(out, 0, 4)[1] = 3;
  const copy = new ArrayBuffer(out.byteLength);
  new Uint8Array(copy).set(new Uint8Array(out));
  return copy;
}

/** Every term's postings as "id:freq" lists, through the segment API. */
function allPostings(segment: Segment, name: string): Map<string, string[]> {
  const f = segment.fields.get(name)!;
  const out = new Map<string, string[]>();
  for (let t = 0; t < f.info.termCount; t++) {
    const p = readTermPostings(f, t);
    out.set(termAt(segment, f, t), Array.from(p.docs, (d, i) => `${readId(segment, d)}:${p.freqs ? p.freqs[i] : 1}`));
  }
  return out;
}

describe('format 4 segments against formats 2 and 3', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  const docs = Array.from({ length: 700 }, (_, i) => {
    const n = 3 + (i % 11);
    const text = Array.from({ length: n }, (_, k) => words[(i * 7 + k * k + (i % 5) * k) % words.length]).join(' ');
    return { id: `d${i}`, source: { text: i === 5 ? `${text} ${'gamma '.repeat(300)}` : text, tag: `k${i % 9}` } };
  });
  // One long document: positions past 65535, and a phrase at its end.
  const long = { id: 'long', source: { text: `${Array.from({ length: 70_000 }, (_, i) => words[i % 3]).join(' ')} omega psi`, tag: 'k0' } };
  const mapping = { properties: { text: { type: 'text' }, tag: { type: 'keyword' } } };
  const queries = [
    { match: { text: 'alpha gamma' } }, { match: { text: 'zeta eta theta' } }, { match_phrase: { text: 'beta gamma' } },
    { match_phrase: { text: { query: 'alpha delta', slop: 2 } } }, { match_phrase: { text: 'omega psi' } }, { term: { tag: 'k3' } },
    { prefix: { text: 'e' } }, { bool: { must: [{ match: { text: 'gamma' } }], filter: [{ terms: { tag: ['k1', 'k2'] } }] } },
    { match_phrase_prefix: { text: 'alpha b' } }, { match: { text: 'omega' } },
  ];

  it('are written packed with narrow positions and answer every query as format 2 does', () => {
    const index = new InProcessIndex(mapping);
    index.addSegment(docs);
    index.addSegment([long, ...docs.slice(0, 10).map((d) => ({ ...d, id: `x${d.id}` }))]);
    const [short, withLong] = index.segments;
    expect(new Uint32Array(short.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    expect(FORMAT_VERSION).toBeGreaterThanOrEqual(3);
    // 'gamma' × 300 in d5: positions up to ~310 need u16; the long doc's need u32; keywords have none
    expect(short.fields.get('text')!.positions).toBeInstanceOf(Uint16Array);
    expect(withLong.fields.get('text')!.positions).toBeInstanceOf(Uint32Array);
    expect(short.fields.get('tag')!.positions).toBeNull();
    expect(short.fields.get('tag')!.postings).not.toBeNull();
    const small = new InProcessIndex(mapping);
    small.addSegment(docs.slice(100, 120).map((d) => ({ ...d, source: { ...d.source, text: String(d.source.text).slice(0, 60) } })));
    expect(small.segments[0].fields.get('text')!.positions).toBeInstanceOf(Uint8Array);

    const old = new InProcessIndex(mapping);
    for (const seg of index.segments) {
      const v2 = openSegment(`${seg.id}-v2`, asFormat2(seg));
      expect(v2.fields.get('text')!.postings).toBeNull();
      expect(v2.fields.get('text')!.positions).toBeInstanceOf(Uint32Array);
      expect(allPostings(v2, 'text')).toEqual(allPostings(seg, 'text'));
      old.segments.push(v2);
      old.liveDocs.push(null);
    }
    for (const query of queries) {
      for (const trackTotalHitsUpTo of [-1, 10_000]) {
        const expected = old.search(query, { k: 20, trackTotalHitsUpTo });
        expect(index.search(query, { k: 20, trackTotalHitsUpTo })).toEqual(expected);
      }
    }
    expect(index.search({ match_phrase: { text: 'omega psi' } }, { k: 5 }).hits.map((h) => h.id)).toEqual(['long']);
    // freq 301 of 'gamma' in d5: BM25 with the full freq (it ranks first for 'gamma')
    expect(index.search({ match: { text: 'gamma' } }, { k: 1 }).hits[0].id).toBe('d5');
  });

  it('format 3 segments (no skip entries) answer every query as format 4 does, and merge with it into format 4', () => {
    const index = new InProcessIndex(mapping);
    index.addSegment(docs.slice(0, 350));
    index.addSegment([long, ...docs.slice(350)]);
    const old = new InProcessIndex(mapping);
    for (const seg of index.segments) {
      const v3 = openSegment(`${seg.id}-v3`, asFormat3(seg));
      expect(new Uint32Array(v3.sab, 0, 4)[1]).toBe(3);
      expect(v3.fields.get('text')!.postings!.bytes.byteLength).toBeLessThan(seg.fields.get('text')!.postings!.bytes.byteLength);
      expect(allPostings(v3, 'text')).toEqual(allPostings(seg, 'text'));
      old.segments.push(v3);
      old.liveDocs.push(null);
    }
    for (const query of queries) {
      for (const trackTotalHitsUpTo of [-1, 10_000]) expect(old.search(query, { k: 20, trackTotalHitsUpTo })).toEqual(index.search(query, { k: 20, trackTotalHitsUpTo }));
    }
    // format 3 with deletes + format 4 → format 4, with skip entries again
    const live = new Uint32Array(Math.ceil(350 / 32)).fill(0xffffffff);
    live[0] &= ~(1 << 5);
    const merged = openSegment('m', writeSegment(mergeSegments([{ segment: old.segments[0], liveDocs: live }, { segment: index.segments[1], liveDocs: null }])));
    expect(new Uint32Array(merged.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    const reference = openSegment('r', writeSegment(mergeSegments([{ segment: index.segments[0], liveDocs: live }, { segment: index.segments[1], liveDocs: null }])));
    expect(merged.fields.get('text')!.postings!.bytes).toEqual(reference.fields.get('text')!.postings!.bytes);
    expect(allPostings(merged, 'text')).toEqual(allPostings(reference, 'text'));
  });

  it('merge format 2 and format 4 segments, with deletes, into packed postings', () => {
    const index = new InProcessIndex(mapping);
    index.addSegment(docs.slice(0, 350));
    index.addSegment(docs.slice(350));
    const v2 = openSegment('v2', asFormat2(index.segments[0]));
    const live = new Uint32Array(Math.ceil(350 / 32)).fill(0xffffffff);
    live[0] &= ~(1 << 5); // d5 (the 300 × gamma) deleted
    const merged = openSegment('merged', writeSegment(mergeSegments([{ segment: v2, liveDocs: live }, { segment: index.segments[1], liveDocs: null }])));
    expect(new Uint32Array(merged.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    expect(merged.fields.get('text')!.postings).not.toBeNull();
    expect(merged.fields.get('text')!.positions).toBeInstanceOf(Uint8Array);
    for (const name of ['text', 'tag']) {
      const expected = new Map<string, string[]>();
      for (const seg of [allPostings(index.segments[0], name), allPostings(index.segments[1], name)]) {
        for (const [term, list] of seg) expected.set(term, [...(expected.get(term) ?? []), ...list.filter((e) => !e.startsWith('d5:'))]);
      }
      expect(new Map([...allPostings(merged, name)].sort())).toEqual(new Map([...expected].filter(([, l]) => l.length > 0).sort()));
    }
    // positions survive the merge: the phrase matches the same docs as before, minus d5
    const after = new InProcessIndex(mapping);
    after.segments.push(merged);
    after.liveDocs.push(null);
    const phrase = { match_phrase: { text: 'beta gamma' } };
    const before = index.search(phrase, { k: 1000 }).hits.map((h) => h.id).filter((id) => id !== 'd5').sort();
    expect(after.search(phrase, { k: 1000 }).hits.map((h) => h.id).sort()).toEqual(before);
    expect(termOrd(merged.fields.get('text')!, 'gamma')).toBeGreaterThanOrEqual(0);
  });
});
