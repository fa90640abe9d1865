/**
 * Pipeline aggregations (ES 8 search-aggregations-pipeline.html): sibling `*_bucket` aggregations,
 * `cumulative_sum`, `derivative`, `serial_diff` and `bucket_sort`, computed on the coordinator after
 * the final reduce. Every request runs on a 1-shard and a 3-shard copy of the data and must give the
 * same aggregations. Expected values follow ES's REST tests and docs examples (sales per month).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

// ES docs' "sales" data: 3 docs in January, 2 in February, 2 in March 2015.
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { date: '2015-01-01', price: 200, type: 'hat' }],
  ['2', { date: '2015-01-01', price: 10, type: 't-shirt' }],
  ['3', { date: '2015-01-01', price: 150, type: 'bag' }],
  ['4', { date: '2015-02-01', price: 50, type: 'hat' }],
  ['5', { date: '2015-02-01', price: 10, type: 't-shirt' }],
  ['6', { date: '2015-03-01', price: 200, type: 'hat' }],
  ['7', { date: '2015-03-01', price: 175, type: 't-shirt' }],
  ['8', { date: '2015-05-01', price: 40, type: 'bag' }],
];
const MAPPINGS = { properties: { date: { type: 'date' }, price: { type: 'long' }, type: { type: 'keyword' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['sales1', 1], ['sales3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: unknown): Promise<Record<string, any>> {
  const one = await t.request('POST', '/sales1/_search', { size: 0, aggs: a });
  const three = await t.request('POST', '/sales3/_search', { size: 0, aggs: a });
  expect(one.status, JSON.stringify(one.body)).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

const MONTHLY = { date_histogram: { field: 'date', calendar_interval: 'month' }, aggs: { sales: { sum: { field: 'price' } } } };

async function fails(a: unknown, status: number, type: string, reason: string | RegExp): Promise<void> {
  for (const index of ['sales1', 'sales3']) {
    expectErrorType(await t.request('POST', `/${index}/_search`, { size: 0, aggs: a }), status, type, reason);
  }
}

/** A failure of the final reduce: ES wraps it as a fetch-phase failure with no shard failures and no root cause. */
async function failsInReduce(a: unknown, status: number, type: string, reason: string): Promise<void> {
  for (const index of ['sales1', 'sales3']) {
    const res = await t.request('POST', `/${index}/_search`, { size: 0, aggs: a });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      error: { root_cause: [], type: 'search_phase_execution_exception', reason: '', phase: 'fetch', grouped: true, failed_shards: [], caused_by: { type, reason } },
      status,
    });
  }
}

const JAN = '2015-01-01T00:00:00.000Z';
const FEB = '2015-02-01T00:00:00.000Z';
const MAR = '2015-03-01T00:00:00.000Z';
const APR = '2015-04-01T00:00:00.000Z';
const MAY = '2015-05-01T00:00:00.000Z';
const KEYS: Record<string, number> = { [JAN]: 1420070400000, [FEB]: 1422748800000, [MAR]: 1425168000000, [APR]: 1427846400000, [MAY]: 1430438400000 };

/** The monthly histogram's buckets (sales: Jan 360, Feb 60, Mar 375, Apr none, May 40), each with `extra[month]` added. */
function months(extra: Record<string, Record<string, unknown>>): unknown[] {
  const sales: Record<string, [number, number]> = { [JAN]: [3, 360], [FEB]: [2, 60], [MAR]: [2, 375], [APR]: [0, 0], [MAY]: [1, 40] };
  return Object.entries(sales).map(([k, [count, value]]) => ({ key_as_string: k, key: KEYS[k], doc_count: count, sales: { value }, ...(extra[k] ?? {}) }));
}

