/**
 * The indexing buffer keeps `_source` as UTF-8 bytes in pooled chunks (cluster/indices/indexing-buffer.ts):
 * what a realtime read and a build task get back must be the text as written, whatever its
 * characters and size, and the version map must say which copy of an id is live.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { IndexingBuffer } from '../../src/cluster/indices/indexing-buffer.js';

const SOURCES = [
  '{"a":1}',
  '{"t":"héllo wörld — ünïcödé"}',
  '{"emoji":"😀 𝄞 surrogate pairs"}',
  '\uFEFF{"bom":true}',
  '{"cjk":"日本語のテキスト"}',
  '{"lone":"a\uD800b"}', // a lone surrogate: the bytes hold U+FFFD, as the translog's would
  '',
  `{"long":"${'x'.repeat(3 << 20)}"}`, // larger than a chunk
  `{"big":"${'é'.repeat(600_000)}"}`, // larger than a chunk once UTF-8
];

/** The columns' sources as the worker reads them (workers/build-segment.ts): each run decoded at once and sliced, checked against each doc decoded from its own bytes. */
function columnsText(buf: IndexingBuffer, slots: Uint32Array, from: number, to: number): string[] {
  const { sourceChunks, sourceRuns: runs, runFirstDoc, sourceOffsets, sourceCharOffsets } = buf.buildColumns(slots, from, to);
  const out: string[] = [];
  for (let r = 0; r + 1 < runFirstDoc.length; r++) {
    const chunk = Buffer.from(sourceChunks[runs[3 * r]]);
    const first = runFirstDoc[r];
    const text = chunk.toString('utf8', runs[3 * r + 1], runs[3 * r + 2]);
    expect(text.length).toBe(sourceCharOffsets[runFirstDoc[r + 1]] - sourceCharOffsets[first]);
    const byteBase = runs[3 * r + 1] - sourceOffsets[first];
    for (let i = first; i < runFirstDoc[r + 1]; i++) {
      const each = chunk.toString('utf8', byteBase + sourceOffsets[i], byteBase + sourceOffsets[i + 1]);
      expect(text.slice(sourceCharOffsets[i] - sourceCharOffsets[first], sourceCharOffsets[i + 1] - sourceCharOffsets[first])).toBe(each);
      out.push(each);
    }
  }
  expect(out.length).toBe(to - from);
  return out;
}

describe('IndexingBuffer', () => {
  it('gives back every source as written, from realtime reads and from build columns', () => {
    const buf = new IndexingBuffer();
    // Many small docs between the odd ones, so chunks fill and roll over.
    const written: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const s = i % 2500 === 0 ? SOURCES[(i / 2500) % SOURCES.length] : `{"n":${i},"s":"doc ${i} ${'y'.repeat(i % 300)}"}`;
      written.push(Buffer.from(s, 'utf8').toString('utf8')); // as written (a lone surrogate comes back as U+FFFD, as from the translog)
      buf.addDoc(`id${i}`, s, i, 1, i);
    }
    for (let i = 0; i < written.length; i++) expect(buf.lookup(`id${i}`)).toEqual({ exists: true, version: 1, seqNo: i, source: written[i] });
    const slots = buf.liveSlots();
    expect(slots.length).toBe(written.length);
    expect(buf.sourceChars(slots)).toBe(written.reduce((n, s) => n + s.length, 0));
    expect([...columnsText(buf, slots, 0, 7000), ...columnsText(buf, slots, 7000, written.length)]).toEqual(written);
    const { ids, numbers } = buf.buildColumns(slots, 10, 13);
    expect(ids).toEqual(['id10', 'id11', 'id12']);
    expect([...numbers]).toEqual([10, 11, 12, 1, 1, 1, 10, 11, 12]);
    buf.releaseChunks();
  });

  it('builds only the latest copy of each id; a delete hides it', () => {
    const buf = new IndexingBuffer();
    buf.addDoc('a', '{"v":1}', 0, 1, 0);
    buf.addDoc('b', '{"v":1}', 1, 1, 1);
    buf.addDoc('a', '{"v":2}', 2, 2, 2);
    buf.addDelete('b', 3, 2);
    buf.addDoc('c', '{"v":1}', 4, 1, 3);
    expect(buf.lookup('a')).toEqual({ exists: true, version: 2, seqNo: 2, source: '{"v":2}' });
    expect(buf.lookup('b')).toEqual({ exists: false, version: 2, seqNo: 3, source: null });
    expect(buf.lookup('z')).toBeNull();
    expect(buf.holds('a')).toBe(true);
    expect(buf.holds('b')).toBe(false);
    expect([...buf.liveSlots()]).toEqual([2, 3]); // a delete takes no slot
  });

  it('a failed refresh: the captured buffer takes the newer writes behind its own, and theirs win', () => {
    const captured = new IndexingBuffer();
    captured.addDoc('a', '{"v":1}', 0, 1, 0);
    captured.addDoc('b', '{"v":"ü1"}', 1, 1, 1);
    captured.addDoc('c', '{"v":1}', 2, 1, 2);
    captured.deletes.set('c', 2);
    const newer = new IndexingBuffer();
    newer.addDoc('a', '{"v":"ä2"}', 3, 2, 3);
    newer.addDelete('b', 4, 2);
    newer.addDoc('d', '{"v":1}', 5, 1, 4);
    newer.deletes.set('a', 3);
    newer.deletes.set('c', 6);
    const merged = captured.absorb(newer);
    expect(merged.lookup('a')).toEqual({ exists: true, version: 2, seqNo: 3, source: '{"v":"ä2"}' });
    expect(merged.lookup('b')).toEqual({ exists: false, version: 2, seqNo: 4, source: null });
    expect(merged.lookup('c')?.source).toBe('{"v":1}');
    expect(merged.lookup('d')?.source).toBe('{"v":1}');
    const slots = merged.liveSlots();
    expect(slots.length).toBe(3);
    expect(columnsText(merged, slots, 0, 3)).toEqual(['{"v":1}', '{"v":"ä2"}', '{"v":1}']);
    expect(merged.buildColumns(slots, 0, 3).ids).toEqual(['c', 'a', 'd']);
    expect([...merged.deletes]).toEqual([['c', 6], ['a', 3]]);
  });
});
