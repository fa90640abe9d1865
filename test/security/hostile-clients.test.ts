/**
 * Hostile clients (issue 15, items 1, 2, 4, 6, 7): requests a public read key or a load-test tool
 * can send, answered with ES's status, `error.type` and reason, without the server crashing,
 * stalling or echoing megabytes back. Timings are asserted with generous bounds (the CI machine is
 * shared and often 5× slower than idle); the figures measured here are in the report.
 */
import { connect, type Socket } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSecureTestApp, role, SUPERUSER, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';
import { encodeApiKey } from '../../src/security/credentials.js';
import { expectErrorType } from '../api/es.js';

/** An error body is a few KB whatever the request held. */
const MAX_ERROR_BODY = 8 * 1024;

/** POSTs over the socket (real HTTP, so gzip/br bodies and timing are as a client sees them). */
async function post(url: string, path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

/**
 * Times GET / repeatedly while `hostile` runs; returns the worst latency seen, how many GET / were
 * answered before the hostile request ended, and its result.
 */
async function rootLatencyDuring<T>(url: string, hostile: Promise<T>): Promise<{ worstMs: number; answered: number; result: T }> {
  let done = false;
  let worstMs = 0;
  let answered = 0;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(url + '/');
      await res.text();
      expect(res.status).toBe(200);
      if (!done) answered++;
      worstMs = Math.max(worstMs, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await hostile.finally(() => {
    done = true;
  });
  await probe;
  return { worstMs, answered, result };
}

describe('item 1: a huge bad value is quoted as a prefix only', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.listen();
    expect((await t.request('PUT', '/nums', { mappings: { properties: { n: { type: 'long' }, d: { type: 'date' } } } })).status).toBe(200);
  });
  afterAll(async () => t.close());

  // A 20 MB query is refused by http.max_query_content_length (10mb) before it is parsed
  // (test/security/query-body-limits.test.ts); 9 MB is the largest such value a query may carry.
  it('a 9 MB string for a numeric field: 400, ES types and reason, a body of a few KB', async () => {
    const value = 'x'.repeat(9 * 1024 * 1024);
    const res = await post(url, '/nums/_search', JSON.stringify({ query: { term: { n: value } } }));
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(MAX_ERROR_BODY);
    const body = JSON.parse(res.text);
    expect(body.error.type).toBe('search_phase_execution_exception');
    expect(body.error.root_cause[0].type).toBe('query_shard_exception');
    expect(body.error.root_cause[0].reason).toBe(`failed to create query: For input string: "${'x'.repeat(100)}..."`);
    expect(body.error.caused_by.caused_by).toEqual({ type: 'number_format_exception', reason: `For input string: "${'x'.repeat(100)}..."` });
  });

  // The crash took eight at once (each held ~1 GB of error text); two keep the suite's memory modest.
  it('a 97 KB gzip body expanding to a 95 MB query: four at once (two with a forged trailer), each a small 413, the server stays up', { timeout: 180_000 }, async () => {
    const query = gzipSync(JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(95 * 1024 * 1024) } } } }), { level: 9 });
    expect(query.length).toBeLessThan(200 * 1024);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // Its gzip trailer states 95 MB, so it is refused before inflating; the same body with a
    // trailer forged to state 1 KB is inflated by the worker up to the limit. Both kinds, two each.
    const forged = Buffer.from(query);
    forged.writeUInt32LE(1024, forged.length - 4);
    const hostile = [query, query, forged, forged].map((body) => post(url, '/nums/_search', body, { 'content-encoding': 'gzip' }));
    const { worstMs, answered, result: results } = await rootLatencyDuring(url, Promise.all(hostile));
    delay.disable();
    // The worker stops inflating at http.max_query_content_length (10mb): the main thread keeps
    // the compressed bytes, receives nothing but the 413, and answers GET / meanwhile. The requests
    // may end before a GET / does, so only the event loop's delay is bounded (generously, for a
    // loaded machine); bench/hostile-latency.ts measures the figures, and
    // test/api/compressed-bodies.test.ts checks that the main thread never holds the decoded text.
    console.log(`95 MB gzip ×2 + forged trailer ×2: GET / answered ${answered}×, worst ${worstMs.toFixed(0)} ms; event loop blocked at most ${(delay.max / 1e6).toFixed(0)} ms; hostile ≤ ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`);
    expect(delay.max / 1e6).toBeLessThan(30_000);
    for (const res of results) {
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text).error).toMatchObject({ type: 'content_too_long_exception', reason: 'entity content is too long for the configured buffer limit [10485760]' });
    }
    expect((await t.request('GET', '/')).status).toBe(200);
  });

  it('a document with a 20 MB bad value: document_parsing_exception with an 80-character preview', async () => {
    const res = await post(url, '/nums/_doc/1', JSON.stringify({ n: 'z'.repeat(20 * 1024 * 1024) }));
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(MAX_ERROR_BODY);
    const body = JSON.parse(res.text);
    expect(body.error.type).toBe('document_parsing_exception');
    expect(body.error.reason).toMatch(/failed to parse field \[n\] of type \[long\] in document with id '1'\. Preview of field's value: 'z{80}'$/);
  });

  it('an unknown endpoint with a 12 KB query string: "no handler found" quotes a prefix of the uri (found by the route fuzzer)', async () => {
    const res = await fetch(`${url}/_tasks/x/_nope?q=${'a'.repeat(12_000)}`, { method: 'POST' });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(MAX_ERROR_BODY);
    expect(JSON.parse(text).error).toMatch(/^no handler found for uri \[\/_tasks\/x\/_nope\?q=a+\.\.\.\] and method \[POST\]$/);
  });
});

