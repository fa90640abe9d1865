/**
 * The merge's streaming write (issue 22): writeMergedSegment writes each merged field straight into
 * a growable segment buffer instead of materialising the whole SegmentInput first. It must give the
 * very sections writeSegment(mergeSegments(...)) gives — with deletes, positions of every width,
 * keyword ordinals, numbers, completion entries and stored sources — and AppendingSectionWriter must
 * survive a header or a segment larger than it reserved, and sections written as their bytes come.
 */
import { describe, expect, it } from 'vitest';
import {
  Section, SegmentBuilder, mergeSegments, openSegment, parseRootMapping, withDeletes, writeMergedSegment, writeSegment, type IndexCodec, type Segment,
} from '../../src/index/index.js';
import { AppendingSectionWriter, SectionWriter, readDirectory, type SectionSink } from '../../src/index/segment/sab-layout.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({
  properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' }, s: { type: 'completion' } },
});

function build(from: number, count: number, id: string, longDoc: boolean): Segment {
  const builder = new SegmentBuilder(MAPPING, LIMITS);
  for (let k = from; k < from + count; k++) {
    // One document of 300 words puts that segment's positions in 16 bits.
    // Repeated words (k % 7 of them) give freqs above 1 in some postings.
    const title = longDoc && k === from + 2 ? Array.from({ length: 300 }, (_, i) => `w${i % 50}`).join(' ') : `quick fox ${k} ${k % 3 ? 'jumps' : 'sleeps'}${' again'.repeat(k % 7)}`;
    const source = JSON.stringify({ title, tag: `t${k % 5}`, n: k * 7, s: `song ${k % 4} of ${k}` });
    // Some ids are not ASCII: the merge copies id bytes, mergeSegments re-encodes decoded strings.
    builder.add({ id: k % 4 === 0 ? `döc-${k}-日本` : `doc-${k}`, source, seqNo: k, version: k % 3 + 1, indexOrder: k });
  }
  return openSegment(id, writeSegment(builder.finish()));
}

/** Every section as (kind, field) → bytes, plus the segment info. */
function sections(sab: SharedArrayBuffer): { info: unknown; bytes: Map<string, number[]> } {
  const dir = readDirectory(sab);
  const bytes = new Map<string, number[]>();
  for (const [key, e] of dir.entries) bytes.set(`${Math.floor(key / 0x100000000)}/${key % 0x100000000}`, [...new Uint8Array(sab, e.offset, e.length)]);
  return { info: dir.info, bytes };
}

describe('writeMergedSegment', () => {
  const cases: Array<[string, boolean, number[], IndexCodec]> = [
    ['no deletes, 8-bit positions', false, [], 'default'],
    ['deletes, a 16-bit-positions source', true, [1, 4, 9], 'default'],
    ['the long document deleted: positions narrow again', true, [2], 'default'],
    ['best_compression stored fields', true, [1], 'best_compression'],
  ];
  // Terms of several blocks (streamed block by block: skip entries, sparse freqs, gaps of each width).
  const manyDeleted = Array.from({ length: 400 }, (_, i) => (i * i * 7) % 900).filter((d, i, all) => d !== 2 && all.indexOf(d) === i);
  cases.push(['terms of several blocks, deletes in them', false, manyDeleted, 'default']);
  for (const [name, longDoc, deleted, codec] of cases) {
    it(`gives the sections writeSegment(mergeSegments(…)) gives: ${name}`, () => {
      const big = deleted.length > 20;
      const a = build(0, big ? 900 : 12, 'a', longDoc);
      const b = build(a.maxDoc, 9, 'b', false);
      const c = build(a.maxDoc + 9, big ? 600 : 5, 'c', false);
      const sources = [
        { segment: a, liveDocs: deleted.length ? withDeletes(null, a.maxDoc, deleted) : null },
        { segment: b, liveDocs: withDeletes(null, b.maxDoc, [0]) },
        { segment: c, liveDocs: null },
      ];
      const streamed = writeMergedSegment(sources, codec);
      const materialised = writeSegment(mergeSegments(sources, codec));
      expect(streamed.maxDoc).toBe(a.maxDoc + b.maxDoc + c.maxDoc - deleted.length - 1);
      const s = sections(streamed.sab);
      const m = sections(materialised);
      expect(s.info).toEqual(m.info);
      expect([...s.bytes.keys()].sort()).toEqual([...m.bytes.keys()].sort());
      for (const [key, bytes] of m.bytes) expect(s.bytes.get(key), key).toEqual(bytes);
      const widths = [Section.Positions8, Section.Positions16].map((kind) => [...s.bytes.keys()].some((k) => k.startsWith(`${kind}/`)));
      expect(widths).toEqual(longDoc && !deleted.includes(2) ? [false, true] : [true, false]);
      // The buffer ends where its last section does (no growth left over).
      const dir = readDirectory(streamed.sab);
      const end = Math.max(...[...dir.entries.values()].map((e) => e.offset + e.length));
      expect(streamed.sab.byteLength - end).toBeLessThan(8);
    });
  }
});

describe('AppendingSectionWriter', () => {
  const info = { maxDoc: 3, fields: [] };
  const fill = (w: SectionSink) => {
    w.add(Section.SeqNo, 0xffffffff, new Float64Array([1, 2, 3]));
    w.add(Section.IdBytes, 0xffffffff, new Uint8Array(1000).map((_, i) => i & 255));
    for (let f = 0; f < 40; f++) w.add(Section.Norms, f, new Uint8Array([f, f + 1, f + 2]));
  };

  it('moves the sections up when the header outgrows its reservation, and grows past the expected size', () => {
    const reference = new SectionWriter();
    fill(reference);
    const small = new AppendingSectionWriter(16, 1, 0);
    fill(small);
    const a = sections(small.finish(info));
    const b = sections(reference.finish(info));
    expect(a.info).toEqual(b.info);
    expect(a.bytes).toEqual(b.bytes);
  });

  it('writes a section of unknown size as its bytes come', () => {
    const w = new AppendingSectionWriter(64, 4, 64);
    w.add(Section.SeqNo, 0xffffffff, new Float64Array([7]));
    const s = w.open(Section.SourceBlocks, 0xffffffff);
    for (let i = 0; i < 50; i++) s.write(new Uint8Array(13).fill(i));
    s.close();
    w.add(Section.Version, 0xffffffff, new Float64Array([9]));
    const got = sections(w.finish(info));
    expect(got.bytes.get(`${Section.SourceBlocks}/${0xffffffff}`)).toEqual(Array.from({ length: 650 }, (_, i) => Math.floor(i / 13)));
    expect(new Float64Array(new Uint8Array(got.bytes.get(`${Section.Version}/${0xffffffff}`)!).buffer)[0]).toBe(9);
  });
});