describe('sibling pipelines', () => {
  it('avg, sum, min and max over a histogram skip the empty month; max/min name the keys holding the value', async () => {
    expect(await aggs({
      per_month: MONTHLY,
      avg_monthly: { avg_bucket: { buckets_path: 'per_month>sales' } },
      sum_monthly: { sum_bucket: { buckets_path: 'per_month>sales' } },
      max_monthly: { max_bucket: { buckets_path: 'per_month>sales' } },
      min_monthly: { min_bucket: { buckets_path: 'per_month>sales.value' } },
    })).toEqual({
      per_month: { buckets: months({}) },
      avg_monthly: { value: 208.75 },
      sum_monthly: { value: 835 },
      max_monthly: { value: 375, keys: [MAR] },
      min_monthly: { value: 40, keys: [MAY] },
    });
  });

  it('insert_zeros counts the empty month as 0; keep_values keeps its 0 sum', async () => {
    const r = await aggs({
      per_month: MONTHLY,
      avg_zeros: { avg_bucket: { buckets_path: 'per_month>sales', gap_policy: 'insert_zeros' } },
      min_zeros: { min_bucket: { buckets_path: 'per_month>sales', gap_policy: 'insert_zeros' } },
      min_kept: { min_bucket: { buckets_path: 'per_month>sales', gap_policy: 'keep_values' } },
      max_count: { max_bucket: { buckets_path: 'per_month>_count' } },
    });
    expect(r.avg_zeros).toEqual({ value: 167 });
    expect(r.min_zeros).toEqual({ value: 0, keys: [APR] });
    expect(r.min_kept).toEqual({ value: 0, keys: [APR] });
    expect(r.max_count).toEqual({ value: 3, keys: [JAN] });
  });

  it('stats_bucket, extended_stats_bucket (sigma) and percentiles_bucket (keyed or not)', async () => {
    const r = await aggs({
      per_month: MONTHLY,
      stats: { stats_bucket: { buckets_path: 'per_month>sales' } },
      ext: { extended_stats_bucket: { buckets_path: 'per_month>sales', sigma: 1 } },
      pct: { percentiles_bucket: { buckets_path: 'per_month>sales' } },
      pct_list: { percentiles_bucket: { buckets_path: 'per_month>sales', percents: [0, 50, 100], keyed: false } },
    });
    expect(r.stats).toEqual({ count: 4, min: 40, max: 375, avg: 208.75, sum: 835 });
    const std = Math.sqrt(25279.6875);
    const stdSampling = Math.sqrt(33706.25);
    expect(r.ext).toEqual({
      count: 4, min: 40, max: 375, avg: 208.75, sum: 835, sum_of_squares: 275425,
      variance: 25279.6875, variance_population: 25279.6875, variance_sampling: 33706.25,
      std_deviation: std, std_deviation_population: std, std_deviation_sampling: stdSampling,
      std_deviation_bounds: {
        upper: 208.75 + std, lower: 208.75 - std, upper_population: 208.75 + std, lower_population: 208.75 - std,
        upper_sampling: 208.75 + stdSampling, lower_sampling: 208.75 - stdSampling,
      },
    });
    expect(r.pct).toEqual({ values: { '1.0': 40, '5.0': 40, '25.0': 60, '50.0': 360, '75.0': 360, '95.0': 375, '99.0': 375 } });
    expect(r.pct_list).toEqual({ values: [{ key: 0, value: 40 }, { key: 50, value: 360 }, { key: 100, value: 375 }] });
  });

  it('renders ES nulls when no bucket has a value, and meta first', async () => {
    const r = await aggs({
      none: { histogram: { field: 'price', interval: 10, min_doc_count: 1 }, aggs: { s: { avg: { field: 'missing_field' } } } },
      avg: { avg_bucket: { buckets_path: 'none>s' }, meta: { k: 1 } },
      max: { max_bucket: { buckets_path: 'none>s' } },
      sum: { sum_bucket: { buckets_path: 'none>s' } },
      stats: { stats_bucket: { buckets_path: 'none>s' } },
      pct: { percentiles_bucket: { buckets_path: 'none>s', percents: [50] } },
    });
    expect(r.avg).toEqual({ meta: { k: 1 }, value: null });
    expect(Object.keys(r.avg)).toEqual(['meta', 'value']);
    expect(r.max).toEqual({ value: null, keys: [] });
    expect(r.sum).toEqual({ value: 0 });
    expect(r.stats).toEqual({ count: 0, min: null, max: null, avg: null, sum: 0 });
    expect(r.pct).toEqual({ values: { '50.0': null } });
  });

  it('runs in each bucket of a terms aggregation over its sub-histogram, and a top-level pipeline reads those results', async () => {
    const r = await aggs({
      types: {
        terms: { field: 'type' },
        aggs: {
          months: MONTHLY,
          best_month: { max_bucket: { buckets_path: 'months>sales' } },
          total: { sum_bucket: { buckets_path: 'months>sales' } },
          month_count: { sum_bucket: { buckets_path: 'months._bucket_count' } },
        },
      },
      best_type: { max_bucket: { buckets_path: 'types>total' } },
      all_months: { sum_bucket: { buckets_path: 'types>months._bucket_count' } },
    });
    const summary = r.types.buckets.map((b: any) => [b.key, b.best_month, b.total, Object.keys(b)]);
    expect(summary).toEqual([
      ['hat', { value: 200, keys: [JAN, MAR] }, { value: 450 }, ['key', 'doc_count', 'months', 'best_month', 'total', 'month_count']],
      ['t-shirt', { value: 175, keys: [MAR] }, { value: 195 }, ['key', 'doc_count', 'months', 'best_month', 'total', 'month_count']],
      ['bag', { value: 150, keys: [JAN] }, { value: 190 }, ['key', 'doc_count', 'months', 'best_month', 'total', 'month_count']],
    ]);
    expect(r.best_type).toEqual({ value: 450, keys: ['hat'] });
    expect(r.all_months).toEqual({ value: 11 });
  });

  it('steps through a single-bucket aggregation and a keyed bucket', async () => {
    const r = await aggs({
      recent: { filter: { range: { date: { gte: '2015-02-01' } } }, aggs: { per_month: MONTHLY } },
      avg_recent: { avg_bucket: { buckets_path: 'recent>per_month>sales' } },
      types: { terms: { field: 'type' }, aggs: { months: MONTHLY } },
      hat_max: { max_bucket: { buckets_path: "types['hat']>months>sales" } },
    });
    expect(r.avg_recent).toEqual({ value: (60 + 375 + 40) / 3 });
    expect(r.hat_max).toEqual({ value: 200, keys: [JAN, MAR] });
  });
});

