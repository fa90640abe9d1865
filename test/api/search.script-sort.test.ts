/**
 * `sort` by `_script` (ES ScriptSortBuilder): documents ordered by a script's double (`number`)
 * or String (`string`), its value in each hit's `sort` as ES writes it; 1 and 3 shards alike,
 * `search_after` continuing from a hit's values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, ids, queryRunner, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'fox', likes: 10, price: 20.5, tag: 'b' }],
  ['2', { title: 'fox fox', likes: 100, price: 25, tag: 'a' }],
  ['3', { title: 'fox', likes: 1, price: 40, tag: 'c' }],
  ['4', { title: 'dog', price: 30, tag: 'a' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['ss', 1], ['ss3', 3]] as const) {
    await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { title: { type: 'text' }, likes: { type: 'long' }, price: { type: 'double' }, tag: { type: 'keyword' } } },
    });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search } = queryRunner(() => t, 'ss');

/** `[id, sort]` of each hit, identical on 1 and 3 shards. */
async function sorted(body: Record<string, unknown>): Promise<Array<[string, unknown]>> {
  const out: Array<Array<[string, unknown]>> = [];
  for (const index of ['ss', 'ss3']) {
    const res = await search({ _source: false, ...body }, index);
    expect(res.status).toBe(200);
    out.push(res.body.hits.hits.map((h: { _id: string; sort: unknown }) => [h._id, h.sort]));
  }
  expect(out[1]).toEqual(out[0]);
  return out[0];
}

describe('sort by _script', () => {
  it('orders by a number script, its values written as doubles', async () => {
    const script = { source: "doc['price'].value * params.f - (doc['likes'].size() == 0 ? 0 : doc['likes'].value)", params: { f: 2 } };
    expect(await sorted({ sort: [{ _script: { type: 'number', script, order: 'desc' } }] })).toEqual([['3', [79]], ['4', [60]], ['1', [31]], ['2', [-50]]]);
    const res = await search({ sort: { _script: { type: 'number', script: { source: "doc['price'].value" } } } });
    expect(res.text).toContain('"sort":[20.5]');
    expect(res.text).toContain('"sort":[25.0]');
  });

  it('orders by a string script and by _score inside a script; continues with search_after', async () => {
    expect(await sorted({ sort: [{ _script: { type: 'string', script: "doc['tag'].value + '-' + doc['price'].value", order: 'asc' } }] }))
      .toEqual([['2', ['a-25.0']], ['4', ['a-30.0']], ['1', ['b-20.5']], ['3', ['c-40.0']]]);
    const byScore = await sorted({ query: { match: { title: 'fox' } }, sort: [{ _script: { type: 'number', script: '_score * 10' } }, { price: 'asc' }] });
    expect(byScore.map(([id]) => id)).toEqual(['1', '3', '2']);
    const page = await search({ sort: [{ _script: { type: 'number', script: "doc['price'].value" } }], search_after: [25.0], size: 2 });
    expect(ids(page)).toEqual(['4', '3']);
  });

  it('ES\'s errors: type and script required, unknown types, script failures', async () => {
    expectErrorType(await search({ sort: { _script: { script: '1' } } }), 400, 'illegal_argument_exception', 'Required [type]');
    expectErrorType(await search({ sort: { _script: { type: 'number' } } }), 400, 'illegal_argument_exception', 'Required [script]');
    expectErrorType(await search({ sort: { _script: { type: 'nope', script: '1' } } }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ sort: { _script: { type: 'number', script: '1', x: 1 } } }), 400, 'x_content_parse_exception', /\[_script\] unknown field \[x\]/);
    const runtime = await search({ sort: { _script: { type: 'number', script: "doc['likes'].value" } } });
    expect(runtime.status).toBe(400);
    expect(JSON.stringify(runtime.body)).toContain('A document doesn\'t have a value for a field!');
    const topHits = await search({ size: 0, aggs: { top: { top_hits: { sort: { _script: { type: 'number', script: '_score' } } } } } });
    expect(topHits.status).toBe(400);
    expect(JSON.stringify(topHits.body)).toContain('[_script] sorts in [top_hits] are not supported by this server yet');
    const wrongType = await search({ sort: { _script: { type: 'string', script: '1 + 1' } } });
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(wrongType.body)).toContain('Cannot cast from [int] to [java.lang.String].');
  });
});
