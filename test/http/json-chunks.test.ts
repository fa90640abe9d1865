/**
 * A large response as 64 KB chunks (http/json-chunks.ts): the same text as JSON.stringify of the
 * whole, in chunks no larger than JSON_CHUNK_BYTES unless one non-ASCII piece is larger by itself.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JSON_CHUNK_BYTES, jsonChunksOf } from '../../src/http/json-chunks.js';

const bulkItem = (i: number, text = '') => ({ index: { _index: 'bulk', _id: `doc${i}${text}`, _version: 1, result: 'created', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: i, status: 201 } });

function check(items: unknown[]): Buffer[] {
  const chunks = jsonChunksOf('{"took":1,"errors":false,"items":[', items, ']}');
  const expected = JSON.stringify({ took: 1, errors: false, items });
  expect(chunks.toString()).toBe(expected);
  expect(chunks.byteLength).toBe(Buffer.byteLength(expected));
  expect(Buffer.concat(chunks.chunks as Buffer[]).toString('utf8')).toBe(expected);
  return chunks.chunks as Buffer[];
}

describe('jsonChunksOf', () => {
  it('renders no items, one, and thousands (ASCII split across 64 KB chunks) as JSON.stringify does', () => {
    expect(check([])).toHaveLength(1);
    expect(check([bulkItem(1)])).toHaveLength(1);
    const many = check(Array.from({ length: 5000 }, (_, i) => bulkItem(i)));
    expect(many.length).toBeGreaterThan(5);
    expect(many.every((c) => c.length <= JSON_CHUNK_BYTES)).toBe(true);
    expect(many.slice(0, -1).every((c) => c.length === JSON_CHUNK_BYTES)).toBe(true);
  });

  it('keeps non-ASCII text whole (a piece larger than a chunk gets its own) and escapes as JSON.stringify', () => {
    const chunks = check(Array.from({ length: 3000 }, (_, i) => bulkItem(i, i % 7 === 0 ? 'é日本😀\u2028"\\' : '')));
    expect(chunks.every((c) => c.length <= JSON_CHUNK_BYTES)).toBe(true);
    const huge = check([bulkItem(1), { error: { reason: 'ü'.repeat(100_000) } }, bulkItem(2)]);
    expect(Math.max(...huge.map((c) => c.length))).toBeGreaterThan(JSON_CHUNK_BYTES);
  });

  it('sends one chunk as a buffer and more as a stream of them', async () => {
    expect(Buffer.isBuffer(jsonChunksOf('[', [1, 2], ']').payload())).toBe(true);
    const big = jsonChunksOf('[', Array.from({ length: 20_000 }, (_, i) => bulkItem(i)), ']');
    const payload = big.payload();
    expect(payload).toBeInstanceOf(Readable);
    const read: Buffer[] = [];
    for await (const c of payload as Readable) read.push(c as Buffer);
    expect(Buffer.concat(read).toString('utf8')).toBe(big.toString());
  });
});
