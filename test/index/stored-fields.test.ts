/**
 * Stored `_source` in compressed blocks (format 3, stored-fields.ts / source-codec.ts): both codecs
 * return every document byte for byte — multi-byte UTF-8, documents larger than a block, documents
 * without stored source, incompressible bytes — through the segment reader and its per-thread cache
 * of decoded blocks; format 2 segments (raw source sections) still read and merge into format 3.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DIRECTORY_ENTRY_BYTES, FORMAT_VERSION, HEADER_BYTES, SegmentBuilder, Section, clearStoredFieldsCache, mergeSegments, openSegment, parseRootMapping,
  readSource, storedFieldsCacheStats, writeSegment, type IndexCodec, type Segment,
} from '../../src/index/index.js';
import { SectionWriter } from '../../src/index/segment/sab-layout.js';
import { DEFLATE_BLOCK_LIMITS, blockOf, decodeBlock, encodeStoredFields, firstDocOf } from '../../src/index/segment/stored-fields.js';
import { BlockCodec, compressBlock, compressDoc, decompressBlock, writeBlockHead } from '../../src/index/segment/source-codec.js';
import { Lz4DictEncoder } from '../../src/index/segment/lz4-block.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { text: { type: 'text' }, n: { type: 'long' } } });
const WORDS = ['quick', 'brown', 'fox', 'jumps', 'över', 'the', 'lazy', 'dög', '東京', 'タワー', '🦊', 'naïve', 'café', 'ß'];

/** Deterministic sources: short ones with multi-byte text, and every 97th a large one (> a block). */
function sources(count: number, seed = 1): string[] {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: count }, (_, i) => {
    const words = i % 97 === 5 ? 6000 : 5 + Math.floor(rnd() * 30);
    const text = Array.from({ length: words }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
    return JSON.stringify({ text, n: i });
  });
}

function build(texts: readonly string[], codec: IndexCodec, id = 's'): Segment {
  const builder = new SegmentBuilder(MAPPING, LIMITS, undefined, codec);
  texts.forEach((source, i) => builder.add({ id: `d${i}`, source, seqNo: i, version: 1, indexOrder: i }));
  return openSegment(id, writeSegment(builder.finish()));
}

/** The segment rewritten as format 2 stored it: raw SourceBytes / SourceOffsets. */
function asFormat2(segment: Segment, texts: readonly string[]): ArrayBuffer {
  const sab = segment.sab;
  const count = new Uint32Array(sab, 0, 4)[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  const w = new SectionWriter();
  for (let i = 0; i < count; i++) {
    const kind = dir[i * 4] as Section;
    if (kind >= Section.SourceBlockDocs && kind <= Section.SourceDictionary) continue;
    w.add(kind, dir[i * 4 + 1], new Uint8Array(sab, dir[i * 4 + 2], dir[i * 4 + 3]).slice());
  }
  const bytes = texts.map((t) => Buffer.from(t));
  const offsets = new Uint32Array(texts.length + 1);
  bytes.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
  w.add(Section.SourceBytes, 0xffffffff, new Uint8Array(Buffer.concat(bytes)));
  w.add(Section.SourceOffsets, 0xffffffff, offsets);
  const out = w.finish(segment.info);
  new Uint32Array(out, 0, 4)[1] = 2;
  const copy = new ArrayBuffer(out.byteLength);
  new Uint8Array(copy).set(new Uint8Array(out));
  return copy;
}

/** The bytes of the one block `write` emits. */
function blockBytes(write: (out: { add(kind: BlockCodec, rawLength: number, payload: Uint8Array): void }) => void): Uint8Array {
  let block: Uint8Array | null = null;
  write({
    add(kind, rawLength, payload) {
      const head = new Uint8Array(11);
      const n = writeBlockHead(head, 0, kind, rawLength);
      block = new Uint8Array(n + payload.length);
      block.set(head.subarray(0, n));
      block.set(payload, n);
    },
  });
  return block!;
}

beforeEach(() => clearStoredFieldsCache());

describe('source codecs', () => {
  it.each(['default', 'best_compression'] as const)('%s: blocks round-trip byte for byte, with and without a dictionary', (codec) => {
    const texts = sources(5000);
    const bytes = texts.map((t) => new Uint8Array(Buffer.from(t)));
    bytes[7] = new Uint8Array(0); // a doc without stored source
    for (const count of [5000, 40]) {
      const sections = encodeStoredFields(count, (d) => bytes[d], codec);
      expect(sections.dictionary.length > 0).toBe(count >= 4096);
      // `default`: one doc per block, so SourceBlockDocs is just [count].
      if (codec === 'default') expect([...sections.blockDocs]).toEqual([count]);
      for (let d = 0; d < count; d++) {
        const block = blockOf(sections.blockDocs, d);
        const decoded = decodeBlock(sections, block);
        const i = d - firstDocOf(sections.blockDocs, block);
        expect(Buffer.compare(decoded.bytes.subarray(decoded.starts[i], decoded.starts[i + 1]), bytes[d])).toBe(0);
      }
      expect(sections.blockDocs[sections.blockDocs.length - 1]).toBe(count);
    }
    const compressed = encodeStoredFields(5000, (d) => bytes[d], codec).blocks.length;
    const raw = bytes.reduce((a, b) => a + b.length, 0);
    expect(compressed).toBeLessThan(codec === 'default' ? raw / 1.8 : raw / 2.5);
  });

  it('keeps incompressible bytes raw, and decodes them', () => {
    let x = 0x9e3779b9;
    const random = new Uint8Array(5000).map(() => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    });
    const deflated = blockBytes((out) => compressBlock(random, new Uint8Array(0), out));
    expect(deflated[0]).toBe(BlockCodec.Raw);
    expect(Buffer.compare(decompressBlock(deflated, new Uint8Array(0)), random)).toBe(0);
    // A dictionary of other random bytes: no match in it either.
    const encoder = new Lz4DictEncoder(random.subarray(4000));
    const doc = blockBytes((out) => compressDoc(random.subarray(0, 4000), encoder, out));
    expect(doc[0]).toBe(BlockCodec.RawDoc);
    expect(Buffer.compare(decompressBlock(doc, new Uint8Array(0)), random.subarray(0, 4000))).toBe(0);
    const tiny = new Uint8Array([1, 2, 3]);
    expect(Buffer.compare(decompressBlock(blockBytes((out) => compressDoc(tiny, encoder, out)), new Uint8Array(0)), tiny)).toBe(0);
  });

  it('rejects a corrupt block instead of returning wrong bytes', () => {
    // Under 128 bytes, so the declared length is one varint byte and the payload stays in place.
    const raw = new Uint8Array(Buffer.from('abcabcabcabcabcabcabcabcabcabcabc'.repeat(3)));
    const block = blockBytes((out) => compressBlock(raw, new Uint8Array(0), out));
    expect(block[0]).toBe(BlockCodec.Deflate);
    block[1] = (block[1] + 1) & 0x7f; // the declared length no longer matches
    expect(() => decompressBlock(block, new Uint8Array(0))).toThrow(/corrupt stored fields block/);
    block[0] = 9;
    expect(() => decompressBlock(block, new Uint8Array(0))).toThrow(/unknown codec 9/);
  });
});