describe('parent pipelines', () => {
  it('cumulative_sum adds a running sum to every bucket, the empty month included', async () => {
    const r = await aggs({ per_month: { ...MONTHLY, aggs: { ...MONTHLY.aggs, cum: { cumulative_sum: { buckets_path: 'sales' } } } } });
    expect(r.per_month.buckets).toEqual(months({
      [JAN]: { cum: { value: 360 } }, [FEB]: { cum: { value: 420 } }, [MAR]: { cum: { value: 795 } }, [APR]: { cum: { value: 795 } }, [MAY]: { cum: { value: 835 } },
    }));
  });

  it('derivative: none on the first bucket, null next to a skipped gap, zeros with insert_zeros; second order; normalized by unit', async () => {
    const r = await aggs({
      per_month: {
        ...MONTHLY,
        aggs: {
          ...MONTHLY.aggs,
          d: { derivative: { buckets_path: 'sales' } },
          dz: { derivative: { buckets_path: 'sales', gap_policy: 'insert_zeros', unit: '1d' } },
          d2: { derivative: { buckets_path: 'd' } },
        },
      },
    });
    expect(r.per_month.buckets).toEqual(months({
      [FEB]: { d: { value: -300 }, dz: { value: -300, normalized_value: -300 / 31 } },
      [MAR]: { d: { value: 315 }, dz: { value: 315, normalized_value: 315 / 28 }, d2: { value: 615 } },
      [APR]: { d: { value: null }, dz: { value: -375, normalized_value: -375 / 31 }, d2: { value: null } },
      [MAY]: { d: { value: null }, dz: { value: 40, normalized_value: 40 / 30 }, d2: { value: null } },
    }));
  });

  it('serial_diff subtracts the value lag buckets back, where both are known', async () => {
    const r = await aggs({
      per_month: {
        ...MONTHLY,
        aggs: { ...MONTHLY.aggs, lag1: { serial_diff: { buckets_path: 'sales' } }, lag2: { serial_diff: { buckets_path: 'sales', lag: 2 } } },
      },
    });
    expect(r.per_month.buckets).toEqual(months({
      [FEB]: { lag1: { value: -300 } },
      [MAR]: { lag1: { value: 315 }, lag2: { value: 15 } },
      [MAY]: { lag2: { value: -335 } },
    }));
  });

  it('a pipeline reading another runs after it, whatever the request order', async () => {
    const r = await aggs({
      per_month: { ...MONTHLY, aggs: { cum_of_d: { cumulative_sum: { buckets_path: 'd' } }, d: { derivative: { buckets_path: 'sales' } }, ...MONTHLY.aggs } },
    });
    expect(r.per_month.buckets.map((b: any) => b.cum_of_d.value)).toEqual([0, -300, 15, 15, 15]);
  });
});

