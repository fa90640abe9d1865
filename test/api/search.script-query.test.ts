/**
 * The `script` query (ES ScriptQueryBuilder): documents a boolean filter script accepts, scored
 * `boost`; in a bool it runs only on the documents the other clauses propose (Lucene's two-phase
 * iteration), so a script that would fail on other documents does not fail the search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, queryRunner, scores, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { likes: 10, tag: 'a' }],
  ['2', { likes: 100, tag: 'b' }],
  ['3', { likes: 1, tag: 'a' }],
  ['4', { tag: 'c' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['sq', 1], ['sq3', 3]] as const) {
    await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: { properties: { likes: { type: 'long' }, tag: { type: 'keyword' } } } });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search, q } = queryRunner(() => t, 'sq');

async function both(query: unknown): Promise<Record<string, number>> {
  const one = scores(await q(query, 'sq'));
  expect(scores(await q(query, 'sq3'))).toEqual(one);
  return one;
}

describe('script query', () => {
  it('keeps the documents the script accepts, scored boost (0 as a filter)', async () => {
    const script = { source: "doc['likes'].size() > 0 && doc['likes'].value >= params.min", params: { min: 10 } };
    expect(await both({ script: { script, boost: 2 } })).toEqual({ 1: 2, 2: 2 });
    expect(await both({ bool: { filter: { script: { script } } } })).toEqual({ 1: 0, 2: 0 });
    expect(await both({ bool: { must_not: { script: { script } } } })).toEqual({ 3: 1, 4: 1 });
  });

  it('runs only on the documents the other clauses of a bool propose', async () => {
    // Document 4 has no likes: the script would fail there, but the term clause never proposes it.
    const failsOn4 = { script: { script: "doc['likes'].value > 5" } };
    expect(await both({ bool: { filter: [{ terms: { tag: ['a', 'b'] } }, failsOn4] } })).toEqual({ 1: 0, 2: 0 });
    expect(await both({ bool: { filter: { terms: { tag: ['a', 'b'] } }, must_not: failsOn4 } })).toEqual({ 3: 0 });
    expect(await both({ constant_score: { filter: { bool: { filter: [{ term: { tag: 'a' } }, failsOn4] } } } })).toEqual({ 1: 1 });
    const alone = await search({ query: failsOn4 });
    expect(alone.status).toBe(400);
    expect(alone.body.error.root_cause[0]).toMatchObject({ type: 'script_exception', reason: 'runtime error' });
  });

  it('ES\'s errors: a script that is no boolean, no script, unknown members', async () => {
    const notBoolean = await search({ query: { script: { script: '1 + 1' } } });
    expectErrorType(notBoolean, 400, 'search_phase_execution_exception');
    expect(notBoolean.body.error.failed_shards[0].reason.caused_by.caused_by).toEqual({ type: 'class_cast_exception', reason: 'Cannot cast from [int] to [boolean].' });
    // A def value (a doc value's size) is cast when the script runs.
    const defValue = await search({ query: { script: { script: "doc['likes'].size()" } } });
    expect(defValue.body.error.failed_shards[0].reason.caused_by).toEqual({ type: 'class_cast_exception', reason: 'cannot implicitly cast def [int] to boolean' });
    const score = await search({ query: { script: { script: '_score > 1' } } });
    expect(score.body.error.failed_shards[0].reason.caused_by.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'cannot resolve symbol [_score]' });
    expectErrorType(await search({ query: { script: {} } }), 400, 'parsing_exception', 'script must be provided with a [script] filter');
    expectErrorType(await search({ query: { script: { script: 'true', x: 1 } } }), 400, 'parsing_exception', '[script] query does not support [x]');
  });
});
