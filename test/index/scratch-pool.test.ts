/**
 * The build workers take a segment build's transient arrays from a ScratchPool
 * (index/segment/scratch-pool.ts) and reuse them build after build. Reused buffers hold the previous
 * build's bytes, so a segment built in a pool that has served other builds must be byte for byte
 * the segment built with fresh arrays — which also shows that nothing of the scratch escapes into
 * the SharedArrayBuffer's contents or is read before it is written. The same for merges, which the
 * workers run in the pool too.
 */
import { describe, expect, it } from 'vitest';
import { ScratchPool, SegmentBuilder, mergeSegments, openSegment, parseRootMapping, withScratchPool, writeSegment } from '../../src/index/index.js';
import { scratchUint32, releaseScratch } from '../../src/index/segment/scratch-pool.js';
import { GrowableNarrow, GrowableUint32 } from '../../src/index/segment/growable.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({
  properties: { text: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' }, f: { type: 'rank_features' }, s: { type: 'completion' } },
});

/** Deterministic docs; `seed` changes the words, so two seeds give differently sized arrays. */
function docs(count: number, seed: number) {
  let x = seed * 7919 + 1;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 8 + (next() % 20) }, () => `w${next() % (3000 + seed * 500)}`);
    const source = { text: words.join(' '), tag: [`t${next() % 50}`, `t${next() % 50}`], n: next() % 1000, f: { [`k${next() % 40}`]: 1 + (next() % 9) }, s: words[0] };
    return { id: `${seed}-${i}`, source: JSON.stringify(source), seqNo: i, version: 1, indexOrder: i };
  });
}

function buildInput(batch: ReturnType<typeof docs>) {
  const builder = new SegmentBuilder(MAPPING, LIMITS);
  for (const d of batch) builder.add(d);
  return builder.finish();
}

function build(batch: ReturnType<typeof docs>): Uint8Array {
  return new Uint8Array(writeSegment(buildInput(batch)).slice(0));
}

describe('ScratchPool', () => {
  it('builds in a reused pool the very bytes a build with fresh arrays gives', () => {
    const a = docs(3000, 1);
    const b = docs(2000, 2);
    const expectedA = build(a);
    const expectedB = build(b);
    const pool = new ScratchPool();
    // A, B, A again: the later builds run on buffers the earlier ones dirtied.
    expect(Buffer.compare(withScratchPool(pool, () => build(a)), expectedA)).toBe(0);
    expect(pool.retainedBytes).toBeGreaterThan(1 << 20);
    expect(Buffer.compare(withScratchPool(pool, () => build(b)), expectedB)).toBe(0);
    expect(Buffer.compare(withScratchPool(pool, () => build(a)), expectedA)).toBe(0);
  });

  it('builds long documents (positions past a byte and past 16 bits) in a reused pool to the bytes of fresh arrays', () => {
    // The position log widens u8 → u16 → u32 as it goes, and each phase gives its arrays back for
    // the next to reuse within the build: a buffer given back while still read would show here.
    const long = (n: number, seed: number) => docs(n, seed).map((d, i) => {
      const source = JSON.parse(d.source) as { text: string };
      const repeat = i === 0 ? 7000 : i % 10 === 0 ? 30 : 1;
      return { ...d, source: JSON.stringify({ ...source, text: Array.from({ length: repeat }, () => source.text).join(' ') }) };
    });
    for (const batch of [long(1500, 6), long(1200, 7).slice(1)]) {
      const expected = build(batch);
      const pool = new ScratchPool();
      withScratchPool(pool, () => build(docs(3000, 8)));
      expect(Buffer.compare(withScratchPool(pool, () => build(batch)), expected)).toBe(0);
      expect(Buffer.compare(withScratchPool(pool, () => build(batch)), expected)).toBe(0);
    }
  });

  it('keeps a position log in the narrowest type that holds it', () => {
    const withPool = (fn: () => void) => withScratchPool(new ScratchPool(), fn);
    for (const run of [withPool, (fn: () => void) => fn()]) {
      run(() => {
        const g = new GrowableNarrow(4);
        const values = [3, 255, 0, 256, 65535, 65536, 7, 2 ** 32 - 1];
        const types: string[] = [];
        for (const v of values) {
          g.push(v);
          types.push(g.data.constructor.name);
        }
        for (let i = 0; i < 100_000; i++) g.push(i & 0xff); // grows past the pool's threshold
        expect(types).toEqual(['Uint8Array', 'Uint8Array', 'Uint8Array', 'Uint16Array', 'Uint16Array', 'Uint32Array', 'Uint32Array', 'Uint32Array']);
        expect(Array.from(g.data.subarray(0, values.length))).toEqual(values);
        expect(g.length).toBe(values.length + 100_000);
        expect(g.data[g.length - 1]).toBe(99_999 & 0xff);
        g.release();
        expect(g.length).toBe(0);
      });
    }
  });

  it('merges in a reused pool to the very bytes of a merge with fresh arrays', () => {
    const sources = [docs(2500, 3), docs(1500, 4)].map((batch, i) => ({ segment: openSegment(`s${i}`, writeSegment(buildInput(batch))), liveDocs: null }));
    const merge = () => new Uint8Array(writeSegment(mergeSegments(sources)).slice(0));
    const expected = merge();
    const pool = new ScratchPool();
    withScratchPool(pool, () => build(docs(3000, 5)));
    expect(Buffer.compare(withScratchPool(pool, merge), expected)).toBe(0);
    expect(Buffer.compare(withScratchPool(pool, merge), expected)).toBe(0);
  });

  it('hands back the same buffers from scope to scope, zero-filled unless asked not to', () => {
    const pool = new ScratchPool();
    const first = withScratchPool(pool, () => {
      const a = scratchUint32(100_000);
      a.fill(7);
      return a.buffer;
    });
    withScratchPool(pool, () => {
      const a = scratchUint32(90_000);
      expect(a.buffer).toBe(first);
      expect(a.length).toBe(90_000);
      expect(a.every((v) => v === 0)).toBe(true);
    });
  });

  it('reuses an outgrown array within the scope, and leaves small arrays and other scopes alone', () => {
    const pool = new ScratchPool();
    withScratchPool(pool, () => {
      const g = new GrowableUint32(1 << 15);
      const before = g.data.buffer;
      for (let i = 0; i <= 1 << 15; i++) g.push(i);
      expect(g.data.buffer).not.toBe(before);
      expect(scratchUint32(1 << 15, false).buffer).toBe(before);
      expect(Array.from(g.toArray().subarray(-2))).toEqual([(1 << 15) - 1, 1 << 15]);
      const small = scratchUint32(16);
      releaseScratch(small);
      expect(pool.owns(small.buffer)).toBe(false);
    });
    // Outside any scope: plain arrays, and toArray copies.
    const g = new GrowableUint32(1 << 15);
    g.push(1);
    expect(g.toArray().buffer).not.toBe(g.data.buffer);
  });

  it('keeps at most its cap between scopes, and nothing after clear()', () => {
    const pool = new ScratchPool(1 << 20);
    withScratchPool(pool, () => {
      for (let i = 0; i < 8; i++) scratchUint32(1 << 17); // 8 × 512 KB
    });
    expect(pool.retainedBytes).toBe(1 << 20);
    pool.clear();
    expect(pool.retainedBytes).toBe(0);
  });

  it('returns the buffers when the build throws', () => {
    const pool = new ScratchPool();
    expect(() => withScratchPool(pool, () => {
      scratchUint32(1 << 16);
      throw new Error('boom');
    })).toThrow('boom');
    expect(pool.retainedBytes).toBe(1 << 18);
  });
});
