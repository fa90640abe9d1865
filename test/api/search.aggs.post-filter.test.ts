/**
 * `post_filter`: https://www.elastic.co/guide/en/elasticsearch/reference/8.15/filter-search-results.html#post-filter
 * — filters the hits after aggregations were computed (es-api.md §3.9), the way the Search UI
 * connector narrows results by the selected facet values while the facets keep their counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, ids, seed } from './es.js';

let t: TestApp;

const SHIRTS: Array<[string, Record<string, unknown>]> = [
  ['1', { brand: 'gucci', color: 'red', model: 'slim' }],
  ['2', { brand: 'gucci', color: 'green', model: 'slim' }],
  ['3', { brand: 'gucci', color: 'blue', model: 'regular' }],
  ['4', { brand: 'dior', color: 'red', model: 'regular' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['shirts1', 1], ['shirts3', 3]] as const) {
    await t.request('PUT', `/${name}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { brand: { type: 'keyword' }, color: { type: 'keyword' }, model: { type: 'keyword' } } },
    });
    await seed(t, name, SHIRTS);
  }
});
afterAll(async () => t.close());

// The example of ES's post_filter page: gucci shirts, red ones listed, colours counted over all gucci shirts.
const BODY = {
  query: { bool: { filter: { term: { brand: 'gucci' } } } },
  aggs: { colors: { terms: { field: 'color' } }, color_red: { filter: { term: { color: 'red' } }, aggs: { models: { terms: { field: 'model' } } } } },
  post_filter: { term: { color: 'red' } },
};

describe('post_filter', () => {
  it('narrows hits and their total, not the aggregations, on any number of shards', async () => {
    for (const index of ['shirts1', 'shirts3']) {
      const res = await t.request('POST', `/${index}/_search`, BODY);
      expect(res.status).toBe(200);
      expect(res.body.hits.total).toEqual({ value: 1, relation: 'eq' });
      expect(ids(res)).toEqual(['1']);
      expect(res.body.aggregations).toEqual({
        colors: {
          doc_count_error_upper_bound: 0, sum_other_doc_count: 0,
          buckets: [{ key: 'blue', doc_count: 1 }, { key: 'green', doc_count: 1 }, { key: 'red', doc_count: 1 }],
        },
        color_red: { doc_count: 1, models: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'slim', doc_count: 1 }] } },
      });
    }
  });

  it('does not change scores: a post-filtered hit scores as without the filter', async () => {
    const query = { match: { color: 'red' } };
    const plain = await t.request('POST', '/shirts1/_search', { query });
    const filtered = await t.request('POST', '/shirts1/_search', { query, post_filter: { term: { brand: 'dior' } } });
    expect(ids(filtered)).toEqual(['4']);
    expect(filtered.body.hits.hits[0]._score).toBe(plain.body.hits.hits.find((h: { _id: string }) => h._id === '4')._score);
    const all = await t.request('POST', '/shirts1/_search', { post_filter: { term: { brand: 'dior' } } });
    expect(all.body.hits.hits[0]._score).toBe(1);
  });

  it('also works without aggregations, and fails on a malformed filter as a query would', async () => {
    const res = await t.request('POST', '/shirts3/_search', { post_filter: { terms: { color: ['green', 'blue'] } } });
    expect(res.body.hits.total.value).toBe(2);
    expect(res.body.aggregations).toBeUndefined();
    const bad = await t.request('POST', '/shirts1/_search', { post_filter: { nope: {} } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('parsing_exception');
    expect(bad.body.error.reason).toBe('unknown query [nope]');
  });

  it('is still refused with hybrid (rrf) searches (aggregations are not: search.rrf.test.ts)', async () => {
    const rrf = { retriever: { rrf: { retrievers: [{ standard: { query: { term: { color: 'red' } } } }, { standard: { query: { term: { brand: 'dior' } } } }] } } };
    expectEsError(await t.request('POST', '/shirts1/_search', { ...rrf, post_filter: { term: { color: 'red' } } }), 400, 'illegal_argument_exception', '[post_filter] is not supported by this server yet');
  });
});
