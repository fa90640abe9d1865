/**
 * `rare_terms` aggregation (ES 8 RareTermsAggregationBuilder / InternalMappedRareTerms): the terms of
 * at most `max_doc_count` docs, by count then key ascending, keyword and numeric fields, `missing`,
 * `include`/`exclude`, sub-aggregations, and ES's errors. Exact here (ES's cuckoo filters may err),
 * so a 1-shard and a 3-shard copy of the data give the same buckets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { tag: 'a', n: 1 }],
  ['2', { tag: 'a', n: 1 }],
  ['3', { tag: 'a', n: 2 }],
  ['4', { tag: 'b', n: 3 }],
  ['5', { tag: 'c', n: 3 }],
  ['6', { tag: 'c' }],
  ['7', { tag: 'd', day: '2020-01-01' }],
  ['8', { title: 'none' }],
];
const MAPPINGS = { properties: { tag: { type: 'keyword' }, n: { type: 'long' }, day: { type: 'date' }, title: { type: 'text' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['rare1', 1], ['rare3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/rare1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/rare3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

async function fails(a: Record<string, unknown>, status: number, type: string): Promise<Record<string, any>> {
  const res = await t.request('POST', '/rare1/_search', { size: 0, aggs: a });
  expectErrorType(res, status, type);
  return res.body.error;
}

const keys = (agg: { buckets: Array<{ key: unknown; doc_count: number }> }) => agg.buckets.map((b) => [b.key, b.doc_count]);

describe('rare_terms', () => {
  it('keeps the terms of at most max_doc_count docs (default 1), by count then key', async () => {
    expect(await aggs({ r: { rare_terms: { field: 'tag' } } })).toEqual({ r: { buckets: [{ key: 'b', doc_count: 1 }, { key: 'd', doc_count: 1 }] } });
    expect(keys((await aggs({ r: { rare_terms: { field: 'tag', max_doc_count: 2 } } })).r)).toEqual([['b', 1], ['d', 1], ['c', 2]]);
  });

  it('counts over the query\'s docs, with missing, numbers and dates', async () => {
    expect(keys((await aggs({ r: { rare_terms: { field: 'tag' } } }, { query: { terms: { tag: ['a', 'c'] } } })).r)).toEqual([]);
    expect(keys((await aggs({ r: { rare_terms: { field: 'tag', missing: 'zz' } } })).r)).toEqual([['b', 1], ['d', 1], ['zz', 1]]);
    expect(keys((await aggs({ r: { rare_terms: { field: 'n', max_doc_count: 2 } } })).r)).toEqual([[2, 1], [1, 2], [3, 2]]);
    expect((await aggs({ r: { rare_terms: { field: 'day' } } })).r.buckets).toEqual([{ key: 1577836800000, key_as_string: '2020-01-01T00:00:00.000Z', doc_count: 1 }]);
    expect(await aggs({ r: { rare_terms: { field: 'nope' } } })).toEqual({ r: { buckets: [] } });
  });

  it('filters with include / exclude and aggregates per bucket', async () => {
    expect(keys((await aggs({ r: { rare_terms: { field: 'tag', max_doc_count: 2, include: 'b|c' } } })).r)).toEqual([['b', 1], ['c', 2]]);
    expect(keys((await aggs({ r: { rare_terms: { field: 'tag', max_doc_count: 2, exclude: ['b'] } } })).r)).toEqual([['d', 1], ['c', 2]]);
    const out = await aggs({ r: { rare_terms: { field: 'tag', max_doc_count: 2 }, aggs: { top: { max: { field: 'n' } } } }, most: { max_bucket: { buckets_path: 'r>top' } } });
    expect(out.r.buckets).toEqual([
      { key: 'b', doc_count: 1, top: { value: 3 } }, { key: 'd', doc_count: 1, top: { value: null } }, { key: 'c', doc_count: 2, top: { value: 3 } },
    ]);
    expect(out.most).toEqual({ value: 3, keys: ['b', 'c'] });
  });

  it('refuses malformed requests as ES does', async () => {
    let e = await fails({ r: { rare_terms: { field: 'tag', max_doc_count: 0 } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[max_doc_count] must be greater than 0. Found [0] in [r]');
    e = await fails({ r: { rare_terms: { field: 'tag', max_doc_count: 101 } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[max_doc_count] must be smallerthan 100in [r]');
    e = await fails({ r: { rare_terms: { field: 'tag', precision: 0 } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[precision] must be greater than 0.00001');
    e = await fails({ r: { rare_terms: { field: 'tag', size: 3 } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[rare_terms\] unknown field \[size\]/);
    e = await fails({ r: { rare_terms: {} } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('Required one of fields [field, script], but none were specified. ');
    e = await fails({ r: { rare_terms: { field: 'title' } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toMatch(/^Fielddata is disabled on \[title\]/);
  });
});
