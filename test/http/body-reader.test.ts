/**
 * Large NDJSON bodies read into reused buffers (http/body-reader.ts): concurrent `_bulk` requests
 * over real sockets each index their own documents, a buffer goes back once its response has been
 * written and the next bodies are read into it, and the limits, errors and other bodies are what
 * fastify's own reading gave.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { dropFreeBodyBuffers, freeBodyBufferBytes, freeBodyBuffers, giveBodyBuffer, POOLED_BODY_MAX_BYTES, POOLED_BODY_MIN_BYTES, readBody, releaseBodyOnFinish } from '../../src/http/body-reader.js';

let t: TestApp;
let url = '';
const DOCS = 2_500;

/** A `_bulk` body of DOCS documents whose ids and texts name request `n` (~350 KB: read into a reused buffer). */
function bulkBody(n: number): string {
  let out = '';
  for (let i = 0; i < DOCS; i++) out += `{"index":{"_index":"reuse","_id":"r${n}-${i}"}}\n${JSON.stringify({ n, i, text: `request ${n} document ${i} ${'é日'.repeat(i % 5)} ${'x'.repeat(80)}` })}\n`;
  return out;
}

async function bulk(n: number, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bulkBody(n), ...init });
  return { status: res.status, body: await res.json() };
}

async function expectIndexed(n: number, res: { status: number; body: any }): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.body.errors).toBe(false);
  expect(res.body.items).toHaveLength(DOCS);
  expect(res.body.items.map((it: any) => it.index._id)).toEqual(Array.from({ length: DOCS }, (_, i) => `r${n}-${i}`));
  const ids = [0, 1, 777, DOCS - 1].map((i) => `r${n}-${i}`);
  const got = await t.request('POST', '/reuse/_mget', { ids });
  expect(got.body.docs.map((d: any) => d._source)).toEqual([0, 1, 777, DOCS - 1].map((i) => JSON.parse(bulkBody(n).split('\n')[2 * i + 1])));
}

beforeAll(async () => {
  t = await createTestApp({ config: { maxContentLength: 2 * 1024 * 1024 } });
  url = await t.listen();
  expect(Buffer.byteLength(bulkBody(0))).toBeGreaterThan(POOLED_BODY_MIN_BYTES);
});
afterAll(async () => t.close());

