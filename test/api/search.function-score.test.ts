/**
 * The `function_score` query:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-function-score-query.html
 * The sub-query's score combined (`boost_mode`) with the functions that apply to each document
 * (`score_mode`, `max_boost`): `weight`, `field_value_factor` (with its modifiers and `missing`) and
 * the `gauss`, `exp` and `linear` decays on numbers and dates; per-function filters; `min_score`.
 * The expected values follow ES's FunctionScoreQuery and its functions' formulas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, ids, queryRunner, scores, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'fox', likes: 10, price: 20, published: '2024-01-10', tag: 'a' }],
  ['2', { title: 'fox', likes: 100, price: 25, published: '2024-01-01', tag: 'b' }],
  ['3', { title: 'fox', likes: 1, price: 40, published: '2023-12-01', tag: 'a' }],
  ['4', { title: 'fox', price: 30, tag: 'b' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['shop', 1], ['shop3', 3]] as const) {
    await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { title: { type: 'text' }, likes: { type: 'integer' }, price: { type: 'double' }, published: { type: 'date' }, tag: { type: 'keyword' } } },
    });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search, q } = queryRunner(() => t, 'shop');

/** Scores by id on both indices (identical), for a function_score over match_all (score 1). */
async function fs(body: Record<string, unknown>): Promise<Record<string, number>> {
  const one = scores(await q({ function_score: body }, 'shop'));
  expect(scores(await q({ function_score: body }, 'shop3'))).toEqual(one);
  return one;
}

describe('function_score', () => {
  it('field_value_factor with a modifier, factor and missing, multiplied into the query score', async () => {
    const s = await fs({ field_value_factor: { field: 'likes', factor: 2, modifier: 'log1p', missing: 0 } });
    expect(s['2']).toBeCloseTo(Math.fround(Math.log10(201)), 5);
    expect(s['1']).toBeCloseTo(Math.fround(Math.log10(21)), 5);
    expect(s['4']).toBe(0);
    expectErrorType(await search({ query: { function_score: { field_value_factor: { field: 'likes' } } } }), 400, 'search_phase_execution_exception');
  });

  it('weights, filters and every score_mode; boost_mode, max_boost and min_score', async () => {
    const functions = [{ filter: { term: { tag: 'a' } }, weight: 2 }, { filter: { range: { price: { gte: 25 } } }, weight: 3 }];
    expect(await fs({ functions, score_mode: 'multiply' })).toEqual({ 1: 2, 2: 3, 3: 6, 4: 3 });
    expect(await fs({ functions, score_mode: 'sum' })).toEqual({ 1: 2, 2: 3, 3: 5, 4: 3 });
    // avg is weighted: Σ(value · weight) / Σ weight.
    expect(await fs({ functions, score_mode: 'avg' })).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1 });
    expect(await fs({ functions, score_mode: 'max' })).toEqual({ 1: 2, 2: 3, 3: 3, 4: 3 });
    expect(await fs({ functions, score_mode: 'min' })).toEqual({ 1: 2, 2: 3, 3: 2, 4: 3 });
    expect(await fs({ functions, score_mode: 'first' })).toEqual({ 1: 2, 2: 3, 3: 2, 4: 3 });
    expect(await fs({ functions, score_mode: 'sum', boost_mode: 'sum', max_boost: 4 })).toEqual({ 1: 3, 2: 4, 3: 5, 4: 4 });
    expect(await fs({ functions, score_mode: 'multiply', min_score: 3, boost: 2 })).toEqual({ 2: 6, 3: 12, 4: 6 });
    const match = await q({ function_score: { query: { match: { title: 'fox' } }, weight: 5, boost_mode: 'replace' } });
    expect(Object.values(scores(match))).toEqual([5, 5, 5, 5]);
  });

  it('decays numbers and dates by their distance from origin (gauss, exp, linear), 1 without a value', async () => {
    // price 20, 25, 40, 30 from origin 20 with offset 5: distances 0, 0, 15, 5; scale 10, decay 0.5.
    const gauss = await fs({ gauss: { price: { origin: 20, scale: 10, offset: 5, decay: 0.5 } } });
    const g = (d: number) => Math.fround(Math.exp((0.5 * d * d) / ((0.5 * 100) / Math.log(0.5))));
    expect(gauss['1']).toBe(1);
    expect(gauss['3']).toBeCloseTo(g(15), 6);
    expect(gauss['4']).toBeCloseTo(g(5), 6);
    const exp = await fs({ exp: { price: { origin: 20, scale: 10 } } });
    expect(exp['3']).toBeCloseTo(Math.fround(Math.exp((Math.log(0.5) / 10) * 20)), 6);
    const linear = await fs({ linear: { price: { origin: 20, scale: 10 } } });
    expect(linear['4']).toBeCloseTo(Math.fround((20 - 10) / 20), 6);
    expect(linear['3']).toBe(0);
    // Dates: 9 days from origin with a 9d scale is the decay itself; the doc without a date scores 1.
    const dates = await fs({ gauss: { published: { origin: '2024-01-10', scale: '9d', decay: 0.5 } } });
    expect(dates['1']).toBe(1);
    expect(dates['2']).toBeCloseTo(0.5, 6);
    expect(dates['4']).toBe(1);
  });

  it('ranks by the combined score and answers ES\'s errors', async () => {
    const ranked = await q({ function_score: { query: { match: { title: 'fox' } }, field_value_factor: { field: 'likes', missing: 0 } } });
    expect(ids(ranked).slice(0, 3)).toEqual(['2', '1', '3']);
    expectErrorType(await search({ query: { function_score: { score_mode: 'median' } } }), 400, 'parsing_exception', '[function_score] illegal score_mode [median]');
    // A long value is quoted as its first 100 characters (previewInput), not echoed whole.
    expectErrorType(await search({ query: { function_score: { boost_mode: 'x'.repeat(5000) } } }), 400, 'parsing_exception', `[function_score] illegal boost_mode [${'x'.repeat(100)}...]`);
    expectErrorType(await search({ query: { function_score: { nope: 1 } } }), 400, 'parsing_exception', '[function_score] query does not support [nope]');
    expectErrorType(await search({ query: { function_score: { functions: [{ weight: 1 }], weight: 2 } } }), 400, 'parsing_exception');
    expectErrorType(await search({ query: { function_score: { gauss: { price: { origin: 1, scale: 1, decay: 2 } } } } }), 400, 'illegal_argument_exception', 'decay must be in the range [0..1].');
    expect((await search({ query: { function_score: { gauss: { tag: { origin: 1, scale: 1 } } } } })).status).toBe(400);
    expect((await search({ query: { function_score: { gauss: { nope: { origin: 1, scale: 1 } } } } })).status).toBe(400);
    // A numeric field's origin, scale and offset are read as doubles: a string that is none is Java's
    // NumberFormatException (it used to become NaN and drop every document from the hits); numeric strings parse.
    for (const [params, bad] of [[{ origin: 'abc', scale: 5 }, 'abc'], [{ origin: 20, scale: 'x5' }, 'x5'], [{ origin: 20, scale: 5, offset: 'o' }, 'o']] as const) {
      for (const index of ['shop', 'shop3']) {
        const r = await search({ query: { function_score: { gauss: { price: params } } } }, index);
        expectErrorType(r, 400, 'search_phase_execution_exception');
        expect(r.body.error.caused_by).toMatchObject({ type: 'number_format_exception', reason: `For input string: "${bad}"` });
      }
    }
    expect(Object.keys(await fs({ gauss: { price: { origin: '20', scale: '5' } } }))).toHaveLength(4);
  });
});
