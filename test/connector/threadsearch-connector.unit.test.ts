/**
 * threadsearch's connector without a server: `fetch` is replaced by a stub that records each
 * request and answers what the test says, so query building (reference §2–§4), response mapping
 * (§5) and every error path are checked exactly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectorConfigError, ConnectorError, ProxyConnector, ThreadsearchConnector, type QueryConfig } from '../../src/connector/index.js';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: any;
}
let sent: Sent[];
let answers: Array<(req: Sent) => Response | Promise<Response>>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const esError = (status: number, type: string, reason: string) => json(status, { error: { root_cause: [{ type, reason }], type, reason }, status });
const hits = (list: unknown[], total = list.length) => json(200, { took: 1, timed_out: false, hits: { total: { value: total, relation: 'eq' }, hits: list } });

beforeEach(() => {
  sent = [];
  answers = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const req = { url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) };
    sent.push(req);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request to ${url}`);
    return answer(req);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const connector = (extra: Record<string, unknown> = {}, post?: ConstructorParameters<typeof ThreadsearchConnector>[1]) =>
  new ThreadsearchConnector({ host: 'http://127.0.0.1:9200', index: 'products', apiKey: 'a2V5', ...extra }, post);
const PRICE_RANGES = [
  { to: 50, name: 'Under 50' },
  { from: 50, to: 500, name: '50 to 500' },
  { from: 500, name: '500 and up' },
];

describe('configuration', () => {
  it('exactly one of host and cloud, and an index, are required', () => {
    expect(() => new ThreadsearchConnector({ index: 'products' })).toThrow(new ConnectorConfigError('threadsearch connector: exactly one of [host] or [cloud] must be given'));
    expect(() => new ThreadsearchConnector({ index: 'p', host: 'http://h', cloud: { id: 'x:eQ==' } })).toThrow('exactly one of [host] or [cloud]');
    expect(() => new ThreadsearchConnector({ host: 'http://h' } as never)).toThrow('threadsearch connector: [index] is required');
    expect(() => new ThreadsearchConnector({ host: 'not a url', index: 'p' })).toThrow('[host] is not a valid URL: [not a url]');
    expect(() => new ThreadsearchConnector({ host: 'ftp://h', index: 'p' })).toThrow('[host] must be an http or https URL');
    expect(() => new ThreadsearchConnector({ cloud: { id: 'no-colon' }, index: 'p' })).toThrow('[cloud.id] must look like <name>:<base64>');
    expect(() => new ThreadsearchConnector(undefined as never)).toThrow(ConnectorConfigError);
  });

  it('a cloud id is decoded to its Elasticsearch URL; a host keeps its path; headers go with every request', async () => {
    const id = `my-deployment:${btoa('us-east-1.aws.found.io:9243$abc123$kib456')}`;
    answers.push(() => hits([]), () => hits([]));
    await new ThreadsearchConnector({ cloud: { id }, index: 'products' }).onSearch({}, {});
    await new ThreadsearchConnector({ host: 'https://proxy.example/es/', index: 'a,b', apiKey: 'k', connectionOptions: { headers: { 'X-Tenant': 't1' } } }).onSearch({}, {});
    expect(sent.map((s) => s.url)).toEqual(['https://abc123.us-east-1.aws.found.io:9243/products/_search', 'https://proxy.example/es/a,b/_search']);
    expect(sent[0].headers).toEqual({ 'content-type': 'application/json' });
    expect(sent[1].headers).toEqual({ 'content-type': 'application/json', authorization: 'ApiKey k', 'x-tenant': 't1' });
  });
});

describe('the search request', () => {
  it('a term over weighted fields: paging, _source, sort, highlight and the four multi_match clauses (search_basic)', async () => {
    answers.push(() => hits([]));
    await connector().onSearch(
      { searchTerm: 'laptop', current: 1, resultsPerPage: 10 },
      { search_fields: { title: { weight: 3 }, description: {} }, result_fields: { title: { snippet: {} }, description: { snippet: { size: 100, fallback: true } }, price: { raw: {} } } },
    );
    const fields = ['title^3', 'description^1'];
    expect(sent[0].body).toEqual({
      size: 10,
      from: 0,
      _source: { includes: ['title', 'description', 'price'] },
      sort: '_score',
      highlight: { fields: { title: {}, description: {} } },
      query: {
        bool: {
          must: [
            {
              bool: {
                minimum_should_match: 1,
                should: [
                  { multi_match: { query: 'laptop', fields, type: 'best_fields', operator: 'and' } },
                  { multi_match: { query: 'laptop', fields, type: 'cross_fields' } },
                  { multi_match: { query: 'laptop', fields, type: 'phrase' } },
                  { multi_match: { query: 'laptop', fields, type: 'phrase_prefix' } },
                ],
              },
            },
          ],
        },
      },
    });
  });

  it('fuzziness, sorting forms and paging', async () => {
    for (let i = 0; i < 5; i++) answers.push(() => hits([]));
    const c = connector();
    await c.onSearch({ searchTerm: 'x', current: 3, resultsPerPage: 5 }, { search_fields: { t: {} }, fuzziness: true });
    await c.onSearch({ sortList: [{ field: 'price', direction: 'asc' }, { field: 'brand', direction: '' }] }, {});
    await c.onSearch({ sortList: [{ field: 'price', direction: '' }] }, {});
    await c.onSearch({ sortField: 'release_date', sortDirection: 'desc' }, {});
    await c.onSearch({}, {});
    expect(sent[0].body).toMatchObject({ from: 10, size: 5 });
    expect(sent[0].body.query.bool.must[0].bool.should[0].multi_match.fuzziness).toBe('AUTO');
    expect(sent.slice(1).map((s) => s.body.sort)).toEqual([[{ price: 'asc' }], [], { release_date: 'desc' }, '_score']);
    expect(sent[4].body).toEqual({ size: 0, _source: { includes: [] }, sort: '_score' });
  });

  it('value and range facets under facet_bucket_all, filtered like the post_filter; a disjunctive facet gets its own wrapper', async () => {
    answers.push(() => hits([]), () => hits([]));
    const facets: QueryConfig['facets'] = {
      category: { type: 'value', size: 10 },
      brand: { type: 'value', size: 2, sort: 'value', direction: 'desc', include: 'a.*', exclude: ['b'] },
      price: { type: 'range', ranges: PRICE_RANGES },
    };
    await connector().onSearch({}, { facets, disjunctiveFacets: ['category'] });
    const price = { filters: { filters: { 'Under 50': { range: { price: { lte: 50 } } }, '50 to 500': { range: { price: { gte: 50, lte: 500 } } }, '500 and up': { range: { price: { gte: 500 } } } } } };
    expect(sent[0].body.aggs).toEqual({
      facet_bucket_all: {
        aggs: {
          category: { terms: { field: 'category', size: 10, order: { _count: 'desc' } } },
          brand: { terms: { field: 'brand', size: 2, order: { _key: 'desc' }, include: 'a.*', exclude: ['b'] } },
          price,
        },
        filter: { bool: { must: [] } },
      },
    });
    const categoryAny = { bool: { should: [{ term: { category: 'laptops' } }, { term: { category: 'phones' } }] } };
    await connector().onSearch({ filters: [{ field: 'category', type: 'any', values: ['laptops', 'phones'] }] }, { facets, disjunctiveFacets: ['category'] });
    expect(sent[1].body.post_filter).toEqual({ bool: { must: [categoryAny] } });
    expect(sent[1].body.aggs.facet_bucket_all.filter).toEqual({ bool: { must: [categoryAny] } });
    expect(sent[1].body.aggs.facet_bucket_category).toEqual({ aggs: { category: { terms: { field: 'category', size: 10, order: { _count: 'desc' } } } }, filter: { bool: { must: [] } } });
    expect(sent[1].body.query).toBeUndefined();
  });

  it('filters: all and any, numbers and booleans as terms, ranges with numeric and date bounds, queryConfig filters; a range facet matched by option name', async () => {
    answers.push(() => hits([]));
    await connector().onSearch(
      {
        searchTerm: 'w',
        filters: [
          { field: 'tags', type: 'all', values: ['a', 'b'] },
          { field: 'stock', type: 'any', values: [0, true] },
          { field: 'price', values: [{ name: 'x', from: 100, to: '300' }] },
          { field: 'date', type: 'any', values: [{ name: 'y', from: '2023-01-01', to: 'now-1d/d' }] },
          { field: 'p', type: 'any', values: ['Under 50', { name: '500 and up', from: 1, to: 2 }] },
        ],
      },
      { search_fields: { t: {} }, filters: [{ field: 'visible', type: 'all', values: [true] }], facets: { p: { type: 'range', ranges: PRICE_RANGES } } },
    );
    expect(sent[0].body.query.bool.filter).toEqual([
      { bool: { filter: [{ term: { tags: 'a' } }, { term: { tags: 'b' } }] } },
      { bool: { should: [{ term: { stock: 0 } }, { term: { stock: true } }] } },
      { bool: { filter: [{ range: { price: { gte: 100, lte: '300' } } }] } },
      { bool: { should: [{ range: { date: { gte: '2023-01-01', lte: 'now-1d/d' } } }] } },
      { bool: { filter: [{ term: { visible: true } }] } },
    ]);
    // Reference §0: the configured bounds of the named option, not the from/to given.
    expect(sent[0].body.post_filter).toEqual({ bool: { must: [{ bool: { should: [{ range: { p: { lte: 50 } } }, { range: { p: { gte: 500 } } }] } }] } });
  });

  it('the none filter type is refused with an error naming the field, before any request', async () => {
    await expect(connector().onSearch({ filters: [{ field: 'category', type: 'none', values: ['x'] }] }, {})).rejects.toThrow(
      'The "none" filter type is not supported by the threadsearch connector (filter on field [category])',
    );
    await expect(connector().onSearch({}, { filters: [{ field: 'brand', type: 'none', values: ['x'] }] })).rejects.toThrow('(filter on field [brand])');
    await expect(connector().onAutocomplete({ searchTerm: 'a' }, { results: { filters: [{ field: 'tags', type: 'none', values: ['x'] }] } })).rejects.toThrow('(filter on field [tags])');
    expect(sent).toEqual([]);
  });

  it('an unknown range option name, an unknown filter or facet type and a geo facet are refused before any request', async () => {
    const facets = { price: { type: 'range', ranges: PRICE_RANGES } };
    await expect(connector().onSearch({ filters: [{ field: 'price', type: 'any', values: ['Nope'] }] }, { facets })).rejects.toThrow('Range for price with value Nope not found in facet configuration');
    await expect(connector().onSearch({ filters: [{ field: 'price', type: 'any', values: [{ name: 'Free', to: 0 }] }] }, { facets })).rejects.toThrow('Range for price with value Free not found');
    await expect(connector().onSearch({ filters: [{ field: 'f', type: 'some' as never, values: ['x'] }] }, {})).rejects.toThrow('Unknown filter type [some] on field [f]');
    await expect(connector().onSearch({}, { facets: { f: { type: 'histogram' } } })).rejects.toThrow('Facet [f] has unknown type [histogram]');
    await expect(connector().onSearch({}, { facets: { loc: { type: 'range', center: '1,2', unit: 'km', ranges: [] } } })).rejects.toThrow('Geo distance facet [loc] is not supported');
    expect(sent).toEqual([]);
  });

  it("postProcessRequestBodyFn receives the body, the state and the config, and its body is sent (the README's multi_match example)", async () => {
    answers.push(() => hits([]));
    const readmeExample = (requestBody: any, requestState: any, queryConfig: any) => {
      if (!requestState.searchTerm) return requestBody;
      const fields = Object.entries(queryConfig.search_fields ?? {}).map(([field, { weight }]: [string, any]) => `${field}^${weight ?? 1}`);
      const filter = requestBody.query?.bool?.filter;
      requestBody.query = { bool: { must: [{ multi_match: { query: requestState.searchTerm, fields, type: 'best_fields', fuzziness: 'AUTO' } }], ...(filter ? { filter } : {}) } };
      return requestBody;
    };
    const post = vi.fn(readmeExample);
    await connector({}, post).onSearch({ searchTerm: 'fox', current: 1, resultsPerPage: 2, filters: [{ field: 'year', type: 'all', values: [2020] }] }, { search_fields: { title: { weight: 2 }, body: {} } });
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0][1]).toMatchObject({ searchTerm: 'fox', current: 1, resultsPerPage: 2 });
    expect(sent[0].body.query).toEqual({
      bool: { must: [{ multi_match: { query: 'fox', fields: ['title^2', 'body^1'], type: 'best_fields', fuzziness: 'AUTO' } }], filter: [{ bool: { filter: [{ term: { year: 2020 } }] } }] },
    });
    expect(() => connector({}, 'nope' as never)).toThrow('postProcessRequestBodyFn must be a function');
  });
});

describe('response mapping', () => {
  it('hits, snippets, totals, paging and facets (reference §5.5)', async () => {
    answers.push(() =>
      json(200, {
        hits: {
          total: { value: 3, relation: 'eq' },
          hits: [
            { _index: 'products', _id: 'p1', _score: 18, _source: { title: 'Laptop Pro 14', price: 1299 }, highlight: { title: ['<em>Laptop</em> Pro 14'] } },
            { _index: 'products', _id: 'p2', _score: 18, _source: { title: 'Laptop Air 13', price: 899 }, highlight: { summary: ['only <em>here</em>'] } },
          ],
        },
        aggregations: {
          facet_bucket_all: { doc_count: 3, price: { buckets: { '50 to 500': { doc_count: 0 }, '500 and up': { doc_count: 3 }, 'Under 50': { doc_count: 0 } } }, unknown: { buckets: [] } },
          facet_bucket_category: { doc_count: 5, category: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'laptops', doc_count: 3 }, { key: 'accessories', doc_count: 2 }] } },
          other: { doc_count: 1 },
        },
      }),
    );
    const state = await connector().onSearch(
      { current: 1, resultsPerPage: 2, searchTerm: 'laptop', filters: [{ field: 'category', values: ['laptops'], type: 'any' }] },
      { facets: { category: { type: 'value' }, price: { type: 'range', ranges: PRICE_RANGES } }, disjunctiveFacets: ['category'], result_fields: { title: { snippet: {} }, price: { raw: {} } } },
    );
    const { rawResponse, results, ...rest } = state;
    expect(rest).toEqual({
      resultSearchTerm: 'laptop',
      totalPages: 2,
      pagingStart: 1,
      pagingEnd: 2,
      wasSearched: false,
      totalResults: 3,
      requestId: '',
      facets: {
        price: [
          {
            field: 'price',
            type: 'value',
            data: [
              { value: { name: '50 to 500', from: 50, to: 500 }, count: 0 },
              { value: { name: '500 and up', from: 500 }, count: 3 },
              { value: { name: 'Under 50', to: 50 }, count: 0 },
            ],
          },
        ],
        category: [{ field: 'category', type: 'value', data: [{ value: 'laptops', count: 3 }, { value: 'accessories', count: 2 }] }],
      },
    });
    expect(results).toEqual([
      { id: { raw: 'p1' }, _meta: { id: 'p1', rawHit: rawResponse.hits!.hits![0] }, title: { raw: 'Laptop Pro 14', snippet: ['<em>Laptop</em> Pro 14'] }, price: { raw: 1299 } },
      { id: { raw: 'p2' }, _meta: { id: 'p2', rawHit: rawResponse.hits!.hits![1] }, title: { raw: 'Laptop Air 13' }, price: { raw: 899 }, summary: { snippet: ['only <em>here</em>'] } },
    ]);
  });

  it('a plain-number total, a missing total, and a last partial page', async () => {
    answers.push(
      () => json(200, { hits: { total: 12, hits: [] } }),
      () => json(200, { hits: {} }),
    );
    expect(await connector().onSearch({ current: 3, resultsPerPage: 5 }, {})).toMatchObject({ totalResults: 12, totalPages: 3, pagingStart: 11, pagingEnd: 12 });
    expect(await connector().onSearch({ current: 1, resultsPerPage: 5 }, {})).toMatchObject({ totalResults: 0, totalPages: 0, pagingStart: 0, pagingEnd: 0, results: [], facets: {} });
  });

  it('autocomplete: results, completion suggestions and result suggestions at once (reference §5.5)', async () => {
    answers.push(
      (r) => hits([{ _id: 'p1', _source: { title: 'Laptop Pro 14', url: '/p1' }, highlight: { title: ['<em>Lap</em>top Pro 14'] } }]),
      (r) => json(200, { hits: { total: { value: 12, relation: 'eq' }, hits: [] }, suggest: { suggest: [{ text: 'lap', offset: 0, length: 3, options: [{ text: 'Laptop Pro 14' }, { text: 'Laptop Air 13' }] }] } }),
      (r) => hits([{ _id: 'p2', _source: { title: 'Laptop Air 13' } }]),
    );
    const state = await connector().onAutocomplete(
      { searchTerm: 'lap' },
      {
        results: { search_fields: { title: { weight: 3 }, 'title._2gram': {} }, result_fields: { title: { snippet: {} }, url: { raw: {} } }, fuzziness: true },
        suggestions: { size: 3, types: { documents: { fields: ['suggest'] }, popular: { queryType: 'results', search_fields: { title: {} }, result_fields: { title: { raw: {} } }, resultsPerPage: 2 } } },
      },
    );
    expect(sent.map((s) => s.body)).toEqual([
      {
        size: 5,
        _source: { includes: ['title', 'url'] },
        highlight: { fields: { title: {} } },
        query: { bool: { must: [{ multi_match: { query: 'lap', type: 'bool_prefix', fields: ['title^3', 'title._2gram^1'], fuzziness: 'AUTO' } }] } },
      },
      { size: 0, _source: { includes: [] }, suggest: { suggest: { prefix: 'lap', completion: { size: 3, skip_duplicates: true, field: 'suggest', fuzzy: { fuzziness: 1 } } } } },
      { size: 2, _source: { includes: ['title'] }, query: { bool: { must: [{ multi_match: { query: 'lap', type: 'bool_prefix', fields: ['title^1'] } }] } } },
    ]);
    expect(state).toEqual({
      autocompletedResults: [{ id: { raw: 'p1' }, _meta: expect.anything(), title: { raw: 'Laptop Pro 14', snippet: ['<em>Lap</em>top Pro 14'] }, url: { raw: '/p1' } }],
      autocompletedSuggestions: {
        documents: [{ suggestion: 'Laptop Pro 14' }, { suggestion: 'Laptop Air 13' }],
        popular: [{ queryType: 'results', result: { title: { raw: 'Laptop Air 13' } } }],
      },
      autocompletedResultsRequestId: '',
      autocompletedSuggestionsRequestId: '',
    });
  });

  it('a suggest answer without options gives no suggestions, never a TypeError', async () => {
    answers.push(() => hits([]));
    const state = await connector().onAutocomplete({ searchTerm: 'zz' }, { suggestions: { types: { documents: { fields: ['suggest'] } } } });
    expect(state.autocompletedSuggestions).toEqual({ documents: [] });
  });
});

describe('error answers', () => {
  const URL = 'http://127.0.0.1:9200/products/_search';
  const cases: Array<[number, string, string]> = [
    [401, 'security_exception', 'unable to authenticate with provided credentials'],
    [403, 'security_exception', 'action [indices:data/read/search] is unauthorized for API key id [k1] of user [elastic] on indices [products]'],
    [400, 'parsing_exception', 'unknown query [multi_matchx]'],
    [500, 'null_pointer_exception', 'something broke'],
  ];
  for (const [status, type, reason] of cases) {
    it(`${status} ${type}: a ConnectorError with the status, ES's type and reason, from onSearch and onAutocomplete`, async () => {
      answers.push(() => esError(status, type, reason), () => esError(status, type, reason));
      const err = await connector().onSearch({ searchTerm: 'x' }, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorError);
      expect(err).toMatchObject({ status, type, reason, url: URL, message: `POST ${URL} answered ${status} ${type}: ${reason}` });
      await expect(connector().onAutocomplete({ searchTerm: 'x' }, { suggestions: { types: { d: { fields: ['s'] } } } })).rejects.toMatchObject({ status, type });
    });
  }

  it('a search_phase_execution_exception names its root cause', async () => {
    answers.push(() =>
      json(400, { error: { root_cause: [{ type: 'query_shard_exception', reason: 'failed to create query: bad field' }], type: 'search_phase_execution_exception', reason: 'all shards failed' }, status: 400 }),
    );
    await expect(connector().onSearch({}, {})).rejects.toThrow(`POST ${URL} answered 400 search_phase_execution_exception: all shards failed (query_shard_exception: failed to create query: bad field)`);
  });

  it('a non-JSON error page and a 200 that is not JSON are reported with a short prefix of the text', async () => {
    answers.push(
      () => new Response('<html>Bad gateway</html>', { status: 502 }),
      () => new Response('x'.repeat(5000), { status: 200 }),
    );
    await expect(connector().onSearch({}, {})).rejects.toMatchObject({ status: 502, message: `POST ${URL} answered 502: <html>Bad gateway</html>` });
    const err = (await connector().onSearch({}, {}).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^POST .* answered 200 with a body that is not a JSON object: x{300}…$/);
  });

  it('a network failure says which URL failed, and why', async () => {
    answers.push(() => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9200') });
    });
    const err = await connector().onSearch({}, {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ConnectorError', status: 0, url: URL, message: `POST ${URL} failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9200)` });
  });

  it('onResultClick and onAutocompleteResultClick do nothing', () => {
    expect(connector().onResultClick()).toBeUndefined();
    expect(connector().onAutocompleteResultClick()).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('ProxyConnector (the browser side of the demo proxy)', () => {
  it('posts {query, options} and the extra fields to <basePath>/search and /autocomplete, and reports error answers', async () => {
    answers.push(
      () => json(200, { results: [], totalResults: 0 }),
      () => json(200, { autocompletedResults: [] }),
      () => json(400, { error: { type: 'illegal_argument_exception', reason: 'bad mode' }, status: 400 }),
    );
    const proxy = new ProxyConnector({ basePath: 'http://demo.example/api/', extraBody: () => ({ mode: 'hybrid' }) });
    expect(await proxy.onSearch({ searchTerm: 'a' }, { search_fields: { t: {} } })).toEqual({ results: [], totalResults: 0 });
    await proxy.onAutocomplete({ searchTerm: 'a' }, { results: {} });
    expect(sent.map((s) => [s.url, s.body])).toEqual([
      ['http://demo.example/api/search', { mode: 'hybrid', query: { searchTerm: 'a' }, options: { search_fields: { t: {} } } }],
      ['http://demo.example/api/autocomplete', { mode: 'hybrid', query: { searchTerm: 'a' }, options: { results: {} } }],
    ]);
    await expect(proxy.onSearch({}, {})).rejects.toMatchObject({ status: 400, message: 'POST http://demo.example/api/search answered 400 illegal_argument_exception: bad mode' });
  });
});