describe('large NDJSON bodies in reused buffers', () => {
  it('indexes concurrent requests each from its own bytes, and reads later bodies into the buffers given back', async () => {
    const first = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => bulk(n)));
    for (const [n, res] of first.entries()) await expectIndexed(n, res);
    expect(freeBodyBuffers()).toBeGreaterThan(0);
    for (let round = 1; round <= 3; round++) {
      const ns = [round * 10, round * 10 + 1, round * 10 + 2];
      const again = await Promise.all(ns.map((n) => bulk(n)));
      for (const [k, res] of again.entries()) await expectIndexed(ns[k], res);
    }
    expect(freeBodyBuffers()).toBeGreaterThan(0);
    expect(freeBodyBuffers()).toBeLessThanOrEqual(4);
  });

  it('answers a body past the limit with 413 and a gzip body as before', async () => {
    const big = bulkBody(90).repeat(7);
    const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: big });
    expect(res.status).toBe(413);
    const gz = await bulk(91, { headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }, body: gzipSync(bulkBody(91)) });
    await expectIndexed(91, gz);
  });

  it('fails a malformed line of a large body as a small body with it fails, and indexes the next bodies from the same buffers', async () => {
    const broken = (text: string) => text.replace('{"index":{"_index":"reuse","_id":"r92-5"}}', '{"index":{"_index":"reuse","_id":"r92-5"}');
    const send = (body: string) => fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
    const large = await send(broken(bulkBody(92)));
    const small = await send(broken(bulkBody(92).split('\n').slice(0, 20).join('\n') + '\n'));
    expect(large.status).toBe(small.status);
    expect(await large.json()).toEqual(await small.json());
    await expectIndexed(93, await bulk(93));
  });

  it('reads a large JSON body on another route as before', async () => {
    await t.request('POST', '/reuse/_refresh');
    const body = `{"query":{"ids":{"values":["r0-1"]}},${' '.repeat(POOLED_BODY_MIN_BYTES)}"size":1}`;
    const res = await fetch(`${url}/reuse/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect((await res.json()).hits.hits[0]._id).toBe('r0-1');
  });

  it('holds a reused buffer until the response is written, and reads into it only then', async () => {
    const read = (text: string) => new Promise<{ bytes: Buffer; pooled: Buffer | null }>((resolve, reject) => {
      const raw = new PassThrough();
      const req = { raw, headers: { 'content-length': String(Buffer.byteLength(text)) } } as unknown as FastifyRequest;
      readBody(req, raw, 8 * 1024 * 1024, true, (error, bytes, pooled) => (error ? reject(error) : resolve({ bytes: bytes!, pooled })));
      for (let at = 0; at < text.length; at += 65_536) raw.write(text.slice(at, at + 65_536));
      raw.end();
    });
    const a = await read(bulkBody(100));
    expect(a.pooled).not.toBeNull();
    expect(a.bytes.toString('utf8') === bulkBody(100)).toBe(true);
    const free = freeBodyBuffers();
    const res = new EventEmitter() as unknown as ServerResponse;
    releaseBodyOnFinish(a.pooled!, res);
    // Not written yet: another body gets another buffer, and the first keeps its bytes.
    const b = await read(bulkBody(101));
    expect(b.pooled === a.pooled).toBe(false);
    expect(a.bytes.toString('utf8') === bulkBody(100)).toBe(true);
    const held = freeBodyBuffers();
    res.emit('finish');
    expect(freeBodyBuffers()).toBe(Math.min(4, held + 1));
    expect(held).toBeLessThanOrEqual(free);
    const c = await read(bulkBody(102));
    expect(freeBodyBuffers()).toBe(Math.min(4, held + 1) - 1);
    expect(c.bytes.toString('utf8') === bulkBody(102)).toBe(true);
    // Not NDJSON (or too small): read as before, not into a reused buffer.
    const raw = new PassThrough();
    const small = await new Promise<Buffer | null>((resolve) => {
      readBody({ raw, headers: { 'content-length': '2' } } as unknown as FastifyRequest, raw, 100, true, (_e, bytes, pooled) => resolve(pooled ?? bytes));
      raw.end('{}');
    });
    expect(small!.toString()).toBe('{}');
  });

  it('keeps at most four free buffers and 8 MB of them, dropping the smallest', () => {
    for (let i = 0; i < 6; i++) {
      giveBodyBuffer(Buffer.allocUnsafeSlow(POOLED_BODY_MIN_BYTES));
      expect(freeBodyBuffers()).toBeLessThanOrEqual(4);
    }
    for (let i = 0; i < 3; i++) {
      giveBodyBuffer(Buffer.allocUnsafeSlow(POOLED_BODY_MAX_BYTES));
      expect(freeBodyBufferBytes()).toBeLessThanOrEqual(8 * 1024 * 1024);
    }
    // The largest stays: it serves any body a smaller one would.
    expect(freeBodyBuffers()).toBe(1);
    expect(freeBodyBufferBytes()).toBe(POOLED_BODY_MAX_BYTES);
  });

  it('keeps a buffer given back twice once, so two bodies never share it', () => {
    dropFreeBodyBuffers();
    const buffer = Buffer.allocUnsafeSlow(POOLED_BODY_MIN_BYTES);
    giveBodyBuffer(buffer);
    giveBodyBuffer(buffer);
    expect(freeBodyBuffers()).toBe(1);
    giveBodyBuffer(Buffer.allocUnsafeSlow(POOLED_BODY_MIN_BYTES));
    expect(freeBodyBuffers()).toBe(2);
  });
});