describe('item 2: one long token does not stall the server', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.listen();
    expect((await t.request('PUT', '/texts', { mappings: { properties: { body: { type: 'text' } } } })).status).toBe(200);
  });
  afterAll(async () => t.close());

  it('a 2 MB one-token match query: GET / keeps answering and the search ends promptly with ES\'s too_many_nested_clauses', async () => {
    const token = 'a'.repeat(2 * 1024 * 1024);
    const { worstMs, result } = await rootLatencyDuring(url, post(url, '/texts/_search', JSON.stringify({ query: { match: { body: token } } })));
    // 8,000+ tokens of 255 characters: more clauses than max_clause_count (4096), so ES refuses it;
    // analysis stops at the limit instead of analysing and planning the whole text.
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).error.failed_shards[0].reason.caused_by.type).toBe('too_many_nested_clauses');
    console.log(`2 MB token: ${result.ms.toFixed(0)} ms, worst GET / ${worstMs.toFixed(0)} ms`);
    // Was 11 s idle for the tokenizer alone (quadratic); linear it is tens of ms. Generous bounds.
    expect(result.ms).toBeLessThan(10_000);
    expect(worstMs).toBeLessThan(10_000);
  });

  it('a document of 1 MB of underscores and 1 MB of one word is indexed and refreshed promptly', async () => {
    const t0 = performance.now();
    const res = await post(url, '/texts/_doc/1?refresh=true', JSON.stringify({ body: `${'_'.repeat(1 << 20)} ${'b'.repeat(1 << 20)}` }));
    expect(res.status).toBe(201);
    expect(performance.now() - t0).toBeLessThan(20_000);
    const hits = await t.request('POST', '/texts/_search', { query: { match: { body: 'b'.repeat(255) } } });
    expect(hits.body.hits.total.value).toBe(1);
  });
});

