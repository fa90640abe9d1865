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
import { GrowableUint32 } from '../../src/index/segment/growable.js';

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
