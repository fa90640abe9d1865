/**
 * `weighted_avg` aggregation (ES 8 WeightedAvgAggregationBuilder / InternalWeightedAvg): `value` and
 * `weight` sources with `missing`, multi-valued values, null without weights, terms ordered by it,
 * and ES's errors. Every request runs on a 1-shard and a 3-shard copy of the data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { tag: 'a', grade: 2, w: 3 }],
  ['2', { tag: 'a', grade: [3, 5], w: 2 }],
  ['3', { tag: 'b', grade: 4 }],
  ['4', { tag: 'b', w: 1 }],
  ['5', { tag: 'c', other: 1 }],
];
const MAPPINGS = { properties: { tag: { type: 'keyword' }, grade: { type: 'long' }, w: { type: 'double' }, other: { type: 'long' }, day: { type: 'date' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['wavg1', 1], ['wavg3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/wavg1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/wavg3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

async function fails(a: Record<string, unknown>, status: number, type: string): Promise<Record<string, any>> {
  const res = await t.request('POST', '/wavg1/_search', { aggs: a });
  expectErrorType(res, status, type);
  return res.body.error;
}

describe('weighted_avg', () => {
  it('weights each value of a doc by its weight, skipping docs without either', async () => {
    // (2×3 + 3×2 + 5×2) / (3 + 2 + 2)
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w' } } } })).toEqual({ w: { value: 22 / 7 } });
  });

  it('lets missing stand in for a doc\'s value or weight', async () => {
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w', missing: 1 } } } })).toEqual({ w: { value: 26 / 8 } });
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade', missing: 8 }, weight: { field: 'w', missing: '1' } } } })).toEqual({ w: { value: 4.2 } });
  });

  it('is null without weights (no docs, an unmapped field, weights summing to 0), with meta', async () => {
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w' } }, meta: { m: 1 } } }, { query: { term: { tag: 'c' } } }))
      .toEqual({ w: { meta: { m: 1 }, value: null } });
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'nope' } } } })).toEqual({ w: { value: null } });
    expect(await aggs({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'nope', missing: 0 } } } })).toEqual({ w: { value: null } });
  });

  it('orders terms and feeds pipelines as a single-value metric', async () => {
    const out = await aggs({
      tags: { terms: { field: 'tag', order: { wa: 'asc' } }, aggs: { wa: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w', missing: 2 } } } } },
      best: { max_bucket: { buckets_path: 'tags>wa' } },
    });
    expect(out.tags.buckets).toEqual([
      { key: 'a', doc_count: 2, wa: { value: 22 / 7 } },
      { key: 'b', doc_count: 2, wa: { value: 4 } },
      { key: 'c', doc_count: 1, wa: { value: null } },
    ]);
    expect(out.best).toEqual({ value: 4, keys: ['b'] });
  });

  it('fails a shard whose doc has several weights, as ES does (a 500)', async () => {
    await t.request('PUT', '/wavgbad', { mappings: MAPPINGS });
    await seed(t, 'wavgbad', [['1', { grade: 1, w: [1, 2] }]]);
    const res = await t.request('POST', '/wavgbad/_search', { size: 0, aggs: { w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w' } } } } });
    expectErrorType(res, 500, 'search_phase_execution_exception');
    expect(res.body.error.root_cause[0]).toMatchObject({
      type: 'aggregation_execution_exception',
      reason: 'Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.',
    });
  });

  it('refuses a missing source, non-numeric fields, sub-aggregations and malformed bodies', async () => {
    let e = await fails({ w: { weighted_avg: { value: { field: 'grade' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toMatchObject({ type: 'illegal_argument_exception', reason: 'Could not find field name [weight] in multiValuesSource' });
    e = await fails({ w: { weighted_avg: { value: { field: 'tag' }, weight: { field: 'w' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Field [tag] of type [keyword] is not supported for aggregation [weighted_avg]');
    e = await fails({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'day' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Field [day] of type [date] is not supported for aggregation [weighted_avg]');
    e = await fails({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w' } }, aggs: { m: { max: { field: 'grade' } } } } }, 400, 'aggregation_initialization_exception');
    expect(e.reason).toBe('Aggregator [w] of type [weighted_avg] cannot accept sub-aggregations');
    e = await fails({ w: { weighted_avg: { value: { field: 'grade' }, bogus: 1 } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[weighted_avg\] unknown field \[bogus\]$/);
    e = await fails({ w: { weighted_avg: { value: 'grade' } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[weighted_avg\] value doesn't support values of type: VALUE_STRING$/);
    e = await fails({ w: { weighted_avg: { value: { field: 'grade', bogus: true } } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[weighted_avg\] failed to parse field \[value\]$/);
    e = await fails({ w: { weighted_avg: { value: { missing: 1 } } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[weighted_avg\] failed to parse field \[value\]$/);
    expect(JSON.stringify(e)).toContain('[field] and [script] cannot both be null.  Please specify one or the other.');
    e = await fails({ w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'w' }, format: '0.0' } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('[format] of [weighted_avg] aggregations is not supported by this server yet');
  });
});
