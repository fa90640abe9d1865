/**
 * Aggregations — range, date_range, histogram, date_histogram, filter, filters and nested sub-aggregations:
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

describe('the missing aggregation', () => {
  it('is one bucket of the documents without a value for the field, with sub-aggregations', async () => {
    expect(await aggs({ m: { missing: { field: 'tag' }, aggs: { p: { sum: { field: 'price' } } } } })).toEqual({ m: { doc_count: 1, p: { value: 25 } } });
    // A field no document has (unmapped): every matching document is missing it.
    expect(await aggs({ m: { missing: { field: 'nope' } } }, { query: { range: { price: { gte: 20 } } } })).toEqual({ m: { doc_count: 4 } });
    const res = await t.request('POST', '/buckets1/_search', { size: 0, aggs: { m: { missing: { feld: 'tag' } } } });
    expectErrorType(res, 400, 'x_content_parse_exception', /\[missing\] unknown field \[feld\]/);
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

describe('date_histogram', () => {
  const Y2020 = Date.UTC(2020, 0, 1);
  it('buckets by calendar year, filling empty years, with key_as_string in the field\'s format', async () => {
    expect((await aggs({ d: { date_histogram: { field: 'published', calendar_interval: 'year' } } })).d.buckets).toEqual([
      { key_as_string: '2020-01-01T00:00:00.000Z', key: Y2020, doc_count: 2 },
      { key_as_string: '2021-01-01T00:00:00.000Z', key: Date.UTC(2021, 0, 1), doc_count: 2 },
      { key_as_string: '2022-01-01T00:00:00.000Z', key: Date.UTC(2022, 0, 1), doc_count: 1 },
      { key_as_string: '2023-01-01T00:00:00.000Z', key: Date.UTC(2023, 0, 1), doc_count: 1 },
    ]);
  });

  it('rounds months, quarters and ISO weeks on the wall clock of time_zone, and takes format, offset and min_doc_count', async () => {
    const months = await aggs({ d: { date_histogram: { field: 'published', calendar_interval: '1M', min_doc_count: 1, format: 'yyyy-MM' } } });
    expect(months.d.buckets.map((b: any) => [b.key_as_string, b.doc_count])).toEqual([['2020-01', 2], ['2021-06', 2], ['2022-03', 1], ['2023-07', 1]]);
    // 2020-01-01T00:00Z is still 2019 in New York: its quarter starts 2019-10-01 local time.
    const quarters = await aggs({ d: { date_histogram: { field: 'published', calendar_interval: 'quarter', time_zone: 'America/New_York', min_doc_count: 1 } } });
    expect(quarters.d.buckets[0]).toEqual({ key_as_string: '2019-10-01T00:00:00.000-04:00', key: Date.UTC(2019, 9, 1, 4), doc_count: 2 });
    // 2021-06-15 is a Tuesday: its week starts Monday 2021-06-14.
    const weeks = await aggs({ d: { date_histogram: { field: 'published', calendar_interval: 'week', min_doc_count: 1 } } }, { query: { term: { price: 20 } } });
    expect(weeks.d.buckets).toEqual([{ key_as_string: '2021-06-14T00:00:00.000Z', key: Date.UTC(2021, 5, 14), doc_count: 1 }]);
    const shifted = await aggs({ d: { date_histogram: { field: 'published', calendar_interval: 'day', offset: '+6h', min_doc_count: 1 } } }, { query: { term: { price: 20 } } });
    expect(shifted.d.buckets[0].key).toBe(Date.UTC(2021, 5, 14, 6));
  });

  it('buckets by fixed intervals from the epoch, keyed, ordered, with sub-aggregations and extended_bounds', async () => {
    const fixed = await aggs({ d: { date_histogram: { field: 'published', fixed_interval: '365d', min_doc_count: 1, keyed: true, order: { _count: 'desc' } }, aggs: { p: { max: { field: 'price' } } } } });
    const keys = Object.keys(fixed.d.buckets);
    expect(keys.length).toBeGreaterThan(0);
    for (const [k, b] of Object.entries<any>(fixed.d.buckets)) {
      expect(b.key % (365 * 86_400_000)).toBe(0);
      expect(k).toBe(b.key_as_string);
    }
    const counts = Object.values<any>(fixed.d.buckets).map((b) => b.doc_count);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const bounded = await aggs({ d: { date_histogram: { field: 'published', calendar_interval: 'year', extended_bounds: { min: '2018-05-01', max: '2024' } } } });
    expect(bounded.d.buckets.map((b: any) => b.key_as_string.slice(0, 4))).toEqual(['2018', '2019', '2020', '2021', '2022', '2023', '2024']);
  });

  it('answers ES\'s errors for missing, conflicting or malformed intervals, and bounds the empty buckets', async () => {
    const bad = async (body: unknown) => t.request('POST', '/buckets1/_search', { size: 0, aggs: { d: { date_histogram: { field: 'published', ...(body as object) } } } });
    expectErrorType(await bad({}), 400, 'illegal_argument_exception', 'Invalid interval specified, must be non-null and non-empty');
    expectErrorType(await bad({ calendar_interval: 'year', fixed_interval: '1d' }), 400, 'illegal_argument_exception', 'Cannot use [fixed_interval] with [calendar_interval] configuration option.');
    let res = await bad({ calendar_interval: '2d' });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.caused_by.reason).toBe('The supplied interval [2d] could not be parsed as a calendar interval.');
    res = await bad({ calendar_interval: 'd'.repeat(5000) });
    expect(res.body.error.caused_by.reason).toBe(`The supplied interval [${'d'.repeat(100)}...] could not be parsed as a calendar interval.`);
    res = await bad({ fixed_interval: 'soon' });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.caused_by.reason).toBe('failed to parse setting [date_histogram.fixedInterval] with value [soon] as a time value: unit is missing or unrecognized');
    res = await bad({ calendar_interval: 'day', time_zone: 'Mars/Olympus' });
    expectErrorType(res, 400, 'x_content_parse_exception');
    expect(res.body.error.caused_by.reason).toBe('Unknown time-zone ID: Mars/Olympus');
    expectErrorType(await bad({ interval: '1d' }), 400, 'x_content_parse_exception', /unknown field \[interval\]/);
    res = await bad({ fixed_interval: '1ms' });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toBe('too_many_buckets_exception');
    // A date that does not parse is ES's parse_exception, here as in date_range.
    for (const agg of [{ date_histogram: { field: 'published', calendar_interval: 'year', extended_bounds: { min: 'soon' } } }, { date_range: { field: 'published', ranges: [{ from: 'soon' }] } }]) {
      res = await t.request('POST', '/buckets1/_search', { size: 0, aggs: { d: agg } });
      expect(res.status).toBe(400);
      expect(res.body.error.root_cause[0]).toMatchObject({ type: 'parse_exception', reason: expect.stringContaining('failed to parse date field [soon]') });
    }
    for (const agg of [{ date_histogram: { field: 'published', calendar_interval: 'year', format: 'true' } }, { date_range: { field: 'published', format: 'true', ranges: [{ to: 'now' }] } }]) {
      expectErrorType(await t.request('POST', '/buckets1/_search', { size: 0, aggs: { d: agg } }), 400, 'illegal_argument_exception', 'Invalid format: [true]: Unknown pattern letter: t');
    }
    expect((await t.request('POST', '/buckets1/_search', { size: 0, aggs: { d: { date_histogram: { field: 'published', calendar_interval: 'year', order: [] } } } })).status).toBe(200);
    res = await t.request('POST', '/buckets1/_search', { size: 0, aggs: { d: { date_histogram: { field: 'tag', calendar_interval: 'day' } } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Field [tag] of type [keyword] is not supported for aggregation [date_histogram]');
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
