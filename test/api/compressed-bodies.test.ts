/**
 * Compressed request bodies (`Content-Encoding: gzip | deflate | br`) that inflate to a large body
 * are inflated, decoded and parsed in the body worker (cluster/body-pool.ts): the main thread hands
 * over the compressed bytes as sent, never holds the decoded text unless a route reads it, and
 * answers exactly as for the same body sent plain — the same values and source, ES's 413 past
 * `http.max_content_length` (counted inflated, as ES's HTTP layer inflates before it aggregates),
 * 400 for a body that does not inflate, errors with the same line/col.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { LARGE_BODY_BYTES } from '../../src/http/server.js';
import { LargeBody } from '../../src/http/large-body.js';
import { BodyPool } from '../../src/cluster/index.js';

const MAX_CONTENT_LENGTH = 4 * 1024 * 1024;
const PAD = 'p'.repeat(LARGE_BODY_BYTES + 1000);
const CODINGS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { maxContentLength: MAX_CONTENT_LENGTH } });
  expect((await t.request('PUT', '/docs', { mappings: { properties: { title: { type: 'text' }, d: { type: 'date' } } } })).status).toBe(200);
});
afterAll(async () => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Sends `body` compressed with `coding`; the JSON answer. */
async function send(method: string, url: string, body: string | Buffer, coding: keyof typeof CODINGS | null) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const res = await t.app.http.app.inject({
    method: method as never, url, payload: coding === null ? bytes : CODINGS[coding](bytes),
    headers: { 'content-type': 'application/json', ...(coding === null ? {} : { 'content-encoding': coding }) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('a compressed body that inflates to a large one reads as the same body sent plain', () => {
  it.each(Object.keys(CODINGS) as Array<keyof typeof CODINGS>)('%s: the document is indexed with its source byte for byte', async (coding) => {
    const source = `{"title":"compressed ${coding}","pad":"${PAD}"}`;
    expect((await send('PUT', `/docs/_doc/${coding}?refresh=true`, source, coding)).status).toBe(201);
    const got = await t.app.http.app.inject({ method: 'GET', url: `/docs/_source/${coding}` });
    expect(got.body).toBe(source);
  });

  it('the main thread hands the worker the compressed bytes, and decodes no text for a search that fails', async () => {
    const read = vi.spyOn(BodyPool.prototype, 'read');
    const decode = vi.spyOn(LargeBody.prototype, 'decode');
    const query = JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(3 * 1024 * 1024) } } } });
    const res = await send('POST', '/docs/_search', query, 'gzip');
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].reason).toMatch(/^failed to create query: failed to parse date field \[y{100}\.\.\.\]/);
    expect(read).toHaveBeenCalledTimes(1);
    const [bytes, coding] = read.mock.calls[0];
    expect(coding).toBe('gzip');
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    expect(decode).not.toHaveBeenCalled();
  });

  it('a small compressed body is inflated on the main thread, with no worker round trip', async () => {
    const read = vi.spyOn(BodyPool.prototype, 'read');
    const res = await send('POST', '/docs/_search', JSON.stringify({ query: { match: { title: 'compressed' } } }), 'gzip');
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(3);
    expect(read).not.toHaveBeenCalled();
  });

  it('an unknown key after a large value: the same parsing_exception at the same line/col as sent plain', async () => {
    const body = (pad: string) => `{"query":{"match":{"title":"x"}},\n"pad":"${pad}",\n"size":1}`;
    const plain = await send('POST', '/docs/_search', body('x'), null);
    const large = await send('POST', '/docs/_search', body(PAD), 'gzip');
    expect(large.status).toBe(400);
    expect(large.body.error).toMatchObject({ type: 'parsing_exception', reason: 'Unknown key for a VALUE_STRING in [pad].' });
    expect([large.body.error.line, large.body.error.col]).toEqual([plain.body.error.line, plain.body.error.col]);
  });
});

describe('limits and corrupt input', () => {
  it('past http.max_content_length once inflated: 413 content_too_long_exception, though a few KB were sent', async () => {
    const bomb = gzipSync(Buffer.from(`{"pad":"${'0'.repeat(MAX_CONTENT_LENGTH)}"}`));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await t.app.http.app.inject({ method: 'POST', url: '/docs/_search', payload: bomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ type: 'content_too_long_exception', reason: `entity content is too long for the configured buffer limit [${MAX_CONTENT_LENGTH}]` });
  });

  it('a limit below the size the worker takes over at: still 413 past it, once inflated', async () => {
    const small = await createTestApp({ config: { maxContentLength: 4096 } });
    try {
      const res = await small.app.http.app.inject({
        method: 'POST', url: '/_search', payload: gzipSync(`{"query":{"match_all":{}},"pad":"${'0'.repeat(5000)}"}`), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(413);
      expect(JSON.parse(res.body).error.type).toBe('content_too_long_exception');
    } finally {
      await small.close();
    }
  });

  it('a gzip body corrupt after its first megabytes (worker) or at its start (main thread): 400, failed to decompress', async () => {
    // Varied text so the compressed stream is long, then a flipped byte near its end: the checksum fails.
    const text = `{"pad":"${Array.from({ length: 300_000 }, (_, i) => (i * 2654435761) % 1000003).join(' ')}"}`;
    const late = gzipSync(text);
    late[late.length - 100] ^= 0xff;
    const early = Buffer.from('not gzip at all');
    for (const payload of [late, early]) {
      const res = await t.app.http.app.inject({ method: 'POST', url: '/docs/_search', payload, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).error).toMatchObject({ type: 'illegal_argument_exception', reason: expect.stringMatching(/^failed to decompress the request body: /) });
    }
  });
});