describe('bucket_sort', () => {
  const TYPES = { terms: { field: 'type' }, aggs: { sales: { sum: { field: 'price' } } } };

  it('sorts terms buckets by a sub-aggregation and truncates with from and size', async () => {
    const r = await aggs({
      desc: { ...TYPES, aggs: { ...TYPES.aggs, s: { bucket_sort: { sort: [{ sales: { order: 'desc' } }], size: 2 } } } },
      asc: { ...TYPES, aggs: { ...TYPES.aggs, s: { bucket_sort: { sort: ['sales'], from: 1 } } } },
      page: { ...TYPES, aggs: { ...TYPES.aggs, s: { bucket_sort: { from: 2 } } } },
    });
    expect(r.desc.buckets).toEqual([{ key: 'hat', doc_count: 3, sales: { value: 450 } }, { key: 't-shirt', doc_count: 3, sales: { value: 195 } }]);
    expect(r.asc.buckets.map((b: any) => b.key)).toEqual(['t-shirt', 'hat']);
    expect(r.page.buckets.map((b: any) => b.key)).toEqual(['bag']);
    expect(r.desc.sum_other_doc_count).toBe(0);
  });

  it('sorts histogram buckets by value (dropping skipped gaps), _key and _count', async () => {
    const r = await aggs({
      by_sales: { ...MONTHLY, aggs: { ...MONTHLY.aggs, s: { bucket_sort: { sort: { sales: 'desc' }, size: 3 } } } },
      by_key: { ...MONTHLY, aggs: { ...MONTHLY.aggs, s: { bucket_sort: { sort: [{ _key: { order: 'desc' } }], size: 2 } } } },
      by_count: { ...MONTHLY, aggs: { ...MONTHLY.aggs, s: { bucket_sort: { sort: [{ _count: 'desc' }] } } } },
      zeros: { ...MONTHLY, aggs: { ...MONTHLY.aggs, s: { bucket_sort: { sort: ['sales'], gap_policy: 'insert_zeros', size: 1 } } } },
    });
    expect(r.by_sales.buckets.map((b: any) => b.key_as_string)).toEqual([MAR, JAN, FEB]);
    expect(r.by_key.buckets.map((b: any) => b.key_as_string)).toEqual([MAY, APR]);
    expect(r.by_count.buckets.map((b: any) => b.key_as_string)).toEqual([JAN, FEB, MAR, MAY, APR]);
    expect(r.zeros.buckets.map((b: any) => b.key_as_string)).toEqual([APR]);
  });
});

