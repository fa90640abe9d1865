/**
 * Retrieving selected fields — the `fields` and `docvalue_fields` options:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-fields.html
 * `fields` reads each hit's stored `_source` through the mapping (values parsed as the field's type,
 * dates in its format or the requested one, keyword normalizers and `ignore_above`, `null_value`,
 * multi-fields from their parent, wildcards, `include_unmapped`); `docvalue_fields` reads doc
 * values. Both land in the hit's `fields`, after `_source` and before `highlight` and `sort`, on a
 * single-shard search (rendered by the worker) and a multi-shard one (by the coordinator) alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const MAPPINGS = {
  // `note` stays unmapped, for include_unmapped.
  dynamic: false,
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 12 } } },
    tag: { type: 'keyword', normalizer: 'lower', null_value: 'none' },
    pages: { type: 'integer' },
    rating: { type: 'float' },
    price: { type: 'scaled_float', scaling_factor: 100 },
    published: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
    instock: { type: 'boolean' },
    author: { properties: { name: { type: 'keyword' } } },
    topics: { type: 'rank_features' },
  },
};
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'Short', tag: ['B', 'a'], pages: '120', rating: 4.1, price: 9.999, published: '2020-01-02', instock: 'true', author: [{ name: 'X' }, { name: 'Y' }], note: 'free', topics: { ai: 2 } }],
  ['2', { title: 'A much longer title', tag: null, pages: [300, 12], published: 1_600_000_000_000, 'author.name': 'Z' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['lib1', 1], ['lib3', 3]] as const) {
    await t.request('PUT', `/${name}`, {
      settings: { number_of_shards: shards, analysis: { normalizer: { lower: { type: 'custom', filter: ['lowercase'] } } } }, mappings: MAPPINGS,
    });
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

/** The hits' `fields` by id, checked equal on the 1-shard and the 3-shard index. */
async function fields(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const index of ['lib1', 'lib3']) {
    const res = await t.request('POST', `/${index}/_search`, { sort: [{ published: 'asc' }], ...body });
    expect(res.status).toBe(200);
    out.push(Object.fromEntries(res.body.hits.hits.map((h: any) => [h._id, h.fields])));
  }
  expect(out[1]).toEqual(out[0]);
  return out[0];
}

describe('fields', () => {
  it('reads _source through the mapping: types, formats, normalizers, ignore_above, null_value, objects and dotted keys', async () => {
    expect(await fields({ fields: ['*'], _source: false })).toEqual({
      1: {
        'author.name': ['X', 'Y'], instock: [true], pages: [120], price: [10], published: ['2020-01-02'], rating: [4.1],
        tag: ['b', 'a'], title: ['Short'], 'title.raw': ['Short'],
      },
      2: { 'author.name': ['Z'], pages: [300, 12], published: ['2020-09-13'], tag: ['none'], title: ['A much longer title'] },
    });
  });

  it('takes patterns, a date format per entry, and include_unmapped', async () => {
    expect(await fields({ fields: ['ti*', { field: 'published', format: 'epoch_millis' }, { field: 'no*', include_unmapped: true }] })).toEqual({
      1: { published: ['1577923200000'], title: ['Short'], 'title.raw': ['Short'], note: ['free'] },
      2: { published: ['1600000000000'], title: ['A much longer title'] },
    });
    // A mapped field this server does not render (rank_features) is not taken for an unmapped one.
    expect(Object.keys((await fields({ fields: [{ field: 'to*', include_unmapped: true }] }))[1] ?? {})).toEqual([]);
    // Nothing matches: no `fields` member at all, as in ES.
    expect(await fields({ fields: ['nothing*'] })).toEqual({ 1: undefined, 2: undefined });
  });
});

describe('docvalue_fields', () => {
  it('reads doc values: keyword terms and numbers ascending, dates in the field\'s or the given format', async () => {
    expect(await fields({ docvalue_fields: ['tag', 'pages', { field: 'published', format: 'yyyy' }, 'instock', 'title.raw'] })).toEqual({
      1: { instock: [true], pages: [120], published: ['2020'], tag: ['a', 'b'], 'title.raw': ['Short'] },
      2: { pages: [12, 300], published: ['2020'], tag: ['none'] },
    });
    const url = await t.request('POST', '/lib1/_search?docvalue_fields=pages&sort=published', {});
    expect(url.body.hits.hits[1].fields).toEqual({ pages: [12, 300] });
  });

  it('joins fields in one section, placed after _source and before highlight and sort', async () => {
    const res = await t.request('POST', '/lib1/_search', {
      query: { match: { title: 'short' } }, fields: ['title'], docvalue_fields: ['pages'], highlight: { fields: { title: {} } }, sort: [{ pages: 'asc' }],
    });
    const hit = res.body.hits.hits[0];
    expect(hit.fields).toEqual({ pages: [120], title: ['Short'] });
    expect(Object.keys(hit)).toEqual(['_index', '_id', '_score', '_source', 'fields', 'highlight', 'sort']);
  });

  it('fails on a text field as ES does, and rejects malformed entries', async () => {
    expectErrorType(await t.request('POST', '/lib1/_search', { docvalue_fields: ['title'] }), 400, 'illegal_argument_exception', /^Fielddata is disabled on \[title\] in \[lib1\]/);
    expectErrorType(await t.request('POST', '/lib1/_search', { fields: [{ field: 'title', nope: 1 }] }), 400, 'x_content_parse_exception', /\[fetch_field_and_format\] unknown field \[nope\]/);
    expectErrorType(await t.request('POST', '/lib1/_search', { fields: [{ format: 'yyyy' }] }), 400, 'illegal_argument_exception', 'Required [field]');
    expect((await t.request('POST', '/lib1/_search', { fields: 'title' })).status).toBe(400);
    const many = Array.from({ length: 101 }, () => 'pages');
    expectErrorType(await t.request('POST', '/lib1/_search', { docvalue_fields: many }), 400, 'illegal_argument_exception', /^Trying to retrieve too many docvalue_fields\. Must be less than or equal to: \[100\] but was \[101\]/);
    expectErrorType(await t.request('POST', '/lib1/_search', { docvalue_fields: [{ field: 'pages', format: '0.0' }] }), 400, 'illegal_argument_exception', '[format] of numeric [docvalue_fields] is not supported by this server yet');
  });
});
