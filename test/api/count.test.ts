/**
 * Count API — `GET|POST /<target>/_count`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-count.html (es-api.md §2.7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'tally', [
    ['1', { title: 'red apple', kind: 'fruit', weight: 150 }],
    ['2', { title: 'green apple', kind: 'fruit', weight: 120 }],
    ['3', { title: 'red pepper', kind: 'vegetable', weight: 90 }],
  ]);
  await seed(t, 'tally-other', [['1', { title: 'red ball', kind: 'toy' }]]);
  await t.request('PUT', '/tally-sharded', { settings: { number_of_shards: 3 } });
  await seed(t, 'tally-sharded', Array.from({ length: 12 }, (_, i) => [String(i), { n: i }] as [string, Record<string, unknown>]));
});
afterAll(async () => t.close());

describe('GET|POST /<index>/_count', () => {
  it('counts every document without a query', async () => {
    const res = await t.request('GET', '/tally/_count');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 3, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('counts the documents matching the body query', async () => {
    const res = await t.request('POST', '/tally/_count', { query: { match: { title: 'red' } } });
    expect(res.body).toEqual({ count: 2, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
  });

  it('accepts the query in a GET body', async () => {
    const res = await t.request('GET', '/tally/_count', { query: { term: { kind: 'vegetable' } } });
    expect(res.body.count).toBe(1);
  });

  it('accepts ?q= with df and default_operator', async () => {
    expect((await t.request('GET', '/tally/_count?q=kind:fruit')).body.count).toBe(2);
    expect((await t.request('GET', '/tally/_count?q=red%20apple&df=title&default_operator=AND')).body.count).toBe(1);
    expect((await t.request('GET', '/tally/_count?q=red%20apple&df=title')).body.count).toBe(3);
  });

  it('min_score drops low-scoring documents', async () => {
    expect((await t.request('GET', '/tally/_count?q=title:red&min_score=100')).body.count).toBe(0);
    expect((await t.request('GET', '/tally/_count?q=title:red&min_score=0.01')).body.count).toBe(2);
  });

  it('counts over every shard of a multi-shard index', async () => {
    const res = await t.request('GET', '/tally-sharded/_count');
    expect(res.body).toEqual({ count: 12, _shards: { total: 3, successful: 3, skipped: 0, failed: 0 } });
  });

  it('counts over comma-separated lists and wildcard patterns', async () => {
    expect((await t.request('GET', '/tally,tally-other/_count')).body).toEqual({ count: 4, _shards: { total: 2, successful: 2, skipped: 0, failed: 0 } });
    expect((await t.request('POST', '/tally*/_count', { query: { match: { title: 'red' } } })).body.count).toBe(3);
  });

  it('GET /_count counts every index', async () => {
    expect((await t.request('GET', '/_count')).body.count).toBe(16);
  });

  it('a wildcard that matches nothing counts 0 over 0 shards', async () => {
    const res = await t.request('GET', '/nothing-*/_count');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 0, _shards: { total: 0, successful: 0, skipped: 0, failed: 0 } });
  });

  it('a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/missing/_count');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });
});

describe('count errors', () => {
  it('a body key other than query fails with parsing_exception', async () => {
    const res = await t.request('POST', '/tally/_count', { query: { match_all: {} }, size: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'parsing_exception', reason: 'request does not support [size]', line: expect.any(Number), col: expect.any(Number) });
  });

  it('an unknown query fails with parsing_exception', async () => {
    const res = await t.request('POST', '/tally/_count', { query: { foo: {} } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
    expect(res.body.error.reason).toBe('unknown query [foo]');
  });

  it('rejects an unknown URL parameter', async () => {
    const res = await t.request('GET', '/tally/_count?size=1');
    expectEsError(res, 400, 'illegal_argument_exception', 'request [/tally/_count] contains unrecognized parameter: [size]');
  });
});
