/**
 * Block-packed feature postings (segment format 2, index/segment/feature-postings.ts): every doc id
 * and encoded weight decodes exactly as written, for any gaps (0 to 2^32 − 2) and weight spread; the
 * feature fields of a written segment carry no flat postings; format 1 segments (flat postings)
 * still open, search and merge into format 2; other versions are refused with a clear error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_SIZE, FORMAT_VERSION, Section, decodeFeatureTerm, decodeFeatureWeight, docFreq, encodeFeatureWeight, mergeSegments, openSegment, readId,
  termAt, writeSegment, type Segment,
} from '../../src/index/index.js';
import { accumulateLinear, encodeFeaturePostings, decodeFeatureBlock, featurePostingsOf } from '../../src/index/segment/feature-postings.js';
import { SectionWriter, readDirectory } from '../../src/index/segment/sab-layout.js';
import { HEADER_BYTES, DIRECTORY_ENTRY_BYTES } from '../../src/index/segment/format.js';
import { InProcessIndex } from '../support/engine-harness.js';
import { featureAccumulationTuning } from '../../src/search/exec/feature-taat.js';

/** Terms of random postings: docs strictly ascending below 2^32 − 1, freqs any 16-bit code. */
const termPostings = fc.array(
  fc.record({
    gaps: fc.array(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 70_000 }), fc.constant(2 ** 31)), { minLength: 1, maxLength: 300 }),
    freqs: fc.oneof(fc.constant('one' as const), fc.constant('narrow' as const), fc.constant('wide' as const)),
  }),
  { minLength: 1, maxLength: 6 },
);

describe('feature postings codec', () => {
  it('decodes every doc and weight code as written', () => {
    fc.assert(fc.property(termPostings, fc.integer({ min: 0, max: 2 ** 16 - 1 }), (terms, seed) => {
      const docs: number[] = [];
      const freqs: number[] = [];
      const start = [0];
      let r = seed;
      for (const t of terms) {
        let doc = -1;
        for (const g of t.gaps) {
          if (doc + g > 2 ** 32 - 2) break;
          doc += g;
          docs.push(doc);
          r = (r * 1103515245 + 12345) >>> 0;
          freqs.push(t.freqs === 'one' ? 17000 : t.freqs === 'narrow' ? 16000 + (r % 300) : r % 2 ** 16);
        }
        start.push(docs.length);
      }
      const termCount = terms.length;
      const postingsStart = Uint32Array.from(start);
      const blockStart = new Uint32Array(termCount + 1);
      for (let t = 0; t < termCount; t++) blockStart[t + 1] = blockStart[t] + Math.ceil((start[t + 1] - start[t]) / BLOCK_SIZE);
      const encoded = encodeFeaturePostings(postingsStart, termCount, blockStart, Uint32Array.from(docs), Uint32Array.from(freqs));
      const packed = featurePostingsOf(encoded.blockOffsets, encoded.packed);
      for (let t = 0; t < termCount; t++) {
        const field = { features: packed, docs: null, freqs: null, postingsStart, blockStart };
        const got = decodeFeatureTerm(field, t);
        expect([...got.docs]).toEqual(docs.slice(start[t], start[t + 1]));
        expect([...got.freqs]).toEqual(freqs.slice(start[t], start[t + 1]));
        // the term-at-a-time scan adds float32(w × stored) at each doc (terms whose docs fit a small accumulator)
        const last = docs[start[t + 1] - 1];
        if (start[t + 1] > start[t] && last < 1 << 20) {
          const acc = new Float64Array(last + 1);
          accumulateLinear(packed, blockStart[t], start[t + 1] - start[t], 0.75, acc);
          for (let p = start[t]; p < start[t + 1]; p++) expect(acc[docs[p]]).toBe(Math.fround(0.75 * decodeFeatureWeight(freqs[p])));
        }
      }
    }), { numRuns: 200 });
  });

  it('takes two bytes per posting for dense terms with close weights', () => {
    const n = 10 * BLOCK_SIZE;
    const docs = Uint32Array.from({ length: n }, (_, i) => i * 3);
    const freqs = Uint32Array.from({ length: n }, (_, i) => encodeFeatureWeight(0.5 + (i % 7) / 100));
    const encoded = encodeFeaturePostings(Uint32Array.of(0, n), 1, Uint32Array.of(0, 10), docs, freqs);
    const packed = featurePostingsOf(encoded.blockOffsets, encoded.packed);
    // gaps of 3 (minus 1 → one byte) and weight codes within 2^8 of the block's least: one byte, plus an 8-byte header a block
    expect(encoded.packed.byteLength / n).toBeCloseTo(2 + 8 / BLOCK_SIZE, 5);
    const d = new Uint32Array(BLOCK_SIZE);
    const f = new Uint32Array(BLOCK_SIZE);
    decodeFeatureBlock(packed, 9, BLOCK_SIZE, d, f, 0);
    expect(d[0]).toBe(9 * BLOCK_SIZE * 3);
    expect(f[5]).toBe(freqs[9 * BLOCK_SIZE + 5]);
  });
});

