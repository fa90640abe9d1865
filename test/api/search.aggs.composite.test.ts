/**
 * The `composite` aggregation:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-aggregations-bucket-composite-aggregation.html
 * Every request runs on a 1-shard and a 4-shard copy of the data and must give the same answer;
 * paging with `after_key` must visit every bucket exactly once, in order, whatever the page size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DAY = 86_400_000;
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { tag: ['animal', 'classic'], price: 10, weight: 1.5, published: '2020-01-01', sold: true }],
  ['2', { tag: 'animal', price: 20, weight: 2.5, published: '2020-01-02T10:00:00Z', sold: false }],
  ['3', { tag: 'food', price: 30, published: '2020-01-03', sold: true }],
  ['4', { tag: 'food', price: 15, weight: 1.5, published: '2020-01-01T23:30:00Z' }],
  ['5', { price: 25, weight: 0.5, published: '2020-01-05' }],
  ['6', { tag: ['food', 'grain'], price: [5, 40], published: '2020-01-02' }],
  ['7', { tag: 'Zebra', sold: false }],
  ['8', { tag: ['animal', 'food'], price: 20, weight: 2.5, published: '2020-01-03' }],
];
const MAPPINGS = {
  properties: { tag: { type: 'keyword' }, price: { type: 'long' }, weight: { type: 'double' }, published: { type: 'date' }, sold: { type: 'boolean' } },
};
const INDICES = ['composite1', 'composite4'];

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['composite1', 1], ['composite4', 4]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

/** The aggregations of one request, asserted identical on 1 and 4 shards. */
async function aggs(a: unknown, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const [one, four] = await Promise.all(INDICES.map((index) => t.request('POST', `/${index}/_search`, { size: 0, aggs: a, ...extra })));
  expect(one.status).toBe(200);
  expect(four.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

async function composite(body: Record<string, unknown>, subs?: unknown): Promise<Record<string, any>> {
  return (await aggs({ c: subs === undefined ? { composite: body } : { composite: body, aggs: subs } })).c;
}

describe('composite keys', () => {
  it('pages terms in key order (code points: uppercase first) and gives the last key as after_key', async () => {
    expect(await composite({ sources: [{ tag: { terms: { field: 'tag' } } }] })).toEqual({
      after_key: { tag: 'grain' },
      buckets: [
        { key: { tag: 'Zebra' }, doc_count: 1 },
        { key: { tag: 'animal' }, doc_count: 3 },
        { key: { tag: 'classic' }, doc_count: 1 },
        { key: { tag: 'food' }, doc_count: 4 },
        { key: { tag: 'grain' }, doc_count: 1 },
      ],
    });
    expect(await composite({ size: 2, after: { tag: 'animal' }, sources: [{ tag: { terms: { field: 'tag', order: 'desc' } } }] })).toEqual({
      after_key: { tag: 'Zebra' }, buckets: [{ key: { tag: 'Zebra' }, doc_count: 1 }],
    });
  });

  it('makes a bucket per combination of a doc\'s values, source by source', async () => {
    const res = await composite({ size: 4, sources: [{ tag: { terms: { field: 'tag' } } }, { p: { histogram: { field: 'price', interval: 10 } } }] });
    expect(res).toEqual({
      after_key: { tag: 'food', p: 0 },
      buckets: [
        { key: { tag: 'animal', p: 10 }, doc_count: 1 },
        { key: { tag: 'animal', p: 20 }, doc_count: 2 },
        { key: { tag: 'classic', p: 10 }, doc_count: 1 },
        { key: { tag: 'food', p: 0 }, doc_count: 1 },
      ],
    });
  });

  it('prints date_histogram keys as epoch millis, or with `format` in the time zone', async () => {
    expect(await composite({ sources: [{ d: { date_histogram: { field: 'published', calendar_interval: 'day' } } }] })).toEqual({
      after_key: { d: Date.UTC(2020, 0, 5) },
      buckets: [
        { key: { d: Date.UTC(2020, 0, 1) }, doc_count: 2 },
        { key: { d: Date.UTC(2020, 0, 2) }, doc_count: 2 },
        { key: { d: Date.UTC(2020, 0, 3) }, doc_count: 2 },
        { key: { d: Date.UTC(2020, 0, 5) }, doc_count: 1 },
      ],
    });
    const zoned = await composite({
      size: 2,
      sources: [{ d: { date_histogram: { field: 'published', fixed_interval: '1d', time_zone: '+01:00', format: 'yyyy-MM-dd', order: 'desc' } } }],
    });
    expect(zoned).toEqual({
      after_key: { d: '2020-01-03' },
      buckets: [{ key: { d: '2020-01-05' }, doc_count: 1 }, { key: { d: '2020-01-03' }, doc_count: 2 }],
    });
    // The formatted after_key is parsed back with the format and zone.
    const next = await composite({
      size: 2, after: zoned.after_key,
      sources: [{ d: { date_histogram: { field: 'published', fixed_interval: '1d', time_zone: '+01:00', format: 'yyyy-MM-dd', order: 'desc' } } }],
    });
    expect(next.buckets).toEqual([{ key: { d: '2020-01-02' }, doc_count: 3 }, { key: { d: '2020-01-01' }, doc_count: 1 }]);
    const offset = await composite({ size: 1, sources: [{ d: { date_histogram: { field: 'published', calendar_interval: '1d', offset: '+6h' } } }] });
    expect(offset.buckets).toEqual([{ key: { d: Date.UTC(2019, 11, 31, 6) }, doc_count: 1 }]);
  });

  it('keeps terms of dates as millis, booleans as true/false and doubles as numbers', async () => {
    const res = await composite({
      size: 20,
      sources: [{ s: { terms: { field: 'sold' } } }, { w: { terms: { field: 'weight' } } }, { d: { terms: { field: 'published', order: 'desc' } } }],
    });
    expect(res.buckets).toEqual([
      { key: { s: false, w: 2.5, d: Date.parse('2020-01-02T10:00:00Z') }, doc_count: 1 },
      { key: { s: true, w: 1.5, d: Date.UTC(2020, 0, 1) }, doc_count: 1 },
    ]);
    expect(res.after_key).toEqual({ s: true, w: 1.5, d: Date.UTC(2020, 0, 1) });
  });

  it('puts missing buckets first ascending, last descending, or where missing_order says', async () => {
    const keys = async (terms: Record<string, unknown>) => (await composite({ size: 20, sources: [{ w: { terms: { field: 'weight', missing_bucket: true, ...terms } } }] })).buckets.map((b: any) => [b.key.w, b.doc_count]);
    expect(await keys({})).toEqual([[null, 3], [0.5, 1], [1.5, 2], [2.5, 2]]);
    expect(await keys({ order: 'desc' })).toEqual([[2.5, 2], [1.5, 2], [0.5, 1], [null, 3]]);
    expect(await keys({ missing_order: 'last' })).toEqual([[0.5, 1], [1.5, 2], [2.5, 2], [null, 3]]);
    expect(await keys({ order: 'DESC', missing_order: 'first' })).toEqual([[null, 3], [2.5, 2], [1.5, 2], [0.5, 1]]);
    // Without missing_bucket a doc lacking any source's value makes no bucket.
    expect(await keys({ missing_bucket: false })).toEqual([[0.5, 1], [1.5, 2], [2.5, 2]]);
    const nullAfter = await composite({ size: 1, after: { w: null }, sources: [{ w: { terms: { field: 'weight', missing_bucket: true } } }] });
    expect(nullAfter).toEqual({ after_key: { w: 0.5 }, buckets: [{ key: { w: 0.5 }, doc_count: 1 }] });
  });

  it('has no after_key when a page is empty, and an unmapped field makes no bucket unless missing_bucket', async () => {
    expect(await composite({ after: { tag: 'zzz' }, sources: [{ tag: { terms: { field: 'tag' } } }] })).toEqual({ buckets: [] });
    expect(await composite({ sources: [{ u: { terms: { field: 'nope' } } }] })).toEqual({ buckets: [] });
    expect(await composite({ sources: [{ u: { terms: { field: 'nope', missing_bucket: true } } }] })).toEqual({
      after_key: { u: null }, buckets: [{ key: { u: null }, doc_count: 8 }],
    });
  });

  it('runs sub-aggregations per bucket, echoes meta, and may sit under a filter', async () => {
    const res = await aggs({
      c: {
        meta: { page: 1 },
        composite: { size: 2, sources: [{ tag: { terms: { field: 'tag' } } }] },
        aggs: { avg_price: { avg: { field: 'price' } }, by_sold: { terms: { field: 'sold' } } },
      },
    });
    expect(res.c).toEqual({
      meta: { page: 1 },
      after_key: { tag: 'animal' },
      buckets: [
        { key: { tag: 'Zebra' }, doc_count: 1, avg_price: { value: null }, by_sold: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 0, key_as_string: 'false', doc_count: 1 }] } },
        {
          key: { tag: 'animal' }, doc_count: 3, avg_price: { value: 50 / 3 },
          by_sold: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 0, key_as_string: 'false', doc_count: 1 }, { key: 1, key_as_string: 'true', doc_count: 1 }] },
        },
      ],
    });
    const filtered = await aggs({ f: { filter: { range: { price: { gte: 20 } } }, aggs: { c: { composite: { sources: [{ tag: { terms: { field: 'tag' } } }] } } } } });
    expect(filtered.f.c.buckets).toEqual([
      { key: { tag: 'animal' }, doc_count: 2 }, { key: { tag: 'food' }, doc_count: 3 }, { key: { tag: 'grain' }, doc_count: 1 },
    ]);
  });
});