describe('shapes', () => {
  it('keyed histograms keep their object form through bucket_sort and get parent results in place', async () => {
    const r = await aggs({
      h: {
        histogram: { field: 'price', interval: 100, keyed: true },
        aggs: { c: { cumulative_sum: { buckets_path: '_count' }, meta: { m: true } }, s: { bucket_sort: { sort: [{ _count: 'desc' }], size: 2 } } },
      },
    });
    expect(r.h.buckets).toEqual({
      '0.0': { key: 0, doc_count: 4, c: { meta: { m: true }, value: 4 } },
      '100.0': { key: 100, doc_count: 2, c: { meta: { m: true }, value: 6 } },
    });
    expect(Object.keys(r.h.buckets)).toEqual(['0.0', '100.0']);
  });

  it('a sibling pipeline inside a filter reads the filter\'s sub-histogram; percentiles values are read by percent', async () => {
    const r = await aggs({
      recent: {
        filter: { range: { date: { gte: '2015-02-01' } } },
        aggs: { per_month: { ...MONTHLY, aggs: { p: { percentiles: { field: 'price', percents: [50] } } } }, top: { max_bucket: { buckets_path: 'per_month>p.50' } } },
      },
      p99: { max_bucket: { buckets_path: 'recent>per_month>p[50.0]' } },
    });
    expect(r.recent.top).toEqual({ value: 187.5, keys: [MAR] });
    expect(r.p99).toEqual({ value: 187.5, keys: [MAR] });
    await failsInReduce({ per_month: { ...MONTHLY, aggs: { p: { percentiles: { field: 'price', percents: [50] } } } }, x: { max_bucket: { buckets_path: 'per_month>p.75' } } }, 400,
      'illegal_argument_exception', 'a buckets_path to a percent [75.0] that [p] does not report is not supported by this server yet');
  });

  it('reads a one-percent percentiles aggregation without naming the percent; paths through a multi-bucket or to one fail as ES (300_pipeline.yml)', async () => {
    const r = await aggs({
      t: { terms: { field: 'price' }, aggs: { p: { percentiles: { field: 'price', keyed: false, percents: [99] } } } },
      the_max: { max_bucket: { buckets_path: 't>p' } },
    });
    expect(r.the_max).toEqual({ value: 200, keys: ['200'] });
    const nested = { t: { terms: { field: 'price' }, aggs: { t2: { terms: { field: 'price' }, aggs: { m: { max: { field: 'price' } } } } } } };
    await failsInReduce({ ...nested, bad: { max_bucket: { buckets_path: 't>t2>m' } } }, 500, 'aggregation_execution_exception',
      'buckets_path must reference either a number value or a single value numeric metric aggregation, got: [Object[]] at aggregation [t2]');
    await failsInReduce({ ...nested, bad: { max_bucket: { buckets_path: 't>t2' } } }, 500, 'aggregation_execution_exception',
      'buckets_path must reference either a number value or a single value numeric metric aggregation, got: [LongTerms] at aggregation [t2]');
  });

  it('reads a percentiles_bucket result by percent, or unnamed when it has one, and names the computed percents otherwise', async () => {
    const types = { terms: { field: 'type' }, aggs: { months: MONTHLY, pb: { percentiles_bucket: { buckets_path: 'months>sales', percents: [50] } } } };
    const r = await aggs({ types, top: { max_bucket: { buckets_path: 'types>pb' } }, low: { min_bucket: { buckets_path: 'types>pb.50' } } });
    expect(r.types.buckets.map((b: any) => b.pb)).toEqual([{ values: { '50.0': 200 } }, { values: { '50.0': 10 } }, { values: { '50.0': 150 } }]);
    expect(r.top).toEqual({ value: 200, keys: ['hat'] });
    expect(r.low).toEqual({ value: 10, keys: ['t-shirt'] });
    await failsInReduce({ types, x: { max_bucket: { buckets_path: 'types>pb[75]' } } }, 400, 'illegal_argument_exception',
      'Percent requested [75.0] was not one of the computed percentiles.  Available keys are: [50.0]');
  });

  it('takes Kibana-style numeric names and composite buckets', async () => {
    const r = await aggs({
      '2': { date_histogram: { field: 'date', calendar_interval: '1M', min_doc_count: 0 }, aggs: { '1': { cumulative_sum: { buckets_path: '_count' } } } },
      '3': { max_bucket: { buckets_path: '2>_count' } },
      c: { composite: { sources: [{ type: { terms: { field: 'type' } } }] }, aggs: { sales: { sum: { field: 'price' } }, s: { bucket_sort: { sort: [{ sales: 'desc' }], size: 1 } } } },
      best: { max_bucket: { buckets_path: 'c>sales' } },
    });
    expect(r['2'].buckets.map((b: any) => b['1'].value)).toEqual([3, 5, 7, 7, 8]);
    expect(r['3']).toEqual({ value: 3, keys: [JAN] });
    expect(r.c).toEqual({ after_key: { type: 't-shirt' }, buckets: [{ key: { type: 'hat' }, doc_count: 3, sales: { value: 450 } }] });
    expect(r.best).toEqual({ value: 450, keys: ['{type=hat}'] });
  });

  it('renders empty results when nothing matches, or no index does', async () => {
    const request = { size: 0, query: { term: { type: 'none' } }, aggs: { per_month: MONTHLY, avg: { avg_bucket: { buckets_path: 'per_month>sales' } }, st: { stats_bucket: { buckets_path: 'per_month>_count' } } } };
    for (const path of ['/sales1/_search', '/sales3/_search', '/nomatch*/_search']) {
      const res = await t.request('POST', path, request);
      expect(res.status).toBe(200);
      expect(res.body.aggregations).toEqual({ per_month: { buckets: [] }, avg: { value: null }, st: { count: 0, min: null, max: null, avg: null, sum: 0 } });
    }
  });
});

