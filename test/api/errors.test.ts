/**
 * Errors across the REST layer, as the REST docs and clients see them:
 * common options https://www.elastic.co/guide/en/elasticsearch/reference/8.15/common-options.html,
 * REST API compatibility https://www.elastic.co/guide/en/elasticsearch/reference/8.15/rest-api-compatibility.html,
 * the search body (search-search.html) and its query DSL parse errors
 * (es-api.md §0, §3.1, §3.3, §8, §9).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound, seed } from './es.js';

let t: TestApp;
let uuid: string;
const V8 = 'application/vnd.elasticsearch+json; compatible-with=8';
const V9 = 'application/vnd.elasticsearch+json; compatible-with=9';

beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/books', { mappings: { properties: { title: { type: 'text' }, price: { type: 'long' } } } });
  await seed(t, 'books', [['1', { title: 'one', price: 1 }], ['2', { title: 'two', price: 2 }], ['3', { title: 'three', price: 3 }]]);
  uuid = (await t.request('GET', '/books/_settings')).body.books.settings.index.uuid;
});
afterAll(async () => t.close());

const search = (body: unknown, query = '') => t.request('POST', `/books/_search${query}`, body);

/** The result-window error, wrapped as a shard failure (es-api.md §3.1, §3.3). */
function expectResultWindow(res: any, limit: number, was: number) {
  const reason = `Result window is too large, from + size must be less than or equal to: [${limit}] but was [${was}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`;
  expect(res.status).toBe(400);
  expect(res.body.status).toBe(400);
  expect(res.body.error.type).toBe('search_phase_execution_exception');
  expect(res.body.error.reason).toBe('all shards failed');
  expect(res.body.error.phase).toBe('query');
  expect(res.body.error.grouped).toBe(true);
  expect(res.body.error.root_cause).toEqual([{ type: 'illegal_argument_exception', reason }]);
  expect(res.body.error.failed_shards).toEqual([{ shard: 0, index: 'books', node: expect.any(String), reason: { type: 'illegal_argument_exception', reason } }]);
}

describe('malformed request bodies', () => {
  it('malformed JSON fails with x_content_parse_exception carrying the parser message', async () => {
    const res = await search('{bad json');
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.error.type).toBe('x_content_parse_exception');
    expect(JSON.stringify(res.body.error)).toContain("Unexpected character ('b' (code 98)): was expecting double-quote to start field name");
  });

  it('truncated JSON fails with 400', async () => {
    const res = await search('{"query": {"match_all": {}}');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('x_content_parse_exception');
  });

  it('a malformed document body fails with 400 and an ES error body', async () => {
    const res = await t.request('PUT', '/books/_doc/9', '{"title":');
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toEqual(expect.any(String));
    expect((await t.request('GET', '/books/_doc/9')).status).toBe(404);
  });

  it('a search body that is not an object fails with parsing_exception', async () => {
    const res = await search('[]');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'parsing_exception', reason: 'Expected [START_OBJECT] but found [START_ARRAY]', line: 1, col: 1 });
  });

  it('an empty body is the same as no body', async () => {
    const res = await search('');
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(3);
  });
});

