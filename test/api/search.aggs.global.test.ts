/**
 * `global` aggregation (ES 8 GlobalAggregationBuilder / GlobalAggregator / InternalGlobal): one
 * bucket of every live document of the searched indices, whatever the query, `min_score`,
 * `terminate_after` or `post_filter`; sub-aggregations; top level only. Every request runs on a
 * 1-shard and a 3-shard copy of the data and must give the same aggregations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'red shirt', type: 'shirt', price: 10 }],
  ['2', { title: 'blue shirt', type: 'shirt', price: 20 }],
  ['3', { title: 'red hat', type: 'hat', price: 30 }],
  ['4', { title: 'green hat', type: 'hat', price: 50 }],
  ['5', { title: 'red shoe', type: 'shoe', price: 40 }],
  ['6', { title: 'gone', type: 'shoe', price: 1000 }],
];
const MAPPINGS = { properties: { title: { type: 'text' }, type: { type: 'keyword' }, price: { type: 'long' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['global1', 1], ['global3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
    // A deleted document is not live: no aggregation sees it.
    expect((await t.request('DELETE', `/${name}/_doc/6?refresh=true`)).status).toBe(200);
  }
});
afterAll(async () => t.close());

/** The response of one body on the 1-shard index, its aggregations checked equal to the 3-shard index's. */
async function both(body: Record<string, unknown>): Promise<Record<string, any>> {
  const one = await t.request('POST', '/global1/_search', { size: 0, ...body });
  const three = await t.request('POST', '/global3/_search', { size: 0, ...body });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(JSON.parse(JSON.stringify(three.body.aggregations).replaceAll('"global3"', '"global1"'))).toEqual(one.body.aggregations);
  return one.body;
}

describe('global', () => {
  it('counts every live document whatever the query, beside the query\'s own aggregations', async () => {
    const body = await both({
      query: { term: { type: 'shirt' } },
      aggs: { all: { global: {}, aggs: { avg_price: { avg: { field: 'price' } } } }, shirts: { avg: { field: 'price' } } },
    });
    expect(body.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(body.aggregations).toEqual({ all: { doc_count: 5, avg_price: { value: 30 } }, shirts: { value: 15 } });
  });

  it('is not narrowed by min_score, terminate_after or post_filter', async () => {
    const out = await both({
      query: { match: { title: 'red' } }, min_score: 100, terminate_after: 1, post_filter: { term: { type: 'hat' } },
      aggs: { all: { global: {}, aggs: { types: { terms: { field: 'type' } } } } },
    });
    expect(out.aggregations.all).toEqual({
      doc_count: 5,
      types: {
        doc_count_error_upper_bound: 0, sum_other_doc_count: 0,
        buckets: [{ key: 'hat', doc_count: 2 }, { key: 'shirt', doc_count: 2 }, { key: 'shoe', doc_count: 1 }],
      },
    });
  });

  it('renders doc_count alone without sub-aggregations, meta first, and over several indices', async () => {
    const out = await both({ query: { match_none: {} }, aggs: { all: { global: {}, meta: { k: 1 } } } });
    expect(out.aggregations).toEqual({ all: { meta: { k: 1 }, doc_count: 5 } });
    const two = await t.request('POST', '/global1,global3/_search', { size: 0, query: { match_none: {} }, aggs: { all: { global: {} } } });
    expect(two.body.aggregations).toEqual({ all: { doc_count: 10 } });
    const none = await t.request('POST', '/nothing-*/_search', { size: 0, aggs: { all: { global: {} } } });
    expect(none.body.aggregations).toEqual({ all: { doc_count: 0 } });
  });

  it('scores its documents 1 (match_all), as a top_hits below it shows', async () => {
    const out = await both({ query: { match: { title: 'red' } }, aggs: { all: { global: {}, aggs: { top: { top_hits: { size: 2, _source: false } } } } } });
    expect(out.aggregations.all.top.hits.total).toEqual({ value: 5, relation: 'eq' });
    expect(out.aggregations.all.top.hits.max_score).toBe(1);
    expect(out.aggregations.all.top.hits.hits.map((h: any) => [h._id, h._score])).toEqual([['1', 1], ['2', 1]]);
  });

  it('is a single-bucket step of a buckets_path', async () => {
    const out = await both({
      query: { match_none: {} },
      aggs: { all: { global: {}, aggs: { types: { terms: { field: 'type' }, aggs: { p: { sum: { field: 'price' } } } } } }, best: { max_bucket: { buckets_path: 'all>types>p' } } },
    });
    expect(out.aggregations.best).toEqual({ value: 80, keys: ['hat'] });
  });

  it('refuses a global below another aggregation, and members it has none of', async () => {
    for (const parent of [{ terms: { field: 'type' } }, { filter: { match_all: {} } }]) {
      const res = await t.request('POST', '/global1/_search', { aggs: { p: { ...parent, aggs: { g: { global: {} } } } } });
      // A plain AggregationExecutionException: ES answers 500.
      expectErrorType(res, 500, 'search_phase_execution_exception');
      expect(res.body.error.root_cause[0]).toEqual({
        type: 'aggregation_execution_exception',
        reason: 'Aggregation [p] cannot have a global sub-aggregation [g]. Global aggregations can only be defined as top level aggregations',
      });
    }
    const unknown = await t.request('POST', '/global1/_search', { aggs: { g: { global: { field: 'type' } } } });
    expectErrorType(unknown, 400, 'x_content_parse_exception');
    expect(unknown.body.error.root_cause[0].reason).toMatch(/\[global\] unknown field \[field\]$/);
    const wrong = await t.request('POST', '/global1/_search', { aggs: { g: { global: [] } } });
    expectErrorType(wrong, 400, 'parsing_exception');
  });
});