describe("ES's REST tests", () => {
  async function fixture(name: string, docs: Array<Record<string, unknown>>): Promise<void> {
    for (const shards of [1, 3]) {
      await t.request('PUT', `/${name}${shards}`, { settings: { number_of_shards: shards }, mappings: { properties: { '@timestamp': { type: 'date' }, t: { type: 'keyword' } } } });
      await seed(t, `${name}${shards}`, docs.map((d, i) => [String(i + 1), d]));
    }
  }

  async function both(name: string, a: unknown): Promise<Record<string, any>> {
    const one = await t.request('POST', `/${name}1/_search`, { size: 0, aggs: a });
    const three = await t.request('POST', `/${name}3/_search`, { size: 0, aggs: a });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(three.body.aggregations).toEqual(one.body.aggregations);
    return one.body.aggregations;
  }

  it('deep cumulative sum (300_pipeline.yml): a cumulative_sum in each terms bucket\'s date_histogram', async () => {
    await fixture('deepcum', [
      { t: 'a', int: 1, '@timestamp': '2020-07-16T00:00:00.000Z' }, { t: 'a', int: 50, '@timestamp': '2020-07-17T00:00:00.000Z' },
      { t: 'a', int: 99, '@timestamp': '2020-07-18T00:00:00.000Z' }, { t: 'b', int: 1, '@timestamp': '2020-07-16T00:00:00.000Z' },
      { t: 'b', int: 99, '@timestamp': '2020-07-17T00:00:00.000Z' },
    ]);
    const r = await both('deepcum', {
      t: { terms: { field: 't' }, aggs: { by_date: { date_histogram: { field: '@timestamp', fixed_interval: '1d' }, aggs: { avg: { avg: { field: 'int' } }, sum: { cumulative_sum: { buckets_path: 'avg.value' } } } } } },
    });
    expect(r.t.buckets.map((b: any) => [b.key, b.by_date.buckets.map((d: any) => [d.key_as_string, d.avg.value, d.sum.value])])).toEqual([
      ['a', [['2020-07-16T00:00:00.000Z', 1, 1], ['2020-07-17T00:00:00.000Z', 50, 51], ['2020-07-18T00:00:00.000Z', 99, 150]]],
      ['b', [['2020-07-16T00:00:00.000Z', 1, 1], ['2020-07-17T00:00:00.000Z', 99, 100]]],
    ]);
  });

  it('max_bucket and stats_bucket gap policies (500_max_bucket.yml, 500_stats_bucket.yml)', async () => {
    await fixture('gaps', [{ '@timestamp': '2022-01-01T00:00:00', v: -1 }, { '@timestamp': '2022-01-01T02:00:00', v: -2 }, { '@timestamp': '2022-01-01T03:00:00', v: -1 }]);
    const hourly = { date_histogram: { field: '@timestamp', fixed_interval: '1h' }, aggs: { v: { avg: { field: 'v' } } } };
    const r = await both('gaps', {
      '@timestamp': hourly,
      skip: { max_bucket: { buckets_path: '@timestamp>v', gap_policy: 'skip' } },
      zeros: { max_bucket: { buckets_path: '@timestamp>v', gap_policy: 'insert_zeros' } },
      kept: { max_bucket: { buckets_path: '@timestamp>v', gap_policy: 'keep_values' } },
      stats_zeros: { stats_bucket: { buckets_path: '@timestamp>v', gap_policy: 'insert_zeros' } },
    });
    expect(r['@timestamp'].buckets).toHaveLength(4);
    expect(r.skip.value).toBe(-1);
    expect(r.zeros.value).toBe(0);
    expect(r.kept.value).toBe(-1);
    expect(r.stats_zeros).toEqual({ count: 4, min: -2, max: 0, avg: -1, sum: -4 });
  });
});

