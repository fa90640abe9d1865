/**
 * Multi search API — `GET|POST /_msearch`, `/<index>/_msearch` (NDJSON header/body pairs):
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-multi-search.html
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, indexNotFound, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'books', [['1', { title: 'the quick fox', year: 2001 }], ['2', { title: 'lazy dogs', year: 2010 }], ['3', { title: 'quick brown dogs', year: 2020 }]]);
  await seed(t, 'films', [['f1', { title: 'quick silver' }]]);
});
afterAll(async () => t.close());

const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const msearch = (url: string, lines: unknown[]) => t.request('POST', url, ndjson(lines), { 'content-type': 'application/x-ndjson' });
const hitIds = (r: any) => r.hits.hits.map((h: any) => h._id);

describe('POST /_msearch', () => {
  it('runs each header/body pair as a search and answers in order, each with status 200', async () => {
    const res = await msearch('/_msearch', [
      { index: 'books' }, { query: { match: { title: 'quick' } } },
      { index: 'films' }, { query: { match_all: {} } },
      { index: 'books' }, { size: 0, query: { range: { year: { gte: 2010 } } } },
    ]);
    expect(res.status).toBe(200);
    expect(typeof res.body.took).toBe('number');
    expect(res.body.responses).toHaveLength(3);
    expect(hitIds(res.body.responses[0]).sort()).toEqual(['1', '3']);
    expect(res.body.responses[0].status).toBe(200);
    expect(res.body.responses[0]._shards).toEqual({ total: 1, successful: 1, skipped: 0, failed: 0 });
    expect(hitIds(res.body.responses[1])).toEqual(['f1']);
    expect(res.body.responses[2].hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(res.body.responses[2].hits.hits).toEqual([]);
  });

  it('gives the same hits as _search for the same request', async () => {
    const body = { query: { match: { title: 'dogs' } }, sort: [{ year: 'desc' }] };
    const single = await t.request('POST', '/books/_search', body);
    const multi = await msearch('/_msearch', [{ index: 'books' }, body]);
    const { took: _a, ...s } = single.body;
    const { took: _b, status, ...m } = multi.body.responses[0];
    expect(status).toBe(200);
    expect(m).toEqual(s);
  });

  it('takes the index from the URL when a header names none, and an empty header line', async () => {
    const res = await msearch('/books/_msearch', [{}, { query: { match: { title: 'lazy' } } }, '', { size: 1, sort: [{ year: 'asc' }] }]);
    expect(hitIds(res.body.responses[0])).toEqual(['2']);
    expect(hitIds(res.body.responses[1])).toEqual(['1']);
  });

  it('a header index overrides the URL index; index lists and wildcards work', async () => {
    const res = await msearch('/books/_msearch', [{ index: ['books', 'films'] }, { query: { match: { title: 'quick' } } }, { index: 'fil*' }, {}]);
    expect(hitIds(res.body.responses[0]).sort()).toEqual(['1', '3', 'f1']);
    expect(hitIds(res.body.responses[1])).toEqual(['f1']);
  });

  it('a failing search fails only its own item, with its ES error and status', async () => {
    const res = await msearch('/_msearch', [{ index: 'missing' }, {}, { index: 'books' }, { query: { match: { title: 'fox' } } }]);
    expect(res.status).toBe(200);
    expect(res.body.responses[0]).toEqual(indexNotFound('missing'));
    expect(hitIds(res.body.responses[1])).toEqual(['1']);
  });

  it('header options apply per item (ignore_unavailable)', async () => {
    const res = await msearch('/_msearch', [{ index: 'missing,books', ignore_unavailable: true }, { query: { match: { title: 'lazy' } } }]);
    expect(hitIds(res.body.responses[0])).toEqual(['2']);
  });

  it('a shard-level failure (sorting on a text field) is that item\'s search_phase_execution_exception', async () => {
    const res = await msearch('/_msearch', [{ index: 'books' }, { sort: [{ title: 'asc' }] }, { index: 'books' }, { size: 1 }]);
    expect(res.body.responses[0].status).toBe(400);
    expect(res.body.responses[0].error.type).toBe('search_phase_execution_exception');
    expect(res.body.responses[1].status).toBe(200);
  });

  it('max_concurrent_searches=1 runs them one at a time and answers the same', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 6; i++) lines.push({ index: 'books' }, { query: { match: { title: 'quick' } } });
    const res = await msearch('/_msearch?max_concurrent_searches=1', lines);
    expect(res.body.responses.map((r: any) => r.hits.total.value)).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('GET with a body is accepted', async () => {
    const res = await t.request('GET', '/books/_msearch', ndjson([{}, { size: 0 }]), { 'content-type': 'application/x-ndjson' });
    expect(res.body.responses[0].hits.total.value).toBe(3);
  });

  it('rest_total_hits_as_int applies to every item', async () => {
    const res = await msearch('/_msearch?rest_total_hits_as_int=true', [{ index: 'books' }, { size: 0 }]);
    expect(res.body.responses[0].hits.total).toBe(3);
  });

  it('items with empty headers take the URL index and parameters, next to items with their own', async () => {
    const res = await msearch('/books/_msearch?rest_total_hits_as_int=true', [
      {}, { size: 0 },
      { index: 'films', ignore_unavailable: true }, { size: 0 },
      '', { size: 0 },
      {}, { query: { match: { title: 'fox' } } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.responses.map((r: any) => r.hits.total)).toEqual([3, 1, 3, 1]);
    expect(hitIds(res.body.responses[3])).toEqual(['1']);
  });

  it('a malformed item parameter fails each item it applies to, on its own', async () => {
    const res = await msearch('/_msearch?allow_partial_search_results=maybe', [
      { index: 'books' }, { size: 0 },
      { index: 'books', allow_partial_search_results: true }, { size: 0 },
      { index: 'films' }, { size: 0 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.responses.map((r: any) => r.status)).toEqual([400, 200, 400]);
    expect(res.body.responses[0].error.reason).toBe('Failed to parse value [maybe] only [true] or [false] are allowed.');
  });
});

describe('POST /_msearch errors', () => {
  it('an unknown header key fails the request', async () => {
    const res = await msearch('/_msearch', [{ index: 'books', foo: 1 }, {}]);
    expectErrorType(res, 400, 'illegal_argument_exception', 'key [foo] is not supported in the metadata section');
  });

  it('a body without a final newline fails the request', async () => {
    const res = await t.request('POST', '/_msearch', '{}\n{}', { 'content-type': 'application/x-ndjson' });
    expectErrorType(res, 400, 'illegal_argument_exception', 'The msearch request must be terminated by a newline [\\n]');
  });

  it('an empty request fails validation', async () => {
    const res = await t.request('POST', '/_msearch', '\n', { 'content-type': 'application/x-ndjson' });
    expectErrorType(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: no requests added;');
  });

  it('malformed JSON in a body line fails the whole request with a parse error', async () => {
    const res = await msearch('/_msearch', [{ index: 'books' }, '{"query": {"match_all": {}}']);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toMatch(/parse/);
  });

  it('an unknown query in a body fails the whole request, as ES parses every body first', async () => {
    const res = await msearch('/_msearch', [{ index: 'books' }, { query: { nope: {} } }, { index: 'books' }, {}]);
    expectErrorType(res, 400, 'parsing_exception', 'unknown query [nope]');
  });

  it('a header that is not an object fails the request', async () => {
    const res = await msearch('/_msearch', ['["books"]', {}]);
    expectErrorType(res, 400, 'illegal_argument_exception');
  });

  it('a header value of the wrong type fails the request', async () => {
    const res = await msearch('/_msearch', [{ index: { a: 1 } }, {}]);
    expectErrorType(res, 400, 'illegal_argument_exception');
  });

  it('max_concurrent_searches must be positive', async () => {
    const res = await msearch('/_msearch?max_concurrent_searches=0', [{ index: 'books' }, {}]);
    expectErrorType(res, 400, 'illegal_argument_exception', 'maxConcurrentSearchRequests must be positive');
    const huge = await msearch('/_msearch?max_concurrent_searches=99999999999', [{ index: 'books' }, {}]);
    expectErrorType(huge, 400, 'illegal_argument_exception', 'Failed to parse int parameter [max_concurrent_searches] with value [99999999999]');
  });

  it('unknown URL parameters are refused', async () => {
    const res = await msearch('/_msearch?sizee=1', [{ index: 'books' }, {}]);
    expectErrorType(res, 400, 'illegal_argument_exception', /contains unrecognized parameter: \[sizee\]/);
  });
});
