/**
 * Search API — `GET|POST /<target>/_search`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-search.html
 * with the query DSL pages (match, match_phrase, multi_match, query_string, bool, term, terms, range,
 * exists, ids, prefix, match_all), sort, _source filtering, min_score and track_total_hits
 * (es-api.md §3.1–3.5, §3.7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { bm25, expectErrorType, expectEsError, ids, indexNotFound, scores, seed, UUID } from './es.js';

let t: TestApp;

const BOOKS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'The quick brown fox', body: 'A fox jumps over the lazy dog', tag: 'animal', price: 10, pages: 100, rating: 4.5, published: '2020-01-01', instock: true }],
  ['2', { title: 'Lazy dogs sleep', body: 'Dogs sleep all day long', tag: 'animal', price: 20, rating: 3.0, published: '2021-06-15', instock: false }],
  ['3', { title: 'Quick recipes', body: 'Fast food for busy people, brown sauce', tag: 'food', price: 30, pages: 300, published: '2022-03-10', instock: true }],
  ['4', { title: 'Brown bread', body: 'Baking brown bread quickly', tag: 'food', price: 15, rating: 5.0, published: '2019-12-31' }],
  ['5', { title: 'Foxes and hounds', body: 'The hunt of the fox', price: 25, pages: 250, rating: 2.5, published: '2023-07-04', instock: true }],
];
const source = (id: string) => BOOKS.find(([i]) => i === id)![1];

/** title lengths 4, 3, 2, 2, 3 (standard analyzer, no stop words) → avgdl 2.8 over 5 docs. */
const TITLE = { docCount: 5, avgdl: 14 / 5 };

beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/books', {
    mappings: {
      properties: {
        title: { type: 'text' }, body: { type: 'text' }, tag: { type: 'keyword' }, price: { type: 'long' }, pages: { type: 'long' },
        rating: { type: 'double' }, published: { type: 'date' }, instock: { type: 'boolean' },
      },
    },
  });
  await seed(t, 'books', BOOKS);
  for (const name of ['pat-a1', 'pat-a2', 'pat-b1']) await seed(t, name, [['1', { name }]]);
  const lines: unknown[] = [];
  for (let i = 0; i < 10_001; i++) lines.push({ index: {} }, { n: i });
  const many = await t.bulk('/many/_bulk', lines, '?refresh=true');
  expect(many.body.errors).toBe(false);
});
afterAll(async () => t.close());

const search = (body?: unknown, target = 'books', query = '') =>
  t.request(body === undefined ? 'GET' : 'POST', `/${target}/_search${query}`, body);
const q = (query: unknown, extra: Record<string, unknown> = {}) => search({ query, ...extra });

/** Scores of a query by id, for composing expected multi_match / bool scores. */
async function scoresOf(query: unknown): Promise<Record<string, number>> {
  return scores(await q(query, { size: 100 }));
}

function expectScoresClose(actual: Record<string, number>, expected: Record<string, number>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [id, s] of Object.entries(expected)) expect(actual[id]).toBeCloseTo(s, 5);
}