describe('errors', () => {
  it('reports buckets_path problems as ES request validation does', async () => {
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'nope>sales' } } }, 400, 'action_request_validation_exception',
      'Validation Failed: 1: No aggregation found for path [nope>sales];');
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>nope' } } }, 400, 'action_request_validation_exception',
      'Validation Failed: 1: No aggregation [nope] found for path [per_month>nope];');
    await fails({ total: { sum: { field: 'price' } }, x: { avg_bucket: { buckets_path: 'total' } } }, 400, 'action_request_validation_exception',
      'Validation Failed: 1: Unable to find unqualified multi-bucket aggregation in buckets_path. Path must include a multi-bucket aggregation for aggregation [x] found :org.elasticsearch.search.aggregations.metrics.SumAggregationBuilder for buckets path: total;');
    await fails({ per_month: { ...MONTHLY, aggs: { c1: { cumulative_sum: { buckets_path: 'c2' } }, c2: { cumulative_sum: { buckets_path: 'c1' } } } } }, 400,
      'action_request_validation_exception', 'Validation Failed: 1: Cyclical dependency found with pipeline aggregator [c1];');
  });

  it('requires parent pipelines inside a histogram (derivative: with min_doc_count 0) and bucket_sort inside an aggregation', async () => {
    await fails({ per_month: MONTHLY, d: { derivative: { buckets_path: 'per_month>sales' } }, s: { bucket_sort: { size: 1 } } }, 400, 'action_request_validation_exception',
      "Validation Failed: 1: derivative aggregation [d] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent;2: bucket_sort aggregation [s] must be declared inside of another aggregation;");
    await fails({ t: { terms: { field: 'type' }, aggs: { sales: { sum: { field: 'price' } }, c: { cumulative_sum: { buckets_path: 'sales' } } } } }, 400,
      'action_request_validation_exception', 'Validation Failed: 1: cumulative_sum aggregation [c] must have a histogram, date_histogram or auto_date_histogram as parent;');
    await fails({ h: { histogram: { field: 'price', interval: 100, min_doc_count: 1 }, aggs: { d: { derivative: { buckets_path: '_count' } } } } }, 400,
      'action_request_validation_exception', 'Validation Failed: 1: parent histogram of derivative aggregation [d] must have min_doc_count of 0;');
    await fails({ t: { terms: { field: 'type' }, aggs: { s: { bucket_sort: {} } } } }, 400, 'action_request_validation_exception',
      'Validation Failed: 1: [s] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort;');
  });

  it('fails the search when a path names a multi-value metric or a key that is no number', async () => {
    await failsInReduce({ per_month: { ...MONTHLY, aggs: { st: { stats: { field: 'price' } } } }, x: { avg_bucket: { buckets_path: 'per_month>st' } } }, 500,
      'aggregation_execution_exception', 'buckets_path must reference either a number value or a single value numeric metric aggregation, but [st] contains multiple values. Please specify which to use.');
    await failsInReduce({ t: { terms: { field: 'type' } }, x: { max_bucket: { buckets_path: 't>_key' } } }, 500, 'aggregation_execution_exception',
      'buckets_path must reference either a number value or a single value numeric metric aggregation, got: [String] at aggregation [_key]');
    await failsInReduce({ per_month: { ...MONTHLY, aggs: { st: { stats: { field: 'price' } } } }, x: { avg_bucket: { buckets_path: 'per_month>st.nope' } } }, 400,
      'illegal_argument_exception', 'No enum constant org.elasticsearch.search.aggregations.metrics.InternalStats.Metrics.nope');
    expect((await aggs({ per_month: { ...MONTHLY, aggs: { st: { stats: { field: 'price' } } } }, x: { avg_bucket: { buckets_path: 'per_month>st.max' } } })).x).toEqual({ value: 122.5 });
  });

  it('rejects malformed bodies with ES parser errors', async () => {
    await fails({ per_month: MONTHLY, x: { avg_bucket: {} } }, 400, 'parsing_exception', 'Missing required field [buckets_path] for aggregation [x]');
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>sales', gap_policy: 'nope' } } }, 400, 'parsing_exception',
      'Invalid gap policy: [nope], accepted values: [insert_zeros, skip, keep_values]');
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>sales', gap_policy: 3 } } }, 400, 'parsing_exception', 'Unexpected token VALUE_NUMBER [gap_policy] in [x]');
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>sales', foo: 'bar' } } }, 400, 'parsing_exception', 'Unexpected token VALUE_STRING [foo] in [x]');
    await fails({ per_month: MONTHLY, x: { percentiles_bucket: { buckets_path: 'per_month>sales', percents: [101] } } }, 400, 'illegal_argument_exception',
      'percents must only contain non-null doubles from 0.0-100.0 inclusive');
    await fails({ per_month: MONTHLY, x: { extended_stats_bucket: { buckets_path: 'per_month>sales', sigma: -1 } } }, 400, 'illegal_argument_exception', 'sigma must be a non-negative double');
    await fails({ per_month: { ...MONTHLY, aggs: { d: { derivative: { buckets_path: 'sales', lag: 1 } } } } }, 400, 'parsing_exception', 'Unknown key for a VALUE_NUMBER in [d]: [lag].');
    await fails({ per_month: { ...MONTHLY, aggs: { d: { serial_diff: { buckets_path: 'sales', lag: 0 } } } } }, 400, 'parsing_exception',
      'Lag must be a positive, non-zero integer.  Value supplied was0 in [d]: [lag].');
    await fails({ per_month: { ...MONTHLY, aggs: { d: { derivative: {} } } } }, 400, 'parsing_exception', 'Missing required field [buckets_path] for derivative aggregation [d]');
    await fails({ per_month: { ...MONTHLY, aggs: { d: { derivative: { buckets_path: 'sales', unit: 'fortnight' } } } } }, 400, 'illegal_argument_exception',
      'failed to parse setting [DerivativePipelineAggregationBuilder.unit] with value [fortnight] as a time value: unit is missing or unrecognized');
    await fails({ per_month: { ...MONTHLY, aggs: { c: { cumulative_sum: { buckets_path: 'sales', foo: 1 } } } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[cumulative_sum\] unknown field \[foo\]$/);
    await fails({ per_month: { ...MONTHLY, aggs: { c: { cumulative_sum: {} } } } }, 400, 'illegal_argument_exception', 'Required [buckets_path]');
    await fails({ t: { terms: { field: 'type' }, aggs: { s: { bucket_sort: { size: 0 } } } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[bucket_sort\] failed to parse field \[size\]$/);
    await fails({ t: { terms: { field: 'type' }, aggs: { s: { bucket_sort: { sort: ['_score'] } } } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[bucket_sort\] failed to parse field \[sort\]$/);
    await fails({ t: { terms: { field: 'type' }, aggs: { s: { bucket_sort: { sort: 'sales' } } } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[bucket_sort\] sort doesn't support values of type: VALUE_STRING$/);
    await fails({ t: { terms: { field: 'type' }, aggs: { s: { bucket_sort: { size: 1, gap_policy: 1 } } } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[bucket_sort\] gap_policy doesn't support values of type: VALUE_NUMBER$/);
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>sales' }, aggs: { y: { max: { field: 'price' } } } } }, 400, 'illegal_argument_exception',
      'Aggregation [x] cannot define sub-aggregations');
  });

  it('refuses format and the script pipelines clearly', async () => {
    await fails({ per_month: MONTHLY, x: { avg_bucket: { buckets_path: 'per_month>sales', format: '#.00' } } }, 400, 'illegal_argument_exception',
      '[format] of [avg_bucket] aggregations is not supported by this server yet');
    await fails({ per_month: { ...MONTHLY, aggs: { c: { cumulative_sum: { buckets_path: 'sales', format: '#' } } } } }, 400, 'illegal_argument_exception',
      '[format] of [cumulative_sum] aggregations is not supported by this server yet');
    for (const type of ['bucket_script', 'bucket_selector', 'moving_fn', 'moving_avg']) {
      await fails({ per_month: { ...MONTHLY, aggs: { x: { [type]: { buckets_path: { a: 'sales' }, script: 'a' } } } } }, 400, 'parsing_exception',
        `[${type}] aggregations are not supported by this server yet`);
    }
  });

  it('bounds what hostile paths cost and quote', async () => {
    const long = `per_month>${'x>'.repeat(20_000)}sales`;
    const res = await t.request('POST', '/sales1/_search', { size: 0, aggs: { per_month: MONTHLY, x: { avg_bucket: { buckets_path: long } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('action_request_validation_exception');
    expect(JSON.stringify(res.body).length).toBeLessThan(2000);
    // A long chain of pipelines, each reading the next: ordered without recursion.
    const chain: Record<string, unknown> = { ...MONTHLY.aggs };
    for (let i = 0; i < 2000; i++) chain[`c${i}`] = { cumulative_sum: { buckets_path: i === 1999 ? 'sales' : `c${i + 1}` } };
    const r = await aggs({ per_month: { ...MONTHLY, aggs: chain } });
    expect(r.per_month.buckets[0].c1999).toEqual({ value: 360 });
    expect(r.per_month.buckets[1].c1998).toEqual({ value: 360 + 420 });
  });
});
