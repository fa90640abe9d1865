/**
 * `string_stats` aggregation (ES 8 StringStatsAggregationBuilder / InternalStringStats): count,
 * min / max / avg length, entropy and `show_distribution` over a keyword field's values, `missing`,
 * the empty shape, under buckets and in a buckets_path, and ES's errors. Every request runs on a
 * 1-shard and a 3-shard copy of the data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { word: 'aab', tag: 'x', n: 1 }],
  ['2', { word: ['b', 'abc'], tag: 'x' }],
  ['3', { tag: 'y' }],
];
const MAPPINGS = { properties: { word: { type: 'keyword' }, tag: { type: 'keyword' }, n: { type: 'long' } } };

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['sstats1', 1], ['sstats3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/sstats1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/sstats3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

/** −Σ p·log2 p, as InternalStringStats computes it. */
function entropy(...shares: number[]): number {
  return -shares.reduce((sum, p) => sum + p * (Math.log(p) / Math.log(2)), 0);
}

describe('string_stats', () => {
  it('measures every value: count, lengths, entropy, and the distribution most frequent first', async () => {
    const out = await aggs({ s: { string_stats: { field: 'word', show_distribution: true } } });
    expect(out.s).toEqual({
      count: 3, min_length: 1, max_length: 3, avg_length: 7 / 3, entropy: expect.closeTo(entropy(3 / 7, 3 / 7, 1 / 7), 12),
      distribution: { a: 3 / 7, b: 3 / 7, c: 1 / 7 },
    });
    expect(Object.keys(out.s.distribution)).toEqual(['a', 'b', 'c']);
    expect(Object.keys(out.s)).toEqual(['count', 'min_length', 'max_length', 'avg_length', 'entropy', 'distribution']);
  });

  it('answers ES\'s yaml test (string_stats.yml) exactly', async () => {
    const out = await aggs({ s: { string_stats: { field: 'tag', show_distribution: true } } }, { query: { terms: { tag: ['x', 'y'] } }, post_filter: { match_none: {} } });
    // Two docs of `x` and one of `y` here; ES's own case has one `a` and one `b`: entropy 1.
    expect(out.s).toMatchObject({ count: 3, min_length: 1, max_length: 1, avg_length: 1, distribution: { x: 2 / 3, y: 1 / 3 } });
    const two = await aggs({ s: { string_stats: { field: 'tag', show_distribution: true } } }, { query: { terms: { _id: ['1', '3'] } } });
    expect(two.s).toEqual({ count: 2, min_length: 1, max_length: 1, avg_length: 1, entropy: 1, distribution: { x: 0.5, y: 0.5 } });
  });

  it('counts missing for a doc without a value, and has an empty shape', async () => {
    const out = await aggs({ s: { string_stats: { field: 'word', missing: 'zz' } } });
    expect(out.s).toEqual({ count: 4, min_length: 1, max_length: 3, avg_length: 2.25, entropy: expect.closeTo(entropy(3 / 9, 3 / 9, 2 / 9, 1 / 9), 12) });
    expect(await aggs({ s: { string_stats: { field: 'word', show_distribution: true } } }, { query: { match_none: {} } })).toEqual({
      s: { count: 0, min_length: null, max_length: null, avg_length: null, entropy: 0, distribution: null },
    });
    expect((await aggs({ s: { string_stats: { field: 'nope' } } })).s.count).toBe(0);
  });

  it('runs per bucket and feeds buckets paths', async () => {
    const out = await aggs({ t: { terms: { field: 'tag' }, aggs: { s: { string_stats: { field: 'word' } } } }, longest: { max_bucket: { buckets_path: 't>s.max_length' } } });
    expect(out.t.buckets.map((b: any) => [b.key, b.s.count, b.s.max_length])).toEqual([['x', 3, 3], ['y', 0, null]]);
    expect(out.longest).toEqual({ value: 3, keys: ['x'] });
  });

  it('refuses other field types, sub-aggregations and unknown members', async () => {
    const num = await t.request('POST', '/sstats1/_search', { size: 0, aggs: { s: { string_stats: { field: 'n' } } } });
    expectErrorType(num, 400, 'search_phase_execution_exception');
    expect(num.body.error.root_cause[0].reason).toBe('Field [n] of type [long] is not supported for aggregation [string_stats]');
    const subs = await t.request('POST', '/sstats1/_search', { size: 0, aggs: { s: { string_stats: { field: 'word' }, aggs: { m: { max: { field: 'n' } } } } } });
    expectErrorType(subs, 400, 'aggregation_initialization_exception', 'Aggregator [s] of type [string_stats] cannot accept sub-aggregations');
    const bogus = await t.request('POST', '/sstats1/_search', { size: 0, aggs: { s: { string_stats: { field: 'word', bogus: 1 } } } });
    expectErrorType(bogus, 400, 'x_content_parse_exception', /\[string_stats\] unknown field \[bogus\]/);
    const bad = await t.request('POST', '/sstats1/_search', { size: 0, aggs: { s: { string_stats: { field: 'word', show_distribution: 'maybe' } } } });
    expectErrorType(bad, 400, 'x_content_parse_exception', /\[string_stats\] failed to parse field \[show_distribution\]/);
  });
});
