/**
 * `script_fields` (ES ScriptFieldsPhase): a script of the Painless subset evaluated for each
 * returned hit, its value in the hit's `fields` as ES renders Java values; 1 and 3 shards alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, queryRunner, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { likes: 10, price: 20.5, published: '2024-01-10', tag: 'a' }],
  ['2', { likes: 100, price: 25, tag: 'b' }],
  ['3', { price: 40 }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['sf', 1], ['sf3', 3]] as const) {
    await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { likes: { type: 'long' }, price: { type: 'double' }, published: { type: 'date' }, tag: { type: 'keyword' } } },
    });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search } = queryRunner(() => t, 'sf');

/** Each hit's `fields` by id, identical on 1 and 3 shards. */
async function fieldsOf(scriptFields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const index of ['sf', 'sf3']) {
    const res = await search({ query: { match_all: {} }, sort: [{ price: 'asc' }], script_fields: scriptFields, _source: false }, index);
    expect(res.status).toBe(200);
    out.push(Object.fromEntries(res.body.hits.hits.map((h: { _id: string; fields?: unknown }) => [h._id, h.fields])));
  }
  expect(out[1]).toEqual(out[0]);
  return out[0];
}

describe('script_fields', () => {
  it('renders each script\'s value per hit: longs, doubles as Java prints them, strings, booleans, dates, null', async () => {
    expect(await fieldsOf({
      twice: { script: { source: "doc['likes'].size() == 0 ? -1 : doc['likes'].value * 2" } },
      half: { script: { source: "doc['price'].value / params.d", params: { d: 2 } } },
      tag: { script: { source: "doc['tag'].size() == 0 ? null : doc['tag'].value + '!'" } },
      cheap: { script: { source: "doc['price'].value < 30" } },
      day: { script: { source: "doc['published'].size() == 0 ? 0 : doc['published'].value.millis / 86400000" } },
    })).toEqual({
      1: { twice: [20], half: [10.25], tag: ['a!'], cheap: [true], day: [Math.trunc(Date.parse('2024-01-10') / 86400000)] },
      2: { twice: [200], half: [12.5], tag: ['b!'], cheap: [true], day: [0] },
      3: { twice: [-1], half: [20], tag: [null], cheap: [false], day: [0] },
    });
    // A double is written as Java writes it: 20.0, not 20.
    const res = await search({ query: { ids: { values: ['3'] } }, script_fields: { p: { script: { source: "doc['price'].value" } } } });
    expect(res.text).toContain('"fields":{"p":[40.0]}');
  });

  it('ignore_failure drops a failing field; otherwise the runtime error fails the search', async () => {
    expect(await fieldsOf({ l: { script: { source: "doc['likes'].value" }, ignore_failure: true } })).toEqual({ 1: { l: [10] }, 2: { l: [100] }, 3: undefined });
    const res = await search({ query: { match_all: {} }, script_fields: { l: { script: { source: "doc['likes'].value" } } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('A document doesn\'t have a value for a field!');
  });

  it('ES\'s errors: _score is not a field script\'s, the script an object or a string, at most 32 fields', async () => {
    const score = await search({ query: { match_all: {} }, script_fields: { s: { script: { source: '_score' } } } });
    expect(score.status).toBe(400);
    expect(JSON.stringify(score.body)).toContain('cannot resolve symbol [_score]');
    expect(await fieldsOf({ s: { script: "doc['likes'].size()" } })).toEqual({ 1: { s: [1] }, 2: { s: [1] }, 3: { s: [0] } });
    expectErrorType(await search({ script_fields: { s: { script: ['1'] } } }), 400, 'parsing_exception', 'Unknown key for a START_ARRAY in [script].');
    expectErrorType(await search({ script_fields: { s: 1 } }), 400, 'parsing_exception', 'Expected [START_OBJECT] in [s] but found [VALUE_NUMBER]');
    const big = await search({ query: { match_all: {} }, script_fields: { s: { script: { source: 'params.s', params: { s: 'x'.repeat((1 << 20) + 1) } } } } });
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.body)).toContain(`script field [s] renders [${(1 << 20) + 3}] chars for one hit, more than [${1 << 20}]`);
    expect(JSON.stringify(big.body).length).toBeLessThan(5000);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, { script: { source: '1' } }]));
    const tooMany = await search({ query: { match_all: {} }, script_fields: many });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('Trying to retrieve too many script_fields. Must be less than or equal to: [32] but was [33].');
  });
});
