/**
 * The `search_as_you_type` field type and the queries it is made for:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-as-you-type.html
 * (es-api.md §1.2; search-ui-connector.md §3.2 and §4.1). Expected results follow ES's
 * SearchAsYouTypeFieldMapper: `._2gram`/`._3gram` hold shingles of 2/3 tokens, `._index_prefix`
 * the edge n-grams (1..20) of 3-token shingles padded at the end of the value, and prefix or
 * phrase prefix queries on the root are answered from `._index_prefix`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { bm25, ids, scores, seed } from './es.js';

let t: TestApp;

const PRODUCTS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'Wireless Headphones', category: 'audio' }],
  ['2', { title: 'Wireless Earbuds Pro', category: 'audio' }],
  ['3', { title: 'Laptop Stand', category: 'office' }],
  ['4', { title: 'Gaming Laptop with Wireless Mouse', category: 'computers' }],
  ['5', { title: 'Laptops for students', category: 'computers' }],
  ['6', { title: 'Wired Earbuds', category: 'audio' }],
];
/** title lengths 2, 3, 2, 5, 3, 2 (standard analyzer) → avgdl 17/6 over 6 docs. */
const TITLE = { docCount: 6, avgdl: 17 / 6 };

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['products', 1], ['products3', 3]] as const) {
    const res = await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { title: { type: 'search_as_you_type' }, category: { type: 'keyword' } } },
    });
    expect(res.status).toBe(200);
    await seed(t, index, PRODUCTS);
  }
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'products') => t.request('POST', `/${index}/_search`, body);
const q = async (query: unknown, index = 'products') => {
  const res = await search({ query, size: 20 }, index);
  expect(res.status).toBe(200);
  return res;
};
const hitIds = async (query: unknown, index = 'products') => ids(await q(query, index));

/** The connector's autocomplete request for `searchTerm` (search-ui-connector.md §4.1). */
const autocomplete = (query: string) => ({
  size: 5,
  _source: { includes: ['title'] },
  query: { bool: { must: [{ multi_match: { query, type: 'bool_prefix', fields: ['title^3', 'title._2gram^1', 'title._3gram^1'] } }] } },
});

function expectShardFailure(res: TestResponse, reason: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('search_phase_execution_exception');
  expect(res.body.error.root_cause).toEqual([{ type: 'query_shard_exception', reason, index_uuid: expect.any(String), index: 'products' }]);
}