describe('item 4: slow bodies cannot lock others out', () => {
  let t: SecureTestApp;
  let url: string;
  let noPrivileges: string;
  let reader: string;
  beforeAll(async () => {
    t = await createSecureTestApp({ config: { maxInFlightRequests: 10, requestTimeoutMs: 1_500 } });
    url = await t.listen();
    await t.request('PUT', '/books/_doc/1?refresh=true', { title: 'a book' });
    noPrivileges = (await t.createKey('nothing-at-all', role('none-*', ['read']))).encoded;
    reader = (await t.createKey('reader', role('books', ['read']))).encoded;
  });
  afterAll(async () => t.close());

  /** Opens a request with a chunked body that never ends; resolves with the socket and what came back. */
  function slowBody(key: string, path: string): { socket: Socket; response: Promise<string> } {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    const response = new Promise<string>((resolve) => {
      socket.on('data', (d) => {
        received += d.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
    });
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"que\r\n`);
    return { socket, response };
  }

  it('a key without privileges is refused before its body is read, holding no slot', async () => {
    const slow = Array.from({ length: 10 }, () => slowBody(noPrivileges, '/books/_search'));
    // Each is answered 403 at once although its body never ends.
    const firstBytes = await Promise.all(slow.map(({ socket }) => new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())))));
    for (const head of firstBytes) expect(head).toMatch(/^HTTP\/1\.1 403 /);
    const res = await fetch(url + '/', { headers: { authorization: `ApiKey ${SUPERUSER_KEY}` } });
    expect(res.status).toBe(200);
    for (const { socket } of slow) socket.destroy();
  });

  it('with --max-in-flight 10, ten never-ending bodies of a read key are cut at the request timeout (408) and others get in', async () => {
    const slow = Array.from({ length: 10 }, () => slowBody(reader, '/books/_search'));
    await new Promise((r) => setTimeout(r, 300));
    expect(t.app.http.admission.stats().inFlightRequests).toBe(10);
    const blocked = await fetch(url + '/', { headers: { authorization: `ApiKey ${SUPERUSER_KEY}` } });
    expect(blocked.status).toBe(429);
    const answers = await Promise.all(slow.map((s) => s.response));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 408 /);
    const res = await fetch(url + '/', { headers: { authorization: `ApiKey ${SUPERUSER_KEY}` } });
    expect(res.status).toBe(200);
    expect(t.app.http.admission.stats().inFlightRequests).toBe(0);
  });

  it('an API key secret with NUL bytes appended does not authenticate', async () => {
    const withNul = encodeApiKey({ id: SUPERUSER.id, secret: `${SUPERUSER.secret}\0\0` });
    const res = await t.as(withNul, 'GET', '/');
    expectErrorType(res, 401, 'security_exception', /unable to authenticate with provided credentials|invalid credentials/);
    expect((await t.as(SUPERUSER_KEY, 'GET', '/')).status).toBe(200);
  });
});

describe('item 6: deep nesting is a 400, never a stack overflow', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.request('PUT', '/deep');
  });
  afterAll(async () => t.close());

  const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const JACKSON = /^\[1:\d+\] Document nesting depth \(1001\) exceeds the maximum allowed \(1000, from `StreamReadConstraints.getMaxNestingDepth\(\)`\)$/;

  it.each([
    ['PUT', '/deep/_mapping', `{"properties":{"x":${nestedObject(50_000)}}}`],
    ['PUT', '/deep/_settings', `{"index":${nestedObject(50_000)}}`],
    ['POST', '/_ingest/pipeline/_simulate', `{"pipeline":{"processors":[]},"docs":[{"_source":${nestedObject(50_000)}}]}`],
    ['POST', '/deep/_doc', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['POST', '/deep/_search', `{"query":${nestedObject(50_000)}}`],
    ['POST', '/_bulk', `{"index":{"_index":${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n{}\n`],
  ])('%s %s with 50,000-deep JSON: 400 x_content_parse_exception', async (method, path, body) => {
    const res = await t.request(method, path, body);
    expectErrorType(res, 400, 'x_content_parse_exception', JACKSON);
  });

  it('1,000-deep JSON is still accepted by the parser', async () => {
    const res = await t.request('POST', '/deep/_doc/ok', `{"a":${'['.repeat(999)}1${']'.repeat(999)}}`);
    expect(res.status).toBe(201);
  });

  it('a mapping deeper than index.mapping.depth.limit (20): ES\'s illegal_argument_exception', async () => {
    let properties: Record<string, unknown> = { leaf: { type: 'keyword' } };
    for (let i = 0; i < 25; i++) properties = { o: { properties } };
    const res = await t.request('PUT', '/deep/_mapping', { properties });
    const path = Array.from({ length: 20 }, () => 'o').join('.');
    expectErrorType(res, 400, 'illegal_argument_exception', `Limit of mapping depth [20] has been exceeded due to object field [${path}]`);
    const created = await t.request('PUT', '/deep2', { mappings: { properties } });
    expectErrorType(created, 400, 'illegal_argument_exception', `Limit of mapping depth [20] has been exceeded due to object field [${path}]`);
  });

  it('query_string with 100,000 `(`: 400 with a parse_exception cause quoting a prefix', async () => {
    const res = await t.request('POST', '/deep/_search', { query: { query_string: { query: '('.repeat(100_000) } } });
    expectErrorType(res, 400, 'search_phase_execution_exception');
    expect(res.text.length).toBeLessThan(MAX_ERROR_BODY);
    expect(res.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: `Failed to parse query [${'('.repeat(100)}...]` });
    expect(res.body.error.caused_by.caused_by).toEqual({
      type: 'parse_exception', reason: `Cannot parse '${'('.repeat(100)}...': Query nesting depth (1001) exceeds the maximum allowed (1000)`,
    });
  });
});

