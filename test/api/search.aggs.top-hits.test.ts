/**
 * `top_hits` aggregation (ES 8 TopHitsAggregationBuilder / InternalTopHits): at the top level and
 * under bucket aggregations, by score or by fields, from/size within
 * `index.max_inner_result_window`, `_source` filtering, version / seq_no, and ES's errors. Every
 * request runs on a 1-shard and a 3-shard copy of the data and must give the same aggregations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'quick brown fox', tag: 'animal', price: 10, rating: 4.5 }],
  ['2', { title: 'quick fox quick fox', tag: 'animal', price: 20, rating: 3.0 }],
  ['3', { title: 'lazy dog', tag: 'animal', price: 30 }],
  ['4', { title: 'quick bread', tag: 'food', price: 15, rating: 5.0 }],
  ['5', { title: 'brown rice', tag: 'food', price: 5, rating: 1.5 }],
  ['6', { title: 'quick quick quick', tag: 'food', price: 20, rating: 2.0 }],
  ['7', { title: 'nothing here', price: 25 }],
];
const MAPPINGS = { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, price: { type: 'long' }, rating: { type: 'double' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['tophits1', 1], ['tophits3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

/** The aggregations of one body on the 1-shard index, checked equal to the 3-shard index's (but for `_index`). */
async function aggs(body: Record<string, unknown>): Promise<Record<string, any>> {
  const one = await t.request('POST', '/tophits1/_search', { size: 0, ...body });
  const three = await t.request('POST', '/tophits3/_search', { size: 0, ...body });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(JSON.parse(JSON.stringify(three.body.aggregations).replaceAll('"tophits3"', '"tophits1"'))).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

function hitIds(agg: { hits: { hits: Array<{ _id: string }> } }): string[] {
  return agg.hits.hits.map((h) => h._id);
}

describe('top_hits', () => {
  it('renders the best 3 hits by score with total and max_score, as the search ranks them', async () => {
    const body = { query: { match: { title: 'quick' } } };
    const out = await aggs({ ...body, aggs: { top: { top_hits: {} } } });
    const search = await t.request('POST', '/tophits1/_search', { ...body, size: 3 });
    expect(out.top).toEqual({
      hits: {
        total: { value: 4, relation: 'eq' },
        max_score: search.body.hits.max_score,
        hits: search.body.hits.hits,
      },
    });
    expect(Object.keys(out.top.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source']);
    expect(out.top.hits.hits[0]._source).toEqual(DOCS.find(([id]) => id === out.top.hits.hits[0]._id)![1]);
  });

  it('sorts by fields, shows their values in `sort`, and max_score / _score null without track_scores', async () => {
    const out = await aggs({ aggs: { top: { top_hits: { sort: [{ price: 'desc' }, { rating: { order: 'asc', missing: '_first' } }], size: 4 } } } });
    expect(out.top.hits.total).toEqual({ value: 7, relation: 'eq' });
    expect(out.top.hits.max_score).toBeNull();
    expect(out.top.hits.hits.map((h: any) => [h._id, h._score, h.sort])).toEqual([
      ['3', null, [30, '-Infinity']], ['7', null, [25, '-Infinity']], ['6', null, [20, 2.0]], ['2', null, [20, 3.0]],
    ]);
  });

  it('tracks scores under a field sort with track_scores', async () => {
    const out = await aggs({ query: { match: { title: 'quick' } }, aggs: { top: { top_hits: { sort: ['price'], track_scores: true, size: 2 } } } });
    const search = await t.request('POST', '/tophits1/_search', { query: { match: { title: 'quick' } }, sort: ['price'], track_scores: true, size: 2 });
    expect(out.top.hits.max_score).toBe(search.body.hits.max_score);
    expect(out.top.hits.hits).toEqual(search.body.hits.hits);
  });

  it('pages with from and size, ties broken by write order', async () => {
    const all = await aggs({ aggs: { top: { top_hits: { size: 7 } } } });
    expect(hitIds(all.top)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const page = await aggs({ aggs: { top: { top_hits: { from: 2, size: 3 } } } });
    expect(hitIds(page.top)).toEqual(['3', '4', '5']);
    const past = await aggs({ aggs: { top: { top_hits: { from: 50, size: 3 } } } });
    expect(past.top.hits).toEqual({ total: { value: 7, relation: 'eq' }, max_score: 1, hits: [] });
    const none = await t.request('POST', '/tophits3/_search', { aggs: { top: { top_hits: { size: 0 } } } });
    expectErrorType(none, 400, 'search_phase_execution_exception');
    expect(none.body.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception', reason: 'numHits must be > 0; please use TotalHitCountCollector if you just need the total hit count',
    });
  });

  it('splices _source in as stored, and max_score as a float', async () => {
    await t.request('PUT', '/tophits-raw', { mappings: { properties: { v: { type: 'double' } } } });
    const put = await t.request('PUT', '/tophits-raw/_doc/a?refresh=true', '{"v":1.0,  "w":2.50e0}');
    expect(put.status).toBe(201);
    const res = await t.request('POST', '/tophits-raw/_search', { size: 0, query: { match_all: { boost: 0.3 } }, aggs: { top: { top_hits: {} } } });
    expect(res.text).toContain('"max_score":0.3,"hits":[{"_index":"tophits-raw","_id":"a","_score":0.3,"_source":{"v":1.0,  "w":2.50e0}}]');
  });

  it('filters _source, and shows _version, _seq_no and _primary_term when asked', async () => {
    const out = await aggs({ aggs: { top: { top_hits: { size: 1, _source: { includes: ['t*'], excludes: ['tag'] }, version: true, seq_no_primary_term: true } } } });
    const hit = out.top.hits.hits[0];
    expect(Object.keys(hit)).toEqual(['_index', '_id', '_version', '_seq_no', '_primary_term', '_score', '_source']);
    expect(hit._source).toEqual({ title: 'quick brown fox' });
    const noSource = await aggs({ aggs: { top: { top_hits: { size: 1, _source: false } } } });
    expect(noSource.top.hits.hits[0]).toEqual({ _index: 'tophits1', _id: '1', _score: 1 });
    const fields = await aggs({ aggs: { top: { top_hits: { size: 1, _source: false, docvalue_fields: ['price'], fields: ['tag'] } } } });
    expect(fields.top.hits.hits[0].fields).toEqual({ price: [10], tag: ['animal'] });
  });

  it('gives each bucket of a terms aggregation its own top hits, and works under filter, range and histogram', async () => {
    const out = await aggs({
      query: { match: { title: 'quick brown' } },
      aggs: { tags: { terms: { field: 'tag' }, aggs: { best: { top_hits: { size: 1, _source: ['title'] } } } } },
    });
    expect(out.tags.buckets.map((b: any) => [b.key, b.doc_count, b.best.hits.total.value, hitIds(b.best)])).toEqual([
      ['food', 3, 3, ['5']], ['animal', 2, 2, ['1']],
    ]);
    expect(out.tags.buckets[1].best.hits.hits[0]._source).toEqual({ title: 'quick brown fox' });
    const nested = await aggs({
      aggs: {
        f: { filter: { term: { tag: 'food' } }, aggs: { cheapest: { top_hits: { size: 1, sort: ['price'] } } } },
        r: { range: { field: 'price', ranges: [{ to: 20 }, { from: 20 }] }, aggs: { t: { top_hits: { size: 1, sort: [{ price: 'desc' }] } } } },
        h: { histogram: { field: 'price', interval: 10 }, aggs: { t: { top_hits: { size: 1, _source: false } } } },
        m: { missing: { field: 'tag' }, aggs: { t: { top_hits: { _source: false } } } },
        fs: { filters: { filters: { a: { term: { tag: 'animal' } } } }, aggs: { t: { top_hits: { size: 1, _source: false } } } },
      },
    });
    expect(hitIds(nested.f.cheapest)).toEqual(['5']);
    expect(nested.r.buckets.map((b: any) => hitIds(b.t))).toEqual([['4'], ['3']]);
    expect(nested.h.buckets.map((b: any) => [b.key, hitIds(b.t)])).toEqual([[0, ['5']], [10, ['1']], [20, ['2']], [30, ['3']]]);
    expect(hitIds(nested.m.t)).toEqual(['7']);
    expect(hitIds(nested.fs.buckets.a.t)).toEqual(['1']);
  });

  it('scores the hits of a bucket as the search scores them', async () => {
    const out = await aggs({ query: { match: { title: 'quick brown' } }, aggs: { tags: { terms: { field: 'tag' }, aggs: { best: { top_hits: { _source: false } } } } } });
    const search = await t.request('POST', '/tophits1/_search', {
      query: { bool: { must: { match: { title: 'quick brown' } }, filter: { term: { tag: 'food' } } } }, _source: false, size: 3,
    });
    expect(out.tags.buckets[0].key).toBe('food');
    expect(out.tags.buckets[0].best.hits.hits).toEqual(search.body.hits.hits);
    expect(out.tags.buckets[0].best.hits.max_score).toBe(search.body.hits.max_score);
  });

  it('merges the hits of several indices, ties by index then write order', async () => {
    const res = await t.request('POST', '/tophits1,tophits3/_search', { size: 0, aggs: { top: { top_hits: { size: 4, sort: [{ price: 'desc' }], _source: false } } } });
    expect(res.body.aggregations.top.hits.total).toEqual({ value: 14, relation: 'eq' });
    expect(res.body.aggregations.top.hits.hits.map((h: any) => [h._index, h._id])).toEqual([
      ['tophits1', '3'], ['tophits3', '3'], ['tophits1', '7'], ['tophits3', '7'],
    ]);
  });

  it('echoes meta and sorts a lone `_score` like the default (no `sort` in hits)', async () => {
    const out = await aggs({ query: { match: { title: 'fox' } }, aggs: { top: { top_hits: { sort: [{ _score: 'desc' }], size: 1 }, meta: { m: 1 } } } });
    expect(out.top.meta).toEqual({ m: 1 });
    expect(Object.keys(out.top.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source']);
    expect(typeof out.top.hits.max_score).toBe('number');
  });
});

describe('top_hits errors', () => {
  async function fails(top: unknown, status: number, type: string, reason: string | RegExp): Promise<void> {
    const res = await t.request('POST', '/tophits1/_search', { aggs: { top: top } });
    expectErrorType(res, status, type);
    if (typeof reason === 'string') expect(res.body.error.root_cause[0].reason).toBe(reason);
    else expect(res.body.error.root_cause[0].reason).toMatch(reason);
  }

  it('refuses a negative size or from, and a wrong-typed one', async () => {
    await fails({ top_hits: { size: -1 } }, 400, 'illegal_argument_exception', '[size] must be greater than or equal to 0. Found [-1] in [top]');
    await fails({ top_hits: { from: -2 } }, 400, 'illegal_argument_exception', '[from] must be greater than or equal to 0. Found [-2] in [top]');
    await fails({ top_hits: { size: { a: 1 } } }, 400, 'parsing_exception', 'Unknown key for a START_OBJECT in [size].');
    await fails({ top_hits: { size: 'x' } }, 400, 'number_format_exception', 'For input string: "x"');
    await fails({ top_hits: { size: 1e12 } }, 400, 'x_content_parse_exception', /Numeric value \(1000000000000\) out of range of int/);
    await fails({ top_hits: { from: null } }, 400, 'parsing_exception', 'Unknown key for a VALUE_NULL in [from].');
  });

  it('answers hostile values with ES-shaped 400s', async () => {
    await fails({ top_hits: { sort: [{ price: { order: 'sideways' } }] } }, 400, 'illegal_argument_exception', 'Unknown SortOrder [sideways]');
    await fails({ top_hits: { sort: [{ price: { bogus: 1 } }] } }, 400, 'parsing_exception', '[field_sort] unknown field [bogus]');
    await fails({ top_hits: { _source: 5 } }, 400, 'parsing_exception', /^Expected one of \[VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT\]/);
    await fails({ top_hits: { version: 'yes' } }, 400, 'illegal_argument_exception', 'Failed to parse value [yes] as only [true] or [false] are allowed.');
    await fails({ top_hits: { docvalue_fields: [{ nope: 1 }] } }, 400, 'x_content_parse_exception', /\[fetch_field_and_format\] unknown field \[nope\]/);
    const huge = await t.request('POST', '/tophits1/_search', { aggs: { top: { top_hits: { from: 2147483647, size: 2147483647 } } } });
    expect(huge.status).toBe(400);
    expect(huge.body.error.root_cause[0].reason).toMatch(/but was \[4294967294\]/);
  });

  it('refuses from + size past index.max_inner_result_window, with ES message, and follows the setting', async () => {
    const res = await t.request('POST', '/tophits3/_search', { aggs: { top: { top_hits: { from: 90, size: 11 } } } });
    expectErrorType(res, 400, 'search_phase_execution_exception');
    expect(res.body.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: "Top hits result window is too large, the top hits aggregator [top]'s from + size must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_inner_result_window] index level setting.",
    });
    await t.request('PUT', '/tophits3/_settings', { index: { max_inner_result_window: 200 } });
    const ok = await t.request('POST', '/tophits3/_search', { size: 0, aggs: { top: { top_hits: { from: 90, size: 11 } } } });
    expect(ok.status).toBe(200);
    await t.request('PUT', '/tophits3/_settings', { index: { max_inner_result_window: null } });
  });

  it('refuses sub-aggregations, unknown members and members not built here', async () => {
    const res = await t.request('POST', '/tophits1/_search', { aggs: { top: { top_hits: {}, aggs: { m: { max: { field: 'price' } } } } } });
    expectErrorType(res, 400, 'illegal_argument_exception', 'Aggregator [top] of type [top_hits] cannot accept sub-aggregations');
    await fails({ top_hits: { bogus: 1 } }, 400, 'parsing_exception', 'Unknown key for a VALUE_NUMBER in [bogus].');
    await fails({ top_hits: { bogus: [1] } }, 400, 'parsing_exception', 'Unknown key for a START_ARRAY in [bogus].');
    await fails({ top_hits: { version: [true] } }, 400, 'parsing_exception', 'Unknown key for a START_ARRAY in [version].');
    await fails({ top_hits: { highlight: { fields: { title: {} } } } }, 400, 'illegal_argument_exception', '[highlight] of [top_hits] aggregations is not supported by this server yet');
    await fails({ top_hits: { explain: true } }, 400, 'illegal_argument_exception', '[explain] of [top_hits] aggregations is not supported by this server yet');
    await fails({ top_hits: 'x' }, 400, 'parsing_exception', 'Expected [START_OBJECT] under [top_hits], but got a [VALUE_STRING] in [top]');
  });

  it('refuses sorting on a text field or an unmapped one, as the search does, and ordering terms by top_hits', async () => {
    const text = await t.request('POST', '/tophits1/_search', { aggs: { top: { top_hits: { sort: ['title'] } } } });
    expectErrorType(text, 400, 'search_phase_execution_exception');
    expect(text.body.error.root_cause[0].reason).toMatch(/^Fielddata is disabled on \[title\] in \[tophits1\]/);
    const unmapped = await t.request('POST', '/tophits1/_search', { aggs: { top: { top_hits: { sort: ['nope'] } } } });
    expect(unmapped.body.error.root_cause[0].reason).toBe('No mapping found for [nope] in order to sort on');
    const order = await t.request('POST', '/tophits1/_search', { aggs: { t: { terms: { field: 'tag', order: { top: 'desc' } }, aggs: { top: { top_hits: {} } } } } });
    expectErrorType(order, 400, 'search_phase_execution_exception');
    expect(order.body.error.root_cause[0].type).toBe('aggregation_execution_exception');
  });
});

describe('top_hits bounds', () => {
  it('answers 2,000 terms buckets × top_hits size 100 on 3 shards, identical to 1 shard', async () => {
    const docs: Array<[string, Record<string, unknown>]> = [];
    for (let i = 0; i < 6000; i++) docs.push([`d${i}`, { k: `k${i % 2000}`, n: i, body: 'x'.repeat(200) }]);
    for (const [name, shards] of [['manyth1', 1], ['manyth3', 3]] as const) {
      await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: { properties: { k: { type: 'keyword' }, n: { type: 'long' } } } });
      await seed(t, name, docs);
    }
    const body = { size: 0, aggs: { k: { terms: { field: 'k', size: 2000 }, aggs: { t: { top_hits: { size: 100, sort: [{ n: 'desc' }], _source: ['n'] } } } } } };
    const started = Date.now();
    const one = await t.request('POST', '/manyth1/_search', body);
    const three = await t.request('POST', '/manyth3/_search', body);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(one.status).toBe(200);
    expect(one.body.aggregations.k.buckets).toHaveLength(2000);
    expect(one.body.aggregations.k.buckets[0].t.hits.hits.map((h: any) => h._source.n)).toEqual([4000, 2000, 0]);
    expect(JSON.stringify(three.body.aggregations).replaceAll('"manyth3"', '"manyth1"')).toBe(JSON.stringify(one.body.aggregations));
  }, 60_000);

  it('counts buckets against search.max_buckets before fetching any hit', async () => {
    const res = await t.request('POST', '/tophits3/_search', {
      size: 0, aggs: { h: { histogram: { field: 'price', interval: 0.0001, min_doc_count: 0 }, aggs: { t: { top_hits: { size: 100 } } } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('too_many_buckets_exception');
  });
});
