/**
 * The demo's proxy routes (`POST /search`, `POST /autocomplete`) with the search server replaced by
 * a `fetch` stub: what the proxy sends (its key, its restriction filter, the mode's recipe) and
 * what it answers, including 400s for bad bodies and how the server's errors come back.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_ONLY, registerProxyRoutes } from '../../demo/proxy.js';

let app: FastifyInstance;
let sent: Array<{ url: string; headers: Record<string, string>; body: any }>;
let answer: () => Response;
const ok = () => new Response(JSON.stringify({ hits: { total: { value: 1, relation: 'eq' }, hits: [{ _id: 'a', _source: { name: 'Grid' } }] } }), { status: 200 });

beforeEach(async () => {
  sent = [];
  answer = ok;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (!String(url).startsWith('http://es.test')) return realFetch(url, init);
    sent.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) });
    return answer();
  });
  app = Fastify();
  registerProxyRoutes(app, { es: 'http://es.test:9200', index: 'web-features', apiKey: 'cHJveHk=', headers: { 'x-from': 'proxy' }, restrict: PUBLIC_ONLY });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  vi.unstubAllGlobals();
});

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });
const publicOnly = { bool: { filter: [{ term: { visibility: 'public' } }] } };

describe('POST /search', () => {
  it("answers the connector's response state; the proxy's key and headers go to the server and its filter is added", async () => {
    const res = await post('/search', { query: { searchTerm: 'grid', current: 1, resultsPerPage: 5 }, options: { search_fields: { name: {} }, result_fields: { name: { raw: {} } }, filters: [{ field: 'area', values: ['CSS'] }] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalResults: 1, results: [{ id: { raw: 'a' }, name: { raw: 'Grid' } }], requestId: '' });
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('http://es.test:9200/web-features/_search');
    expect(sent[0].headers).toMatchObject({ authorization: 'ApiKey cHJveHk=', 'x-from': 'proxy' });
    expect(sent[0].body.query.bool.filter).toEqual([{ bool: { filter: [{ term: { area: 'CSS' } }] } }, publicOnly]);
  });

  it('semantic: text_expansion with .sparse_model_2; hybrid: the linear recipe (minmax, window 100) whose filter keeps the restriction and the facet filters', async () => {
    const options = { search_fields: { name: {} }, facets: { area: { type: 'value' } } };
    const query = { searchTerm: 'draw', current: 2, resultsPerPage: 10, filters: [{ field: 'area', type: 'any', values: ['CSS'] }], sortList: [{ field: 'baseline_date', direction: 'desc' }] };
    expect((await post('/search', { query, options, mode: 'semantic' })).statusCode).toBe(200);
    expect((await post('/search', { query, options, mode: 'hybrid' })).statusCode).toBe(200);
    const [semantic, hybrid] = sent.map((s) => s.body);
    const expansion = { text_expansion: { description_embedding: { model_id: '.sparse_model_2', model_text: 'draw' } } };
    expect(semantic.query).toEqual({ bool: { must: [expansion], filter: [publicOnly] } });
    expect(semantic.sort).toEqual([{ baseline_date: 'desc' }]);
    expect(hybrid.query).toBeUndefined();
    expect(hybrid.sort).toBeUndefined();
    expect(hybrid.post_filter).toBeUndefined();
    expect(hybrid.retriever.linear).toMatchObject({ rank_window_size: 100, normalizer: 'minmax' });
    expect(hybrid.retriever.linear.retrievers[1]).toEqual({ retriever: { standard: { query: expansion } } });
    expect(hybrid.retriever.linear.retrievers[0].retriever.standard.query.bool.must[0].bool.should).toHaveLength(4);
    expect(hybrid.retriever.linear.filter).toEqual([publicOnly, { bool: { must: [{ bool: { should: [{ term: { area: 'CSS' } }] } }] } }]);
    expect(hybrid).toMatchObject({ from: 10, size: 10 });
  });

  it('bad bodies get a 400 with a clear message and nothing is sent', async () => {
    const cases: Array<[unknown, string]> = [
      [[1], 'the body must be a JSON object {query, options[, mode]}'],
      [{ options: {} }, '[query] must be an object (the Search UI request state)'],
      [{ query: {}, options: 'x' }, '[options] must be an object (the Search UI query config)'],
      [{ query: {}, mode: 'vector' }, '[mode] must be one of lexical, semantic, hybrid'],
      [{ query: {}, extra: 1 }, 'unknown field [extra] in the body: expected query, options, mode'],
      [{ query: {}, options: { filters: 'x' } }, '[options.filters] must be an array'],
      [{ query: { filters: [{ field: 'area', type: 'none', values: ['CSS'] }] }, options: {} }, 'The "none" filter type is not supported by the threadsearch connector (filter on field [area])'],
    ];
    for (const [payload, reason] of cases) {
      const res = await post('/search', payload);
      expect(res.statusCode, reason).toBe(400);
      expect(res.json()).toEqual({ error: { type: 'illegal_argument_exception', reason: expect.stringContaining(reason) }, status: 400 });
    }
    const notJson = await app.inject({ method: 'POST', url: '/search', payload: '{bad', headers: { 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.type).toBe('illegal_argument_exception');
    expect(sent).toEqual([]);
  });

  it("the server's 400 comes back as a 400 with its reason; a refused key or an unreachable server as a 502", async () => {
    answer = () => new Response(JSON.stringify({ error: { type: 'parsing_exception', reason: 'unknown query [x]' }, status: 400 }), { status: 400 });
    const bad = await post('/search', { query: {}, options: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ type: 'parsing_exception', reason: expect.stringContaining('answered 400 parsing_exception: unknown query [x]') });
    answer = () => new Response(JSON.stringify({ error: { type: 'security_exception', reason: 'unable to authenticate' }, status: 401 }), { status: 401 });
    const refused = await post('/search', { query: {}, options: {} });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toMatchObject({ type: 'bad_gateway', reason: expect.stringContaining('answered 401 security_exception: unable to authenticate') });
  });
});

describe('POST /autocomplete', () => {
  it('results and result suggestions get the restriction filter; completion suggestions go as they are', async () => {
    const res = await post('/autocomplete', {
      query: { searchTerm: 'gr' },
      options: {
        results: { search_fields: { name: {} }, result_fields: { name: { raw: {} } } },
        suggestions: { types: { documents: { fields: ['suggest'] }, popular: { queryType: 'results', search_fields: { name: {} }, result_fields: { name: { raw: {} } } } } },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ autocompletedResults: [{ name: { raw: 'Grid' } }], autocompletedSuggestions: { documents: [], popular: [{ queryType: 'results', result: { name: { raw: 'Grid' } } }] } });
    const bodies = sent.map((s) => s.body);
    expect(bodies.filter((b) => b.query).map((b) => b.query.bool.filter)).toEqual([[publicOnly], [publicOnly]]);
    expect(bodies.find((b) => b.suggest)).toEqual({ size: 0, _source: { includes: [] }, suggest: { suggest: { prefix: 'gr', completion: { size: 5, skip_duplicates: true, field: 'suggest', fuzzy: { fuzziness: 1 } } } } });
  });
});