/** The buckets a composite should give, computed from DOCS directly. */
function expectedBuckets(sources: Array<{ name: string; field: string; desc: boolean; missingBucket: boolean; interval?: number }>): Array<{ key: Record<string, unknown>; doc_count: number }> {
  const counts = new Map<string, number>();
  for (const [, doc] of DOCS) {
    const perSource = sources.map((s) => {
      const raw = doc[s.field];
      let values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      if (s.interval) values = values.map((v) => Math.floor((v as number) / s.interval!) * s.interval!);
      values = [...new Set(values)];
      return values.length === 0 && s.missingBucket ? [null] : values;
    });
    let combos: unknown[][] = [[]];
    for (const values of perSource) combos = combos.flatMap((c) => values.map((v) => [...c, v]));
    for (const c of combos) counts.set(JSON.stringify(c), (counts.get(JSON.stringify(c)) ?? 0) + 1);
  }
  const cmp = (a: unknown, b: unknown, desc: boolean): number => {
    const r = desc ? -1 : 1;
    if (a === b) return 0;
    if (a === null) return -r;
    if (b === null) return r;
    return (a as number | string) < (b as number | string) ? -r : r;
  };
  return [...counts.entries()]
    .map(([k, n]) => ({ values: JSON.parse(k) as unknown[], n }))
    .sort((x, y) => {
      for (let i = 0; i < sources.length; i++) {
        const c = cmp(x.values[i], y.values[i], sources[i].desc);
        if (c !== 0) return c;
      }
      return 0;
    })
    .map(({ values, n }) => ({ key: Object.fromEntries(sources.map((s, i) => [s.name, values[i]])), doc_count: n }));
}