describe('item 7: smaller holes', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { corsOrigins: ['/https?:\\/\\/localhost(:[0-9]+)?/'] } });
    url = await t.listen();
  });
  afterAll(async () => t.close());

  it('CORS /regex/ origins must match the whole origin', async () => {
    const allowed = await fetch(url + '/', { headers: { origin: 'http://localhost:3000' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const evil = await fetch(url + '/', { headers: { origin: 'http://localhost.evil.com' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('_bulk refuses an _id over 512 bytes, as single-document writes do', async () => {
    const id = 'é'.repeat(300); // 300 characters, 600 UTF-8 bytes
    const res = await t.bulk('/_bulk', [{ index: { _index: 'ids', _id: id } }, { a: 1 }]);
    expectErrorType(res, 400, 'action_request_validation_exception', `Validation Failed: 1: id [${id}] is too long, must be no longer than 512 bytes but was: 600;`);
    const single = await t.request('PUT', `/ids/_doc/${encodeURIComponent(id)}`, { a: 1 });
    expectErrorType(single, 400, 'action_request_validation_exception', res.body.error.reason);
  });

  it('_bulk refuses an object as _id in the action line, as ES\'s BulkRequestParser does', async () => {
    const res = await t.bulk('/_bulk', [{ index: { _index: 'ids', _id: { a: 1 } } }, { a: 1 }]);
    expectErrorType(res, 400, 'illegal_argument_exception', 'Malformed action/metadata line [1], expected a simple value for field [_id] but found [START_OBJECT]');
  });

  it('DELETE /idx with a malformed body is refused and deletes nothing', async () => {
    await t.request('PUT', '/keep');
    const res = await t.request('DELETE', '/keep', '{"a":');
    expectErrorType(res, 400, 'illegal_argument_exception', 'request [DELETE /keep] does not support having a body');
    expect((await t.request('HEAD', '/keep')).status).toBe(200);
  });

  it('a pipeline that sets _id to an object fails the document as ES does', async () => {
    await t.request('PUT', '/_ingest/pipeline/obj-id', { processors: [{ set: { field: '_id', value: { a: 'b' } } }] });
    const res = await t.request('PUT', '/piped/_doc/1?pipeline=obj-id', { x: 1 });
    expectErrorType(res, 400, 'illegal_argument_exception', '_id must be null or a String but was [{a=b}] with type [java.util.HashMap]');
    const bulk = await t.bulk('/_bulk?pipeline=obj-id', [{ index: { _index: 'piped', _id: '2' } }, { x: 1 }]);
    expect(bulk.body.items[0].index.error.type).toBe('illegal_argument_exception');
    expect((await t.request('GET', '/piped/_doc/%5Bobject%20Object%5D')).status).not.toBe(200);
  });

  it('Content-Encoding br is decoded; an unknown coding is refused, never read as text', async () => {
    await t.request('PUT', '/br/_doc/1?refresh=true', { title: 'brotli' });
    const br = await post(url, '/br/_search', brotliCompressSync(JSON.stringify({ query: { match: { title: 'brotli' } } })), { 'content-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(JSON.parse(br.text).hits.total.value).toBe(1);
    const zstd = await post(url, '/br/_search', '{}', { 'content-encoding': 'zstd' });
    expect(zstd.status).toBe(415);
    expect(JSON.parse(zstd.text)).toEqual({ error: 'Content-Encoding header [zstd] is not supported', status: 415 });
  });
});
