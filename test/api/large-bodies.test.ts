/**
 * Request bodies of 1 MiB and more are decoded and parsed in a worker (cluster/body-pool.ts) so a
 * huge body does not stall the main thread; they must read exactly as small bodies do: the same
 * values, the same ES errors (with positions), NDJSON routes untouched. Query text analysis stops
 * at `max_clause_count` tokens instead of analysing a huge text whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { LARGE_BODY_BYTES } from '../../src/http/server.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { maxClauseCount: 16 } });
  expect((await t.request('PUT', '/docs', { mappings: { properties: { title: { type: 'text' }, n: { type: 'long' } } } })).status).toBe(200);
});
afterAll(async () => t.close());

/** A JSON body of at least LARGE_BODY_BYTES: `pad` is an unmapped field with a long value. */
const PAD = 'p'.repeat(LARGE_BODY_BYTES);

describe('large bodies are parsed off the main thread, as small ones', () => {
  it('a large document is indexed with its source byte for byte', async () => {
    const source = `{"title":"large one","pad":"${PAD}","n":7}`;
    expect((await t.request('PUT', '/docs/_doc/big?refresh=true', source)).status).toBe(201);
    const got = await t.request('GET', '/docs/_source/big');
    expect(got.text).toBe(source);
    // An unknown top-level key in a large search body: the same parsing_exception at the same position.
    const search = (pad: string) => t.request('POST', '/docs/_search', `{"query":{"match":{"title":"large"}},"_source":false,"pad":"${pad}"}`);
    const [small, large] = [await search('x'), await search(PAD)];
    expect(large.status).toBe(400);
    expect(large.body.error).toMatchObject({ type: 'parsing_exception', reason: 'Unknown key for a VALUE_STRING in [pad].' });
    expect([large.body.error.line, large.body.error.col]).toEqual([small.body.error.line, small.body.error.col]);
  });

  it('malformed JSON in a large body: x_content_parse_exception with the position, as for a small one', async () => {
    const small = await t.request('POST', '/docs/_search', '{"query": {"match_all": {}}, "size": }');
    const large = await t.request('POST', '/docs/_search', `{"query": {"match_all": {}}, "x": "${PAD}", "size": }`);
    expect(small.status).toBe(400);
    expect(large.status).toBe(400);
    expect(large.body.error.type).toBe(small.body.error.type);
    expect(large.body.error.reason).toMatch(/^\[1:\d+\] Unexpected character \('\}' \(code 125\)\): expected a value/);
  });

  it('nesting deeper than 1,000 in a large body is refused as in a small one', async () => {
    const deep = `{"query":{"match_all":{}},"x":"${PAD}","y":${'['.repeat(1001)}${']'.repeat(1001)}}`;
    const res = await t.request('POST', '/docs/_search', deep);
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toMatch(/Document nesting depth \(1001\) exceeds the maximum allowed \(1000/);
  });

  it('a large body that is not an object where one is required: parsing_exception', async () => {
    const res = await t.request('PUT', '/docs/_mapping', `["${PAD}"]`);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
  });

  it('_bulk and _msearch bodies of more than 1 MiB are read as NDJSON lines', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 40; i++) lines.push({ index: { _id: `b${i}` } }, { title: `bulk ${i}`, pad: 'q'.repeat(30_000) });
    const bulk = await t.bulk('/docs/_bulk?refresh=true', lines);
    expect(bulk.status).toBe(200);
    expect(bulk.body.errors).toBe(false);
    expect(bulk.body.items).toHaveLength(40);
    const msearch = ['{}', '{"size":0,"query":{"match":{"title":"bulk"}}}', '{}', `{"size":0,"query":{"term":{"_id":"${'r'.repeat(LARGE_BODY_BYTES)}"}}}`].join('\n') + '\n';
    const res = await t.request('POST', '/docs/_msearch', msearch, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(res.body.responses[0].hits.total.value).toBe(40);
  });
});

describe('query text analysis is bounded by max_clause_count', () => {
  it('a 2 MB single token fails with too_many_nested_clauses without being analysed whole', async () => {
    const res = await t.request('POST', '/docs/_search', { query: { match: { title: 'a'.repeat(2 * 1024 * 1024) } } });
    expect(res.status).toBe(400);
    expect(res.body.error.failed_shards[0].reason.caused_by).toEqual({
      type: 'too_many_nested_clauses', reason: 'Query contains too many nested clauses; maxClauseCount is set to 16',
    });
  });

  it('as many tokens as the limit still search; one more fails — also for tokens no document has', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `nosuchword${i}`).join(' ');
    expect((await t.request('POST', '/docs/_search', { query: { match: { title: words(16) } } })).status).toBe(200);
    for (const query of [{ match: { title: words(17) } }, { match_phrase: { title: words(17) } }, { multi_match: { query: words(17), fields: ['title'] } }, { query_string: { query: words(17), default_field: 'title' } }]) {
      const res = await t.request('POST', '/docs/_search', { query });
      expect(res.status, JSON.stringify(query).slice(0, 40)).toBe(400);
      expect(res.body.error.failed_shards[0].reason.caused_by.type).toBe('too_many_nested_clauses');
    }
  });
});