/** The segment with its feature fields rewritten the way format 1 stored them (flat docs + freqs). */
function asFormat1(segment: Segment): ArrayBuffer {
  const sab = segment.sab;
  const count = new Uint32Array(sab, 0, 4)[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  const w = new SectionWriter();
  for (let i = 0; i < count; i++) {
    const kind = dir[i * 4] as Section;
    const field = dir[i * 4 + 1];
    if (kind === Section.FeatureBlockOffsets || kind === Section.FeaturePacked) continue;
    // The writer copies sections byte for byte: a byte copy of each is enough.
    w.add(kind, field, new Uint8Array(sab, dir[i * 4 + 2], dir[i * 4 + 3]).slice());
  }
  for (const f of segment.fields.values()) {
    if (f.features === null) continue;
    const docs: number[] = [];
    const freqs: number[] = [];
    for (let t = 0; t < f.info.termCount; t++) {
      const p = decodeFeatureTerm(f, t);
      docs.push(...p.docs);
      freqs.push(...p.freqs);
    }
    w.add(Section.PostingDocs, f.ord, Uint32Array.from(docs));
    w.add(Section.PostingFreqs, f.ord, Uint32Array.from(freqs));
    w.add(Section.BlockMinNorm, f.ord, new Uint8Array(f.blockMaxFreq!.length).fill(1));
  }
  const out = w.finish(segment.info);
  new Uint32Array(out, 0, 4)[1] = 1;
  const copy = new ArrayBuffer(out.byteLength);
  new Uint8Array(copy).set(new Uint8Array(out));
  return copy;
}

/** Each feature's postings as (id, weight code) pairs, read through the segment API. */
function featurePostings(segment: Segment, name: string): Map<string, string[]> {
  const f = segment.fields.get(name)!;
  const out = new Map<string, string[]>();
  for (let t = 0; t < f.info.termCount; t++) {
    const p = decodeFeatureTerm(f, t);
    expect(p.docs.length).toBe(docFreq(f, t));
    out.set(termAt(segment, f, t), Array.from(p.docs, (d, i) => `${readId(segment, d)}:${p.freqs[i]}`));
  }
  return out;
}

describe('feature postings in segments', () => {
  const vectors = Array.from({ length: 400 }, (_, i) => ({
    id: `d${i}`, source: { v: Object.fromEntries(Array.from({ length: 1 + (i % 5) }, (_, k) => [`t${(i * 7 + k * 13) % 40}`, 0.01 + ((i * 31 + k) % 97) / 10])) },
  }));
  const query = { sparse_vector: { field: 'v', query_vector: { t0: 1, t13: 0.5, t26: 2, t7: 1.5 } } };

  it('are written packed (format 2) and answer searches as the flat form did', () => {
    const index = new InProcessIndex({ properties: { v: { type: 'sparse_vector' } } });
    index.addSegment(vectors);
    const seg = index.segments[0];
    expect(new Uint32Array(seg.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    const f = seg.fields.get('v')!;
    expect(f.docs).toBeNull();
    expect(f.freqs).toBeNull();
    expect(f.features).not.toBeNull();
    const flat = openSegment('flat', asFormat1(seg));
    expect(flat.fields.get('v')!.features).toBeNull();
    expect(featurePostings(flat, 'v')).toEqual(featurePostings(seg, 'v'));

    const v1 = new InProcessIndex({ properties: { v: { type: 'sparse_vector' } } });
    v1.segments.push(flat);
    v1.liveDocs.push(null);
    const saved = { ...featureAccumulationTuning };
    try {
      // both the term-at-a-time path (decodes block by block) and MaxScore (decodes each term once)
      for (const minTerms of [1, 1000]) {
        featureAccumulationTuning.minTerms = minTerms;
        featureAccumulationTuning.minPostingsPerDoc = 0;
        for (const k of [3, 50]) {
          for (const trackTotalHitsUpTo of [-1, 10_000]) {
            const expected = index.search(query, { k, trackTotalHitsUpTo });
            expect(expected.hits.length).toBe(k);
            expect(v1.search(query, { k, trackTotalHitsUpTo })).toEqual(expected);
          }
        }
      }
    } finally {
      Object.assign(featureAccumulationTuning, saved);
    }
  });

  it('merge from format 1 and format 2 segments, with deletes, into packed postings', () => {
    const index = new InProcessIndex({ properties: { v: { type: 'sparse_vector' } } });
    index.addSegment(vectors.slice(0, 200));
    index.addSegment(vectors.slice(200));
    const old = openSegment('old', asFormat1(index.segments[0]));
    const liveA = new Uint32Array(Math.ceil(200 / 32)).fill(0xffffffff);
    liveA[0] &= ~(1 << 5); // d5 deleted
    const merged = openSegment('merged', writeSegment(mergeSegments([{ segment: old, liveDocs: liveA }, { segment: index.segments[1], liveDocs: null }])));
    expect(merged.fields.get('v')!.features).not.toBeNull();
    const expected = new Map<string, string[]>();
    for (const seg of [featurePostings(index.segments[0], 'v'), featurePostings(index.segments[1], 'v')]) {
      for (const [term, list] of seg) expected.set(term, [...(expected.get(term) ?? []), ...list.filter((e) => !e.startsWith('d5:'))]);
    }
    const got = featurePostings(merged, 'v');
    expect(new Map([...got].sort())).toEqual(new Map([...expected].filter(([, l]) => l.length > 0).sort()));
  });

  it('refuses a segment of an unknown format version with a clear error', () => {
    const index = new InProcessIndex({ properties: { v: { type: 'sparse_vector' } } });
    index.addSegment(vectors.slice(0, 10));
    const copy = asFormat1(index.segments[0]);
    new Uint32Array(copy, 0, 4)[1] = FORMAT_VERSION + 1;
    expect(() => readDirectory(copy)).toThrow(`unsupported segment format version ${FORMAT_VERSION + 1} (this version reads formats 1 to ${FORMAT_VERSION})`);
  });
});
