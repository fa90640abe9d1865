/**
 * seq_no / version / index order packed per segment (doc-numbers.ts, format 4): every shape of
 * values comes back exactly — consecutive, constant, with gaps needing 8, 16 or 32 bits, negative,
 * fractional or beyond 2^32 (kept as float64) — in the few bytes promised; and segments whose
 * sections are Float64 per doc (formats 1 to 3) still read.
 */
import { describe, expect, it } from 'vitest';
import { NO_FIELD, Section, SegmentBuilder, openSegment, parseRootMapping, writeSegment } from '../../src/index/index.js';
import { DocNumbers, packDocNumbers } from '../../src/index/segment/doc-numbers.js';
import { readDirectory, SectionWriter } from '../../src/index/segment/sab-layout.js';

function roundTrip(values: number[]): Uint8Array {
  const packed = packDocNumbers(Float64Array.from(values));
  // As in a segment: the section starts 8-byte aligned somewhere in a larger buffer.
  const sab = new SharedArrayBuffer(packed.length + 64);
  const section = new Uint8Array(sab, 24, packed.length);
  section.set(packed);
  const numbers = DocNumbers.read(section, values.length);
  values.forEach((v, doc) => expect(numbers.get(doc)).toBe(v));
  return packed;
}

describe('packed doc numbers', () => {
  it('stores consecutive and constant values as a header alone', () => {
    expect(roundTrip(Array.from({ length: 10_000 }, (_, i) => 500 + i)).length).toBe(16);
    expect(roundTrip(Array.from({ length: 10_000 }, () => 1)).length).toBe(16);
    expect(roundTrip([]).length).toBe(16);
  });

  it('keeps gaps in the narrowest deltas that hold them', () => {
    const n = 1000;
    expect(roundTrip(Array.from({ length: n }, (_, i) => i + (i % 7 === 0 ? 100 : 0))).length).toBe(16 + n);
    expect(roundTrip(Array.from({ length: n }, (_, i) => 3 * i)).length).toBe(16 + 2 * n);
    expect(roundTrip(Array.from({ length: n }, (_, i) => (i * 7919) % 1000 * 70_000)).length).toBe(16 + 4 * n);
    expect(roundTrip(Array.from({ length: n }, (_, i) => -50 + (i % 3))).length).toBe(16 + n);
  });

  it('keeps values it cannot pack exactly as float64', () => {
    const n = 100;
    expect(roundTrip(Array.from({ length: n }, (_, i) => i * 2 ** 40)).length).toBe(16 + 8 * n);
    expect(roundTrip(Array.from({ length: n }, (_, i) => i + 0.5)).length).toBe(16 + 8 * n);
    roundTrip([Number.MAX_SAFE_INTEGER, 0, 2 ** 60, -(2 ** 53)]);
  });

  it('refuses a section that is too short or of an unknown width', () => {
    const packed = packDocNumbers(Float64Array.from([1, 5, 9]));
    expect(() => DocNumbers.read(packed.subarray(0, 17), 3)).toThrow(/corrupt segment/);
    const bad = packed.slice();
    bad[9] = 3;
    expect(() => DocNumbers.read(bad, 3)).toThrow(/corrupt segment/);
  });
});

describe('doc numbers in segments', () => {
  const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
  function build(): SharedArrayBuffer | ArrayBuffer {
    const builder = new SegmentBuilder(parseRootMapping({ properties: { t: { type: 'text' } } }), LIMITS);
    for (let i = 0; i < 50; i++) builder.add({ id: `d${i}`, source: `{"t":"x ${i}"}`, seqNo: 10 + 2 * i, version: i % 5 === 0 ? 3 : 1, indexOrder: 1000 + i });
    return writeSegment(builder.finish());
  }

  it('read back from the packed sections', () => {
    const seg = openSegment('p', build());
    for (let i = 0; i < 50; i++) {
      expect(seg.seqNo.get(i)).toBe(10 + 2 * i);
      expect(seg.version.get(i)).toBe(i % 5 === 0 ? 3 : 1);
      expect(seg.indexOrder.get(i)).toBe(1000 + i);
    }
  });

  it('read back from Float64 sections, as formats 1 to 3 wrote them', () => {
    const sab = build();
    const seg = openSegment('p', sab);
    const dir = readDirectory(sab);
    const w = new SectionWriter();
    const packed = new Map([[Section.SeqNoPacked, Section.SeqNo], [Section.VersionPacked, Section.Version], [Section.IndexOrderPacked, Section.IndexOrder]]);
    const values = new Map([[Section.SeqNo, seg.seqNo], [Section.Version, seg.version], [Section.IndexOrder, seg.indexOrder]]);
    for (const [key, e] of dir.entries) {
      const kind = Math.floor(key / 0x100000000) as Section;
      const float64 = packed.get(kind);
      if (float64 !== undefined) w.add(float64, NO_FIELD, Float64Array.from({ length: 50 }, (_, d) => values.get(float64)!.get(d)));
      else w.add(kind, key % 0x100000000, new Uint8Array(sab, e.offset, e.length).slice());
    }
    const out = w.finish(seg.info);
    new Uint32Array(out, 0, 4)[1] = 3;
    const old = openSegment('old', out);
    expect(readDirectory(out).entries.has(Section.SeqNo * 0x100000000 + NO_FIELD)).toBe(true);
    for (let i = 0; i < 50; i++) {
      expect(old.seqNo.get(i)).toBe(10 + 2 * i);
      expect(old.version.get(i)).toBe(i % 5 === 0 ? 3 : 1);
      expect(old.indexOrder.get(i)).toBe(1000 + i);
    }
  });
});
