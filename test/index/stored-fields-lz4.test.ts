/**
 * The `default` codec's LZ4 (lz4-block.ts, lz4-decode.wat through lz4-wasm.ts): the encoder with a
 * preset dictionary and both decoders give back every byte — empty, tiny, multi-byte UTF-8,
 * repetitive (overlapping matches), incompressible, larger than the LZ4 window and than the
 * WebAssembly decoder's limit; corrupt blocks are refused by both; a thread reading more segments
 * than it keeps dictionaries for still decodes each right; and format 3's LZ4 4-doc blocks, written
 * by lz4js before, still read and merge into format 4.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { FORMAT_VERSION, SegmentBuilder, clearStoredFieldsCache, mergeSegments, openSegment, parseRootMapping, readSource, writeSegment } from '../../src/index/index.js';
import { Lz4DictEncoder, lz4Decode, MAX_OFFSET } from '../../src/index/segment/lz4-block.js';
import { wasmDecodeDoc, wasmMemoryBytes, WASM_MAX_DOC_BYTES } from '../../src/index/segment/lz4-wasm.js';
import { BlockCodec, decompressBlock } from '../../src/index/segment/source-codec.js';
import { decodeBlock, type StoredFieldsSections } from '../../src/index/segment/stored-fields.js';
import { FORMAT3_BLOCK_BASE64, FORMAT3_BLOCK_DICTIONARY, FORMAT3_BLOCK_DOCS, FORMAT3_SEGMENT_BASE64, FORMAT3_TEXTS } from './format3-lz4-fixtures.js';
import { xorshiftBytes } from '../support/random-bytes.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { text: { type: 'text' }, n: { type: 'long' } } });

const utf8 = (s: string) => new Uint8Array(Buffer.from(s));
const WORDS = 'the quick brown fox jumps över the lazy dög 東京 タワー 🦊 naïve café'.split(' ');
function text(words: number, seed: number): string {
  let x = seed;
  return Array.from({ length: words }, () => WORDS[(x = (x * 1103515245 + 12345) >>> 0) % WORDS.length]).join(' ');
}

/** Encodes `doc` and decodes it with both decoders; returns the LZ4 size. */
function roundTrip(encoder: Lz4DictEncoder, dictionary: Uint8Array, doc: Uint8Array): number {
  const block = encoder.encode(doc).slice();
  const js = new Uint8Array(doc.length);
  lz4Decode(block, 0, block.length, dictionary, js, doc.length);
  expect(Buffer.compare(js, doc)).toBe(0);
  if (doc.length <= WASM_MAX_DOC_BYTES) {
    const start = wasmDecodeDoc(block, 0, block.length, dictionary, doc.length);
    expect(Buffer.compare(wasmMemoryBytes().subarray(start, start + doc.length), doc)).toBe(0);
  }
  return block.length;
}

beforeEach(() => clearStoredFieldsCache());

