/**
 * dense_vector storage in segments (vector-sections.ts): the builder lays each field's vectors flat
 * (VectorFloat32 / VectorInt8, zeros for docs without one) with each doc's norm for cosine fields
 * (VectorMagnitude), the reader opens them as SegmentField.vectors, and merges copy the live docs'
 * vectors to their new doc ids — streamed or materialised alike. Segments without vector fields are
 * byte for byte what the build before vectors wrote (their digest is pinned below).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Section, SegmentBuilder, addSegmentMemory, emptySegmentMemory, mergeSegments, openSegment, parseRootMapping, withDeletes, writeMergedSegment, writeSegment,
  type Segment,
} from '../../src/index/index.js';
import { readDirectory } from '../../src/index/segment/sab-layout.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({
  properties: {
    title: { type: 'text' },
    f: { type: 'dense_vector', dims: 3 }, // cosine by default: magnitudes
    l2: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' },
    b: { type: 'dense_vector', dims: 2, element_type: 'byte', similarity: 'cosine' },
    raw: { type: 'dense_vector', dims: 2, index: false },
  },
});

function vectorDoc(k: number): Record<string, unknown> {
  const doc: Record<string, unknown> = { title: `doc ${k}` };
  // Not every doc has every field: the flat arrays hold zeros there and DocsWithField says so.
  if (k % 2 === 0) doc.f = [k + 1, 0 - k, 0.5];
  if (k % 3 !== 1) doc.l2 = [k, k / 4];
  if (k % 4 !== 3) doc.b = [k % 100, -(k % 50) - 1];
  doc.raw = [k * 0.25, 0];
  return doc;
}

function build(from: number, count: number, id: string, docOf: (k: number) => Record<string, unknown> = vectorDoc, mapping = MAPPING): Segment {
  const builder = new SegmentBuilder(mapping, LIMITS);
  for (let k = from; k < from + count; k++) builder.add({ id: `d${k}`, source: JSON.stringify(docOf(k)), seqNo: k, version: 1, indexOrder: k });
  return openSegment(id, writeSegment(builder.finish()));
}

/** Doc `d`'s vector of `field`, or null (from the flat arrays, as a knn scorer reads them). */
function vectorOf(segment: Segment, field: string, d: number): number[] | null {
  const f = segment.fields.get(field)!;
  const bit = (f.docsWithField[d >>> 5] & (1 << (d & 31))) !== 0;
  const v = f.vectors!;
  const values = [...v.values.subarray(d * v.dims, (d + 1) * v.dims)];
  if (!bit) {
    expect(values.every((x) => x === 0)).toBe(true);
    return null;
  }
  return values;
}

/** Every section as (kind, field) → bytes, plus the segment info. */
function sections(sab: SharedArrayBuffer): { info: unknown; bytes: Map<string, number[]> } {
  const dir = readDirectory(sab);
  const bytes = new Map<string, number[]>();
  for (const [key, e] of dir.entries) bytes.set(`${Math.floor(key / 0x100000000)}/${key % 0x100000000}`, [...new Uint8Array(sab, e.offset, e.length)]);
  return { info: dir.info, bytes };
}

const expectedVector = (k: number, field: string): number[] | null => {
  const v = vectorDoc(k)[field] as number[] | undefined;
  return v === undefined ? null : v.map((x) => (field === 'b' ? x : Math.fround(x)));
};