describe('query DSL parse errors', () => {
  it('an unknown query clause fails with parsing_exception "unknown query [foo]" with line and col', async () => {
    const res = await search({ query: { foo: {} } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      root_cause: [{ type: 'parsing_exception', reason: 'unknown query [foo]', line: 1, col: expect.any(Number) }],
      type: 'parsing_exception',
      reason: 'unknown query [foo]',
      line: 1,
      col: expect.any(Number),
      caused_by: { type: 'named_object_not_found_exception', reason: expect.stringMatching(/^\[1:\d+\] unknown field \[foo\]$/) },
    });
  });

  it('an unknown parameter of a clause fails with "[match] query does not support [foo]"', async () => {
    const res = await search({ query: { match: { title: { query: 'one', foo: 1 } } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'parsing_exception', reason: '[match] query does not support [foo]', line: 1, col: expect.any(Number) });
    expect(res.body.error.root_cause[0]).toMatchObject({ type: 'parsing_exception', reason: '[match] query does not support [foo]' });
  });

  it('an empty query object fails with parsing_exception', async () => {
    const res = await search({ query: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
  });

  it('two clauses in one query object fail with parsing_exception', async () => {
    const res = await search({ query: { match_all: {}, term: { title: 'one' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
    expect(res.body.error.reason).toBe('[match_all] malformed query, expected [END_OBJECT] but found [FIELD_NAME]');
  });
});

describe('unknown top-level keys', () => {
  it('a number fails with "Unknown key for a VALUE_NUMBER in [foo]." with line and col', async () => {
    const res = await search({ foo: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      root_cause: [{ type: 'parsing_exception', reason: 'Unknown key for a VALUE_NUMBER in [foo].', line: 1, col: expect.any(Number) }],
      type: 'parsing_exception',
      reason: 'Unknown key for a VALUE_NUMBER in [foo].',
      line: 1,
      col: expect.any(Number),
    });
  });

  it('a string fails with "Unknown key for a VALUE_STRING in [foo]."', async () => {
    const res = await search({ foo: 'x' });
    expect(res.body.error.reason).toBe('Unknown key for a VALUE_STRING in [foo].');
  });

  it('an object fails with "Unknown key for a START_OBJECT in [foo]."', async () => {
    const res = await search({ foo: {} });
    expect(res.body.error.reason).toBe('Unknown key for a START_OBJECT in [foo].');
  });

  it('an array fails with "Unknown key for a START_ARRAY in [foo]."', async () => {
    const res = await search({ foo: [] });
    expect(res.body.error.reason).toBe('Unknown key for a START_ARRAY in [foo].');
  });
});

describe('wrong field types', () => {
  it('a query given as a string fails with "Unknown key for a VALUE_STRING in [query]."', async () => {
    const res = await search({ query: 'one' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'parsing_exception', reason: 'Unknown key for a VALUE_STRING in [query].' });
  });

  it('a non-numeric size fails with number_format_exception', async () => {
    const res = await search({ size: 'abc' });
    expectEsError(res, 400, 'number_format_exception', 'For input string: "abc"');
  });

  it('a non-numeric from fails with number_format_exception', async () => {
    const res = await search({ from: 'x' });
    expectEsError(res, 400, 'number_format_exception', 'For input string: "x"');
  });

  it('a numeric string size is coerced', async () => {
    const res = await search({ size: '2' });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toHaveLength(2);
  });

  it('a term query with a non-numeric value on a long field is a shard failure caused by number_format_exception', async () => {
    const res = await search({ query: { term: { price: 'abc' } } });
    expect(res.status).toBe(400);
    const reason = 'failed to create query: For input string: "abc"';
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause).toEqual([{ type: 'query_shard_exception', reason, index_uuid: uuid, index: 'books' }]);
    expect(res.body.error.failed_shards[0].reason).toEqual({
      type: 'query_shard_exception', reason, index_uuid: uuid, index: 'books',
      caused_by: { type: 'number_format_exception', reason: 'For input string: "abc"' },
    });
  });

  it('a non-numeric URL size fails with illegal_argument_exception', async () => {
    const res = await t.request('GET', '/books/_search?size=abc');
    expectEsError(res, 400, 'illegal_argument_exception', 'Failed to parse int parameter [size] with value [abc]');
  });
});

describe('size and from limits', () => {
  it('size 0 returns the total and no hits', async () => {
    const res = await search({ size: 0 });
    expect(res.status).toBe(200);
    expect(res.body.hits).toEqual({ total: { value: 3, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('size 10000 is the largest allowed window', async () => {
    const res = await search({ size: 10000 });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toHaveLength(3);
  });

  it('size 10001 fails with the result window error', async () => {
    expectResultWindow(await search({ size: 10001 }), 10000, 10001);
  });

  it('from + size beyond 10000 fails with the result window error naming the sum', async () => {
    expectResultWindow(await search({ from: 9995, size: 10 }), 10000, 10005);
    expectResultWindow(await t.request('GET', '/books/_search?from=10000'), 10000, 10010);
  });

  it('the window follows index.max_result_window', async () => {
    await t.request('PUT', '/books/_settings', { index: { max_result_window: 20 } });
    try {
      expectResultWindow(await search({ size: 21 }), 20, 21);
      expect((await search({ size: 20 })).status).toBe(200);
    } finally {
      await t.request('PUT', '/books/_settings', { index: { max_result_window: 10000 } });
    }
  });

  it('a negative size fails with illegal_argument_exception', async () => {
    expectEsError(await search({ size: -1 }), 400, 'illegal_argument_exception', '[size] parameter cannot be negative, found [-1]');
    expectEsError(await t.request('GET', '/books/_search?size=-1'), 400, 'illegal_argument_exception', '[size] parameter cannot be negative, found [-1]');
  });

  it('a negative from fails with illegal_argument_exception', async () => {
    expectEsError(await search({ from: -1 }), 400, 'illegal_argument_exception', '[from] parameter cannot be negative, found [-1]');
  });
});

describe('index resolution', () => {
  it('an unknown index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('POST', '/missing/_search', {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('a wildcard that matches nothing is not an error: 200 with empty hits', async () => {
    const res = await t.request('POST', '/missing-*/_search', {});
    expect(res.status).toBe(200);
    expect(res.body._shards.total).toBe(0);
    expect(res.body.hits.hits).toEqual([]);
  });
});

describe('URL parameters', () => {
  it('an unknown URL parameter fails with illegal_argument_exception', async () => {
    expectEsError(await search({}, '?foo=1'), 400, 'illegal_argument_exception', 'request [/books/_search] contains unrecognized parameter: [foo]');
  });

  it('several unknown parameters are listed together', async () => {
    expectEsError(await search({}, '?foo=1&bar=2'), 400, 'illegal_argument_exception', 'request [/books/_search] contains unrecognized parameters: [foo], [bar]');
  });

  it('a misspelt parameter gets a "did you mean" suggestion', async () => {
    expectEsError(await search({}, '?sizee=1'), 400, 'illegal_argument_exception',
      'request [/books/_search] contains unrecognized parameter: [sizee] -> did you mean [size]?');
  });

  it('the common parameters pretty, human, error_trace and filter_path are accepted everywhere', async () => {
    const res = await search({}, '?pretty&human=true&error_trace=false&filter_path=hits.total');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hits: { total: { value: 3, relation: 'eq' } } });
  });

  it('filter_path does not filter error bodies', async () => {
    const res = await search({ query: { foo: {} } }, '?filter_path=hits.total');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
    expect(res.body.status).toBe(400);
  });
});

describe('routing errors', () => {
  it('an unknown route fails with 400 "no handler found" as a string error', async () => {
    const res = await t.request('GET', '/books/_foo');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'no handler found for uri [/books/_foo] and method [GET]' });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('the uri in "no handler found" includes the query string', async () => {
    const res = await t.request('GET', '/books/_foo?human=true');
    expect(res.body).toEqual({ error: 'no handler found for uri [/books/_foo?human=true] and method [GET]' });
  });

  it('an _-prefixed path that is no endpoint is not taken for an index name: 400 "no handler found"', async () => {
    for (const [method, path] of [['GET', '/_nodes_x'], ['POST', '/_analyze_x'], ['DELETE', '/_foo'], ['GET', '/_foo/_search'], ['POST', '/_foo/_doc/1'], ['GET', '/_foo/_mapping'], ['HEAD', '/_foo']] as const) {
      const res = await t.request(method, path, method === 'POST' ? { a: 1 } : undefined);
      expect(res.status, `${method} ${path}`).toBe(400);
      if (method !== 'HEAD') expect(res.body).toEqual({ error: `no handler found for uri [${path}] and method [${method}]` });
    }
  });

  it('_all still names every index, and PUT of an _-prefixed name keeps the invalid index name error', async () => {
    expect((await t.request('GET', '/_all/_count')).body.count).toBe(3);
    expect(Object.keys((await t.request('GET', '/_all')).body)).toContain('books');
    const res = await t.request('PUT', '/_foo');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_index_name_exception');
  });

  it('a known _-prefixed endpoint asked with a wrong method is a 405, not an index', async () => {
    const res = await t.request('GET', '/_bulk');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Incorrect HTTP method for uri [/_bulk] and method [GET], allowed: [POST, PUT]', status: 405 });
  });

  it('GET /_data_stream/{name} is ES 404 index_not_found_exception (no data streams exist); lists are empty', async () => {
    const res = await t.request('GET', '/_data_stream/books');
    expect(res.body).toEqual(indexNotFound('books'));
    expect(res.status).toBe(404);
    expect((await t.request('GET', '/_data_stream/logs-*,missing')).body).toEqual(indexNotFound('missing'));
    expect((await t.request('GET', '/_data_stream')).body).toEqual({ data_streams: [] });
    expect((await t.request('GET', '/_data_stream/logs-*')).body).toEqual({ data_streams: [] });
  });

  it('a wrong method on a known path fails with 405, the allowed methods and an Allow header', async () => {
    const res = await t.request('PATCH', '/books/_doc/1', { a: 1 });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      error: 'Incorrect HTTP method for uri [/books/_doc/1] and method [PATCH], allowed: [DELETE, GET, HEAD, POST, PUT]',
      status: 405,
    });
    expect(String(res.headers.allow).split(',').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST', 'PUT']);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('DELETE on _search is a 405 allowing GET and POST', async () => {
    const res = await t.request('DELETE', '/books/_search');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Incorrect HTTP method for uri [/books/_search] and method [DELETE], allowed: [GET, POST]', status: 405 });
    expect(String(res.headers.allow).split(',').sort()).toEqual(['GET', 'POST']);
  });
});

describe('media types', () => {
  it('an unsupported Content-Type fails with 406 and a string error', async () => {
    const res = await t.request('POST', '/books/_search', '{}', { 'content-type': 'application/xml' });
    expect(res.status).toBe(406);
    expect(res.body).toEqual({ error: 'Content-Type header [application/xml] is not supported', status: 406 });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('a form-encoded body (a CORS-safelisted type) is refused with 406', async () => {
    const res = await t.request('POST', '/books/_search', '{}', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(406);
    expect(res.body).toEqual({ error: 'Content-Type header [application/x-www-form-urlencoded] is not supported', status: 406 });
  });

  it('plain application/json is answered with application/json', async () => {
    const res = await search({});
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('text/plain bodies are parsed as JSON (clients send pre-serialised strings so)', async () => {
    const res = await t.request('POST', '/books/_search', '{"size":1}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toHaveLength(1);
  });

  for (const [label, type, echoed] of [
    ['v8', V8, 'application/vnd.elasticsearch+json;compatible-with=8'],
    ['v9', V9, 'application/vnd.elasticsearch+json;compatible-with=9'],
  ] as const) {
    it(`the ${label} client's vendor media type is accepted and echoed back`, async () => {
      const res = await t.request('POST', '/books/_search', '{"size":1}', { 'content-type': type, accept: type });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(echoed);
      expect(JSON.parse(res.text).hits.hits).toHaveLength(1);
    });

    it(`the ${label} vendor media type is echoed on error responses too`, async () => {
      const res = await t.request('GET', '/missing/_search', undefined, { accept: type });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe(echoed);
    });
  }

  it('the v8 Accept header with ",text/plain" appended is understood', async () => {
    const res = await t.request('GET', '/books/_count', undefined, { accept: `${V8},text/plain` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.elasticsearch+json;compatible-with=8');
  });

  it('the v8 bulk vendor type application/vnd.elasticsearch+x-ndjson is accepted', async () => {
    const res = await t.request('POST', '/books/_bulk', '{"index":{"_id":"v"}}\n{"title":"vendor"}\n', {
      'content-type': 'application/vnd.elasticsearch+x-ndjson; compatible-with=8', accept: V8,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(false);
  });

  it('compatible-with=6 is rejected with media_type_header_exception', async () => {
    const type = 'application/vnd.elasticsearch+json; compatible-with=6';
    const res = await t.request('POST', '/books/_search', '{}', { 'content-type': type, accept: type });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'media_type_header_exception', reason: 'Invalid media-type value on headers [Accept, Content-Type]' }],
        type: 'media_type_header_exception',
        reason: 'Invalid media-type value on headers [Accept, Content-Type]',
        caused_by: { type: 'status_exception', reason: expect.stringMatching(/version must be either version .*but found 6\. (Accept|Content-Type)=application\/vnd\.elasticsearch\+json; compatible-with=6$/) },
      },
      status: 400,
    });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('compatible-with=6 in Accept alone is rejected too', async () => {
    const res = await t.request('GET', '/books/_search', undefined, { accept: 'application/vnd.elasticsearch+json; compatible-with=6' });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('media_type_header_exception');
  });
});

describe('X-elastic-product: Elasticsearch on every response', () => {
  const cases: Array<[string, string, string, unknown?, Record<string, string>?]> = [
    ['200 search', 'POST', '/books/_search', {}],
    ['201 index', 'PUT', '/books/_doc/header-check', { title: 'x' }],
    ['404 missing document', 'GET', '/books/_doc/nope'],
    ['404 missing index', 'GET', '/missing'],
    ['400 parse error', 'POST', '/books/_search', { query: { foo: {} } }],
    ['400 no handler', 'GET', '/books/_foo'],
    ['405 wrong method', 'PATCH', '/books/_doc/1', {}],
    ['406 bad content type', 'POST', '/books/_search', '{}', { 'content-type': 'application/xml' }],
    ['409 conflict', 'PUT', '/books/_create/1', { title: 'x' }],
    ['HEAD 200', 'HEAD', '/books'],
    ['HEAD 404', 'HEAD', '/missing'],
    ['HEAD 200 document', 'HEAD', '/books/_doc/1'],
    ['HEAD 404 document', 'HEAD', '/books/_doc/nope'],
  ];
  for (const [label, method, url, body, headers] of cases) {
    it(`is sent on ${label}`, async () => {
      const res = await t.request(method, url, body, headers);
      expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    });
  }

  it('is sent on a media-type error', async () => {
    const res = await t.request('GET', '/', undefined, { accept: 'application/vnd.elasticsearch+json; compatible-with=6' });
    expect(res.status).toBe(400);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});