describe('the search response', () => {
  it('has took, timed_out, _shards and hits with total, max_score and hit metadata', async () => {
    const res = await search({ query: { ids: { values: ['1'] } } });
    expect(res.status).toBe(200);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(res.body).toEqual({
      took: expect.any(Number),
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        total: { value: 1, relation: 'eq' },
        max_score: 1,
        hits: [{ _index: 'books', _id: '1', _score: 1, _source: source('1') }],
      },
    });
  });

  it('runs match_all when there is no query, scoring every document 1.0', async () => {
    const res = await search({});
    expect(res.body.hits.total).toEqual({ value: 5, relation: 'eq' });
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([1, 1, 1, 1, 1]);
  });

  it('works with GET and no body', async () => {
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(5);
  });

  it('accepts a body sent with GET', async () => {
    const res = await t.request('GET', '/books/_search', { query: { ids: { values: ['2'] } } });
    expect(ids(res)).toEqual(['2']);
  });

  it('returns max_score null and no hits when nothing matches', async () => {
    const res = await q({ match: { title: 'zebra' } });
    expect(res.body.hits).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('breaks score ties by index order', async () => {
    const res = await q({ match: { title: 'quick brown' } });
    expect(ids(res)).toEqual(['1', '3', '4']);
    expect(res.body.hits.hits[1]._score).toBe(res.body.hits.hits[2]._score);
  });
});

describe('profile', () => {
  it('profile: true is refused (no query profiler here), not answered without the section; false is accepted', async () => {
    expectEsError(await search({ profile: true, query: { match_all: {} } }), 400, 'illegal_argument_exception', '[profile] is not supported by this server yet');
    expect((await search({ profile: false, query: { match_all: {} } })).status).toBe(200);
  });
});

describe('match query', () => {
  it('scores a single term with BM25', async () => {
    const res = await q({ match: { title: 'quick' } });
    expect(ids(res)).toEqual(['3', '1']);
    expect(res.body.hits.hits[0]._score).toBeCloseTo(bm25({ ...TITLE, docFreq: 2, freq: 1, dl: 2 }), 5);
    expect(res.body.hits.hits[1]._score).toBeCloseTo(bm25({ ...TITLE, docFreq: 2, freq: 1, dl: 4 }), 5);
    expect(res.body.hits.max_score).toBe(res.body.hits.hits[0]._score);
  });

  it('ORs the analyzed terms and sums the scores of those that match', async () => {
    const res = await q({ match: { title: 'Quick BROWN' } });
    expect(ids(res)).toEqual(['1', '3', '4']);
    const quick = bm25({ ...TITLE, docFreq: 2, freq: 1, dl: 4 });
    const brown = bm25({ ...TITLE, docFreq: 2, freq: 1, dl: 4 });
    expect(res.body.hits.hits[0]._score).toBeCloseTo(quick + brown, 5);
  });

  it('accepts the long form with "query"', async () => {
    const short = await q({ match: { title: 'quick brown' } });
    const long = await q({ match: { title: { query: 'quick brown' } } });
    expect(long.body.hits).toEqual(short.body.hits);
  });

  it('"operator": "and" requires every term', async () => {
    const res = await q({ match: { title: { query: 'quick brown', operator: 'and' } } });
    expect(ids(res)).toEqual(['1']);
  });

  it('"minimum_should_match" as an integer', async () => {
    const res = await q({ match: { title: { query: 'quick brown fox', minimum_should_match: 2 } } });
    expect(ids(res)).toEqual(['1']);
  });

  it('"minimum_should_match" as a negative integer and as a percentage', async () => {
    expect(ids(await q({ match: { title: { query: 'quick brown fox', minimum_should_match: '-1' } } }))).toEqual(['1']);
    // 66% of 3 terms rounds down to 1.
    expect(ids(await q({ match: { title: { query: 'quick brown fox', minimum_should_match: '66%' } } }))).toEqual(['1', '3', '4']);
  });

  it('"boost" multiplies the score', async () => {
    const plain = await scoresOf({ match: { title: 'quick brown' } });
    const boosted = await scoresOf({ match: { title: { query: 'quick brown', boost: 2 } } });
    expectScoresClose(boosted, Object.fromEntries(Object.entries(plain).map(([id, s]) => [id, s * 2])));
  });

  it('matches a keyword field exactly, without analysis', async () => {
    expect(ids(await q({ match: { tag: 'animal' } }))).toEqual(['1', '2']);
    expect(ids(await q({ match: { tag: 'Animal' } }))).toEqual([]);
  });

  it('matches numeric fields exactly with a constant score of 1.0', async () => {
    const res = await q({ match: { price: '20' } });
    expect(ids(res)).toEqual(['2']);
    expect(res.body.hits.hits[0]._score).toBe(1);
  });

  it('matches nothing on an unmapped field', async () => {
    const res = await q({ match: { nope: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(0);
  });
});

describe('match_phrase query', () => {
  it('matches the terms in order and adjacent', async () => {
    expect(ids(await q({ match_phrase: { body: 'brown bread' } }))).toEqual(['4']);
    expect(ids(await q({ match_phrase: { body: 'lazy dog' } }))).toEqual(['1']);
  });

  it('does not match the terms in another order', async () => {
    expect(ids(await q({ match_phrase: { body: 'bread brown' } }))).toEqual([]);
  });

  it('"slop" allows moved terms: a swap needs slop 2', async () => {
    expect(ids(await q({ match_phrase: { body: { query: 'bread brown', slop: 1 } } }))).toEqual([]);
    expect(ids(await q({ match_phrase: { body: { query: 'bread brown', slop: 2 } } }))).toEqual(['4']);
  });
});

describe('multi_match query', () => {
  it('best_fields (the default) scores each document by its best field', async () => {
    const title = await scoresOf({ match: { title: 'brown' } });
    const body = await scoresOf({ match: { body: 'brown' } });
    const res = await scoresOf({ multi_match: { query: 'brown', fields: ['title', 'body'] } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(body)])) expected[id] = Math.max(title[id] ?? 0, body[id] ?? 0);
    expectScoresClose(res, expected);
  });

  it('tie_breaker adds the other fields\' scores times the tie breaker', async () => {
    const title = await scoresOf({ match: { title: 'brown' } });
    const body = await scoresOf({ match: { body: 'brown' } });
    const res = await scoresOf({ multi_match: { query: 'brown', fields: ['title', 'body'], tie_breaker: 0.3 } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(body)])) {
      const a = title[id] ?? 0;
      const b = body[id] ?? 0;
      expected[id] = Math.max(a, b) + 0.3 * Math.min(a, b);
    }
    expectScoresClose(res, expected);
  });

  it('field^boost multiplies that field\'s score, and ^1 changes nothing', async () => {
    const title = await scoresOf({ match: { title: 'brown' } });
    const body = await scoresOf({ match: { body: 'brown' } });
    const res = await scoresOf({ multi_match: { query: 'brown', fields: ['title^3', 'body^1'] } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(body)])) expected[id] = Math.max(3 * (title[id] ?? 0), body[id] ?? 0);
    expectScoresClose(res, expected);
  });

  it('most_fields sums the scores of every field', async () => {
    const title = await scoresOf({ match: { title: 'brown' } });
    const body = await scoresOf({ match: { body: 'brown' } });
    const res = await scoresOf({ multi_match: { query: 'brown', fields: ['title', 'body'], type: 'most_fields' } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(body)])) expected[id] = (title[id] ?? 0) + (body[id] ?? 0);
    expectScoresClose(res, expected);
  });

  it('best_fields with operator "and" needs every term in one field', async () => {
    expect(ids(await q({ multi_match: { query: 'quick dog', fields: ['title', 'body'], operator: 'and' } }))).toEqual([]);
  });

  it('cross_fields with operator "and" needs every term in some field', async () => {
    expect(ids(await q({ multi_match: { query: 'quick dog', fields: ['title', 'body'], type: 'cross_fields', operator: 'and' } }))).toEqual(['1']);
  });

  it('phrase runs match_phrase on every field', async () => {
    expect(ids(await q({ multi_match: { query: 'brown bread', fields: ['title', 'body'], type: 'phrase' } }))).toEqual(['4']);
    expect(ids(await q({ multi_match: { query: 'bread brown', fields: ['title', 'body'], type: 'phrase' } }))).toEqual([]);
  });

  it('phrase_prefix expands the last term as a prefix', async () => {
    const res = await q({ multi_match: { query: 'lazy d', fields: ['title', 'body'], type: 'phrase_prefix' } });
    expect(ids(res).sort()).toEqual(['1', '2']);
  });

  it('bool_prefix matches any term, the last one as a prefix', async () => {
    const res = await q({ multi_match: { query: 'brown bre', fields: ['title', 'body'], type: 'bool_prefix' } });
    expect(ids(res)[0]).toBe('4');
    expect(ids(res).sort()).toEqual(['1', '3', '4']);
  });

  it('searches every field when "fields" is omitted', async () => {
    expect(ids(await q({ multi_match: { query: 'fox' } })).sort()).toEqual(['1', '5']);
  });

  it('fuzziness is refused for type phrase', async () => {
    const res = await q({ multi_match: { query: 'brown', fields: ['title'], type: 'phrase', fuzziness: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parsing_exception');
    expect(res.body.error.reason).toBe('Fuzziness not allowed for type [phrase]');
  });
});

describe('query_string query', () => {
  it('searches terms in the default_field', async () => {
    expect(ids(await q({ query_string: { query: 'quick', default_field: 'title' } }))).toEqual(['3', '1']);
  });

  it('AND requires both terms, OR either', async () => {
    expect(ids(await q({ query_string: { query: 'quick AND brown', default_field: 'title' } }))).toEqual(['1']);
    expect(ids(await q({ query_string: { query: 'quick OR bread', default_field: 'title' } })).sort()).toEqual(['1', '3', '4']);
  });

  it('NOT excludes documents', async () => {
    expect(ids(await q({ query_string: { query: 'brown NOT bread', default_field: 'body' } }))).toEqual(['3']);
  });

  it('+ and - mark required and prohibited terms', async () => {
    expect(ids(await q({ query_string: { query: '+brown -bread', fields: ['title', 'body'] } })).sort()).toEqual(['1', '3']);
  });

  it('a quoted phrase matches the terms in order', async () => {
    expect(ids(await q({ query_string: { query: '"brown bread"', fields: ['body'] } }))).toEqual(['4']);
    expect(ids(await q({ query_string: { query: '"bread brown"', fields: ['body'] } }))).toEqual([]);
  });

  it('field:value targets a field, across text and keyword fields', async () => {
    expect(ids(await q({ query_string: { query: 'title:fox OR tag:food' } })).sort()).toEqual(['1', '3', '4']);
  });

  it('field:(a OR b) groups terms for one field', async () => {
    expect(ids(await q({ query_string: { query: 'title:(quick OR lazy)' } })).sort()).toEqual(['1', '2', '3']);
  });

  it('^boost multiplies the clause score', async () => {
    const plain = await scoresOf({ query_string: { query: 'title:brown' } });
    const boosted = await scoresOf({ query_string: { query: 'title:brown^2' } });
    expectScoresClose(boosted, Object.fromEntries(Object.entries(plain).map(([id, s]) => [id, 2 * s])));
  });

  it('"fields" with a boost searches several fields', async () => {
    const title = await scoresOf({ match: { title: 'brown' } });
    const body = await scoresOf({ match: { body: 'brown' } });
    const res = await scoresOf({ query_string: { query: 'brown', fields: ['title^2', 'body'] } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(body)])) expected[id] = Math.max(2 * (title[id] ?? 0), body[id] ?? 0);
    expectScoresClose(res, expected);
  });

  it('"default_operator": "AND" requires every bare term', async () => {
    expect(ids(await q({ query_string: { query: 'quick brown', default_field: 'title', default_operator: 'AND' } }))).toEqual(['1']);
    expect(ids(await q({ query_string: { query: 'quick brown', default_field: 'title', default_operator: 'OR' } }))).toEqual(['1', '3', '4']);
  });

  it('searches every field when no default_field is given', async () => {
    expect(ids(await q({ query_string: { query: 'bread' } }))).toEqual(['4']);
  });

  it('supports ranges, _exists_ and wildcards', async () => {
    expect(ids(await q({ query_string: { query: 'price:[10 TO 20]' } }))).toEqual(['1', '2', '4']);
    expect(ids(await q({ query_string: { query: 'price:>=25' } }))).toEqual(['3', '5']);
    expect(ids(await q({ query_string: { query: '_exists_:rating' } }))).toEqual(['1', '2', '4', '5']);
    expect(ids(await q({ query_string: { query: 'title:qui*' } }))).toEqual(['1', '3']);
  });

  it('a syntax error is a shard failure: search_phase_execution_exception with root cause query_shard_exception', async () => {
    const res = await q({ query_string: { query: 'title:(quick' } });
    expect(res.status).toBe(400);
    const uuid = (await t.request('GET', '/books/_settings')).body.books.settings.index.uuid;
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.reason).toBe('all shards failed');
    expect(res.body.error.phase).toBe('query');
    expect(res.body.error.root_cause).toEqual([
      { type: 'query_shard_exception', reason: 'Failed to parse query [title:(quick]', index_uuid: uuid, index: 'books' },
    ]);
    const shard = res.body.error.failed_shards[0];
    expect(shard).toMatchObject({ shard: 0, index: 'books', node: expect.any(String) });
    expect(shard.reason.type).toBe('query_shard_exception');
    expect(shard.reason.caused_by.type).toBe('parse_exception');
    expect(shard.reason.caused_by.reason).toMatch(/^Cannot parse 'title:\(quick': /);
  });
});

describe('bool query', () => {
  it('must and filter: filter restricts without adding to the score', async () => {
    const must = await scoresOf({ match: { title: 'brown' } });
    const res = await scoresOf({ bool: { must: { match: { title: 'brown' } }, filter: { term: { tag: 'food' } } } });
    expectScoresClose(res, { 4: must['4'] });
  });

  it('a bool with only filters scores 0', async () => {
    const res = await q({ bool: { filter: [{ range: { published: { gte: '2021-01-01', lt: '2023-01-01' } } }] } });
    expect(ids(res)).toEqual(['2', '3']);
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([0, 0]);
    expect(res.body.hits.max_score).toBe(0);
  });

  it('should without must needs one clause to match and sums the matching ones', async () => {
    const quick = await scoresOf({ match: { title: 'quick' } });
    const lazy = await scoresOf({ match: { title: 'lazy' } });
    const res = await scoresOf({ bool: { should: [{ match: { title: 'quick' } }, { match: { title: 'lazy' } }] } });
    expectScoresClose(res, { 1: quick['1'], 2: lazy['2'], 3: quick['3'] });
  });

  it('should next to must is optional and only adds score', async () => {
    const res = await q({ bool: { must: { term: { tag: 'food' } }, should: { match: { title: 'brown' } } } });
    expect(ids(res)).toEqual(['4', '3']);
    const brown = await scoresOf({ match: { title: 'brown' } });
    expect(res.body.hits.hits[0]._score - res.body.hits.hits[1]._score).toBeCloseTo(brown['4'], 5);
  });

  it('minimum_should_match as an integer and as a percentage', async () => {
    const both = { should: [{ term: { tag: 'food' } }, { range: { price: { gte: 25 } } }] };
    expect(ids(await q({ bool: { ...both, minimum_should_match: 2 } }))).toEqual(['3']);
    expect(ids(await q({ bool: { ...both, minimum_should_match: '50%' } })).sort()).toEqual(['3', '4', '5']);
  });

  it('must_not excludes documents', async () => {
    expect(ids(await q({ bool: { must_not: { exists: { field: 'tag' } } } }))).toEqual(['5']);
    expect(ids(await q({ bool: { must: { match_all: {} }, must_not: [{ term: { tag: 'food' } }, { term: { price: 10 } }] } }))).toEqual(['2', '5']);
  });

  it('"boost" multiplies the whole bool score', async () => {
    const plain = await scoresOf({ bool: { must: { match: { title: 'brown' } } } });
    const boosted = await scoresOf({ bool: { must: { match: { title: 'brown' } }, boost: 2 } });
    expectScoresClose(boosted, Object.fromEntries(Object.entries(plain).map(([id, s]) => [id, 2 * s])));
  });

  it('nests bool queries', async () => {
    const res = await q({
      bool: {
        must: [{ bool: { should: [{ term: { tag: 'animal' } }, { term: { tag: 'food' } }] } }],
        filter: { bool: { must_not: { term: { instock: false } } } },
      },
    });
    expect(ids(res).sort()).toEqual(['1', '3', '4']);
  });
});

describe('term, terms, range, exists, ids, prefix and match_all', () => {
  it('term matches indexed tokens of a text field (lowercased) with a BM25 score', async () => {
    const term = await scoresOf({ term: { title: 'quick' } });
    const match = await scoresOf({ match: { title: 'quick' } });
    expectScoresClose(term, match);
    expect(ids(await q({ term: { title: 'Quick' } }))).toEqual([]);
  });

  it('term on keyword, numeric and boolean fields', async () => {
    expect(ids(await q({ term: { tag: 'food' } }))).toEqual(['3', '4']);
    const price = await q({ term: { price: 20 } });
    expect(ids(price)).toEqual(['2']);
    expect(price.body.hits.hits[0]._score).toBe(1);
    expect(ids(await q({ term: { instock: true } }))).toEqual(['1', '3', '5']);
  });

  it('term long form: "boost" multiplies the BM25 term score', async () => {
    const plain = await scoresOf({ term: { tag: 'food' } });
    const boosted = await scoresOf({ term: { tag: { value: 'food', boost: 3 } } });
    expectScoresClose(boosted, Object.fromEntries(Object.entries(plain).map(([id, s]) => [id, 3 * s])));
  });

  it('term with case_insensitive is an automaton query: constant score times boost', async () => {
    const res = await q({ term: { tag: { value: 'FOOD', case_insensitive: true, boost: 3 } } });
    expect(ids(res)).toEqual(['3', '4']);
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([3, 3]);
  });

  it('term, terms and match on _id find documents by id', async () => {
    expect(ids(await q({ term: { _id: '2' } }))).toEqual(['2']);
    expect(ids(await q({ terms: { _id: ['1', '3'] } }))).toEqual(['1', '3']);
    expect(ids(await q({ match: { _id: '4' } }))).toEqual(['4']);
    expect(ids(await search(undefined, 'books', '?q=_id:5'))).toEqual(['5']);
  });

  it('terms matches any of the values with a constant score', async () => {
    const res = await q({ terms: { tag: ['food', 'nothing'] } });
    expect(ids(res)).toEqual(['3', '4']);
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([1, 1]);
    const numeric = await q({ terms: { price: [10, 30], boost: 2 } });
    expect(ids(numeric)).toEqual(['1', '3']);
    expect(numeric.body.hits.hits.map((h: any) => h._score)).toEqual([2, 2]);
  });

  it('range on numbers with gte/lt and gt/lte', async () => {
    expect(ids(await q({ range: { price: { gte: 15, lt: 25 } } }))).toEqual(['2', '4']);
    expect(ids(await q({ range: { price: { gt: 15, lte: 25 } } }))).toEqual(['2', '5']);
    expect(ids(await q({ range: { rating: { gt: 3, lte: 5 } } }))).toEqual(['1', '4']);
  });

  it('range on dates, with a custom format and with date math', async () => {
    expect(ids(await q({ range: { published: { gte: '2021-01-01', lt: '2023-01-01' } } }))).toEqual(['2', '3']);
    expect(ids(await q({ range: { published: { gte: '01/01/2021', format: 'dd/MM/yyyy' } } }))).toEqual(['2', '3', '5']);
    expect(ids(await q({ range: { published: { gte: '2021-06-15||/y', lt: '2022||+1y' } } }))).toEqual(['2', '3']);
    expect(ids(await q({ range: { published: { lte: 'now' } } }))).toEqual(['1', '2', '3', '4', '5']);
  });

  it('range scores a constant 1.0 times boost', async () => {
    const res = await q({ range: { price: { gte: 25, boost: 2 } } });
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([2, 2]);
  });

  it('exists matches documents with a value in the field', async () => {
    expect(ids(await q({ exists: { field: 'rating' } }))).toEqual(['1', '2', '4', '5']);
    expect(ids(await q({ exists: { field: 'instock' } }))).toEqual(['1', '2', '3', '5']);
    expect(ids(await q({ exists: { field: 'nope' } }))).toEqual([]);
  });

  it('ids matches the given ids and ignores unknown ones', async () => {
    expect(ids(await q({ ids: { values: ['3', '1', '9'] } }))).toEqual(['1', '3']);
  });

  it('prefix matches term prefixes with a constant score', async () => {
    const res = await q({ prefix: { title: 'qui' } });
    expect(ids(res)).toEqual(['1', '3']);
    expect(res.body.hits.hits.map((h: any) => h._score)).toEqual([1, 1]);
    expect(ids(await q({ prefix: { tag: 'fo' } }))).toEqual(['3', '4']);
    expect(ids(await q({ prefix: { tag: { value: 'FO', case_insensitive: true } } }))).toEqual(['3', '4']);
  });

  it('match_all scores 1.0, or its boost', async () => {
    expect((await q({ match_all: {} })).body.hits.max_score).toBe(1);
    const boosted = await q({ match_all: { boost: 1.5 } });
    expect(boosted.body.hits.hits.map((h: any) => h._score)).toEqual([1.5, 1.5, 1.5, 1.5, 1.5]);
  });
});

describe('from and size', () => {
  it('size limits the hits but not the total', async () => {
    const res = await search({ size: 2 });
    expect(res.body.hits.hits).toHaveLength(2);
    expect(res.body.hits.total).toEqual({ value: 5, relation: 'eq' });
  });

  it('from skips hits', async () => {
    const res = await search({ from: 2, size: 2, sort: 'price' });
    expect(ids(res)).toEqual(['2', '5']);
  });

  it('from past the last hit returns no hits and the full total', async () => {
    const res = await search({ from: 10 });
    expect(res.body.hits.hits).toEqual([]);
    expect(res.body.hits.total.value).toBe(5);
  });

  it('size 0 returns only the total, with max_score null', async () => {
    const res = await search({ size: 0, query: { match: { title: 'quick' } } });
    expect(res.body.hits).toEqual({ total: { value: 2, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('from and size can be URL parameters', async () => {
    const res = await search(undefined, 'books', '?from=1&size=1&sort=price');
    expect(ids(res)).toEqual(['4']);
  });
});

describe('sort', () => {
  it('a bare field name sorts ascending; hits carry sort values and a null _score', async () => {
    const res = await search({ sort: 'price' });
    expect(ids(res)).toEqual(['1', '4', '2', '5', '3']);
    expect(res.body.hits.hits.map((h: any) => h.sort)).toEqual([[10], [15], [20], [25], [30]]);
    expect(res.body.hits.hits.every((h: any) => h._score === null)).toBe(true);
    expect(res.body.hits.max_score).toBeNull();
  });

  it('an object gives the order, short and long form', async () => {
    expect(ids(await search({ sort: { price: 'desc' } }))).toEqual(['3', '5', '2', '4', '1']);
    expect(ids(await search({ sort: [{ price: { order: 'desc' } }] }))).toEqual(['3', '5', '2', '4', '1']);
  });

  it('an array sorts by several keys in turn', async () => {
    const res = await search({ sort: [{ tag: 'desc' }, { price: 'asc' }] });
    expect(ids(res)).toEqual(['4', '3', '1', '2', '5']);
    expect(res.body.hits.hits.map((h: any) => h.sort)).toEqual([['food', 15], ['food', 30], ['animal', 10], ['animal', 20], [null, 25]]);
  });

  it('"_score" as a bare string sorts by relevance and keeps scores, without sort values', async () => {
    const res = await search({ query: { match: { title: 'brown' } }, sort: '_score' });
    expect(ids(res)).toEqual(['4', '1']);
    expect(res.body.hits.hits[0]._score).toBeGreaterThan(0);
    expect(res.body.hits.hits[0].sort).toBeUndefined();
    expect(res.body.hits.max_score).toBe(res.body.hits.hits[0]._score);
  });

  it('"_doc" sorts in index order', async () => {
    const res = await search({ sort: ['_doc'] });
    expect(ids(res)).toEqual(['1', '2', '3', '4', '5']);
    expect(res.body.hits.hits.every((h: any) => Array.isArray(h.sort) && h.sort.length === 1)).toBe(true);
  });

  it('keyword: a missing value sorts last as null, or first with "missing": "_first"', async () => {
    expect(ids(await search({ sort: [{ tag: 'asc' }, { price: 'asc' }] }))).toEqual(['1', '2', '4', '3', '5']);
    const first = await search({ sort: [{ tag: { order: 'asc', missing: '_first' } }, { price: 'asc' }] });
    expect(ids(first)).toEqual(['5', '1', '2', '4', '3']);
    expect(first.body.hits.hits[0].sort).toEqual([null, 25]);
  });

  it('long: missing values sort last with Long.MAX_VALUE (asc) or Long.MIN_VALUE (desc) as sort value', async () => {
    const asc = await search({ sort: [{ pages: 'asc' }] });
    expect(ids(asc)).toEqual(['1', '5', '3', '2', '4']);
    expect(asc.text).toContain('"sort":[9223372036854775807]');
    const desc = await search({ sort: [{ pages: 'desc' }] });
    expect(ids(desc)).toEqual(['3', '5', '1', '2', '4']);
    expect(desc.text).toContain('"sort":[-9223372036854775808]');
  });

  it('double: missing values sort last as "Infinity" / "-Infinity"', async () => {
    const asc = await search({ sort: [{ rating: 'asc' }] });
    expect(ids(asc)).toEqual(['5', '2', '1', '4', '3']);
    expect(asc.body.hits.hits[4].sort).toEqual(['Infinity']);
    const desc = await search({ sort: [{ rating: 'desc' }] });
    expect(ids(desc)).toEqual(['4', '1', '2', '5', '3']);
    expect(desc.body.hits.hits[4].sort).toEqual(['-Infinity']);
  });

  it('"missing" can be a value', async () => {
    const res = await search({ sort: [{ pages: { order: 'asc', missing: 0 } }] });
    expect(ids(res)).toEqual(['2', '4', '1', '5', '3']);
    expect(res.body.hits.hits[0].sort).toEqual([0]);
  });

  it('a date "missing" that does not parse is a 400 parse_exception, as is a range query\'s bad format', async () => {
    let res = await search({ sort: [{ published: { missing: 'someday' } }] });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0]).toMatchObject({ type: 'parse_exception', reason: expect.stringContaining('failed to parse date field [someday]') });
    res = await search({ query: { range: { published: { gte: '2020', format: 'true' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: 'failed to create query: Invalid format: [true]: Unknown pattern letter: t' });
  });

  it('dates sort by epoch millis', async () => {
    const res = await search({ sort: [{ published: 'asc' }] });
    expect(ids(res)).toEqual(['4', '1', '2', '3', '5']);
    expect(res.body.hits.hits[0].sort).toEqual([Date.UTC(2019, 11, 31)]);
  });

  it('track_scores keeps scores when sorting by a field', async () => {
    const res = await search({ query: { match: { title: 'brown' } }, sort: ['price'], track_scores: true });
    expect(ids(res)).toEqual(['1', '4']);
    expect(res.body.hits.hits[0]._score).toBeGreaterThan(0);
    expect(res.body.hits.max_score).toBe(Math.max(...res.body.hits.hits.map((h: any) => h._score)));
  });

  it('?sort=field:desc works as a URL parameter', async () => {
    expect(ids(await search(undefined, 'books', '?sort=price:desc'))).toEqual(['3', '5', '2', '4', '1']);
  });

  it('sorting on an unmapped field with unmapped_type treats every value as missing', async () => {
    const res = await search({ sort: [{ nope: { order: 'asc', unmapped_type: 'long' } }] });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toHaveLength(5);
  });

  it('sorting on an unmapped field fails with query_shard_exception "No mapping found"', async () => {
    const res = await search({ sort: [{ nope: 'asc' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause).toEqual([
      { type: 'query_shard_exception', reason: 'No mapping found for [nope] in order to sort on', index_uuid: UUID, index: 'books' },
    ]);
  });

  it('sorting on a text field fails with the fielddata error', async () => {
    const res = await search({ sort: [{ title: 'asc' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(res.body.error.root_cause[0].reason).toBe(
      'Fielddata is disabled on [title] in [books]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [title] in order to load field data by uninverting the inverted index. Note that this can use significant memory.',
    );
  });
});

describe('_source filtering', () => {
  const first = (res: TestResponse) => res.body.hits.hits[0];
  const one = { query: { ids: { values: ['1'] } } };

  it('false drops _source', async () => {
    expect(first(await search({ ...one, _source: false }))).toEqual({ _index: 'books', _id: '1', _score: 1 });
  });

  it('true returns all of it', async () => {
    expect(first(await search({ ...one, _source: true }))._source).toEqual(source('1'));
  });

  it('a string or a list keeps those fields', async () => {
    expect(first(await search({ ...one, _source: 'title' }))._source).toEqual({ title: 'The quick brown fox' });
    expect(first(await search({ ...one, _source: ['title', 'price'] }))._source).toEqual({ title: 'The quick brown fox', price: 10 });
  });

  it('includes accepts wildcards, excludes removes fields', async () => {
    expect(first(await search({ ...one, _source: { includes: ['p*'] } }))._source).toEqual({ price: 10, pages: 100, published: '2020-01-01' });
    expect(first(await search({ ...one, _source: { includes: ['p*'], excludes: ['pages'] } }))._source).toEqual({ price: 10, published: '2020-01-01' });
    expect(first(await search({ ...one, _source: { excludes: ['body', 'title', 'tag'] } }))._source)
      .toEqual({ price: 10, pages: 100, rating: 4.5, published: '2020-01-01', instock: true });
  });

  it('{"includes": []} returns everything (Search UI sends it)', async () => {
    expect(first(await search({ ...one, _source: { includes: [] } }))._source).toEqual(source('1'));
  });

  it('an include that matches nothing yields an empty _source', async () => {
    expect(first(await search({ ...one, _source: ['nothing'] }))._source).toEqual({});
  });

  it('URL parameters _source, _source_includes and _source_excludes', async () => {
    const q1 = await search(one, 'books', '?_source=false');
    expect(first(q1)._source).toBeUndefined();
    const q2 = await search(one, 'books', '?_source_includes=title');
    expect(first(q2)._source).toEqual({ title: 'The quick brown fox' });
    const q3 = await search(one, 'books', '?_source_excludes=body,title,tag,p*,rating');
    expect(first(q3)._source).toEqual({ instock: true });
  });
});

describe('min_score', () => {
  it('drops hits scoring below it, and they do not count in the total', async () => {
    const all = await q({ match: { title: 'quick brown fox' } });
    const scored = all.body.hits.hits.map((h: any) => h._score);
    const threshold = (scored[0] + scored[1]) / 2;
    const res = await q({ match: { title: 'quick brown fox' } }, { min_score: threshold });
    expect(ids(res)).toEqual([all.body.hits.hits[0]._id]);
    expect(res.body.hits.total).toEqual({ value: 1, relation: 'eq' });
  });
});

describe('track_total_hits', () => {
  it('counts exactly up to 10,000 by default, then reports gte', async () => {
    const res = await search({ size: 0 }, 'many');
    expect(res.body.hits.total).toEqual({ value: 10000, relation: 'gte' });
  });

  it('true counts every hit', async () => {
    const res = await search({ size: 0, track_total_hits: true }, 'many');
    expect(res.body.hits.total).toEqual({ value: 10001, relation: 'eq' });
  });

  it('false omits hits.total', async () => {
    const res = await search({ size: 1, track_total_hits: false }, 'many');
    expect(res.body.hits.total).toBeUndefined();
    expect(res.body.hits.hits).toHaveLength(1);
  });

  it('an integer is the counting threshold', async () => {
    expect((await search({ size: 0, track_total_hits: 100 }, 'many')).body.hits.total).toEqual({ value: 100, relation: 'gte' });
    expect((await search({ size: 0, track_total_hits: 100 })).body.hits.total).toEqual({ value: 5, relation: 'eq' });
  });

  it('is accepted as a URL parameter', async () => {
    const res = await search(undefined, 'many', '?size=0&track_total_hits=true');
    expect(res.body.hits.total).toEqual({ value: 10001, relation: 'eq' });
  });

  it('rest_total_hits_as_int renders the total as a number and makes the count exact', async () => {
    const res = await search(undefined, 'many', '?size=0&rest_total_hits_as_int=true');
    expect(res.body.hits.total).toBe(10001);
  });

  it('rest_total_hits_as_int with an inexact track_total_hits is refused', async () => {
    const res = await search({ size: 0, track_total_hits: 100 }, 'many', '?rest_total_hits_as_int=true');
    expectEsError(res, 400, 'illegal_argument_exception', '[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 100');
  });
});

describe('?q= (URI search)', () => {
  it('runs a query_string query over all fields', async () => {
    expect(ids(await search(undefined, 'books', '?q=fox')).sort()).toEqual(['1', '5']);
  });

  it('supports field:value', async () => {
    expect(ids(await search(undefined, 'books', '?q=title:quick'))).toEqual(['3', '1']);
  });

  it('df and default_operator apply to bare terms', async () => {
    expect(ids(await search(undefined, 'books', '?q=quick%20brown&df=title&default_operator=AND'))).toEqual(['1']);
    expect(ids(await search(undefined, 'books', '?q=quick%20brown&df=title'))).toEqual(['1', '3', '4']);
  });
});

describe('targets: comma-separated lists and wildcard patterns', () => {
  const names = (res: TestResponse) => res.body.hits.hits.map((h: any) => h._index).sort();

  it('searches a comma-separated list of indices', async () => {
    const res = await search({}, 'pat-a1,pat-b1');
    expect(names(res)).toEqual(['pat-a1', 'pat-b1']);
    expect(res.body._shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
  });

  it('decodes a URL-encoded comma (the client encodes path parts)', async () => {
    expect(names(await search({}, 'pat-a1%2Cpat-b1'))).toEqual(['pat-a1', 'pat-b1']);
  });

  it('expands * patterns', async () => {
    expect(names(await search({}, 'pat-a*'))).toEqual(['pat-a1', 'pat-a2']);
    expect(names(await search({}, 'pat-a*,pat-b1'))).toEqual(['pat-a1', 'pat-a2', 'pat-b1']);
  });

  it('/_search and /_all/_search search every index', async () => {
    const all = await t.request('GET', '/_search?size=0');
    const explicit = await t.request('GET', '/_all/_search?size=0');
    expect(all.body._shards.total).toBeGreaterThanOrEqual(5);
    expect(explicit.body._shards).toEqual(all.body._shards);
    expect(explicit.body.hits.total).toEqual(all.body.hits.total);
  });

  it('wildcards skip an index.hidden index unless expand_wildcards asks for hidden ones; its name reaches it', async () => {
    await t.request('PUT', '/pat-hidden', { settings: { 'index.hidden': true } });
    await seed(t, 'pat-hidden', [['h1', { title: 'hidden' }]]);
    try {
      expect(names(await search({}, 'pat-*'))).not.toContain('pat-hidden');
      expect((await t.request('GET', '/_search?size=100')).body.hits.hits.map((h: any) => h._index)).not.toContain('pat-hidden');
      expect(names(await t.request('POST', '/pat-*/_search?expand_wildcards=open,hidden', {}))).toContain('pat-hidden');
      expect(names(await search({}, 'pat-hidden'))).toEqual(['pat-hidden']);
      // The operator's tables list it, as ES's _cat/indices does (expand_wildcards=all by default).
      expect((await t.request('GET', '/_cat/indices?h=index')).text).toContain('pat-hidden');
    } finally {
      await t.request('DELETE', '/pat-hidden');
    }
  });

  it('wildcards skip a hidden alias (is_hidden) unless expand_wildcards asks for hidden ones; its name reaches it', async () => {
    await t.request('POST', '/_aliases', { actions: [{ add: { index: 'pat-b1', alias: 'hid-alias', is_hidden: true } }, { add: { index: 'pat-a1', alias: 'vis-alias' } }] });
    try {
      expect(names(await search({}, 'hid-*,vis-*'))).toEqual(['pat-a1']);
      expect(names(await t.request('POST', '/hid-*,vis-*/_search?expand_wildcards=all', {}))).toEqual(['pat-a1', 'pat-b1']);
      expect(names(await search({}, 'hid-alias'))).toEqual(['pat-b1']);
      // Whether an alias is hidden follows each change of the aliases (the registry keeps the hidden set between them).
      await t.request('POST', '/_aliases', { actions: [{ add: { index: 'pat-b1', alias: 'hid-alias', is_hidden: false } }] });
      expect(names(await search({}, 'hid-*,vis-*'))).toEqual(['pat-a1', 'pat-b1']);
      await t.request('POST', '/_aliases', { actions: [{ add: { index: 'pat-a1', alias: 'vis-alias', is_hidden: true } }] });
      expect(names(await search({}, 'hid-*,vis-*'))).toEqual(['pat-b1']);
    } finally {
      await t.request('POST', '/_aliases', { actions: [{ remove: { index: 'pat-b1', alias: 'hid-alias' } }, { remove: { index: 'pat-a1', alias: 'vis-alias' } }] });
    }
  });

  it('expand_wildcards: none or closed alone expands wildcards to nothing (every index is open); names still resolve', async () => {
    for (const states of ['none', 'closed', '']) {
      const res = await t.request('POST', `/pat-a*/_search?expand_wildcards=${states}`, {});
      expect(res.status).toBe(200);
      expect(res.body._shards.total).toBe(0);
    }
    expect(names(await t.request('POST', '/pat-a1,pat-b*/_search?expand_wildcards=none', {}))).toEqual(['pat-a1']);
    expect(names(await t.request('POST', '/pat-a*/_search?expand_wildcards=none,open', {}))).toEqual(['pat-a1', 'pat-a2']);
    expectErrorType(await t.request('POST', '/pat-a*/_search?expand_wildcards=none&allow_no_indices=false', {}), 404, 'index_not_found_exception');
  });

  it('an unknown expand_wildcards value is 400 on every index API, not ignored', async () => {
    for (const [method, path] of [['POST', '/pat-a*/_search'], ['GET', '/pat-a*/_count'], ['GET', '/pat-a*/_mapping'], ['GET', '/pat-a*/_stats']] as const) {
      const res = await t.request(method, `${path}?expand_wildcards=opened`);
      expectEsError(res, 400, 'illegal_argument_exception', 'No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.OPENED');
    }
  });

  it('a wildcard that matches nothing answers 200 with no shards and no hits', async () => {
    const res = await search({}, 'nothing-*');
    expect(res.status).toBe(200);
    expect(res.body._shards).toEqual({ total: 0, successful: 0, skipped: 0, failed: 0 });
    expect(res.body.hits).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('a missing concrete index fails with index_not_found_exception (404), even in a list', async () => {
    const res = await search({}, 'pat-a1,missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });

  it('ignore_unavailable=true skips missing concrete indices', async () => {
    const res = await search({}, 'pat-a1,missing', '?ignore_unavailable=true');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['pat-a1']);
  });
});