describe('paging with after_key', () => {
  const configs = [] as Array<Array<{ name: string; field: string; desc: boolean; missingBucket: boolean; interval?: number }>>;
  for (const desc of [false, true]) {
    for (const missingBucket of [false, true]) {
      configs.push([{ name: 'tag', field: 'tag', desc, missingBucket }]);
      configs.push([
        { name: 'tag', field: 'tag', desc, missingBucket },
        { name: 'p', field: 'price', desc: !desc, missingBucket, interval: 10 },
        { name: 's', field: 'sold', desc, missingBucket },
      ]);
    }
  }

  it.each(configs.map((c, i) => [i, c] as const))('visits every bucket once, in order (config %i)', async (_i, sources) => {
    const expected = expectedBuckets(sources);
    const request = sources.map((s) => ({
      [s.name]: s.interval
        ? { histogram: { field: s.field, interval: s.interval, order: s.desc ? 'desc' : 'asc', missing_bucket: s.missingBucket } }
        : { terms: { field: s.field, order: s.desc ? 'desc' : 'asc', missing_bucket: s.missingBucket } },
    }));
    const all = await composite({ size: 1000, sources: request });
    expect(all.buckets).toEqual(expected);
    for (const size of [1, 2, 3]) {
      const seen: unknown[] = [];
      let after: unknown;
      for (let page = 0; page < 200; page++) {
        const res = await composite({ size, sources: request, ...(after === undefined ? {} : { after }) });
        if (res.buckets.length === 0) {
          expect(res.after_key).toBeUndefined();
          break;
        }
        expect(res.buckets.length).toBeLessThanOrEqual(size);
        expect(res.after_key).toEqual(res.buckets[res.buckets.length - 1].key);
        seen.push(...res.buckets);
        after = res.after_key;
      }
      expect(seen).toEqual(all.buckets);
    }
  });
});

