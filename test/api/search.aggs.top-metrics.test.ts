/**
 * `top_metrics` aggregation (ES 8 TopMetricsAggregationBuilder / InternalTopMetrics): the metrics of
 * the best `size` docs by one sort (a field or `_score`), numbers, keywords, dates and booleans,
 * `missing`, under buckets, as a terms order and a buckets_path, `index.top_metrics_max_size`, and
 * ES's errors. Every request runs on a 1-shard and a 3-shard copy of the data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { s: 1, n: 10, v: 0.5, k: 'a', d: '2020-01-01', b: true, tag: 'x' }],
  ['2', { s: 5, n: 20, v: 2.5, k: 'b', d: '2021-01-01', b: false, tag: 'x' }],
  ['3', { s: 3, n: [1, 2], v: [1, 2], k: ['z', 'c'], tag: 'y' }],
  ['4', { s: 4, n: 7, tag: 'y' }],
  ['5', { s: 2, tag: 'y', title: 'quick fox' }],
];
const MAPPINGS = {
  properties: {
    s: { type: 'long' }, n: { type: 'long' }, v: { type: 'double' }, k: { type: 'keyword' }, d: { type: 'date' }, b: { type: 'boolean' },
    tag: { type: 'keyword' }, title: { type: 'text' },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['topm1', 1], ['topm3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/topm1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/topm3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

async function fails(a: Record<string, unknown>, status: number, type: string): Promise<Record<string, any>> {
  const res = await t.request('POST', '/topm1/_search', { size: 0, aggs: a });
  expectErrorType(res, status, type);
  return res.body.error;
}

describe('top_metrics', () => {
  it('shows the metric of the best doc by the sort, size 1 by default', async () => {
    expect(await aggs({ tm: { top_metrics: { metrics: { field: 'n' }, sort: { s: 'desc' } } } })).toEqual({
      tm: { top: [{ sort: [5], metrics: { n: 20 } }] },
    });
  });

  it('reads numbers (a multi-valued one averaged), keywords, dates and booleans, null where a doc has none', async () => {
    const metrics = ['n', 'k', 'd', 'b', 'v'].map((field) => ({ field }));
    const out = await aggs({ tm: { top_metrics: { metrics, sort: [{ s: { order: 'asc' } }], size: 3 } } });
    expect(out.tm.top).toEqual([
      { sort: [1], metrics: { n: 10, k: 'a', d: '2020-01-01T00:00:00.000Z', b: true, v: 0.5 } },
      { sort: [2], metrics: { n: null, k: null, d: null, b: null, v: null } },
      { sort: [3], metrics: { n: 2, k: 'c', d: null, b: null, v: 1.5 } },
    ]);
    const missing = await aggs({ tm: { top_metrics: { metrics: [{ field: 'n', missing: 0 }, { field: 'nope' }], sort: 's', size: 2 } } });
    expect(missing.tm.top).toEqual([{ sort: [1], metrics: { n: 10, nope: null } }, { sort: [2], metrics: { n: 0, nope: null } }]);
  });

  it('prints a date sort in its format and sorts by _score', async () => {
    const byDate = await aggs({ tm: { top_metrics: { metrics: { field: 'k' }, sort: { d: 'desc' } } } });
    expect(byDate.tm.top).toEqual([{ sort: ['2021-01-01T00:00:00.000Z'], metrics: { k: 'b' } }]);
    const query = { query: { bool: { should: [{ match: { title: 'quick' } }], filter: [{ exists: { field: 's' } }] } } };
    const byScore = await aggs({ tm: { top_metrics: { metrics: { field: 's' }, sort: '_score' } } }, query);
    const search = await t.request('POST', '/topm1/_search', { ...query, size: 1 });
    expect(byScore.tm.top[0].metrics).toEqual({ s: 2 });
    expect(Math.fround(byScore.tm.top[0].sort[0])).toBe(Math.fround(search.body.hits.max_score));
  });

  it('is empty without docs, and runs per bucket, as a terms order and a buckets_path', async () => {
    expect(await aggs({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 's' } } }, { query: { match_none: {} } })).toEqual({ tm: { top: [] } });
    const out = await aggs({
      tags: { terms: { field: 'tag', order: { 'tm.n': 'asc' } }, aggs: { tm: { top_metrics: { metrics: { field: 'n' }, sort: { s: 'desc' } } } } },
      best: { max_bucket: { buckets_path: 'tags>tm.n' } },
    });
    expect(out.tags.buckets).toEqual([
      { key: 'y', doc_count: 3, tm: { top: [{ sort: [4], metrics: { n: 7 } }] } },
      { key: 'x', doc_count: 2, tm: { top: [{ sort: [5], metrics: { n: 20 } }] } },
    ]);
    expect(out.best).toEqual({ value: 20, keys: ['x'] });
    // ES's yaml form of the path: the metric as a key; a bucket whose best doc has no value is skipped.
    const sum = await aggs({
      tags: { terms: { field: 'tag' }, aggs: { tm: { top_metrics: { metrics: { field: 'n' }, sort: { s: 'desc' } } } } },
      sum: { sum_bucket: { buckets_path: 'tags>tm[n]' } },
    });
    expect(sum.sum).toEqual({ value: 27 });
    const gaps = await aggs({
      tags: { terms: { field: 'tag' }, aggs: { tm: { top_metrics: { metrics: { field: 'v' }, sort: { s: 'desc' } } } } },
      sum: { sum_bucket: { buckets_path: 'tags>tm[v]' } },
    });
    expect(gaps.sum).toEqual({ value: 2.5 });
  });

  it('bounds size by index.top_metrics_max_size', async () => {
    const e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 's', size: 11 } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[top_metrics.size] must not be more than [10] but was [11]. This limit can be set by changing the [index.top_metrics_max_size] index level setting.',
    });
    expect((await t.request('PUT', '/topm1/_settings', { index: { top_metrics_max_size: 20 } })).status).toBe(200);
    const ok = await t.request('POST', '/topm1/_search', { size: 0, aggs: { tm: { top_metrics: { metrics: { field: 'n' }, sort: 's', size: 11 } } } });
    expect(ok.status).toBe(200);
    expect(ok.body.aggregations.tm.top).toHaveLength(5);
    await t.request('PUT', '/topm1/_settings', { index: { top_metrics_max_size: null } });
  });

  it('refuses ES\'s malformed requests', async () => {
    let e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 's', size: 0 } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('[size] must be more than 0 but was [0]');
    e = await fails({ tm: { top_metrics: { metrics: { field: 'n' } } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('Required [sort]');
    e = await fails({ tm: { top_metrics: { sort: 's' } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('Required [metrics]');
    e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: ['s', 'n'] } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('[sort] must contain exactly one sort');
    e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 's', bogus: 1 } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[top_metrics\] unknown field \[bogus\]$/);
    e = await fails({ tm: { top_metrics: { metrics: [{ field: 'n' }, 'k'], sort: 's' } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[top_metrics\] metrics doesn't support values of type: VALUE_STRING$/);
    e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 's' }, aggs: { m: { max: { field: 'n' } } } } }, 400, 'aggregation_initialization_exception');
    expect(e.reason).toBe('Aggregator [tm] of type [top_metrics] cannot accept sub-aggregations');
    e = await fails({ tm: { top_metrics: { metrics: { field: 'n' }, sort: 'k' } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('error building sort for field [k] of type [keyword] in index [topm1]: only supported on numeric fields');
    e = await fails({ tm: { top_metrics: { metrics: { field: 'title' }, sort: 's' } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toMatch(/^Fielddata is disabled on \[title\]/);
    e = await fails({ t: { terms: { field: 'tag', order: { 'tm.n': 'asc' } }, aggs: { tm: { top_metrics: { metrics: { field: 'n' }, sort: 's', size: 2 } } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('[top_metrics] can only the be target if [size] is [1] but was [2]');
  });
});
