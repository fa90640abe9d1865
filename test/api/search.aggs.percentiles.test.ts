/**
 * `percentiles`, `percentile_ranks` and `median_absolute_deviation`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-aggregations-metrics-percentile-aggregation.html,
 * …-percentile-rank-aggregation.html and …-median-absolute-deviation-aggregation.html. The data is ES's own REST test's
 * (180_percentiles_tdigest_metric.yml: 1, 51, 101, 151): ES 8.x's default digest keeps so few values
 * exactly (its SortingDigest), so the expected values are computed by hand from ES's Dist class —
 * quantile q at index q·(n−1), interpolated linearly; ranks interpolated between the midpoints of
 * neighbouring values. Every request runs on a 1-shard and a 3-shard index and must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { int: 1, double: 1.0, tag: 'a', day: '2024-01-01' }],
  ['2', { int: 51, double: 51.0, tag: 'a', day: '2024-01-03' }],
  ['3', { int: 101, double: 101.0, tag: 'b', day: '2024-01-05' }],
  ['4', { int: 151, double: 151.0, tag: 'b', day: '2024-01-07' }],
  ['5', { tag: 'c' }],
];

const MAPPINGS = { properties: { int: { type: 'integer' }, double: { type: 'double' }, tag: { type: 'keyword' }, day: { type: 'date' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['pct1', 1], ['pct3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function both(body: unknown): Promise<Record<string, any>> {
  const one = await t.request('POST', '/pct1/_search', body);
  const three = await t.request('POST', '/pct3/_search', body);
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body;
}

const aggs = async (a: unknown, query?: unknown) => (await both({ size: 0, aggs: a, ...(query ? { query } : {}) })).aggregations;

async function fails(a: unknown, status: number, type: string, reason: string | RegExp, rootReason?: string): Promise<void> {
  const res = await t.request('POST', '/pct1/_search', { size: 0, aggs: a });
  // Parse errors start with their position in the body ("[1:65] …").
  expectErrorType(res, status, type, typeof reason === 'string' ? new RegExp(`^(\\[\\d+:\\d+\\] )?${reason.replace(/[[\]().*+?^$|\\{}]/g, '\\$&')}$`) : reason);
  if (rootReason !== undefined) expect(JSON.stringify(res.body)).toContain(rootReason);
}

describe('percentiles', () => {
  it('defaults to 1, 5, 25, 50, 75, 95, 99, keyed by Double.toString, exact for a small sample', async () => {
    const r = await aggs({ p: { percentiles: { field: 'int' } }, d: { percentiles: { field: 'double' } } });
    // n = 4: index q·3 between 1, 51, 101, 151.
    const expected = { '1.0': 2.5, '5.0': 8.5, '25.0': 38.5, '50.0': 76.0, '75.0': 113.5, '95.0': 143.5, '99.0': 149.5 };
    expect(Object.keys(r.p.values)).toEqual(Object.keys(expected));
    for (const [k, v] of Object.entries(expected)) {
      expect(r.p.values[k]).toBeCloseTo(v, 9);
      expect(r.d.values[k]).toBeCloseTo(v, 9);
    }
  });

  it('sorts the percents; 0 and 100 are the min and the max; only the matching docs count', async () => {
    const r = await aggs({ p: { percentiles: { field: 'int', percents: [100, 50, 0, 12.5] } } }, { range: { int: { gte: 50 } } });
    // 51, 101, 151: index q·2.
    expect(r.p).toEqual({ values: { '0.0': 51, '12.5': 63.5, '50.0': 101, '100.0': 151 } });
  });

  it('keyed: false lists {key, value}', async () => {
    const r = await aggs({ p: { percentiles: { field: 'int', percents: [5, 25, 50], keyed: false } } });
    expect(r.p).toEqual({ values: [{ key: 5, value: 8.5 }, { key: 25, value: 38.5 }, { key: 50, value: 76 }] });
  });

  it('renders null values when nothing was collected (unmapped field, no match)', async () => {
    const r = await aggs({
      u: { percentiles: { field: 'nope', percents: [50] } },
      k: { percentiles: { field: 'nope', percents: [50], keyed: false } },
    });
    expect(r.u).toEqual({ values: { '50.0': null } });
    expect(r.k).toEqual({ values: [{ key: 50, value: null }] });
  });

  it('missing stands in for docs without a value', async () => {
    const r = await aggs({
      m: { percentiles: { field: 'int', percents: [50, 100], missing: 1000 } },
      u: { percentiles: { field: 'nope', percents: [50], missing: 1.0 } },
    });
    // 1, 51, 101, 151, 1000: index q·4.
    expect(r.m).toEqual({ values: { '50.0': 101, '100.0': 1000 } });
    expect(r.u).toEqual({ values: { '50.0': 1 } });
  });

  it('dates render value_as_string in the field format, or in `format`', async () => {
    const r = await aggs({
      d: { percentiles: { field: 'day', percents: [50] } },
      f: { percentiles: { field: 'day', percents: [50], format: 'yyyy/MM/dd', keyed: false } },
    });
    const mid = Date.UTC(2024, 0, 4);
    expect(r.d).toEqual({ values: { '50.0': mid, '50.0_as_string': '2024-01-04T00:00:00.000Z' } });
    expect(r.f).toEqual({ values: [{ key: 50, value: mid, value_as_string: '2024/01/04' }] });
    // A date `missing` is parsed with the aggregation's format.
    const m = await aggs({ m: { percentiles: { field: 'day', percents: [100], format: 'yyyy/MM/dd', missing: '2024/02/01' } } });
    expect(m.m).toEqual({ values: { '100.0': Date.UTC(2024, 1, 1), '100.0_as_string': '2024/02/01' } });
    const bad = await t.request('POST', '/pct1/_search', { size: 0, aggs: { p: { percentiles: { field: 'day', format: 'yyyy-MM-dd\'T' } } } });
    expect(bad.status).toBe(400);
  });

  it('works under terms, histogram, range and filter buckets, and orders terms by a percentile', async () => {
    const r = await aggs({
      tags: { terms: { field: 'tag', order: { 'p.50': 'desc' } }, aggs: { p: { percentiles: { field: 'int', percents: [50] } } } },
      h: { histogram: { field: 'int', interval: 100 }, aggs: { p: { percentiles: { field: 'int', percents: [50] } } } },
      r: { range: { field: 'int', ranges: [{ to: 100 }] }, aggs: { p: { percentiles: { field: 'double', percents: [50] } } } },
      f: { filter: { term: { tag: 'b' } }, aggs: { p: { percentile_ranks: { field: 'int', values: [126] } } } },
    });
    // An empty digest's value is NaN, which Double.compare puts above every number: first when descending.
    expect(r.tags.buckets).toEqual([
      { key: 'c', doc_count: 1, p: { values: { '50.0': null } } },
      { key: 'b', doc_count: 2, p: { values: { '50.0': 126 } } },
      { key: 'a', doc_count: 2, p: { values: { '50.0': 26 } } },
    ]);
    expect(r.h.buckets.map((b: any) => b.p.values['50.0'])).toEqual([26, 126]);
    expect(r.r.buckets[0].p).toEqual({ values: { '50.0': 26 } });
    expect(r.f).toEqual({ doc_count: 2, p: { values: { '126.0': 50 } } });
    // The percent is read as Java's Double.parseDouble reads it: no hex, no JavaScript-only forms.
    for (const key of ['0x32', '5_0', 'abc']) {
      const res = await t.request('POST', '/pct1/_search', { size: 0, aggs: { tags: { terms: { field: 'tag', order: { [`p.${key}`]: 'desc' } }, aggs: { p: { percentiles: { field: 'int', percents: [50] } } } } } });
      expectErrorType(res, 400, 'search_phase_execution_exception');
      expect(res.body.error.root_cause[0]).toMatchObject({ type: 'number_format_exception', reason: `For input string: "${key}"` });
    }
  });

  it('date_histogram buckets get their own digests', async () => {
    const r = await aggs({ d: { date_histogram: { field: 'day', calendar_interval: 'month' }, aggs: { p: { percentiles: { field: 'int', percents: [0, 100] } } } } });
    expect(r.d.buckets[0].p).toEqual({ values: { '0.0': 1, '100.0': 151 } });
  });

  it('echoes meta; accepts tdigest.compression and execution_hint', async () => {
    const r = await aggs({ p: { meta: { x: 1 }, percentiles: { field: 'int', percents: [50], tdigest: { compression: 200, execution_hint: 'high_accuracy' } } } });
    expect(r.p).toEqual({ meta: { x: 1 }, values: { '50.0': 76 } });
  });
});

describe('percentile_ranks', () => {
  it('ranks values as ES\'s Dist.cdf does, keyed and not', async () => {
    const r = await aggs({
      r: { percentile_ranks: { field: 'int', values: [99, 50, 0, 1, 151, 200] } },
      k: { percentile_ranks: { field: 'double', values: [50, 99], keyed: false } },
    });
    // ES's REST test (420_percentile_ranks_tdigest_metric.yml) expects 37 and 61.5 here.
    expect(r.r.values['0.0']).toBe(0);
    expect(r.r.values['1.0']).toBeCloseTo(12.5, 9); // the lowest value counts half
    expect(r.r.values['50.0']).toBeCloseTo(37, 9);
    expect(r.r.values['99.0']).toBeCloseTo(61.5, 9);
    expect(r.r.values['151.0']).toBeCloseTo(87.5, 9);
    expect(r.r.values['200.0']).toBe(100);
    expect(Object.keys(r.r.values)).toEqual(['0.0', '1.0', '50.0', '99.0', '151.0', '200.0']);
    expect(r.k.values.map((v: any) => v.key)).toEqual([50, 99]);
    expect(r.k.values[0].value).toBeCloseTo(37, 9);
  });

  it('missing, and null when nothing was collected', async () => {
    const r = await aggs({
      m: { percentile_ranks: { field: 'nope', values: [50], missing: 1.0 } },
      n: { percentile_ranks: { field: 'nope', values: [50] } },
    });
    expect(r.m).toEqual({ values: { '50.0': 100 } });
    expect(r.n).toEqual({ values: { '50.0': null } });
  });
});

describe('median_absolute_deviation', () => {
  it('is the exact median of the distances from the median for a small sample', async () => {
    const r = await aggs({
      m: { median_absolute_deviation: { field: 'int' } },
      f: { median_absolute_deviation: { field: 'double', missing: 1000, compression: 50, execution_hint: 'default' } },
      n: { median_absolute_deviation: { field: 'nope' } },
      d: { median_absolute_deviation: { field: 'day', format: 'epoch_millis' } },
      tags: { terms: { field: 'tag', order: { mad: 'asc' } }, aggs: { mad: { median_absolute_deviation: { field: 'int' } } } },
    });
    // Median 76; distances 25, 25, 75, 75; their median 50.
    expect(r.m).toEqual({ value: 50 });
    // 1, 51, 101, 151, 1000: median 101; distances 0, 50, 50, 100, 899.
    expect(r.f).toEqual({ value: 50 });
    expect(r.n).toEqual({ value: null });
    expect(r.d).toEqual({ value: 2 * 86_400_000, value_as_string: String(2 * 86_400_000) });
    expect(r.tags.buckets.map((b: any) => [b.key, b.mad.value])).toEqual([['a', 25], ['b', 25], ['c', null]]);
  });

  it('refuses a compression that is not positive, and sub-aggregations', async () => {
    await fails({ m: { median_absolute_deviation: { field: 'int', compression: 0 } } }, 400, 'x_content_parse_exception', '[median_absolute_deviation] failed to parse field [compression]', '[compression] must be greater than 0. Found [0.0] in [m]');
    await fails({ m: { median_absolute_deviation: { field: 'int', percents: [5] } } }, 400, 'x_content_parse_exception', /^\[1:\d+\] \[median_absolute_deviation\] unknown field \[percents\]/);
    await fails({ m: { median_absolute_deviation: { field: 'int' }, aggs: { x: { max: { field: 'int' } } } } }, 400, 'aggregation_initialization_exception', 'Aggregator [m] of type [median_absolute_deviation] cannot accept sub-aggregations');
  });
});

describe('many values', () => {
  it('past 20 × compression values a bounded digest answers, close to the exact percentiles', async () => {
    const values = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3000);
    const lines: unknown[] = [];
    values.forEach((v, i) => lines.push({ index: { _index: 'pctbig', _id: String(i) } }, { v }));
    await t.request('PUT', '/pctbig', { settings: { number_of_shards: 2 }, mappings: { properties: { v: { type: 'long' } } } });
    expect((await t.bulk('/_bulk', lines, '?refresh=true')).status).toBe(200);
    const res = await t.request('POST', '/pctbig/_search', {
      size: 0,
      aggs: {
        p: { percentiles: { field: 'v', percents: [0, 1, 50, 99, 100], tdigest: { compression: 50 } } },
        r: { percentile_ranks: { field: 'v', values: [1500], tdigest: { compression: 50 } } },
        e: { percentiles: { field: 'v', percents: [1, 50], tdigest: { compression: 200 } } },
      },
    });
    expect(res.status).toBe(200);
    const p = res.body.aggregations.p.values;
    expect(p['0.0']).toBe(0);
    expect(p['100.0']).toBe(2999);
    expect(Math.abs(p['1.0'] - 29.99)).toBeLessThan(15);
    expect(Math.abs(p['50.0'] - 1499.5)).toBeLessThan(45);
    expect(Math.abs(p['99.0'] - 2969.01)).toBeLessThan(15);
    expect(Math.abs(res.body.aggregations.r.values['1500.0'] - 50)).toBeLessThan(1.5);
    // compression 200: up to 3,999 values are kept exactly.
    expect(res.body.aggregations.e.values['1.0']).toBeCloseTo(29.99, 9);
    expect(res.body.aggregations.e.values['50.0']).toBe(1499.5);
  });
});

describe('errors and hostile input', () => {
  it('refuses percents outside [0,100], empty or null lists, with ES\'s messages', async () => {
    await fails({ p: { percentiles: { field: 'int', percents: [50, 101] } } }, 400, 'illegal_argument_exception', 'percent must be in [0,100], got [101.0]: [p]');
    await fails({ p: { percentiles: { field: 'int', percents: [-1] } } }, 400, 'illegal_argument_exception', 'percent must be in [0,100], got [-1.0]: [p]');
    await fails({ p: { percentiles: { field: 'int', percents: [] } } }, 400, 'illegal_argument_exception', '[percents] must not be empty: [p]');
    await fails({ p: { percentiles: { field: 'int', percents: null } } }, 400, 'illegal_argument_exception', '[percents] must not be null: [p]');
    await fails({ r: { percentile_ranks: { field: 'int' } } }, 400, 'illegal_argument_exception', '[values] must not be null: [r]');
    await fails({ r: { percentile_ranks: { field: 'int', values: [] } } }, 400, 'illegal_argument_exception', '[values] must not be an empty array: [r]');
  });

  it('refuses strings, NaN, objects as percents', async () => {
    await fails({ p: { percentiles: { field: 'int', percents: ['foo'] } } }, 400, 'number_format_exception', 'For input string: "foo"');
    await fails({ p: { percentiles: { field: 'int', percents: ['NaN'] } } }, 400, 'number_format_exception', 'For input string: "NaN"');
    await fails({ p: { percentiles: { field: 'int', percents: [{}] } } }, 400, 'x_content_parse_exception', '[percentiles] failed to parse field [percents]');
    await fails({ r: { percentile_ranks: { field: 'int', values: [true] } } }, 400, 'x_content_parse_exception', '[percentile_ranks] failed to parse field [values]');
  });

  it('bounds the number of keys', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i % 100);
    await fails({ p: { percentiles: { field: 'int', percents: many } } }, 400, 'x_content_parse_exception', '[percentiles] failed to parse field [percents]', '[percents] must hold at most [10000] values but held [10001]');
    const r = await aggs({ p: { percentiles: { field: 'int', percents: Array.from({ length: 10_000 }, (_, i) => i / 100) } } });
    expect(Object.keys(r.p.values)).toHaveLength(10_000);
  });

  it('checks compression: negative refused, huge accepted with bounded memory', async () => {
    await fails({ p: { percentiles: { field: 'int', tdigest: { compression: -1 } } } }, 400, 'x_content_parse_exception', '[tdigest] failed to parse field [compression]', '[compression] must be greater than or equal to 0. Found [-1.0]');
    await fails({ p: { percentiles: { field: 'int', tdigest: { compression: 'x' } } } }, 400, 'number_format_exception', 'For input string: "x"');
    await fails({ p: { percentiles: { field: 'int', tdigest: { nope: 1 } } } }, 400, 'x_content_parse_exception', "[tdigest] unknown field [nope]");
    await fails({ p: { percentiles: { field: 'int', tdigest: { execution_hint: 'fast' } } } }, 400, 'x_content_parse_exception', '[tdigest] failed to parse field [execution_hint]');
    // A long hint is quoted by its prefix only.
    await fails(
      { p: { percentiles: { field: 'int', tdigest: { execution_hint: 'f'.repeat(5000) } } } }, 400, 'x_content_parse_exception', '[tdigest] failed to parse field [execution_hint]',
      `Invalid execution_hint [${'f'.repeat(100)}...], valid values are [default, high_accuracy]`,
    );
    const r = await aggs({ p: { percentiles: { field: 'int', percents: [50], tdigest: { compression: 1e300 } } }, z: { percentiles: { field: 'int', percents: [50], tdigest: { compression: 0 } } } });
    expect(r.p).toEqual({ values: { '50.0': 76 } });
    expect(r.z.values['50.0']).toBeGreaterThanOrEqual(1);
    expect(r.z.values['50.0']).toBeLessThanOrEqual(151);
  });

  it('checks hdr as ES does, then refuses it clearly', async () => {
    await fails({ p: { percentiles: { field: 'int', hdr: { number_of_significant_value_digits: 6 } } } }, 400, 'x_content_parse_exception', '[hdr] failed to parse field [number_of_significant_value_digits]', '[numberOfSignificantValueDigits] must be between 0 and 5');
    await fails({ p: { percentiles: { field: 'int', hdr: {}, tdigest: {} } } }, 400, 'illegal_argument_exception', 'Only one percentiles method should be declared.');
    await fails({ p: { percentiles: { field: 'int', hdr: { number_of_significant_value_digits: 3 } } } }, 400, 'illegal_argument_exception', '[hdr] of [percentiles] aggregations is not supported by this server yet: use [tdigest]');
  });

  it('refuses keyword fields, sub-aggregations, unknown members, numeric formats', async () => {
    const kw = await t.request('POST', '/pct1/_search', { size: 0, aggs: { p: { percentiles: { field: 'tag' } } } });
    expect(kw.status).toBe(400);
    expect(JSON.stringify(kw.body)).toContain('Field [tag] of type [keyword] is not supported for aggregation [percentiles]');
    await fails({ p: { percentiles: { field: 'int' }, aggs: { m: { max: { field: 'int' } } } } }, 400, 'aggregation_initialization_exception', 'Aggregator [p] of type [percentiles] cannot accept sub-aggregations');
    await fails({ p: { percentiles: { field: 'int', percent: [5] } } }, 400, 'x_content_parse_exception', "[percentiles] unknown field [percent] did you mean [percents]?");
    await fails({ p: { percentiles: { field: 'int', keyed: 'yes' } } }, 400, 'illegal_argument_exception', 'Failed to parse value [yes] as only [true] or [false] are allowed.');
    const fmt = await t.request('POST', '/pct1/_search', { size: 0, aggs: { p: { percentiles: { field: 'int', format: '0.00' } } } });
    expect(fmt.status).toBe(400);
    expect(JSON.stringify(fmt.body)).toContain('[format] of [percentiles] aggregations on [long] fields is not supported by this server yet');
    const missing = await t.request('POST', '/pct1/_search', { size: 0, aggs: { p: { percentiles: { field: 'int', missing: 'abc' } } } });
    expect(missing.status).toBe(400);
  });
});
