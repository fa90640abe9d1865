/**
 * Aggregations — terms and single-value metrics:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-aggregations-bucket-terms-aggregation.html
 * and the min, max, avg, sum, value_count, cardinality, stats and extended_stats pages (es-api.md §3.9). Every request runs
 * against the same data in a 1-shard and a 3-shard index: results must not depend on sharding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const BOOKS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'The quick brown fox', tag: ['animal', 'classic'], price: 10, rating: 4.5, published: '2020-01-01', instock: true }],
  ['2', { title: 'Lazy dogs sleep', tag: 'animal', price: 20, rating: 3.0, published: '2021-06-15', instock: false }],
  ['3', { title: 'Quick recipes', tag: 'food', price: 30, published: '2022-03-10', instock: true }],
  ['4', { title: 'Brown bread', tag: 'food', price: 15, rating: 5.0, published: '2020-01-01' }],
  ['5', { title: 'Foxes and hounds', price: 25, rating: 2.5, published: '2023-07-04', instock: true }],
  ['6', { title: 'Brown rice', tag: ['food', 'grain'], price: [5, 5, 40], rating: 4.0, published: '2021-06-15', instock: true }],
];

const MAPPINGS = {
  properties: {
    title: { type: 'text' }, tag: { type: 'keyword' }, price: { type: 'long' }, rating: { type: 'double' },
    published: { type: 'date' }, instock: { type: 'boolean' },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['aggs1', 1], ['aggs3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, BOOKS);
  }
});
afterAll(async () => t.close());

/** Runs the search on both indices, checks they agree (ignoring `took`/`_shards`) and returns the 1-shard body. */
async function both(body: unknown): Promise<Record<string, any>> {
  const one = await t.request('POST', '/aggs1/_search', body);
  const three = await t.request('POST', '/aggs3/_search', body);
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  expect(three.body.hits.total).toEqual(one.body.hits.total);
  return one.body;
}

const aggs = async (a: unknown, extra: Record<string, unknown> = {}) => (await both({ size: 0, aggs: a, ...extra })).aggregations;

describe('size 0 with aggregations', () => {
  it('returns the total and no hits, then the aggregations', async () => {
    const body = await both({ size: 0, aggs: { tags: { terms: { field: 'tag' } } } });
    expect(body.hits).toEqual({ total: { value: 6, relation: 'eq' }, max_score: null, hits: [] });
    expect(Object.keys(body)).toEqual(['took', 'timed_out', '_shards', 'hits', 'aggregations']);
  });
});

