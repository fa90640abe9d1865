/**
 * The id map's packed tables (id-map.ts, format 4): every id reads back and is found, misses are
 * not, with 8-, 16- and 32-bit starts; the 3-byte hash slots; and segments with format 3's IdOffsets
 * and Int32 IdHash still answer the same.
 */
import { describe, expect, it } from 'vitest';
import { NO_FIELD, Section, SegmentBuilder, docForId, openSegment, parseRootMapping, readId, writeSegment, type Segment } from '../../src/index/index.js';
import { IdMap, packIdStarts, buildIdHash24 } from '../../src/index/segment/id-map.js';
import { buildHashTable, encodeStrings, fnv1a } from '../../src/index/segment/bytes.js';
import { readDirectory, SectionWriter } from '../../src/index/segment/sab-layout.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { t: { type: 'text' } } });

function build(ids: readonly string[]): SharedArrayBuffer | ArrayBuffer {
  const builder = new SegmentBuilder(MAPPING, LIMITS);
  ids.forEach((id, k) => builder.add({ id, source: '{"t":"x"}', seqNo: k, version: 1, indexOrder: k }));
  return writeSegment(builder.finish());
}

function expectIds(seg: Segment, ids: readonly string[]): void {
  ids.forEach((id, doc) => {
    expect(readId(seg, doc)).toBe(id);
    expect(docForId(seg, id)).toBe(doc);
  });
  for (const miss of ['', 'nope', `${ids[0]}x`, ids[0].slice(0, -1), '😀😀']) if (!ids.includes(miss)) expect(docForId(seg, miss)).toBe(-1);
}

const SHAPES: Record<string, string[]> = {
  numeric: Array.from({ length: 3000 }, (_, k) => String(k)),
  long: Array.from({ length: 100 }, (_, k) => `${'x'.repeat(300)}-${k}`),
  longest: Array.from({ length: 40 }, (_, k) => `${k}`.padStart(512, 'x')), // ES's limit: 512 bytes
  unicode: ['ä', '😀-emoji', '東京', 'naïve', 'a', 'b', 'ß'.repeat(100)],
};

describe('packed id map', () => {
  it.each(Object.keys(SHAPES))('%s ids: read back, found, misses missed', (shape) => {
    const ids = SHAPES[shape];
    const sab = build(ids);
    const dir = readDirectory(sab);
    expect(dir.entries.has(Section.IdStarts * 0x100000000 + NO_FIELD)).toBe(true);
    expect(dir.entries.has(Section.IdHash24 * 0x100000000 + NO_FIELD)).toBe(true);
    expect(dir.entries.has(Section.IdOffsets * 0x100000000 + NO_FIELD)).toBe(false);
    expectIds(openSegment(shape, sab), ids);
  });

  it('keeps starts in 1 byte a doc for short ids, 2 for long ones, 4 past 64 KB a block', () => {
    const starts = (lengths: number[]) => {
      const offsets = new Uint32Array(lengths.length + 1);
      lengths.forEach((n, i) => (offsets[i + 1] = offsets[i] + n));
      const packed = packIdStarts(offsets);
      const bytes = new Uint8Array(offsets[lengths.length]);
      const map = IdMap.read(bytes, packed, null, null, buildIdHash24(bytes, offsets, lengths.length), lengths.length);
      for (let doc = 0; doc <= lengths.length; doc++) expect(map.start(doc)).toBe(offsets[doc]);
      return packed[0];
    };
    expect(starts(Array.from({ length: 1000 }, (_, i) => 1 + (i % 7)))).toBe(1);
    expect(starts(Array.from({ length: 100 }, () => 300))).toBe(2);
    expect(starts([70_000, 3, 5, 70_000, 1])).toBe(4);
    expect(starts([])).toBe(1);
  });

  it('segments with IdOffsets and an Int32 IdHash (formats 1–3) still read', () => {
    const ids = SHAPES.numeric;
    const sab = build(ids);
    const dir = readDirectory(sab);
    const table = encodeStrings(ids);
    const w = new SectionWriter();
    for (const [key, e] of dir.entries) {
      const kind = Math.floor(key / 0x100000000) as Section;
      if (kind === Section.IdStarts || kind === Section.IdHash24) continue;
      w.add(kind, key % 0x100000000, new Uint8Array(sab, e.offset, e.length).slice());
    }
    w.add(Section.IdOffsets, NO_FIELD, table.offsets);
    w.add(Section.IdHash, NO_FIELD, buildHashTable(table, ids.length));
    const out = w.finish(readDirectory(sab).info);
    new Uint32Array(out, 0, 4)[1] = 3;
    expectIds(openSegment('old', out), ids);
  });

  it('finds every id of a table built apart from a segment', () => {
    const ids = Array.from({ length: 64 }, (_, k) => `c${k}`);
    const table = encodeStrings(ids);
    const hash = buildIdHash24(table.bytes, table.offsets, ids.length)!;
    const map = IdMap.read(table.bytes, packIdStarts(table.offsets), null, null, hash, ids.length);
    ids.forEach((id, doc) => {
      const key = new Uint8Array(Buffer.from(id));
      expect(map.lookup(key, key.length, fnv1a(key, 0, key.length))).toBe(doc);
    });
  });
});
