/**
 * Limits that protect the server, with ES's errors: `http.max_content_length` (413),
 * `indices.query.bool.max_clause_count` (too_many_nested_clauses), the query nesting depth
 * (`indices.query.bool.max_nested_depth`, 30) — `index.max_result_window` is in errors.test.ts —
 * and CORS (`http.cors.*`): preflights without a key, allow-origin on every response, refused origins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
beforeAll(async () => {
  t = await createSecureTestApp({ config: { maxContentLength: 4096, maxClauseCount: 16, corsOrigins: ['https://shop.example', '/^http:\\/\\/localhost:\\d+$/'] } });
  // Forty distinct words, so that queries over them keep every clause after planning.
  await t.request('PUT', '/books/_doc/1?refresh=true', { title: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') });
});
afterAll(async () => t.close());

describe('http.max_content_length', () => {
  it('refuses a larger body with 413 content_too_long_exception', async () => {
    const res = await t.request('POST', '/books/_doc', { title: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.body.error.type).toBe('content_too_long_exception');
    expect(res.body.error.reason).toBe('entity content is too long for the configured buffer limit [4096]');
  });
});

describe('max clause count', () => {
  it('a query expanding to more leaf clauses fails as ES 8 reports it', async () => {
    const words = Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ');
    const res = await t.request('POST', '/books/_search', { query: { match: { title: words } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    const reason = res.body.error.failed_shards[0].reason;
    expect(reason).toEqual({
      type: 'illegal_argument_exception', reason: 'Query rewrite failed: too many clauses',
      caused_by: { type: 'too_many_nested_clauses', reason: 'Query contains too many nested clauses; maxClauseCount is set to 16' },
    });
  });

  it('counts clauses across the whole query, not per bool', async () => {
    const should = (n: number) => Array.from({ length: n }, (_, i) => ({ match: { title: `w${i}` } }));
    const ok = await t.request('POST', '/books/_search', { query: { bool: { should: should(8), must: [{ bool: { should: should(8) } }] } } });
    expect(ok.status).toBe(200);
    const tooMany = await t.request('POST', '/books/_search', { query: { bool: { should: should(9), must: [{ bool: { should: should(8) } }] } } });
    expect(tooMany.status).toBe(400);
  });
});

describe('query nesting depth', () => {
  function nested(depth: number): unknown {
    let q: unknown = { match_all: {} };
    for (let i = 1; i < depth; i++) q = { bool: { must: [q] } };
    return q;
  }

  it('allows 30 levels and refuses 31', async () => {
    expect((await t.request('POST', '/books/_search', { query: nested(30) })).status).toBe(200);
    const res = await t.request('POST', '/books/_search', { query: nested(31) });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('illegal_argument_exception');
    expect(res.body.error.reason).toBe('The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]');
  });

  it('a very deep body is refused, not a stack overflow', async () => {
    // Compact (the 4 kb body limit here): 1,000 levels of arrays inside the query.
    const body = '{"query":{"bool":{"must":' + '['.repeat(1000) + ']'.repeat(1000) + '}}}';
    const res = await t.request('POST', '/books/_search', body);
    expect(res.status).toBe(400);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    t.as(null, 'OPTIONS', '/books/_search', undefined, {
      origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-elastic-client-meta',
    });

  it('answers a preflight from an allowed origin without a key', async () => {
    const res = await preflight('https://shop.example');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-Elastic-Client-Meta');
    expect(res.headers['access-control-max-age']).toBe('1728000');
    expect(res.headers.vary).toBe('Origin');
    // Origins can be /regex/ patterns.
    expect((await preflight('http://localhost:5173')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('every response to an allowed origin carries allow-origin, errors included', async () => {
    for (const [key, status] of [['superuser', 200], [null, 401]] as const) {
      const res = key === null
        ? await t.as(null, 'POST', '/books/_search', {}, { origin: 'https://shop.example' })
        : await t.request('POST', '/books/_search', {}, { origin: 'https://shop.example' });
      expect(res.status).toBe(status);
      expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
      expect(res.headers['access-control-expose-headers']).toBe('X-elastic-product');
    }
    const notFound = await t.request('GET', '/missing/_search', undefined, { origin: 'https://shop.example' });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('refuses other origins with a bare 403, and leaves requests without Origin alone', async () => {
    expect((await preflight('https://evil.example')).status).toBe(403);
    const res = await t.request('POST', '/books/_search', {}, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.text).toBe('');
    // Refused before anything runs: a write from that origin leaves no trace.
    expect((await t.request('PUT', '/books/_doc/evil?refresh=true', { x: 1 }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await t.request('GET', '/books/_doc/evil')).status).toBe(404);
    const plain = await t.request('POST', '/books/_search', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a bare OPTIONS (no preflight headers) lists the allowed methods', async () => {
    const res = await t.as(null, 'OPTIONS', '/books/_search');
    expect(res.status).toBe(200);
    expect(String(res.headers.allow).split(',').sort()).toEqual(['GET', 'POST']);
  });
});

describe('CORS default', () => {
  it('allows any origin with *', async () => {
    const open = await createSecureTestApp();
    try {
      const res = await open.as(null, 'OPTIONS', '/', undefined, { origin: 'http://anywhere.example', 'access-control-request-method': 'GET' });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await open.close();
    }
  });
});
