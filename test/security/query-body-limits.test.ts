/**
 * Query DSL bodies are held to `http.max_query_content_length` (413) and `http.max_query_token_count`
 * (Jackson's maxTokenCount, 400 x_content_parse_exception) on every search-type route, whichever
 * thread reads them (a small body on the main thread, a large or compressed one in the body
 * worker); document bodies are not. Issue 15 item 1: a 97 KB gzip body that inflates to 95 MB is
 * refused after the worker has inflated the limit, and the main thread never receives it. Limits
 * are set small here so the bodies stay small; the default ones are checked once.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectErrorType } from '../api/es.js';
import { LARGE_BODY_BYTES } from '../../src/http/server.js';
import { BodyPool } from '../../src/cluster/index.js';
import { gzipStatedSize } from '../../src/common/gzip-trailer.js';

const MAX_QUERY_BYTES = 64 * 1024;
const MAX_TOKENS = 1000;
const tooLong = (limit: number) => `entity content is too long for the configured buffer limit [${limit}]`;
const tokenReason = (at: string, max: number) => `[${at}] Token count (${max + 1}) exceeds the maximum allowed (${max}, from \`StreamReadConstraints.getMaxTokenCount()\`)`;

/** A terms query with `n` values (tokens: 11 + n), `pad` characters of whitespace after its first brace. */
function termsQuery(n: number, pad = 0): string {
  return `{${' '.repeat(pad)}"query":{"terms":{"tag":[${Array.from({ length: n }, (_, i) => `"t${i}"`).join(',')}]}}}`;
}

