/**
 * `function_score`'s `script_score` and `random_score` functions (ES ScriptScoreFunction,
 * RandomScoreFunction). A script function's value is the script's double with `_score` the
 * sub-query's score; a random one is ES's salted murmur3 of a field's value, the same for a given
 * seed, field and index name whatever the number of shards.
 */
import murmur from 'murmurhash3js-revisited';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float32ToJson } from '../../src/common/float-json.js';
import { javaStringHash, mix32 } from '../../src/common/java-hash.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, queryRunner, scores, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'fox quick', likes: 10, tag: 'a' }],
  ['2', { title: 'fox', likes: 100, tag: 'b' }],
  ['3', { title: 'fox fox', likes: 1, tag: 'a' }],
  ['4', { title: 'fox', tag: 'b' }],
];
const MAPPINGS = { properties: { title: { type: 'text' }, likes: { type: 'long' }, tag: { type: 'keyword' } } };

async function createIndex(index: string, shards: number): Promise<void> {
  await t.request('DELETE', `/${index}`);
  await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
  await seed(t, index, DOCS);
}

beforeAll(async () => {
  t = await createTestApp();
  await createIndex('fs', 1);
  await createIndex('fs3', 3);
});
afterAll(async () => t.close());

const { search, q } = queryRunner(() => t, 'fs');
const asFloat = (x: number) => Number(float32ToJson(Math.fround(x)));

/** Scores of a function_score on the 1-shard and the 3-shard index (identical), by id. */
async function fs(body: Record<string, unknown>): Promise<Record<string, number>> {
  const one = scores(await q({ function_score: body }, 'fs'));
  expect(scores(await q({ function_score: body }, 'fs3'))).toEqual(one);
  return one;
}

describe('function_score script_score', () => {
  it('the script sees the sub-query score as _score; its value is weighted and combined like any function', async () => {
    const match = scores(await q({ match: { title: 'fox' } }));
    const replaced = await fs({ query: { match: { title: 'fox' } }, script_score: { script: { source: '_score * params.f', params: { f: 2 } } }, boost_mode: 'replace' });
    expect(replaced).toEqual(Object.fromEntries(Object.keys(match).map((id) => [id, asFloat(match[id] * 2)])));
    const functions = [
      { filter: { exists: { field: 'likes' } }, script_score: { script: "Math.log10(doc['likes'].value)" }, weight: 3 },
      { filter: { term: { tag: 'b' } }, weight: 2 },
    ];
    expect(await fs({ functions, score_mode: 'sum', boost_mode: 'replace' })).toEqual({ 1: 3, 2: 8, 3: 0, 4: 2 });
  });

  it('refuses negative values and reports script errors as ES does', async () => {
    const negative = await search({ query: { function_score: { script_score: { script: '-1' } } } });
    expectErrorType(negative, 400, 'search_phase_execution_exception');
    expect(negative.body.error.failed_shards[0].reason).toEqual({ type: 'illegal_argument_exception', reason: 'script score function must not produce negative scores, but got: [-1.0]' });
    const compile = await search({ query: { function_score: { script_score: { script: 'x +' } } } });
    expect(compile.body.error.root_cause[0]).toMatchObject({ type: 'script_exception', reason: 'compile error', script: 'x +' });
    expectErrorType(await search({ query: { function_score: { script_score: {} } } }), 400, 'parsing_exception', 'script_score requires \'script\' field');
    expectErrorType(await search({ query: { function_score: { script_score: { script: '1', x: 1 } } } }), 400, 'parsing_exception', 'script_score query does not support [x]');
  });
});

describe('function_score random_score', () => {
  /** RandomScoreFunction for a document whose field value is `text`, on shard 0 of `index`. */
  function expectedRandom(index: string, seedValue: number, text: string): number {
    const salted = mix32(seedValue ^ (javaStringHash(index) << 10));
    const hash = murmur.x86.hash32(new TextEncoder().encode(text), salted >>> 0) | 0;
    return asFloat((hash & 0x00ffffff) / (1 << 24));
  }

  it('hashes the field value with the salted seed: the same value scores the same, whatever the shard count', async () => {
    // Salted by the index name: fs and fs3 differ, so each is compared with itself at another shard count below.
    const rs = async (body: Record<string, unknown>) => scores(await q({ function_score: body }));
    const byTag = await rs({ random_score: { seed: 42, field: 'tag' }, boost_mode: 'replace' });
    expect(byTag).toEqual({ 1: expectedRandom('fs', 42, 'a'), 2: expectedRandom('fs', 42, 'b'), 3: expectedRandom('fs', 42, 'a'), 4: expectedRandom('fs', 42, 'b') });
    // Numbers hash as their text; a document without a value scores the salted seed's bits.
    const byLikes = await rs({ random_score: { seed: 42, field: 'likes' }, boost_mode: 'replace' });
    expect(byLikes['2']).toBe(expectedRandom('fs', 42, '100'));
    expect(byLikes['4']).toBe(asFloat((mix32(42 ^ (javaStringHash('fs') << 10)) & 0x00ffffff) / (1 << 24)));
    // The same index with 3 shards gives the same scores; `_seq_no` is the default field with a seed.
    const oneShard = await rs({ random_score: { seed: 'abc' }, boost_mode: 'replace' });
    await createIndex('fs', 3);
    expect(await rs({ random_score: { seed: 'abc' }, boost_mode: 'replace' })).toEqual(oneShard);
    expect(await rs({ random_score: { seed: 'abc', field: '_seq_no' }, boost_mode: 'replace' })).toEqual(oneShard);
    expect(await rs({ random_score: { seed: 42, field: 'tag' }, boost_mode: 'replace' })).toEqual(byTag);
    await createIndex('fs', 1);
    expect(Object.values(oneShard).every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(Object.values(oneShard)).size).toBe(4);
  });

  it('without a seed scores in [0, 1); ES\'s errors for bad seeds and fields', async () => {
    const s = scores(await q({ function_score: { random_score: {}, boost_mode: 'replace' } }));
    expect(Object.values(s).every((v) => v >= 0 && v < 1)).toBe(true);
    expectErrorType(await search({ query: { function_score: { random_score: { seed: 1.5 } } } }), 400, 'parsing_exception', 'random_score seed must be an int, long or string, not \'VALUE_NUMBER\'');
    expectErrorType(await search({ query: { function_score: { random_score: { nope: 1 } } } }), 400, 'parsing_exception', 'random_score query does not support [nope]');
    const unmapped = await search({ query: { function_score: { random_score: { seed: 1, field: 'nope' } } } });
    expect(unmapped.body.error.failed_shards[0].reason).toMatchObject({
      type: 'query_shard_exception', reason: 'failed to create query: Field [nope] is not mapped on [fs] and cannot be used as a source of random numbers.',
    });
    const id = await search({ query: { function_score: { random_score: { seed: 1, field: '_id' } } } });
    expect(id.body.error.failed_shards[0].reason.caused_by.reason).toMatch(/^Fielddata access on the _id field is disallowed/);
    const text = await search({ query: { function_score: { random_score: { seed: 1, field: 'title' } } } });
    expect(text.body.error.failed_shards[0].reason.caused_by.reason).toMatch(/^Fielddata is disabled on \[title\] in \[fs\]/);
  });
});