describe('mapping', () => {
  it('GET _mapping renders the field as ES does: doc_values and max_shingle_size always, subfields never', async () => {
    const res = await t.request('GET', '/products/_mapping');
    expect(res.body.products.mappings).toEqual({
      properties: {
        category: { type: 'keyword' },
        title: { type: 'search_as_you_type', doc_values: false, max_shingle_size: 3 },
      },
    });
  });

  it('keeps the parameters given, in ES order', async () => {
    const res = await t.request('PUT', '/sayt-params', {
      mappings: {
        properties: {
          name: {
            type: 'search_as_you_type', norms: false, analyzer: 'english', max_shingle_size: '4', index: true,
            search_analyzer: 'standard', fields: { raw: { type: 'keyword' } },
          },
        },
      },
    });
    expect(res.status).toBe(200);
    const mapping = (await t.request('GET', '/sayt-params/_mapping')).body['sayt-params'].mappings;
    expect(mapping).toEqual({
      properties: {
        name: {
          type: 'search_as_you_type', index: true, doc_values: false, max_shingle_size: 4, analyzer: 'english',
          search_analyzer: 'standard', norms: false, fields: { raw: { type: 'keyword' } },
        },
      },
    });
    expect(Object.keys(mapping.properties.name)).toEqual([
      'type', 'index', 'doc_values', 'max_shingle_size', 'analyzer', 'search_analyzer', 'norms', 'fields',
    ]);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['max_shingle_size above 4', { max_shingle_size: 5 }, '[max_shingle_size] must be at least [2] and at most [4], got [5]'],
    ['max_shingle_size below 2', { max_shingle_size: 1 }, '[max_shingle_size] must be at least [2] and at most [4], got [1]'],
    ['doc_values: true', { doc_values: true }, 'Cannot set [doc_values] on field of type [search_as_you_type]'],
    ['position_increment_gap (a text parameter)', { position_increment_gap: 10 }, 'unknown parameter [position_increment_gap] on mapper [title] of type [search_as_you_type]'],
    ['fielddata (a text parameter)', { fielddata: true }, 'unknown parameter [fielddata] on mapper [title] of type [search_as_you_type]'],
    ['an unknown analyzer', { analyzer: 'nope' }, 'analyzer [nope] has not been configured in mappings'],
  ];
  for (const [what, params, reason] of invalid) {
    it(`rejects ${what}`, async () => {
      const res = await t.request('PUT', '/sayt-bad', { mappings: { properties: { title: { type: 'search_as_you_type', ...params } } } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          root_cause: [{ type: 'mapper_parsing_exception', reason }],
          type: 'mapper_parsing_exception',
          reason: `Failed to parse mapping: ${reason}`,
          caused_by: { type: 'mapper_parsing_exception', reason },
        },
        status: 400,
      });
    });
  }

  it('max_shingle_size cannot be changed by PUT _mapping', async () => {
    const res = await t.request('PUT', '/products/_mapping', { properties: { title: { type: 'search_as_you_type', max_shingle_size: 4 } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('illegal_argument_exception');
    expect(res.body.error.reason).toBe('Mapper for [title] conflicts with existing mapper:\n\tCannot update parameter [max_shingle_size] from [3] to [4]');
    // The same definition again is no change.
    expect((await t.request('PUT', '/products/_mapping', { properties: { title: { type: 'search_as_you_type' } } })).status).toBe(200);
  });

  it('aggregations and sorting on it fail as for a field without fielddata', async () => {
    const agg = await search({ size: 0, aggs: { t: { terms: { field: 'title' } } } });
    expect(agg.status).toBe(400);
    expect(agg.body.error.root_cause[0]).toMatchObject({ type: 'illegal_argument_exception', reason: 'Fielddata is not supported on field [title] of type [search_as_you_type]' });
    const sort = await search({ sort: [{ title: 'asc' }] });
    expect(sort.status).toBe(400);
    expect(sort.body.error.root_cause[0]).toMatchObject({ reason: 'Fielddata is not supported on field [title] of type [search_as_you_type]' });
  });
});

describe('documents', () => {
  it('accept strings, numbers, booleans, arrays and null, and reject objects', async () => {
    await t.request('PUT', '/sayt-values', { mappings: { properties: { s: { type: 'search_as_you_type' } } } });
    for (const [id, s] of [['1', 'Blue Car'], ['2', 42], ['3', true], ['4', ['red bike', 'green car']], ['5', null]] as const) {
      expect((await t.request('PUT', `/sayt-values/_doc/${id}`, { s })).status).toBe(201);
    }
    const bad = await t.request('PUT', '/sayt-values/_doc/6', { s: { a: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('document_parsing_exception');
    await t.request('POST', '/sayt-values/_refresh');
    const find = async (query: unknown) => ids(await q(query, 'sayt-values'));
    expect(await find({ match: { s: '42' } })).toEqual(['2']);
    expect(await find({ match: { s: 'true' } })).toEqual(['3']);
    expect(await find({ match: { 's._2gram': 'green car' } })).toEqual(['4']);
    // Array values are separate token streams: no shingle spans two values.
    expect(await find({ match: { 's._2gram': 'bike green' } })).toEqual([]);
    expect(await find({ term: { 's._index_prefix': 'bike ' } })).toEqual(['4']);
    expect(await find({ exists: { field: 's' } })).toEqual(['1', '2', '3', '4']);
  });
});

describe('segments', () => {
  it('several segments and a force merge answer as one', async () => {
    await t.request('PUT', '/sayt-merge', { mappings: { properties: { title: { type: 'search_as_you_type' } } } });
    for (const doc of PRODUCTS) await seed(t, 'sayt-merge', [doc]);
    const queries = [autocomplete('wireless ea'), { query: { multi_match: { query: 'laptop with wireless m', fields: ['title'], type: 'phrase_prefix' } } }];
    const before = await Promise.all(queries.map((body) => search(body, 'sayt-merge')));
    expect((await t.request('POST', '/sayt-merge/_forcemerge?max_num_segments=1')).status).toBe(200);
    for (let i = 0; i < queries.length; i++) {
      const after = await search(queries[i], 'sayt-merge');
      expect(ids(after)).toEqual(ids(before[i]));
      expect(scores(after)).toEqual(scores(before[i]));
      expect(ids(after)).toEqual(ids(await search(queries[i])));
    }
  });
});

describe('subfields', () => {
  it('._2gram and ._3gram index shingles of 2 and 3 tokens', async () => {
    expect(await hitIds({ term: { 'title._2gram': 'wireless earbuds' } })).toEqual(['2']);
    expect(await hitIds({ term: { 'title._2gram': 'with wireless' } })).toEqual(['4']);
    expect(await hitIds({ term: { 'title._3gram': 'wireless earbuds pro' } })).toEqual(['2']);
    expect(await hitIds({ term: { 'title._3gram': 'laptop with wireless' } })).toEqual(['4']);
    // No unigrams, and no shingles longer than the field's.
    expect(await hitIds({ term: { 'title._2gram': 'wireless' } })).toEqual([]);
    expect(await hitIds({ term: { 'title._3gram': 'wireless earbuds' } })).toEqual([]);
    expect(await hitIds({ term: { 'title._4gram': 'gaming laptop with wireless' } })).toEqual([]);
  });

  it('._index_prefix holds every prefix of every 3-token shingle, padded at the end of the value', async () => {
    // "w" begins the shingles at "with" and at "wireless" in document 4: frequency 2 (no norms).
    expect(await hitIds({ term: { 'title._index_prefix': 'w' } })).toEqual(['4', '1', '2', '6']);
    expect(await hitIds({ term: { 'title._index_prefix': 'wireless ea' } })).toEqual(['2']);
    expect(await hitIds({ term: { 'title._index_prefix': 'laptop stand' } })).toEqual(['3']);
    // The shingles at the end of "Wired Earbuds" and "Wireless Earbuds Pro" end in empty fillers.
    expect(await hitIds({ term: { 'title._index_prefix': 'earbuds ' } })).toEqual(['2', '6']);
    expect(await hitIds({ term: { 'title._index_prefix': 'earbuds  ' } })).toEqual(['6']);
  });

  it('match on a subfield analyses the text with its shingles', async () => {
    expect(await hitIds({ match: { 'title._2gram': 'Wireless Earbuds' } })).toEqual(['2']);
    expect(await hitIds({ match: { 'title._3gram': 'gaming laptop with' } })).toEqual(['4']);
    // A single word makes no 2-token shingle: no terms, no hits.
    expect(await hitIds({ match: { 'title._2gram': 'laptop' } })).toEqual([]);
    // ._index_prefix searches with 3-token shingles (and no edge n-grams).
    expect(await hitIds({ match: { 'title._index_prefix': 'gaming laptop wi' } })).toEqual(['4']);
    expect(await hitIds({ match: { 'title._index_prefix': 'wireless ea' } })).toEqual([]);
  });

  it('the root is a text field', async () => {
    expect(await hitIds({ match: { title: 'wireless' } })).toEqual(['1', '2', '4']);
    expect(await hitIds({ match_phrase: { title: { query: 'laptop wireless', slop: 1 } } })).toEqual(['4']);
    expect(await hitIds({ query_string: { query: 'title:lap*' } })).toEqual(['3', '4', '5']);
  });

  it('a field with max_shingle_size 4 has ._4gram', async () => {
    await t.request('PUT', '/sayt4', { mappings: { properties: { title: { type: 'search_as_you_type', max_shingle_size: 4 } } } });
    await seed(t, 'sayt4', PRODUCTS);
    expect(ids(await q({ term: { 'title._4gram': 'gaming laptop with wireless' } }, 'sayt4'))).toEqual(['4']);
    expect(ids(await q({ term: { 'title._index_prefix': 'gaming laptop with wi' } }, 'sayt4'))).toEqual([]); // 21 characters: not an edge n-gram
    expect(ids(await q({ term: { 'title._index_prefix': 'gaming laptop with w' } }, 'sayt4'))).toEqual(['4']);
    expect(ids(await q({ term: { 'title._5gram': 'gaming laptop with wireless mouse' } }, 'sayt4'))).toEqual([]);
  });
});

describe('prefix queries use ._index_prefix', () => {
  it('a prefix on the root is a constant-score term of ._index_prefix, so it may span words', async () => {
    const res = await q({ prefix: { title: 'lap' } });
    expect(ids(res)).toEqual(['3', '4', '5']);
    expect(scores(res)).toEqual({ 3: 1, 4: 1, 5: 1 });
    expect(await hitIds({ prefix: { title: 'laptop st' } })).toEqual(['3']);
    expect(await hitIds({ prefix: { 'title._2gram': 'gaming lap' } })).toEqual(['4']);
    expect(await hitIds({ prefix: { title: { value: 'LAP', case_insensitive: true } } })).toEqual(['3', '4', '5']);
  });

  it('a prefix longer than 20 characters is a prefix query on the field itself', async () => {
    expect(await hitIds({ prefix: { title: 'laptop with wireless' } })).toEqual(['4']); // 20: still one term
    expect(await hitIds({ prefix: { title: 'gaming laptop with wireless' } })).toEqual([]);
    expect(ids(await q({ prefix: { 'title._4gram': 'gaming laptop with wirel' } }, 'sayt4'))).toEqual(['4']);
  });
});

describe('the connector\'s autocomplete (multi_match bool_prefix over the root, ._2gram and ._3gram)', () => {
  it('"lap": one constant-score prefix on the root, boosted by 3', async () => {
    const res = await search(autocomplete('lap'));
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(['3', '4', '5']);
    expect(scores(res)).toEqual({ 3: 3, 4: 3, 5: 3 });
    expect(res.body.hits.hits[0]._source).toEqual({ title: 'Laptop Stand' });
  });

  it('"wireless ea": a scored term plus prefixes on the root and on ._2gram, summed', async () => {
    const res = await search(autocomplete('wireless ea'));
    expect(ids(res)).toEqual(['2', '6', '1', '4']);
    const wireless = (dl: number) => bm25({ ...TITLE, docFreq: 3, freq: 1, dl, boost: 3 });
    const s = scores(res);
    expect(s['2']).toBeCloseTo(wireless(3) + 3 + 1, 5);
    expect(s['6']).toBeCloseTo(3, 5);
    expect(s['1']).toBeCloseTo(wireless(2), 5);
    expect(s['4']).toBeCloseTo(wireless(5), 5);
  });

  it('"gaming laptop w": the 3-token shingle prefix ranks the document first', async () => {
    const res = await search(autocomplete('gaming laptop w'));
    expect(ids(res)[0]).toBe('4');
    // "laptops" is neither "laptop" nor a word starting with "w".
    expect(new Set(ids(res))).toEqual(new Set(['1', '2', '3', '4', '6']));
  });

  it('with fuzziness, the whole words may be misspelt but the prefix may not', async () => {
    const body = autocomplete('wireles headph');
    (body.query.bool.must[0].multi_match as Record<string, unknown>).fuzziness = 'AUTO';
    expect(ids(await search(body))[0]).toBe('1');
    const misspeltPrefix = autocomplete('wireless hedph');
    (misspeltPrefix.query.bool.must[0].multi_match as Record<string, unknown>).fuzziness = 'AUTO';
    expect(ids(await search(misspeltPrefix))).toEqual(['1', '2', '4']);
  });

  it('gives the same hits and scores with 3 shards as with 1', async () => {
    for (const term of ['lap', 'wireless ea', 'gaming laptop w', 'earbuds']) {
      const one = await search(autocomplete(term));
      const three = await search(autocomplete(term), 'products3');
      expect(ids(three)).toEqual(ids(one));
      expect(scores(three)).toEqual(scores(one));
    }
  });
});

describe('phrase_prefix on search_as_you_type (the connector\'s search clause)', () => {
  const phrasePrefix = (query: string, fields = ['title^3']) => ({ multi_match: { query, fields, type: 'phrase_prefix' } });

  it('one word expands over the root\'s terms: "laptop" finds "laptops"', async () => {
    // A disjunction of the expansions, each scored on its own: the rarer "laptops" first.
    const res = await q(phrasePrefix('laptop'));
    expect(ids(res)).toEqual(['5', '3', '4']);
    const term = (docFreq: number, dl: number) => bm25({ ...TITLE, docFreq, freq: 1, dl, boost: 3 });
    const s = scores(res);
    expect(s['5']).toBeCloseTo(term(1, 3), 5);
    expect(s['3']).toBeCloseTo(term(2, 2), 5);
    expect(s['4']).toBeCloseTo(term(2, 5), 5);
    expect(await hitIds(phrasePrefix('lap'))).toEqual(['5', '3', '4']);
  });

  it('two or three words are one term of ._index_prefix', async () => {
    expect(await hitIds(phrasePrefix('laptop st'))).toEqual(['3']);
    expect(await hitIds(phrasePrefix('gaming laptop wi'))).toEqual(['4']);
    expect(await hitIds(phrasePrefix('wireless ea'))).toEqual(['2']);
    expect(await hitIds(phrasePrefix('earbuds pr'))).toEqual(['2']);
    expect(await hitIds(phrasePrefix('laptop wi'))).toEqual(['4']);
    expect(await hitIds(phrasePrefix('stand la'))).toEqual([]);
  });

  it('more words than max_shingle_size: a ._3gram phrase whose last shingle is looked up in ._index_prefix', async () => {
    expect(await hitIds(phrasePrefix('gaming laptop with wireless m'))).toEqual(['4']);
    expect(await hitIds(phrasePrefix('laptop with wireless m'))).toEqual(['4']);
    expect(await hitIds(phrasePrefix('laptop with wireless x'))).toEqual([]);
  });

  it('match_phrase_prefix takes the same route; with slop it stays on the root', async () => {
    expect(await hitIds({ match_phrase_prefix: { title: 'laptop st' } })).toEqual(['3']);
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'gaming with wir', slop: 1 } } })).toEqual(['4']);
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'gaming with wir' } } })).toEqual([]);
  });

  it('on ._2gram the last shingle comes from ._index_prefix', async () => {
    expect(await hitIds(phrasePrefix('wireless earbuds p', ['title._2gram']))).toEqual(['2']);
    expect(await hitIds(phrasePrefix('wireless ea', ['title._2gram']))).toEqual(['2']);
  });

  it('match_phrase on the root finds the phrase through the shingle fields', async () => {
    expect(await hitIds({ match_phrase: { title: 'laptop stand' } })).toEqual(['3']);
    expect(await hitIds({ match_phrase: { title: 'laptop with wireless mouse' } })).toEqual(['4']);
    expect(await hitIds({ match_phrase: { title: 'wireless laptop' } })).toEqual([]);
    expect(await hitIds({ match_phrase: { title: 'laptop' } })).toEqual(['3', '4']);
  });

  it('._index_prefix takes no phrase queries', async () => {
    expectShardFailure(await search({ query: { match_phrase: { 'title._index_prefix': 'laptop stand' } } }),
      'failed to create query: Can only use phrase queries on text fields - not on [title._index_prefix] which is of type [prefix]');
    expectShardFailure(await search({ query: { match_phrase_prefix: { 'title._index_prefix': 'lap' } } }),
      'failed to create query: Can only use phrase prefix queries on text fields - not on [title._index_prefix] which is of type [prefix]');
  });

  it('gives the same hits with 3 shards as with 1', async () => {
    for (const term of ['laptop', 'laptop st', 'gaming laptop with wireless m', 'wireless']) {
      expect(await hitIds(phrasePrefix(term), 'products3')).toEqual(await hitIds(phrasePrefix(term)));
    }
  });
});