describe('vector sections', () => {
  it('are written by the builder and opened as SegmentField.vectors', () => {
    const s = build(0, 10, 's');
    const f = s.fields.get('f')!;
    expect(f.info).toMatchObject({ structure: 'vector', type: 'dense_vector', dims: 3, hasDocValues: false, termCount: 0 });
    expect(f.vectors!.values).toBeInstanceOf(Float32Array);
    expect(f.vectors!.values.length).toBe(10 * 3);
    expect(f.vectors!.magnitudes).toBeInstanceOf(Float32Array);
    expect(s.fields.get('l2')!.vectors!.magnitudes).toBeNull();
    expect(s.fields.get('b')!.vectors!.values).toBeInstanceOf(Int8Array);
    expect(s.fields.get('b')!.vectors!.magnitudes).toBeInstanceOf(Float32Array);
    expect(s.fields.get('raw')!.vectors!.magnitudes).toBeNull();
    expect(s.fields.get('title')!.vectors).toBeNull();
    for (let k = 0; k < 10; k++) {
      for (const field of ['f', 'l2', 'b', 'raw']) expect(vectorOf(s, field, k), `${field} ${k}`).toEqual(expectedVector(k, field));
      const m = f.vectors!.magnitudes![k];
      const v = expectedVector(k, 'f');
      expect(m).toBeCloseTo(v === null ? 0 : Math.hypot(...v), 5);
    }
    // Each cosine byte vector's norm too.
    expect(s.fields.get('b')!.vectors!.magnitudes![2]).toBeCloseTo(Math.hypot(2, -3), 5);
    const memory = addSegmentMemory(emptySegmentMemory(), s);
    expect(memory.vectors).toBe(10 * 3 * 4 + 10 * 4 + 10 * 2 * 4 + 10 * 2 + 10 * 4 + 10 * 2 * 4);
    expect(memory.completion).toBe(0);
  });

  it('are copied for live docs by merges, streamed and materialised alike', () => {
    const a = build(0, 12, 'a');
    const b = build(12, 7, 'b');
    const c = build(19, 5, 'c', (k) => ({ title: `no vectors ${k}` }));
    const deletedA = [0, 3, 4, 11];
    const sources = [
      { segment: a, liveDocs: withDeletes(null, a.maxDoc, deletedA) },
      { segment: b, liveDocs: withDeletes(null, b.maxDoc, [1]) },
      { segment: c, liveDocs: null },
    ];
    const streamed = writeMergedSegment(sources);
    const materialised = writeSegment(mergeSegments(sources));
    const s = sections(streamed.sab);
    const m = sections(materialised);
    expect(s.info).toEqual(m.info);
    expect([...s.bytes.keys()].sort()).toEqual([...m.bytes.keys()].sort());
    for (const [key, bytes] of m.bytes) expect(s.bytes.get(key), key).toEqual(bytes);
    const merged = openSegment('m', streamed.sab);
    const kept = [...Array.from({ length: 12 }, (_, k) => k).filter((k) => !deletedA.includes(k)), ...[12, 14, 15, 16, 17, 18], ...[19, 20, 21, 22, 23]];
    expect(merged.maxDoc).toBe(kept.length);
    kept.forEach((k, nd) => {
      for (const field of ['f', 'l2', 'b', 'raw']) expect(vectorOf(merged, field, nd), `${field} ${k}`).toEqual(k >= 19 ? null : expectedVector(k, field));
      const m = merged.fields.get('f')!.vectors!.magnitudes![nd];
      const v = k >= 19 ? null : expectedVector(k, 'f');
      expect(m).toBeCloseTo(v === null ? 0 : Math.hypot(...v), 5);
    });
    expect(merged.fields.get('f')!.info.dims).toBe(3);
    expect(merged.fields.get('f')!.info.docCount).toBe(kept.filter((k) => k < 19 && k % 2 === 0).length);
  });

  it('leave segments without vector fields as they were (no section, no `dims` in their info)', () => {
    const mapping = parseRootMapping({
      properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' }, s: { type: 'completion' }, fv: { type: 'rank_features' } },
    });
    const docOf = (k: number) => ({ title: `quick fox ${k} ${k % 3 ? 'jumps' : 'sleeps'}`, tag: `t${k % 5}`, n: k * 7, s: `song ${k % 4}`, fv: { a: k + 1, b: 0.5 } });
    const s = build(0, 40, 'plain', docOf, mapping);
    const dir = readDirectory(s.sab);
    const kinds = [...dir.entries.keys()].map((key) => Math.floor(key / 0x100000000));
    expect(kinds.filter((k) => k >= Section.VectorFloat32 && k <= Section.VectorMagnitude)).toEqual([]);
    expect(JSON.stringify(s.info)).not.toContain('dims');
    // The digest of this segment as the build before dense_vector wrote it (format 6).
    expect(createHash('sha256').update(new Uint8Array(s.sab)).digest('hex')).toBe(PLAIN_SEGMENT_SHA256);
  });
});

const PLAIN_SEGMENT_SHA256 = '815f7d286da11e70a2d2d6f2af36f595d19f5434ed8d3946c596ceffc0403905';