describe('query body limits (configured small)', () => {
  let t: TestApp;
  const send = (method: string, url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<TestResponse> =>
    t.app.http.app.inject({ method: method as never, url, payload: body, headers: { 'content-type': 'application/json', ...headers } }).then((res) => ({
      status: res.statusCode, headers: res.headers as TestResponse['headers'], body: JSON.parse(res.body || 'null'), text: res.body,
    }));

  beforeAll(async () => {
    t = await createTestApp({ config: { maxQueryContentLength: MAX_QUERY_BYTES, maxQueryTokenCount: MAX_TOKENS } });
    expect((await t.request('PUT', '/docs', { mappings: { properties: { tag: { type: 'keyword' }, body: { type: 'text' } } } })).status).toBe(200);
    expect((await t.request('PUT', '/docs/_doc/1?refresh=true', { tag: 't1' })).status).toBe(201);
  });
  afterAll(async () => t.close());

  it('a query body of exactly the limits is searched; one byte or one token more is refused', async () => {
    // 11 + 989 = 1,000 tokens, padded to exactly 64 KB.
    const atLimit = termsQuery(989);
    const padded = termsQuery(989, MAX_QUERY_BYTES - atLimit.length);
    expect(padded.length).toBe(MAX_QUERY_BYTES);
    const ok = await send('POST', '/docs/_search', padded);
    expect(ok.status).toBe(200);
    expect(ok.body.hits.total.value).toBe(1);
    expectErrorType(await send('POST', '/docs/_search', termsQuery(989, MAX_QUERY_BYTES - atLimit.length + 1)), 413, 'content_too_long_exception', tooLong(MAX_QUERY_BYTES));
    const over = termsQuery(990);
    expectErrorType(await send('POST', '/docs/_search', over), 400, 'x_content_parse_exception', tokenReason(`1:${over.lastIndexOf('}') + 1}`, MAX_TOKENS));
  });

  it('every search-type route holds its body to the limits', async () => {
    const strings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `s${i}`));
    const over = termsQuery(990);
    const routes: Array<[string, string, string]> = [
      ['POST', '/docs/_search', over], ['GET', '/_search', over], ['POST', '/docs/_count', over], ['GET', '/docs/_explain/1', over],
      ['GET', '/docs/_validate/query', over], ['POST', '/docs/_delete_by_query', over], ['POST', '/docs/_update_by_query', over],
      ['POST', '/_reindex', `{"source":{"index":"docs",${over.slice(1, -1)}},"dest":{"index":"copy"}}`],
      ['POST', '/docs/_field_caps?fields=*', `{"index_filter":${over.slice('{"query":'.length, -1)}}`],
      ['POST', '/docs/_rank_eval', `{"requests":[{"id":"a","request":${over},"ratings":[]}]}`],
      // Read requests that are not query DSL but reach the main thread as one value all the same.
      ['POST', '/docs/_mget', `{"ids":${strings(1100)}}`],
      ['POST', '/docs/_termvectors/1', `{"fields":${strings(1100)}}`],
      ['POST', '/docs/_analyze', `{"analyzer":"standard","text":${strings(1100)}}`],
    ];
    for (const [method, url, body] of routes) {
      const res = await send(method, url, body);
      expect([url, res.status, res.body.error?.type]).toEqual([url, 400, 'x_content_parse_exception']);
      expect(res.body.error.reason).toMatch(/Token count \(1001\) exceeds the maximum allowed \(1000, from `StreamReadConstraints.getMaxTokenCount\(\)`\)$/);
    }
    // _msearch: its NDJSON lines together, read on the main thread (gzip inflated as it streams in).
    const msearch = `{}\n${over}\n`;
    for (const headers of [{}, { 'content-encoding': 'gzip' }] as Array<Record<string, string>>) {
      const res = await send('POST', '/docs/_msearch', headers['content-encoding'] ? gzipSync(msearch) : msearch, { 'content-type': 'application/x-ndjson', ...headers });
      // The header line's two tokens count: the 1,001st is the query's first closing brace.
      expectErrorType(res, 400, 'x_content_parse_exception', tokenReason(`2:${over.length - 2}`, MAX_TOKENS));
    }
    const bigMsearch = `{}\n{"query":{"match":{"body":"${'a'.repeat(MAX_QUERY_BYTES)}"}}}\n`;
    expectErrorType(await send('POST', '/_msearch', gzipSync(bigMsearch), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }), 413, 'content_too_long_exception', tooLong(MAX_QUERY_BYTES));
    expectErrorType(await send('POST', '/docs/_count', ' '.repeat(MAX_QUERY_BYTES + 1) + '{}'), 413, 'content_too_long_exception', tooLong(MAX_QUERY_BYTES));
    expectErrorType(await send('POST', '/_search/scroll', `{"scroll_id":"${'a'.repeat(MAX_QUERY_BYTES)}"}`), 413, 'content_too_long_exception', tooLong(MAX_QUERY_BYTES));
  });

  it('the body worker gives the same errors as the main thread: a large body, and a compressed one', async () => {
    // Over a MiB with whitespace, so the worker reads it (the byte limit set past it for this test).
    const big = await createTestApp({ config: { maxQueryContentLength: 4 * LARGE_BODY_BYTES, maxQueryTokenCount: MAX_TOKENS } });
    try {
      const over = termsQuery(990, LARGE_BODY_BYTES);
      const reason = tokenReason(`1:${over.lastIndexOf('}') + 1}`, MAX_TOKENS);
      const plain = await big.app.http.app.inject({ method: 'POST', url: '/_search', payload: over, headers: { 'content-type': 'application/json' } });
      const gzip = await big.app.http.app.inject({ method: 'POST', url: '/_search', payload: gzipSync(over), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      for (const res of [plain, gzip]) {
        expect(res.statusCode).toBe(400);
        expect(JSON.parse(res.body).error).toMatchObject({ type: 'x_content_parse_exception', reason });
      }
      const bomb = gzipSync(`{"query":{"match":{"body":"${'a'.repeat(5 * LARGE_BODY_BYTES)}"}}}`);
      const res = await big.app.http.app.inject({ method: 'POST', url: '/_search', payload: bomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      expect(res.statusCode).toBe(413);
      expect(JSON.parse(res.body).error).toMatchObject({ type: 'content_too_long_exception', reason: tooLong(4 * LARGE_BODY_BYTES) });
    } finally {
      await big.close();
    }
  });

  it('document bodies are not query bodies: a document past both limits is indexed, and a _bulk of it', async () => {
    const doc = { tag: 'big', body: 'word '.repeat(MAX_QUERY_BYTES / 4), tags: Array.from({ length: 2 * MAX_TOKENS }, (_, i) => `v${i}`) };
    expect((await send('PUT', '/docs/_doc/big', JSON.stringify(doc))).status).toBe(201);
    const bulk = await send('POST', '/docs/_bulk', `{"index":{"_id":"big2"}}\n${JSON.stringify(doc)}\n`, { 'content-type': 'application/x-ndjson' });
    expect([bulk.status, bulk.body.errors]).toEqual([200, false]);
  });
});

describe('query body limits (defaults)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    expect((await t.request('PUT', '/docs', { mappings: { properties: { tag: { type: 'keyword' } } } })).status).toBe(200);
  });
  afterAll(async () => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const gzipSearch = (payload: Buffer) =>
    t.app.http.app.inject({ method: 'POST', url: '/docs/_search', payload, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });

  it('a gzip body whose trailer states more than the limit is refused before any of it is inflated; a forged trailer only after the limit', async () => {
    const bomb = gzipSync(`{"query":{"match":{"tag":"${'a'.repeat(20 * 1024 * 1024)}"}}}`);
    expect(gzipStatedSize(bomb)).toBeGreaterThan(20 * 1024 * 1024);
    const read = vi.spyOn(BodyPool.prototype, 'read');
    let res = await gzipSearch(bomb);
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ type: 'content_too_long_exception', reason: tooLong(10 * 1024 * 1024) });
    expect(read).not.toHaveBeenCalled();
    // The trailer is the client's word: one that states 1 KB sends the body to the worker, which
    // stops inflating at the limit.
    const forged = Buffer.from(bomb);
    forged.writeUInt32LE(1024, forged.length - 4);
    res = await gzipSearch(forged);
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ type: 'content_too_long_exception', reason: tooLong(10 * 1024 * 1024) });
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0].slice(2)).toEqual([10 * 1024 * 1024, 100_000]);
  });

  it('10mb and 100,000 tokens: a terms query at max_terms_count (65,536) is searched, a 95 MB gzip query gets 413', async () => {
    const terms = await t.request('POST', '/docs/_search', termsQuery(65_536));
    expect(terms.status).toBe(200);
    const bomb = gzipSync(JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(95 * 1024 * 1024) } } } }), { level: 9 });
    const res = await t.app.http.app.inject({ method: 'POST', url: '/docs/_search', payload: bomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ type: 'content_too_long_exception', reason: tooLong(10 * 1024 * 1024) });
    // 100,001 tokens in a body under 1 MiB: refused on the main thread before it is parsed.
    const many = `{"query":{"ids":{"values":[${'1,'.repeat(100_000)}1]}}}`;
    expect(many.length).toBeLessThan(LARGE_BODY_BYTES);
    expectErrorType(await t.request('POST', '/docs/_search', many), 400, 'x_content_parse_exception', /^\[1:\d+\] Token count \(100001\) exceeds the maximum allowed \(100000, /);
  });
});
