/**
 * `multi_terms` aggregation (ES 8 MultiTermsAggregationBuilder / InternalMultiTerms): a bucket per
 * combination of values (multi-valued fields combine), `key` arrays and `key_as_string` "a|b",
 * keyword, numeric, date and boolean terms, `missing`, size / order / min_doc_count as terms, exact
 * counts, sub-aggregations, and ES's errors. Every request runs on a 1-shard and a 3-shard copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { genre: 'rock', product: 'A', year: 2020, price: 2, day: '2020-01-01', ok: true }],
  ['2', { genre: 'rock', product: 'B', year: 2020, price: 1.5, ok: false }],
  ['3', { genre: 'rock', product: 'A', year: 2021 }],
  ['4', { genre: 'jazz', product: 'B', year: 2020 }],
  ['5', { genre: ['jazz', 'rock'], product: ['A', 'C'] }],
  ['6', { genre: 'pop', title: 'x' }],
];
const MAPPINGS = {
  properties: {
    genre: { type: 'keyword' }, product: { type: 'keyword' }, year: { type: 'long' }, price: { type: 'double' }, day: { type: 'date' },
    ok: { type: 'boolean' }, title: { type: 'text' },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['mterms1', 1], ['mterms3', 3]] as const) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

async function aggs(a: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const one = await t.request('POST', '/mterms1/_search', { size: 0, aggs: a, ...extra });
  const three = await t.request('POST', '/mterms3/_search', { size: 0, aggs: a, ...extra });
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(three.body.aggregations).toEqual(one.body.aggregations);
  return one.body.aggregations;
}

async function fails(a: Record<string, unknown>, status: number, type: string, index = '/mterms1'): Promise<Record<string, any>> {
  const res = await t.request('POST', `${index}/_search`, { size: 0, aggs: a });
  expectErrorType(res, status, type);
  return res.body.error;
}

const GENRE_PRODUCT = [{ field: 'genre' }, { field: 'product' }];

function bucket(key: unknown[], docCount: number, extra: Record<string, unknown> = {}) {
  return { key, key_as_string: key.map(String).join('|'), doc_count: docCount, ...extra };
}

describe('multi_terms', () => {
  it('counts every combination of the values, by count then key, with sum_other_doc_count', async () => {
    expect(await aggs({ m: { multi_terms: { terms: GENRE_PRODUCT, size: 3 } } })).toEqual({
      m: {
        doc_count_error_upper_bound: 0, sum_other_doc_count: 3,
        buckets: [bucket(['rock', 'A'], 3), bucket(['jazz', 'A'], 1), bucket(['jazz', 'B'], 1)],
      },
    });
  });

  it('lets missing stand in for a doc without a value; skips the doc otherwise', async () => {
    const out = await aggs({ m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'product', missing: 'none' }], order: { _key: 'desc' }, size: 2 } } });
    expect(out.m.buckets).toEqual([bucket(['rock', 'C'], 1), bucket(['rock', 'B'], 1)]);
    const pop = await aggs({ m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'product', missing: 'none' }] } } }, { query: { term: { genre: 'pop' } } });
    expect(pop.m.buckets).toEqual([bucket(['pop', 'none'], 1)]);
    const skipped = await aggs({ m: { multi_terms: { terms: GENRE_PRODUCT } } }, { query: { term: { genre: 'pop' } } });
    expect(skipped.m).toEqual({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
  });

  it('prints numbers, dates and booleans as ES\'s key converters do', async () => {
    const query = { query: { term: { genre: 'rock' } } };
    const years = await aggs({ m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'year' }] } } }, query);
    expect(years.m.buckets).toEqual([bucket(['rock', 2020], 2), bucket(['rock', 2021], 1)]);
    const typed = await aggs({ m: { multi_terms: { terms: [{ field: 'ok' }, { field: 'day', missing: '2000-01-01' }, { field: 'price' }], order: { _key: 'asc' } } } }, query);
    expect(typed.m.buckets).toEqual([
      { key: [false, '2000-01-01T00:00:00.000Z', 1.5], key_as_string: 'false|2000-01-01T00:00:00.000Z|1.5', doc_count: 1 },
      { key: [true, '2020-01-01T00:00:00.000Z', 2], key_as_string: 'true|2020-01-01T00:00:00.000Z|2.0', doc_count: 1 },
    ]);
  });

  it('takes min_doc_count, orders by a sub-aggregation, shows doc count errors, and aggregates per bucket', async () => {
    expect((await aggs({ m: { multi_terms: { terms: GENRE_PRODUCT, min_doc_count: 2 } } })).m.buckets).toEqual([bucket(['rock', 'A'], 3)]);
    const out = await aggs({
      m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'year' }], order: [{ max_price: 'desc' }], show_term_doc_count_error: true, shard_size: 1 },
        aggs: { max_price: { max: { field: 'price' } } } },
    });
    expect(out.m.buckets).toEqual([
      bucket(['rock', 2020], 2, { doc_count_error_upper_bound: 0, max_price: { value: 2 } }),
      bucket(['jazz', 2020], 1, { doc_count_error_upper_bound: 0, max_price: { value: null } }),
      bucket(['rock', 2021], 1, { doc_count_error_upper_bound: 0, max_price: { value: null } }),
    ]);
    const path = await aggs({ m: { multi_terms: { terms: GENRE_PRODUCT } }, most: { max_bucket: { buckets_path: 'm>_count' } } });
    expect(path.most).toEqual({ value: 3, keys: ['rock|A'] });
  });

  it('answers ES\'s yaml test (multi_terms.yml "size parameter") over two indices', async () => {
    const products = (rows: Array<[string, string | null, number | null]>) => rows.map(([genre, product, quantity], i): [string, Record<string, unknown>] => [
      String(i), { genre, ...(product === null ? {} : { product, quantity }) },
    ]);
    const mappings = { properties: { genre: { type: 'keyword' }, product: { type: 'keyword' }, quantity: { type: 'integer' } } };
    await t.request('PUT', '/products-1', { mappings });
    await t.request('PUT', '/products-2', { settings: { number_of_shards: 3 }, mappings });
    await seed(t, 'products-1', products([
      ['rock', 'Product A', 4], ['rock', 'Product A', 5], ['rock', 'Product B', 1], ['jazz', 'Product B', 10], ['electronic', 'Product B', 3],
      ['electronic', null, null], ['pop', 'Product C', 12], ['pop', 'Product C', 100],
    ]));
    await seed(t, 'products-2', products([
      ['soul', 'Product E', 133], ['soul', 'Product E', 104], ['dance', 'Product D', 21], ['dance', 'Product D', 110], ['trance', 'Product G', 19],
      ['trance', 'Product G', 213], ['rock', 'Product A', 34],
    ]));
    const search = async (body: Record<string, unknown>) => (await t.request('POST', '/products*/_search', { size: 0, aggs: { gp: { multi_terms: { terms: GENRE_PRODUCT, ...body } } } })).body.aggregations.gp;
    const all = await search({});
    expect([all.doc_count_error_upper_bound, all.sum_other_doc_count]).toEqual([0, 0]);
    expect(all.buckets.map((b: any) => [b.key_as_string, b.doc_count])).toEqual([
      ['rock|Product A', 3], ['dance|Product D', 2], ['pop|Product C', 2], ['soul|Product E', 2], ['trance|Product G', 2],
      ['electronic|Product B', 1], ['jazz|Product B', 1], ['rock|Product B', 1],
    ]);
    const one = await search({ size: 1 });
    expect([one.sum_other_doc_count, one.buckets.map((b: any) => [b.key_as_string, b.doc_count])]).toEqual([11, [['rock|Product A', 3]]]);
    expect((await search({ order: { _key: 'desc' } })).buckets[0].key_as_string).toBe('trance|Product G');
    expect((await search({ order: { _count: 'asc' } })).buckets[0].key_as_string).toBe('electronic|Product B');
  });

  it('refuses malformed requests as ES does', async () => {
    let e = await fails({ m: { multi_terms: { terms: [{ field: 'genre' }] } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[multi_terms\] failed to parse field \[terms\]$/);
    expect(e.caused_by.reason).toBe('The [terms] parameter in the aggregation [m] must be present and have at least 2 fields or scripts. For a single field user terms aggregation.');
    e = await fails({ m: { multi_terms: { size: 2 } } }, 400, 'illegal_argument_exception');
    expect(e.reason).toBe('The [terms] parameter in the aggregation [m] must be present and have at least 2 fields or scripts.');
    e = await fails({ m: { multi_terms: { terms: GENRE_PRODUCT, size: 0 } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[size] must be greater than 0. Found [0] in [m]');
    e = await fails({ m: { multi_terms: { terms: GENRE_PRODUCT, min_doc_count: 0 } } }, 400, 'x_content_parse_exception');
    expect(e.caused_by.reason).toBe('[minDocCount] must be greater than or equal to 1. Found [0] in [m]');
    e = await fails({ m: { multi_terms: { terms: GENRE_PRODUCT, bogus: 1 } } }, 400, 'x_content_parse_exception');
    expect(e.reason).toMatch(/\[multi_terms\] unknown field \[bogus\]$/);
    e = await fails({ m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'title' }] } } }, 400, 'search_phase_execution_exception');
    expect(e.root_cause[0].reason).toMatch(/^Fielddata is disabled on \[title\]/);
  });

  it('bounds the combinations multi-valued terms make', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `v${i}`);
    await t.request('PUT', '/mtermsbig', { mappings: { properties: { a: { type: 'keyword' }, b: { type: 'keyword' }, c: { type: 'keyword' } } } });
    await seed(t, 'mtermsbig', [['1', { a: many, b: many, c: many }]]);
    const e = await fails({ m: { multi_terms: { terms: [{ field: 'a' }, { field: 'b' }, { field: 'c' }] } } }, 400, 'search_phase_execution_exception', '/mtermsbig');
    expect(e.root_cause[0].reason).toBe('[multi_terms] aggregation [m] would combine more than [1000000] values of multi-valued terms on a shard: narrow the query or use fewer multi-valued fields');
  });
});