describe('LZ4 with a preset dictionary', () => {
  const dictionary = utf8(Array.from({ length: 200 }, (_, i) => `{"text":"${text(12, i)}","n":${i}}`).join(''));

  it('round-trips documents of every shape through both decoders', () => {
    const encoder = new Lz4DictEncoder(dictionary);
    const plain = new Lz4DictEncoder(new Uint8Array(0));
    const docs = [
      new Uint8Array(0),
      utf8('x'),
      utf8('{"n":1}'),
      utf8(`{"text":"${text(30, 7)}","n":7}`),
      utf8('a'.repeat(1000)), // overlapping matches at offset 1
      utf8('abcdefg'.repeat(300)), // offset 7: shorter than a copy step
      xorshiftBytes(3000),
      utf8(`{"text":"${text(20_000, 3)}"}`), // larger than the LZ4 window
    ];
    for (const doc of docs) {
      roundTrip(encoder, dictionary, doc);
      roundTrip(plain, new Uint8Array(0), doc);
    }
    // The dictionary is what makes a short document compress.
    const short = utf8(`{"text":"${text(30, 11)}","n":11}`);
    expect(roundTrip(encoder, dictionary, short)).toBeLessThan(roundTrip(plain, new Uint8Array(0), short) * 0.75);
  });

  it('encodes each block against the dictionary alone, whatever came before it', () => {
    const encoder = new Lz4DictEncoder(dictionary);
    const doc = utf8(`{"text":"${text(25, 5)}","n":5}`);
    const first = encoder.encode(doc).slice();
    for (let i = 0; i < 20; i++) roundTrip(encoder, dictionary, utf8(`{"text":"${text(25, 100 + i)}","n":${i}}`));
    expect(Buffer.compare(encoder.encode(doc), first)).toBe(0);
  });

  it('uses only the reachable tail of a dictionary longer than the window', () => {
    const long = utf8(Array.from({ length: 2000 }, (_, i) => `{"text":"${text(12, i)}","n":${i}}`).join(''));
    expect(long.length).toBeGreaterThan(MAX_OFFSET);
    const encoder = new Lz4DictEncoder(long);
    for (let i = 0; i < 10; i++) roundTrip(encoder, long, utf8(`{"text":"${text(40, 500 + i)}","n":${i}}`));
  });

  it('decodes a document over the WebAssembly limit in JS, through the segment reader', () => {
    const big = `{"text":"${text(Math.ceil(WASM_MAX_DOC_BYTES / 4), 9)}"}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(WASM_MAX_DOC_BYTES);
    const builder = new SegmentBuilder(MAPPING, LIMITS);
    builder.add({ id: 'big', source: big, seqNo: 0, version: 1, indexOrder: 0 });
    builder.add({ id: 'small', source: '{"text":"tiny"}', seqNo: 1, version: 1, indexOrder: 1 });
    const seg = openSegment('b', writeSegment(builder.finish()));
    expect(readSource(seg, 0)).toBe(big);
    expect(readSource(seg, 1)).toBe('{"text":"tiny"}');
  });

  it('refuses corrupt blocks in both decoders', () => {
    const encoder = new Lz4DictEncoder(dictionary);
    const doc = utf8(`{"text":"${text(30, 21)}","n":21}`);
    const block = encoder.encode(doc).slice();
    const js = (b: Uint8Array, dict: Uint8Array, length = doc.length) => () => lz4Decode(b, 0, b.length, dict, new Uint8Array(length), length);
    const wasm = (b: Uint8Array, dict: Uint8Array, length = doc.length) => () => wasmDecodeDoc(b, 0, b.length, dict, length);
    for (const decode of [js, wasm]) {
      expect(decode(block, dictionary, doc.length + 1)).toThrow(/corrupt stored fields block/);
      expect(decode(block.subarray(0, block.length - 3), dictionary)).toThrow(/corrupt stored fields block/);
      // Matches reach into a dictionary that is not there.
      expect(decode(block, new Uint8Array(0))).toThrow(/corrupt stored fields block/);
      expect(decode(Uint8Array.of(0xf0, 0xff, 0xff, 0xff), dictionary)).toThrow(/corrupt stored fields block/);
      expect(decode(Uint8Array.of(0x00, 0x00, 0x00), dictionary)).toThrow(/corrupt stored fields block/); // offset 0
    }
  });
});

describe('the WebAssembly decoder', () => {
  it('is lz4-decode.wat as committed (tools/build-lz4-wasm.mjs --check)', () => {
    expect(() => execFileSync(process.execPath, ['tools/build-lz4-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('the default codec in segments', () => {
  function build(texts: readonly string[], id: string) {
    const builder = new SegmentBuilder(MAPPING, LIMITS);
    texts.forEach((source, i) => builder.add({ id: `${id}-${i}`, source, seqNo: i, version: 1, indexOrder: i }));
    return openSegment(id, writeSegment(builder.finish()));
  }

  it('one LZ4 block per doc with a dictionary; more segments than dictionary slots read right, interleaved', () => {
    const segments = Array.from({ length: 11 }, (_, s) => {
      const texts = Array.from({ length: 4100 }, (_, i) => `{"text":"${text(8 + (i % 20), s * 10_000 + i)}","n":${i}}`);
      return { seg: build(texts, `s${s}`), texts };
    });
    const { seg } = segments[0];
    expect(seg.storedFields!.dictionary.length).toBeGreaterThan(32 * 1024);
    expect([...seg.storedFields!.blockDocs]).toEqual([4100]);
    expect(seg.storedFields!.blocks[seg.storedFields!.blockOffsets[0]]).toBe(BlockCodec.Lz4Doc);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4100; i += 37) {
        for (const { seg: s, texts } of segments) expect(readSource(s, i)).toBe(texts[i]);
      }
    }
  });
});

describe('format 3 LZ4 blocks (written by lz4js)', () => {
  it('a format 3 segment of 4-doc LZ4 blocks reads, and merges into the current format', () => {
    const bytes = Buffer.from(FORMAT3_SEGMENT_BASE64, 'base64');
    const sab = new SharedArrayBuffer(bytes.length);
    new Uint8Array(sab).set(bytes);
    const old = openSegment('old', sab);
    expect(new Uint32Array(sab, 0, 4)[1]).toBe(3);
    expect(old.storedFields!.blocks[0]).toBe(BlockCodec.Lz4);
    expect(old.storedFields!.blockDocs.length).toBeGreaterThan(2);
    for (let d = 0; d < FORMAT3_TEXTS.length; d++) expect(readSource(old, d)).toBe(FORMAT3_TEXTS[d]);
    const merged = openSegment('m', writeSegment(mergeSegments([{ segment: old, liveDocs: null }])));
    expect(new Uint32Array(merged.sab, 0, 4)[1]).toBe(FORMAT_VERSION);
    for (let d = 0; d < FORMAT3_TEXTS.length; d++) expect(readSource(merged, d)).toBe(FORMAT3_TEXTS[d]);
  });

  it('an LZ4 4-doc block against a dictionary decodes', () => {
    const block = new Uint8Array(Buffer.from(FORMAT3_BLOCK_BASE64, 'base64'));
    expect(block[0]).toBe(BlockCodec.Lz4);
    const dictionary = utf8(FORMAT3_BLOCK_DICTIONARY);
    const sections: StoredFieldsSections = { blockDocs: Uint32Array.of(0, 4), blockOffsets: Uint32Array.of(0, block.length), blocks: block, dictionary };
    const decoded = decodeBlock(sections, 0);
    FORMAT3_BLOCK_DOCS.forEach((doc, i) => expect(decoded.bytes.toString('utf8', decoded.starts[i], decoded.starts[i + 1])).toBe(doc));
    expect(() => decompressBlock(block, new Uint8Array(0))).toThrow(/corrupt stored fields block/);
  });
});
