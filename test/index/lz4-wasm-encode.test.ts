/**
 * The build-time WebAssembly LZ4 encoder (lz4-encode.wat through lz4-wasm-encode.ts) writes exactly
 * the bytes of the JS encoder (lz4-block.ts Lz4DictEncoder), which it replaces for documents up to
 * 64 KB: short text docs against a sampled dictionary, tiny and empty docs, long literal runs and
 * long matches (the length bytes past 15 and 255), incompressible bytes, a dictionary longer than
 * the LZ4 window, no dictionary, documents over its limit (the JS fallback), and two encoders
 * used in turn on one thread. Each block also decodes back to its document.
 */
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { Lz4DictEncoder, lz4Decode } from '../../src/index/segment/lz4-block.js';
import { Lz4DocEncoder } from '../../src/index/segment/lz4-wasm-encode.js';
import { xorshiftBytes } from '../support/random-bytes.js';

const WORDS = 'the quick brown fox jumps över the lazy dög 東京 タワー 🦊 naïve café teabrer shear wou koubrin'.split(' ');
function doc(words: number, seed: number): Uint8Array {
  let x = seed;
  const text = Array.from({ length: words }, () => WORDS[(x = (x * 1103515245 + 12345) >>> 0) % WORDS.length]).join(' ');
  return new Uint8Array(Buffer.from(JSON.stringify({ text })));
}

function dictionaryOf(docs: Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let pos = 0;
  for (let i = 0; pos < bytes; i = (i + 7) % docs.length) {
    const n = Math.min(docs[i].length, 1000, bytes - pos);
    out.set(docs[i].subarray(0, n), pos);
    pos += n;
  }
  return out;
}

/** Encodes every doc with both encoders: the same bytes, and each block decodes back to its doc. */
function expectSameBlocks(dictionary: Uint8Array, docs: Uint8Array[]): void {
  const js = new Lz4DictEncoder(dictionary);
  const wasm = new Lz4DocEncoder(dictionary);
  for (const d of docs) {
    const expected = js.encode(d).slice();
    const actual = wasm.encode(d);
    expect(Buffer.from(actual).equals(Buffer.from(expected))).toBe(true);
    const back = new Uint8Array(d.length);
    lz4Decode(actual, 0, actual.length, dictionary.length > 65535 ? dictionary.subarray(dictionary.length - 65535) : dictionary, back, d.length);
    expect(Buffer.from(back).equals(Buffer.from(d))).toBe(true);
  }
}

describe('the WebAssembly LZ4 encoder', () => {
  const docs = Array.from({ length: 2000 }, (_, i) => doc(5 + (i % 60), i + 1));

  it('writes the JS encoder\'s bytes for short text documents against a sampled dictionary', () => {
    expectSameBlocks(dictionaryOf(docs, 63 * 1024), docs);
  });

  it('writes the same bytes for empty, tiny and near-the-end-limit documents', () => {
    const small = [new Uint8Array(0), ...Array.from({ length: 20 }, (_, n) => docs[n].subarray(0, n)), docs[3].subarray(0, 13)];
    expectSameBlocks(dictionaryOf(docs, 4096), small);
  });

  it('writes the same bytes for long literal runs, long and overlapping matches, and incompressible bytes', () => {
    const repeated = new Uint8Array(70_000 - 6000).fill(97);
    const mixed = new Uint8Array(Buffer.concat([Buffer.from(xorshiftBytes(300, 7)), Buffer.alloc(600, 98), Buffer.from(xorshiftBytes(5000, 9)), Buffer.from(docs[1]), Buffer.alloc(40, 99)]));
    expectSameBlocks(dictionaryOf(docs, 63 * 1024), [xorshiftBytes(300), xorshiftBytes(20_000, 5), repeated, mixed, docs[0]]);
  });

  it('writes the same bytes with no dictionary and with one longer than the LZ4 window', () => {
    expectSameBlocks(new Uint8Array(0), docs.slice(0, 200));
    expectSameBlocks(dictionaryOf(docs, 100_000), docs.slice(200, 400));
  });

  it('hands documents over 64 KB to the JS encoder, and goes on with the short ones after', () => {
    const big = new Uint8Array(Buffer.concat(Array.from({ length: 400 }, (_, i) => Buffer.from(docs[i]))));
    expect(big.length).toBeGreaterThan(65536);
    expectSameBlocks(dictionaryOf(docs, 63 * 1024), [docs[0], big, docs[1], xorshiftBytes(70_000, 3), docs[2]]);
  });

  it('keeps two encoders on one thread apart when they are used in turn', () => {
    const dictA = dictionaryOf(docs.slice(0, 1000), 63 * 1024);
    const dictB = dictionaryOf(docs.slice(1000), 20_000);
    const jsA = new Lz4DictEncoder(dictA);
    const jsB = new Lz4DictEncoder(dictB);
    const a = new Lz4DocEncoder(dictA);
    const b = new Lz4DocEncoder(dictB);
    for (let i = 0; i < 300; i++) {
      const [js, wasm] = i % 3 === 0 ? [jsB, b] : [jsA, a];
      expect(Buffer.from(wasm.encode(docs[i])).equals(Buffer.from(js.encode(docs[i])))).toBe(true);
    }
  });
});