describe('terms', () => {
  it('counts each document once per distinct term, by count then key', async () => {
    expect(await aggs({ tags: { terms: { field: 'tag' } } })).toEqual({
      tags: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'food', doc_count: 3 },
          { key: 'animal', doc_count: 2 },
          { key: 'classic', doc_count: 1 },
          { key: 'grain', doc_count: 1 },
        ],
      },
    });
  });

  it('keeps `size` buckets and counts the rest in sum_other_doc_count', async () => {
    expect(await aggs({ tags: { terms: { field: 'tag', size: 2, shard_size: 2 } } })).toEqual({
      tags: { doc_count_error_upper_bound: 0, sum_other_doc_count: 2, buckets: [{ key: 'food', doc_count: 3 }, { key: 'animal', doc_count: 2 }] },
    });
  });

  it('orders by _key ascending or descending and by _count ascending', async () => {
    const keys = async (order: unknown) => (await aggs({ t: { terms: { field: 'tag', order } } })).t.buckets.map((b: { key: string }) => b.key);
    expect(await keys({ _key: 'asc' })).toEqual(['animal', 'classic', 'food', 'grain']);
    expect(await keys({ _key: 'desc' })).toEqual(['grain', 'food', 'classic', 'animal']);
    expect(await keys([{ _count: 'asc' }])).toEqual(['classic', 'grain', 'animal', 'food']);
  });

  it('applies min_doc_count, and min_doc_count 0 lists terms no matching document has', async () => {
    expect((await aggs({ t: { terms: { field: 'tag', min_doc_count: 2 } } })).t).toEqual({
      doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'food', doc_count: 3 }, { key: 'animal', doc_count: 2 }],
    });
    const zero = await aggs({ t: { terms: { field: 'tag', min_doc_count: 0 } } }, { query: { term: { tag: 'animal' } } });
    expect(zero.t.buckets).toEqual([
      { key: 'animal', doc_count: 2 }, { key: 'classic', doc_count: 1 }, { key: 'food', doc_count: 0 }, { key: 'grain', doc_count: 0 },
    ]);
  });

  it('puts documents without the field in the `missing` bucket', async () => {
    expect((await aggs({ t: { terms: { field: 'tag', missing: 'N/A' } } })).t.buckets).toContainEqual({ key: 'N/A', doc_count: 1 });
  });

  it('aggregates only the documents the query matches', async () => {
    const res = await aggs({ t: { terms: { field: 'tag' } } }, { query: { match: { title: 'brown' } } });
    expect(res.t.buckets).toEqual([{ key: 'food', doc_count: 2 }, { key: 'animal', doc_count: 1 }, { key: 'classic', doc_count: 1 }, { key: 'grain', doc_count: 1 }]);
  });

  it('buckets numbers (each distinct value once per document), dates with key_as_string, booleans as 0/1', async () => {
    expect((await aggs({ p: { terms: { field: 'price', size: 3, order: { _key: 'asc' } } } })).p).toEqual({
      doc_count_error_upper_bound: 0, sum_other_doc_count: 4,
      buckets: [{ key: 5, doc_count: 1 }, { key: 10, doc_count: 1 }, { key: 15, doc_count: 1 }],
    });
    expect((await aggs({ d: { terms: { field: 'published', size: 2 } } })).d.buckets).toEqual([
      { key: 1577836800000, key_as_string: '2020-01-01T00:00:00.000Z', doc_count: 2 },
      { key: 1623715200000, key_as_string: '2021-06-15T00:00:00.000Z', doc_count: 2 },
    ]);
    expect((await aggs({ b: { terms: { field: 'instock' } } })).b.buckets).toEqual([
      { key: 1, key_as_string: 'true', doc_count: 4 }, { key: 0, key_as_string: 'false', doc_count: 1 },
    ]);
    expect((await aggs({ r: { terms: { field: 'rating', size: 1, order: { _key: 'asc' } } } })).r.buckets).toEqual([{ key: 2.5, doc_count: 1 }]);
  });

  it('keeps only the terms `include` names or matches and drops those `exclude` names or matches', async () => {
    const keys = async (terms: Record<string, unknown>) => (await aggs({ t: { terms: { field: 'tag', ...terms } } })).t;
    expect(await keys({ include: ['food', 'grain', 'nope'] })).toEqual({
      doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'food', doc_count: 3 }, { key: 'grain', doc_count: 1 }],
    });
    expect((await keys({ include: '.*a.*', exclude: ['grain'], size: 1 })).buckets).toEqual([{ key: 'animal', doc_count: 2 }]);
    expect((await keys({ include: '.*a.*', exclude: ['grain'], size: 1 })).sum_other_doc_count).toBe(1);
    expect((await keys({ exclude: 'f.*|c.*' })).buckets).toEqual([{ key: 'animal', doc_count: 2 }, { key: 'grain', doc_count: 1 }]);
    expect((await aggs({ p: { terms: { field: 'price', include: [5, '40'] } } })).p.buckets).toEqual([{ key: 5, doc_count: 1 }, { key: 40, doc_count: 1 }]);
  });

  it('stops at terminate_after with the hits, as ES collects both in one pass', async () => {
    const res = await t.request('POST', '/aggs1/_search', { size: 0, terminate_after: 2, aggs: { n: { value_count: { field: 'title.none' } }, c: { cardinality: { field: 'price' } } } });
    expect(res.body.terminated_early).toBe(true);
    expect(res.body.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(res.body.aggregations.c).toEqual({ value: 2 });
  });

  it('returns no buckets for an unmapped field', async () => {
    expect((await aggs({ u: { terms: { field: 'nope' } } })).u).toEqual({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
  });
});

describe('metrics', () => {
  it('computes min, max, avg, sum, value_count and cardinality over every value', async () => {
    expect(await aggs({
      min: { min: { field: 'price' } }, max: { max: { field: 'price' } }, avg: { avg: { field: 'price' } }, sum: { sum: { field: 'price' } },
      count: { value_count: { field: 'price' } }, distinct: { cardinality: { field: 'price' } }, tags: { cardinality: { field: 'tag' } },
      tag_values: { value_count: { field: 'tag' } },
    })).toEqual({
      min: { value: 5 }, max: { value: 40 }, avg: { value: 150 / 8 }, sum: { value: 150 }, count: { value: 8 }, distinct: { value: 7 },
      tags: { value: 4 }, tag_values: { value: 7 },
    });
  });

  it('renders dates with value_as_string and empty results as ES does', async () => {
    expect(await aggs({ first: { min: { field: 'published' } }, last: { max: { field: 'published' } } })).toEqual({
      first: { value: 1577836800000, value_as_string: '2020-01-01T00:00:00.000Z' },
      last: { value: 1688428800000, value_as_string: '2023-07-04T00:00:00.000Z' },
    });
    const none = await aggs({
      min: { min: { field: 'price' } }, max: { max: { field: 'price' } }, avg: { avg: { field: 'price' } }, sum: { sum: { field: 'price' } },
      count: { value_count: { field: 'price' } }, distinct: { cardinality: { field: 'price' } },
    }, { query: { term: { tag: 'none' } } });
    expect(none).toEqual({ min: { value: null }, max: { value: null }, avg: { value: null }, sum: { value: 0 }, count: { value: 0 }, distinct: { value: 0 } });
  });

  it('stats reports count, min, max, avg and sum at once, dates as strings too, and nulls when empty', async () => {
    expect(await aggs({ s: { stats: { field: 'price' } }, r: { stats: { field: 'rating', missing: 1 } } })).toEqual({
      s: { count: 8, min: 5, max: 40, avg: 150 / 8, sum: 150 },
      r: { count: 6, min: 1, max: 5, avg: 20 / 6, sum: 20 },
    });
    expect((await aggs({ d: { stats: { field: 'published' } } })).d).toEqual({
      count: 6, min: 1577836800000, max: 1688428800000, avg: expect.any(Number), sum: expect.any(Number),
      min_as_string: '2020-01-01T00:00:00.000Z', max_as_string: '2023-07-04T00:00:00.000Z', avg_as_string: expect.any(String), sum_as_string: expect.any(String),
    });
    expect(await aggs({ s: { stats: { field: 'price' } } }, { query: { term: { tag: 'none' } } })).toEqual({ s: { count: 0, min: null, max: null, avg: null, sum: 0 } });
  });

  it('extended_stats adds the sum of squares, variances, standard deviations and their bounds', async () => {
    // price values 10, 20, 30, 15, 25, 5, 5, 40: n 8, Σ 150, Σx² 3900.
    const mean = 150 / 8;
    const population = (3900 - (150 * 150) / 8) / 8;
    const sampling = (3900 - (150 * 150) / 8) / 7;
    const res = (await aggs({ e: { extended_stats: { field: 'price', sigma: 1 } } })).e;
    expect(Object.keys(res)).toEqual([
      'count', 'min', 'max', 'avg', 'sum', 'sum_of_squares', 'variance', 'variance_population', 'variance_sampling',
      'std_deviation', 'std_deviation_population', 'std_deviation_sampling', 'std_deviation_bounds',
    ]);
    expect(res).toMatchObject({ count: 8, min: 5, max: 40, sum: 150, sum_of_squares: 3900 });
    expect(res.variance).toBeCloseTo(population, 10);
    expect(res.variance_sampling).toBeCloseTo(sampling, 10);
    expect(res.std_deviation).toBeCloseTo(Math.sqrt(population), 10);
    expect(res.std_deviation_bounds.upper).toBeCloseTo(mean + Math.sqrt(population), 10);
    expect(res.std_deviation_bounds.lower_sampling).toBeCloseTo(mean - Math.sqrt(sampling), 10);
    const empty = (await aggs({ e: { extended_stats: { field: 'price' } } }, { query: { term: { tag: 'none' } } })).e;
    expect(empty).toMatchObject({ count: 0, min: null, sum: 0, sum_of_squares: null, variance: null, std_deviation: null });
    expect(empty.std_deviation_bounds).toEqual({ upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null });
    const byStd = await aggs({ t: { terms: { field: 'tag', order: { 'p.std_deviation': 'desc' } }, aggs: { p: { extended_stats: { field: 'price' } } } } });
    expect(byStd.t.buckets[0].key).toBe('grain');
    const bad = await t.request('POST', '/aggs1/_search', { size: 0, aggs: { e: { extended_stats: { field: 'price', sigma: -1 } } } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('[sigma] must be greater than or equal to 0. Found [-1] in [e]');
  });

  it('orders terms buckets by a stats value named in the path, and requires the name', async () => {
    const res = await aggs({ t: { terms: { field: 'tag', order: { 'p.max': 'desc' } }, aggs: { p: { stats: { field: 'price' } } } } });
    expect(res.t.buckets.map((b: any) => [b.key, b.p.max])).toEqual([['food', 40], ['grain', 40], ['animal', 20], ['classic', 10]]);
    const byAvg = await aggs({ t: { terms: { field: 'tag', order: { 'p.avg': 'asc' } }, aggs: { p: { stats: { field: 'price' } } } } });
    // Averages of every price value: classic 10, animal 15, grain 50/3, food 95/5.
    expect(byAvg.t.buckets.map((b: any) => b.key)).toEqual(['classic', 'animal', 'grain', 'food']);
    for (const [order, reason] of [
      ['p', 'Invalid aggregation order path [p]. When ordering on a multi-value metrics aggregation a metric name must be specified'],
      ['p.median', 'Invalid aggregation order path [p.median]. Unknown value key [median] for multi-value metric aggregation [p]. Valid value keys are: [count, min, max, avg, sum]'],
    ]) {
      const bad = await t.request('POST', '/aggs1/_search', { size: 0, aggs: { t: { terms: { field: 'tag', order: { [order]: 'desc' } }, aggs: { p: { stats: { field: 'price' } } } } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.root_cause[0]).toMatchObject({ type: 'aggregation_execution_exception', reason });
    }
  });

  it('uses `missing` for documents without a value', async () => {
    expect(await aggs({ avg: { avg: { field: 'rating', missing: 0 } }, n: { value_count: { field: 'rating', missing: 0 } } })).toEqual({
      avg: { value: 19 / 6 }, n: { value: 6 },
    });
  });
});

describe('aggregation errors', () => {
  it('fails on a text field with ES fielddata error as a shard failure', async () => {
    const res = await t.request('POST', '/aggs1/_search', { size: 0, aggs: { t: { terms: { field: 'title' } } } });
    expectErrorType(res, 400, 'search_phase_execution_exception');
    expect(res.body.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Fielddata is disabled on [title] in [aggs1]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [title] in order to load field data by uninverting the inverted index. Note that this can use significant memory.',
    });
  });

  it('rejects numeric metrics on keyword fields', async () => {
    const res = await t.request('POST', '/aggs1/_search', { size: 0, aggs: { a: { avg: { field: 'tag' } } } });
    expectErrorType(res, 400, 'search_phase_execution_exception');
    expect(res.body.error.root_cause[0].reason).toBe('Field [tag] of type [keyword] is not supported for aggregation [avg]');
  });

  it('names unknown aggregation types with a suggestion', async () => {
    const res = await t.request('POST', '/aggs1/_search', { aggs: { a: { term: { field: 'tag' } } } });
    expectErrorType(res, 400, 'parsing_exception', 'Unknown aggregation type [term] did you mean [terms]?');
    expect(res.body.error.caused_by.type).toBe('named_object_not_found_exception');
  });

  it('rejects bad sizes, unknown parameters, a missing field and sub-aggregations under metrics', async () => {
    let res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag', size: 0 } } } });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.reason).toMatch(/\[terms\] failed to parse field \[size\]$/);
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: '[size] must be greater than 0. Found [0] in [a]' });
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { fild: 'tag' } } } });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.reason).toMatch(/\[terms\] unknown field \[fild\] did you mean \[field\]\?$/);
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: {} } } });
    expectErrorType(res, 400, 'illegal_argument_exception', 'Required one of fields [field, script], but none were specified. ');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { avg: { field: 'price' }, aggs: { b: { max: { field: 'price' } } } } } });
    expectErrorType(res, 400, 'aggregation_initialization_exception', 'Aggregator [a] of type [avg] cannot accept sub-aggregations');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: 'terms' } });
    expectErrorType(res, 400, 'parsing_exception', 'Aggregation definition for [a starts with a [VALUE_STRING], expected a [START_OBJECT].');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: {} } });
    expectErrorType(res, 400, 'parsing_exception', 'Missing definition for aggregation [a]');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag' }, max: { field: 'price' } } } });
    expectErrorType(res, 400, 'parsing_exception', 'Found two aggregation type definitions in [a]: [terms] and [max]');
  });

  it('rejects bad orders, bad names and huge sizes', async () => {
    let res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag', order: { _count: 'up' } } } } });
    expectErrorType(res, 400, 'parsing_exception', 'Unknown terms order direction [up]');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag', order: { _count: 1 } } } } });
    expectErrorType(res, 400, 'parsing_exception', 'Unexpected token VALUE_NUMBER for [order]');
    res = await t.request('POST', '/aggs1/_search', { aggs: { 'a[0]': { terms: { field: 'tag' } } } });
    expectErrorType(res, 400, 'parsing_exception', "Invalid aggregation name [a[0]]. Aggregation names can contain any character except '[', ']', and '>'");
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag', size: 1e12 } } } });
    expectErrorType(res, 400, 'x_content_parse_exception');
    res = await t.request('POST', '/aggs1/_search', { aggs: { a: { terms: { field: 'tag', size: 'many' } } } });
    expect(res.status).toBe(400);
  });
});
