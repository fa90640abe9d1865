/**
 * Repeated `_search` bodies reuse their parsed request and planned query (http/search.ts,
 * cluster/search/plan-cache.ts): the answers must be those of a fresh parse and plan, across every
 * change that alters a plan — new segments (refresh, delete), a mapping update, an alias filter.
 * Each check sends the same body as text (a cache hit after the first time) and with new trailing
 * spaces (a cache miss), and compares the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { ids, scores, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'cached', [
    ['1', { title: 'red apple' }],
    ['2', { title: 'green apple pie' }],
    ['3', { title: 'red pepper' }],
  ]);
});
afterAll(async () => t.close());

const BODY = { query: { match: { title: 'red apple' } } };

/** Trailing spaces never sent before: a body text no cache has seen. */
let spaces = 1;

/** The same search as cached text, and with new trailing spaces (parsed and planned afresh): both answers. */
async function both(path: string, body: unknown) {
  const text = JSON.stringify(body);
  const cached = await t.request('POST', path, text, { 'content-type': 'application/json' });
  const fresh = await t.request('POST', path, text + ' '.repeat(spaces++), { 'content-type': 'application/json' });
  expect(cached.status).toBe(200);
  expect(fresh.status).toBe(200);
  expect(cached.body.hits).toEqual(fresh.body.hits);
  return cached;
}

describe('parsed and planned query reuse', () => {
  it('answers a repeated body exactly as the first time, from the cached plan', async () => {
    const first = await both('/cached/_search', BODY);
    const hits = t.app.search.planCache.hits;
    const again = await both('/cached/_search', BODY);
    expect(again.body.hits).toEqual(first.body.hits);
    expect(ids(first)).toEqual(['1', '3', '2']);
    // The text-identical request reused its plan; the one with new spaces was planned afresh.
    expect(t.app.search.planCache.hits).toBe(hits + 1);
  });

  it('sees new statistics and documents after a refresh', async () => {
    const before = scores(await both('/cached/_search', BODY));
    await seed(t, 'cached', [['4', { title: 'red red apple' }]]);
    const after = await both('/cached/_search', BODY);
    expect(ids(after)).toContain('4');
    expect(scores(after)['1']).not.toBe(before['1']);
  });

  it('sees a delete (new live docs) and its effect on the results', async () => {
    await t.request('DELETE', '/cached/_doc/4?refresh=true');
    const res = await both('/cached/_search', BODY);
    expect(ids(res)).not.toContain('4');
  });

  it('follows a mapping update', async () => {
    const body = { query: { match: { tag: 'fresh' } } };
    expect((await both('/cached/_search', body)).body.hits.total.value).toBe(0);
    await t.request('PUT', '/cached/_mapping', { properties: { tag: { type: 'keyword' } } });
    await seed(t, 'cached', [['5', { title: 'plum', tag: 'fresh' }]]);
    expect(ids(await both('/cached/_search', body))).toEqual(['5']);
  });

  it('applies an alias filter as it is now', async () => {
    await t.request('POST', '/_aliases', { actions: [{ add: { index: 'cached', alias: 'reds', filter: { term: { _id: '1' } } } }] });
    expect(ids(await both('/reds/_search', BODY))).toEqual(['1']);
    await t.request('POST', '/_aliases', { actions: [{ add: { index: 'cached', alias: 'reds', filter: { term: { _id: '3' } } } }] });
    expect(ids(await both('/reds/_search', BODY))).toEqual(['3']);
  });

  it('keeps URL parameters apart: the same body with another size is another request', async () => {
    const body = JSON.stringify(BODY);
    const headers = { 'content-type': 'application/json' };
    expect(ids(await t.request('POST', '/cached/_search?size=1', body, headers))).toHaveLength(1);
    expect(ids(await t.request('POST', '/cached/_search', body, headers))).toHaveLength(3);
  });

  it('still reports a bad body every time, with its position', async () => {
    const bad = '{"query":{"match":{"title":{"query":"x","bogus":1}}}}';
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', '/cached/_search', bad, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('parsing_exception');
    }
  });

  it('evaluates date math against the current time on every request', async () => {
    await seed(t, 'dated', [['old', { at: '2000-01-01' }], ['soon', { at: new Date(Date.now() + 2_000).toISOString() }]]);
    const body = { query: { range: { at: { lte: 'now' } } } };
    expect(ids(await both('/dated/_search', body))).toEqual(['old']);
    await new Promise((r) => setTimeout(r, 2_100));
    expect(ids(await both('/dated/_search', body)).sort()).toEqual(['old', 'soon']);
  });
});
