/**
 * Aggregations — range, date_range, histogram, filter, filters and nested sub-aggregations:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-aggregations-bucket.html
 * (es-api.md §3.9), in the shapes the Search UI connector reads (search-ui-connector.md). Every
 * request runs on a 1-shard and a 3-shard copy of the data and must give the same aggregations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { tag: ['animal', 'classic'], price: 10, published: '2020-01-01' }],
  ['2', { tag: 'animal', price: 20, published: '2021-06-15' }],
  ['3', { tag: 'food', price: 30, published: '2022-03-10' }],
  ['4', { tag: 'food', price: 15, published: '2020-01-01' }],
  ['5', { price: 25, published: '2023-07-04' }],
  ['6', { tag: ['food', 'grain'], price: [5, 40], published: '2021-06-15' }],
];
const MAPPINGS = { properties: { tag: { type: 'keyword' }, price: { type: 'long' }, published: { type: 'date' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['buckets1', 1], ['buckets3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: unknown, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/buckets1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/buckets3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

describe('range', () => {
  it('counts a document once per range one of its values falls in, from inclusive, to exclusive, ordered by from', async () => {
    expect(await aggs({ p: { range: { field: 'price', ranges: [{ from: 20 }, { to: 10 }, { from: 10, to: 20 }] } } })).toEqual({
      p: {
        buckets: [
          { key: '*-10.0', to: 10, doc_count: 1 },
          { key: '10.0-20.0', from: 10, to: 20, doc_count: 2 },
          { key: '20.0-*', from: 20, doc_count: 4 },
        ],
      },
    });
  });

  it('uses `key` names and renders keyed ranges as an object', async () => {
    expect(await aggs({ p: { range: { field: 'price', keyed: true, ranges: [{ key: 'cheap', to: 15 }, { key: 'dear', from: 15 }] } } })).toEqual({
      p: { buckets: { cheap: { to: 15, doc_count: 2 }, dear: { from: 15, doc_count: 5 } } },
    });
  });

  it('rejects a range aggregation without ranges and one on a keyword field', async () => {
    let res = await t.request('POST', '/buckets1/_search', { aggs: { p: { range: { field: 'price', ranges: [] } } } });
    expectErrorType(res, 400, 'illegal_argument_exception', 'No [ranges] specified for the [p] aggregation');
    res = await t.request('POST', '/buckets1/_search', { aggs: { p: { range: { field: 'tag', ranges: [{ to: 1 }] } } } });
    expectErrorType(res, 400, 'search_phase_execution_exception');
    expect(res.body.error.root_cause[0].reason).toBe('Field [tag] of type [keyword] is not supported for aggregation [range]');
  });
});

describe('date_range', () => {
  it('takes dates and date math, and prints bounds with the format', async () => {
    expect(await aggs({
      d: { date_range: { field: 'published', ranges: [{ to: '2021-01-01' }, { from: '2021-01-01', to: '2022-01-01||+1y' }] } },
    })).toEqual({
      d: {
        buckets: [
          { key: '*-2021-01-01T00:00:00.000Z', to: 1609459200000, to_as_string: '2021-01-01T00:00:00.000Z', doc_count: 2 },
          {
            key: '2021-01-01T00:00:00.000Z-2023-01-01T00:00:00.000Z', from: 1609459200000, from_as_string: '2021-01-01T00:00:00.000Z',
            to: 1672531200000, to_as_string: '2023-01-01T00:00:00.000Z', doc_count: 3,
          },
        ],
      },
    });
  });

  it('uses its own `format` for bounds and keys', async () => {
    const res = await aggs({ d: { date_range: { field: 'published', format: 'yyyy', keyed: true, ranges: [{ from: '2022' }] } } });
    expect(res).toEqual({ d: { buckets: { '2022-*': { from: 1640995200000, from_as_string: '2022', doc_count: 2 } } } });
  });
});

describe('missing', () => {
  it('gives documents without a value the `missing` value in range and histogram (a field no document has)', async () => {
    const res = await aggs({
      r: { range: { field: 'rating', missing: 12, ranges: [{ to: 10 }, { from: 10, to: 20 }] } },
      h: { histogram: { field: 'rating', interval: 5, missing: 12 } },
      none: { histogram: { field: 'rating', interval: 5 } },
    }, { query: { terms: { price: [5, 30] } } });
    expect(res.r.buckets).toEqual([{ key: '*-10.0', to: 10, doc_count: 0 }, { key: '10.0-20.0', from: 10, to: 20, doc_count: 2 }]);
    expect(res.h.buckets).toEqual([{ key: 10, doc_count: 2 }]);
    expect(res.none.buckets).toEqual([]);
  });
});

describe('histogram', () => {
  it('buckets by interval, filling gaps with empty buckets (min_doc_count 0)', async () => {
    expect(await aggs({ h: { histogram: { field: 'price', interval: 10 } } })).toEqual({
      h: {
        buckets: [
          { key: 0, doc_count: 1 }, { key: 10, doc_count: 2 }, { key: 20, doc_count: 2 }, { key: 30, doc_count: 1 }, { key: 40, doc_count: 1 },
        ],
      },
    });
    expect((await aggs({ h: { histogram: { field: 'price', interval: 10 } } }, { query: { terms: { price: [5, 30] } } })).h.buckets).toEqual([
      { key: 0, doc_count: 1 }, { key: 10, doc_count: 0 }, { key: 20, doc_count: 0 }, { key: 30, doc_count: 1 }, { key: 40, doc_count: 1 },
    ]);
  });

  it('honours min_doc_count, offset and keyed', async () => {
    expect((await aggs({ h: { histogram: { field: 'price', interval: 20, offset: 5, min_doc_count: 2 } } })).h.buckets).toEqual([
      { key: 5, doc_count: 4 }, { key: 25, doc_count: 3 },
    ]);
    expect((await aggs({ h: { histogram: { field: 'price', interval: 25, keyed: true } } })).h.buckets).toEqual({
      '0.0': { key: 0, doc_count: 4 }, '25.0': { key: 25, doc_count: 3 },
    });
  });

  it('fails on a bad interval, and with too_many_buckets_exception when the gaps would exceed search.max_buckets', async () => {
    let res = await t.request('POST', '/buckets1/_search', { aggs: { h: { histogram: { field: 'price', interval: 0 } } } });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.caused_by.reason).toBe('[interval] must be >0 for histogram aggregation [h]');
    res = await t.request('POST', '/buckets1/_search', { size: 0, aggs: { h: { histogram: { field: 'price', interval: 0.0001 } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toBe('too_many_buckets_exception');
    expect(res.body.error.root_cause[0].reason).toBe('Trying to create too many buckets. Must be less than or equal to: [65536] but was [350001]. This limit can be set by changing the [search.max_buckets] cluster level setting.');
  });
});

describe('filter and filters', () => {
  it('counts the documents matching a filter', async () => {
    expect(await aggs({ f: { filter: { term: { tag: 'food' } } } })).toEqual({ f: { doc_count: 3 } });
  });

  it('renders named filters as an object and anonymous ones as an array, with an other bucket', async () => {
    expect(await aggs({
      f: { filters: { filters: { cheap: { range: { price: { lt: 15 } } }, food: { term: { tag: 'food' } } } } },
      a: { filters: { filters: [{ term: { tag: 'animal' } }, { term: { tag: 'grain' } }], other_bucket: true } },
      o: { filters: { other_bucket_key: 'rest', filters: { animal: { term: { tag: 'animal' } } } } },
    })).toEqual({
      f: { buckets: { cheap: { doc_count: 2 }, food: { doc_count: 3 } } },
      a: { buckets: [{ doc_count: 2 }, { doc_count: 1 }, { doc_count: 3 }] },
      o: { buckets: { animal: { doc_count: 2 }, rest: { doc_count: 4 } } },
    });
  });
});

describe('keyed filters', () => {
  it('come back sorted by key, as ES sorts keyed filters (the order range facets show in)', async () => {
    const res = await aggs({
      price: { filters: { filters: { 'Under 15': { range: { price: { lte: 15 } } }, '15 to 25': { range: { price: { gte: 15, lte: 25 } } }, '25 and up': { range: { price: { gte: 25 } } } } } },
    });
    expect(Object.keys(res.price.buckets)).toEqual(['15 to 25', '25 and up', 'Under 15']);
    expect(res.price.buckets).toEqual({ '15 to 25': { doc_count: 3 }, '25 and up': { doc_count: 3 }, 'Under 15': { doc_count: 3 } });
  });
});

describe('sub-aggregations', () => {
  it('computes sub-aggregations per bucket, nested at any depth', async () => {
    expect(await aggs({
      tags: {
        terms: { field: 'tag', size: 2 },
        aggs: {
          avg_price: { avg: { field: 'price' } },
          prices: { range: { field: 'price', ranges: [{ to: 20 }, { from: 20 }] }, aggs: { n: { value_count: { field: 'price' } } } },
        },
      },
    })).toEqual({
      tags: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 2,
        buckets: [
          {
            key: 'food', doc_count: 3, avg_price: { value: 90 / 4 },
            prices: { buckets: [{ key: '*-20.0', to: 20, doc_count: 2, n: { value: 3 } }, { key: '20.0-*', from: 20, doc_count: 2, n: { value: 3 } }] },
          },
          {
            key: 'animal', doc_count: 2, avg_price: { value: 15 },
            prices: { buckets: [{ key: '*-20.0', to: 20, doc_count: 1, n: { value: 1 } }, { key: '20.0-*', from: 20, doc_count: 1, n: { value: 1 } }] },
          },
        ],
      },
    });
  });

  it('wraps aggregations in a filter, as the Search UI connector does for disjunctive facets', async () => {
    expect(await aggs({
      facet_bucket_tag: { filter: { range: { price: { gte: 15 } } }, aggs: { tag: { terms: { field: 'tag', size: 20, order: { _count: 'desc' } } } } },
    })).toEqual({
      facet_bucket_tag: {
        doc_count: 5,
        tag: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'food', doc_count: 3 }, { key: 'animal', doc_count: 1 }, { key: 'grain', doc_count: 1 }] },
      },
    });
  });

  it('orders terms by a metric sub-aggregation or through a filter, ties by key', async () => {
    const keys = async (order: unknown, aggsOf: Record<string, unknown>) =>
      (await aggs({ t: { terms: { field: 'tag', order }, aggs: aggsOf } })).t.buckets.map((b: { key: string }) => b.key);
    const prices = { top: { max: { field: 'price' } }, cheap: { filter: { range: { price: { lt: 15 } } }, aggs: { n: { value_count: { field: 'price' } } } } };
    // max price: animal 20, classic 10, food 40, grain 40.
    expect(await keys({ top: 'desc' }, prices)).toEqual(['food', 'grain', 'animal', 'classic']);
    expect(await keys({ 'top.value': 'asc' }, prices)).toEqual(['classic', 'animal', 'food', 'grain']);
    // docs priced under 15: animal 1 (10), classic 1 (10), food 1 (doc 6 has 5), grain 1.
    expect(await keys([{ cheap: 'desc' }, { _key: 'desc' }], prices)).toEqual(['grain', 'food', 'classic', 'animal']);
    expect(await keys({ 'cheap>n': 'desc' }, prices)).toEqual(['food', 'grain', 'animal', 'classic']);
    const res = await t.request('POST', '/buckets1/_search', { aggs: { t: { terms: { field: 'tag', order: { nope: 'desc' } } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause[0]).toEqual({
      type: 'aggregation_execution_exception',
      reason: 'Invalid aggregation order path [nope]. The provided aggregation [nope] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.',
    });
  });

  it('echoes `meta` first in the aggregation it belongs to', async () => {
    const res = await aggs({ f: { meta: { label: 'Food', n: 1 }, filter: { term: { tag: 'food' } }, aggs: { m: { meta: { x: true }, max: { field: 'price' } } } } });
    expect(res).toEqual({ f: { meta: { label: 'Food', n: 1 }, doc_count: 3, m: { meta: { x: true }, value: 40 } } });
    expect(Object.keys(res.f)[0]).toBe('meta');
  });

  it('counts only live documents: deleted and updated ones leave their old buckets', async () => {
    for (const index of ['buckets1', 'buckets3']) {
      await seed(t, index, [['7', { tag: 'temp', price: 1 }], ['8', { tag: 'temp', price: 2 }]]);
      expect((await t.request('DELETE', `/${index}/_doc/7?refresh=true`)).status).toBe(200);
      await seed(t, index, [['8', { tag: 'kept', price: 3 }]]);
    }
    const res = await aggs({ t: { terms: { field: 'tag', include: ['temp', 'kept'] } }, n: { value_count: { field: 'price' } } });
    expect(res).toEqual({ t: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'kept', doc_count: 1 }] }, n: { value: 8 } });
    for (const index of ['buckets1', 'buckets3']) expect((await t.request('DELETE', `/${index}/_doc/8?refresh=true`)).status).toBe(200);
  });

  it('renders empty histogram buckets with empty sub-aggregations', async () => {
    const res = await aggs({ h: { histogram: { field: 'price', interval: 10 }, aggs: { m: { max: { field: 'price' } } } } }, { query: { terms: { price: [5, 30] } } });
    expect(res.h.buckets[1]).toEqual({ key: 10, doc_count: 0, m: { value: null } });
  });
});