describe('stored _source in segments', () => {
  it.each(['default', 'best_compression'] as const)('%s: readSource returns every source exactly, and merges keep them', (codec) => {
    const texts = sources(4500);
    const seg = build(texts, codec);
    expect(new Uint32Array(seg.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    expect(seg.sourceBytes).toBeNull();
    for (let d = 0; d < texts.length; d++) expect(readSource(seg, d)).toBe(texts[d]);
    const merged = openSegment('m', writeSegment(mergeSegments([{ segment: seg, liveDocs: null }, { segment: build(texts.slice(0, 30), 'default', 's2'), liveDocs: null }], codec)));
    expect(merged.maxDoc).toBe(4530);
    for (let d = 0; d < 4530; d++) expect(readSource(merged, d)).toBe(d < 4500 ? texts[d] : texts[d - 4500]);
  });

  it('a doc without stored source reads as null', () => {
    const mapping = parseRootMapping({ _source: { enabled: false }, properties: { text: { type: 'text' } } });
    const builder = new SegmentBuilder(mapping, LIMITS);
    builder.add({ id: 'a', source: '{"text":"x"}', seqNo: 0, version: 1, indexOrder: 0 });
    expect(readSource(openSegment('n', writeSegment(builder.finish())), 0)).toBeNull();
  });

  it('format 2 segments (raw source) still read, and merge into format 3', () => {
    const texts = sources(300);
    const old = openSegment('old', asFormat2(build(texts, 'default'), texts));
    expect(new Uint32Array(old.sab, 0, 4)[1]).toBe(2);
    expect(old.storedFields).toBeNull();
    for (let d = 0; d < texts.length; d++) expect(readSource(old, d)).toBe(texts[d]);
    const merged = openSegment('m', writeSegment(mergeSegments([{ segment: old, liveDocs: null }, { segment: build(texts, 'best_compression', 'new'), liveDocs: null }])));
    expect(merged.storedFields).not.toBeNull();
    for (let d = 0; d < 600; d++) expect(readSource(merged, d)).toBe(texts[d % 300]);
  });

  it('decodes a block once for the docs that share it, and keeps the cache bounded', () => {
    const texts = sources(3000);
    const seg = build(texts, 'best_compression');
    readSource(seg, 0);
    expect(storedFieldsCacheStats().entries).toBe(1);
    for (let d = 1; d < DEFLATE_BLOCK_LIMITS.docs && seg.storedFields!.blockDocs[1] > d; d++) readSource(seg, d);
    expect(storedFieldsCacheStats().entries).toBe(1);
    for (let d = 0; d < texts.length; d++) expect(readSource(seg, d)).toBe(texts[d]);
    const { entries, bytes } = storedFieldsCacheStats();
    expect(entries).toBeLessThanOrEqual(64);
    expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024 + 200_000);
  });

  it('two openings of different segments under one id never see each other\'s cached blocks', () => {
    const a = sources(50, 1);
    const b = sources(50, 2);
    const sa = build(a, 'default', 'same');
    const sb = build(b, 'default', 'same');
    expect(readSource(sa, 3)).toBe(a[3]);
    expect(readSource(sb, 3)).toBe(b[3]);
    expect(readSource(sa, 3)).toBe(a[3]);
  });
});