describe('composite errors', () => {
  async function fails(body: unknown, status: number, type: string, reason?: string | RegExp) {
    const res = await t.request('POST', '/composite1/_search', { size: 0, aggs: body });
    expectErrorType(res, status, type, reason);
    return res.body.error;
  }
  const tag = [{ tag: { terms: { field: 'tag' } } }];

  it('validates sources', async () => {
    await fails({ c: { composite: {} } }, 400, 'illegal_argument_exception', 'Required [sources]');
    let e = await fails({ c: { composite: { sources: [] } } }, 400, 'x_content_parse_exception', /\[composite\] failed to parse field \[sources\]$/);
    expect(e.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'Composite [sources] cannot be null or empty' });
    e = await fails({ c: { composite: { sources: [...tag, { tag: { terms: { field: 'price' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('Composite source names must be unique, found duplicates: [tag]');
    e = await fails({ c: { composite: { sources: [{ g: { geohash_grid: { field: 'tag' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by).toMatchObject({ type: 'parsing_exception', reason: 'invalid source type: geohash_grid' });
    e = await fails({ c: { composite: { sources: [{ a: { terms: { field: 'tag' }, histogram: { field: 'price' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('Failed to parse object: expecting token of type [END_OBJECT] but found [FIELD_NAME]');
    e = await fails({ c: { composite: { sources: ['tag'] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('Failed to parse object: expecting token of type [START_OBJECT] but found [VALUE_STRING]');
    e = await fails({ c: { composite: { sources: [{ tag: { terms: { field: 'tag', script: 'doc.tag' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[script] of [terms] aggregations is not supported by this server yet');
    e = await fails({ c: { composite: { sources: [{ tag: { terms: { field: 'tag', order: 'up' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'No enum constant org.elasticsearch.search.sort.SortOrder.UP' });
    // Long client text is quoted by its prefix only.
    e = await fails({ c: { composite: { sources: [{ tag: { terms: { field: 'tag', order: 'u'.repeat(5000) } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.caused_by.reason).toBe(`No enum constant org.elasticsearch.search.sort.SortOrder.${'U'.repeat(100)}...`);
    e = await fails({ c: { composite: { sources: [{ g: { ['g'.repeat(5000)]: { field: 'tag' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe(`invalid source type: ${'g'.repeat(100)}...`);
    e = await fails({ c: { composite: { sources: [{ p: { histogram: { field: 'price' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[interval] must be greater than 0 for [histogram] source');
    e = await fails({ c: { composite: { sources: [{ d: { date_histogram: { field: 'published' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('Invalid interval specified, must be non-null and non-empty');
    e = await fails({ c: { composite: { sources: [{ tag: { terms: { field: 'tag', missing: 'x' } } }] } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toMatch(/\[terms\] unknown field \[missing\]/);
  });

  it('validates size, bounded by search.max_buckets', async () => {
    const e = await fails({ c: { composite: { size: 0, sources: tag } } }, 400, 'x_content_parse_exception', /\[composite\] failed to parse field \[size\]$/);
    expect(e.caused_by).toEqual({ type: 'illegal_argument_exception', reason: '[size] must be greater than 0. Found [0] in [c]' });
    const huge = await fails({ c: { composite: { size: 1_000_000, sources: tag } } }, 400, 'search_phase_execution_exception');
    expect(huge.root_cause[0]).toEqual({
      type: 'too_many_buckets_exception', max_buckets: 65536,
      reason: 'Trying to create too many buckets. Must be less than or equal to: [65536] but was [1000000]. This limit can be set by changing the [search.max_buckets] cluster level setting.',
    });
    await fails({ c: { composite: { size: 1e12, sources: tag } } }, 400, 'x_content_parse_exception');
  });

  it('checks after against the sources', async () => {
    const two = [...tag, { p: { histogram: { field: 'price', interval: 5 } } }];
    let e = await fails({ c: { composite: { sources: two, after: { tag: 'a' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toEqual({ type: 'illegal_argument_exception', reason: '[after] has 1 value(s) but [sources] has 2' });
    e = await fails({ c: { composite: { sources: two, after: { tag: 'a', q: 1 } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Missing value for [after.p]');
    e = await fails({ c: { composite: { sources: two, after: { tag: 'a', p: { x: 1 } } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Invalid value for [after.p], expected comparable, got [HashMap]');
    e = await fails({ c: { composite: { sources: two, after: { tag: null, p: 1 } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Invalid value for [after.tag], expected comparable, got [null]');
    e = await fails({ c: { composite: { sources: two, after: { tag: 5, p: 1 } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toEqual({ type: 'parse_exception', reason: 'Cannot set after key in the composite aggregation [c] - invalid value, expected string, got Integer' });
    e = await fails({ c: { composite: { sources: two, after: { tag: 'a', p: 'ten' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toEqual({ type: 'parse_exception', reason: 'Cannot set after key in the composite aggregation [c] - For input string: "ten"' });
    // Java's parseDouble quotes the text trimmed.
    e = await fails({ c: { composite: { sources: two, after: { tag: 'a', p: '  ten ' } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('Cannot set after key in the composite aggregation [c] - For input string: "ten"');
    // A long value is quoted by its prefix only.
    const sold = [{ sold: { terms: { field: 'sold' } } }];
    e = await fails({ c: { composite: { sources: sold, after: { sold: 'x'.repeat(5000) } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toEqual({
      type: 'parse_exception',
      reason: `Cannot set after key in the composite aggregation [c] - Cannot parse boolean [${'x'.repeat(100)}...], expected either [true] or [false]`,
    });
    await fails({ c: { composite: { sources: two, after: 'tag' } } }, 400, 'x_content_parse_exception', /\[composite\] after doesn't support values of type: VALUE_STRING$/);
    // A numeric string is a number, as Java's parsers read it.
    expect((await composite({ sources: two, after: { tag: 'food', p: '5' } })).buckets[0]).toEqual({ key: { tag: 'food', p: 15 }, doc_count: 1 });
  });

  it('refuses a composite under another bucket aggregation, and too deep trees', async () => {
    let e = await fails({ t: { terms: { field: 'tag' }, aggs: { c: { composite: { sources: tag } } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0]).toEqual({ type: 'illegal_argument_exception', reason: '[composite] aggregation cannot be used with a parent aggregation of type: [TermsAggregatorFactory]' });
    e = await fails({ f: { filter: { match_all: {} }, aggs: { c: { composite: { sources: tag }, aggs: { c2: { composite: { sources: tag } } } } } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toBe('[composite] aggregation cannot be used with a parent aggregation of type: [CompositeAggregationFactory]');
    let deep: Record<string, unknown> = { leaf: { max: { field: 'price' } } };
    for (let i = 0; i < 40; i++) deep = { [`t${i}`]: { terms: { field: 'tag' }, aggs: deep } };
    await fails({ c: { composite: { sources: tag }, aggs: deep } }, 400, 'parsing_exception', 'The nested depth of the aggregations exceeds the maximum of [30]');
    let nested: Record<string, unknown> = { leaf: { max: { field: 'price' } } };
    for (let i = 0; i < 20; i++) nested = { [`t${i}`]: { filter: { exists: { field: 'tag' } }, aggs: nested } };
    const res = await composite({ size: 1, sources: tag }, nested);
    let level = res.buckets[0];
    for (let i = 19; i >= 0; i--) level = level[`t${i}`];
    expect(level.leaf).toEqual({ value: null });
  });
});
