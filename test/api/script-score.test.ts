/**
 * The `script_score` query with the Painless subset:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-script-score-query.html
 * Expected scores are computed here as ES computes them (the script's double cast to float, times
 * the boost), on a 1-shard and a 3-shard index, which must agree. Errors are ES's script_exception
 * shapes: compile errors under the shard's query_shard_exception, runtime errors as the shard's failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float32ToJson } from '../../src/common/float-json.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, ids, queryRunner, scores, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'fox quick', likes: 10, price: 20.5, published: '2024-01-10', tag: 'a', ok: true }],
  ['2', { title: 'fox', likes: 100, price: 25, published: '2024-01-01', tag: 'b', ok: false }],
  ['3', { title: 'fox fox', likes: 1, price: 40, published: '2023-12-01T06:00:00Z', tag: 'a' }],
  ['4', { title: 'fox', price: 30, tag: 'b' }],
];
const LIKES: Record<string, number> = { 1: 10, 2: 100, 3: 1 };
const PRICE: Record<string, number> = { 1: 20.5, 2: 25, 3: 40, 4: 30 };
const MAPPINGS = {
  properties: {
    title: { type: 'text' }, likes: { type: 'integer' }, price: { type: 'double' }, published: { type: 'date' }, tag: { type: 'keyword' }, ok: { type: 'boolean' },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['shop', 1], ['shop3', 3]] as const) {
    await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search, q } = queryRunner(() => t, 'shop');
const HAS_LIKES = { exists: { field: 'likes' } };

/** Scores by id of a script_score query, identical on the 1-shard and the 3-shard index. */
async function ss(body: Record<string, unknown>): Promise<Record<string, number>> {
  const one = scores(await q({ script_score: body }, 'shop'));
  expect(scores(await q({ script_score: body }, 'shop3'))).toEqual(one);
  return one;
}

/** The expected scores: `f` of each listed document, cast to float as ScriptScoreQuery does (as JSON renders a float). */
function expected(ids: readonly string[], f: (id: string) => number): Record<string, number> {
  return Object.fromEntries(ids.map((id) => [id, Number(float32ToJson(Math.fround(f(id))))]));
}

describe('script_score', () => {
  it('scores with _score and doc values: the sub-query score times a field, in double then float', async () => {
    const match = scores(await q({ match: { title: 'fox' } }));
    const s = await ss({ query: { bool: { must: { match: { title: 'fox' } }, filter: HAS_LIKES } }, script: { source: "_score * doc['likes'].value" } });
    expect(s).toEqual(expected(['1', '2', '3'], (id) => match[id] * LIKES[id]));
    // The ranking follows the script.
    expect(ids(await q({ script_score: { query: { match: { title: 'fox' } }, script: "doc['price'].value" } }))).toEqual(['3', '4', '2', '1']);
  });

  it('Painless types: long division of a long field, params as their JSON types, Math in double', async () => {
    expect(await ss({ query: HAS_LIKES, script: "doc['likes'].value / 3" })).toEqual({ 1: 3, 2: 33, 3: 0 });
    expect(await ss({ query: HAS_LIKES, script: { source: "doc['likes'].value / params.d", params: { d: 4.0 + 0.5 } } }))
      .toEqual(expected(['1', '2', '3'], (id) => LIKES[id] / 4.5));
    expect(await ss({ query: HAS_LIKES, script: { source: "Math.log(2 + doc['likes'].value) * params.w", params: { w: 1.5 } } }))
      .toEqual(expected(['1', '2', '3'], (id) => Math.log(2 + LIKES[id]) * 1.5));
    expect(await ss({ query: { match_all: {} }, script: "(int) doc['price'].value % 7 + Math.round(doc['price'].value)" }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => (Math.trunc(PRICE[id]) % 7) + Math.round(PRICE[id])));
  });

  it('dates as epoch millis, keywords as strings, booleans, size() and empty', async () => {
    const day = (d: string) => Math.trunc(Date.parse(d) / 86400000);
    expect(await ss({ query: { exists: { field: 'published' } }, script: "doc['published'].value.toInstant().toEpochMilli() / 86400000L - 19000" }))
      .toEqual({ 1: day('2024-01-10') - 19000, 2: day('2024-01-01') - 19000, 3: day('2023-12-01') - 19000 });
    expect(await ss({ query: { exists: { field: 'published' } }, script: "doc['published'].value.millis % 86400000 / 3600000.0" })).toEqual({ 1: 0, 2: 0, 3: 6 });
    expect(await ss({ query: { match_all: {} }, script: "doc['tag'].value == 'a' ? 2 : 1" })).toEqual({ 1: 2, 2: 1, 3: 2, 4: 1 });
    expect(await ss({ query: { exists: { field: 'published' } }, script: "doc['published'].value.getYear() - 2000 + doc['published'].value.getMonthValue() * 0.01 + doc['published'].value.getHour()" }))
      .toEqual(expected(['1', '2', '3'], (id) => ({ 1: 24 + 0.01, 2: 24 + 0.01, 3: 23 + 0.12 + 6 })[id]!));
    expect(await ss({ query: { match_all: {} }, script: "doc['tag'].value.equals('a') || doc.containsKey('nope') ? doc['tag'].value.length() + 1 : 0" })).toEqual({ 1: 2, 2: 0, 3: 2, 4: 0 });
    expect(await ss({ query: { match_all: {} }, script: "doc['ok'].size() > 0 && doc['ok'].value ? 5 : doc['ok'].empty ? 1 : 0" })).toEqual({ 1: 5, 2: 0, 3: 1, 4: 1 });
    expect(await ss({ query: { match_all: {} }, script: "doc['likes'].size() == 0 ? 0.5 : saturation(doc['likes'].value, 10)" }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => (LIKES[id] === undefined ? 0.5 : LIKES[id] / (10 + LIKES[id]))));
  });

  it("ES's script_score functions: sigmoid and the numeric decays", async () => {
    const gauss = (v: number) => Math.exp((0.5 * Math.max(0, Math.abs(v - 20) - 2) ** 2) / ((0.5 * 10 ** 2) / Math.log(0.5)));
    expect(await ss({ query: { match_all: {} }, script: { source: "decayNumericGauss(params.o, 10, 2, 0.5, doc['price'].value)", params: { o: 20 } } }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => gauss(PRICE[id])));
    const linear = (v: number) => Math.max(0, (20 - Math.max(0, Math.abs(v - 20))) / 20);
    expect(await ss({ query: { match_all: {} }, script: "decayNumericLinear(20, 10, 0, 0.5, doc['price'].value)" }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => linear(PRICE[id])));
    expect(await ss({ query: HAS_LIKES, script: "sigmoid(doc['likes'].value, 10, 2)" }))
      .toEqual(expected(['1', '2', '3'], (id) => LIKES[id] ** 2 / (10 ** 2 + LIKES[id] ** 2)));
  });

  it('never runs on a deleted document: an updated one without the field once does not fail', async () => {
    await t.request('PUT', '/upd', { settings: { number_of_shards: 1 }, mappings: MAPPINGS });
    await t.request('PUT', '/upd/_doc/x?refresh=true', { title: 'fox' });
    await t.request('PUT', '/upd/_doc/x?refresh=true', { title: 'fox', likes: 7 });
    for (const fn of [{ script_score: { query: { match_all: {} }, script: "doc['likes'].value" } }, { function_score: { script_score: { script: "doc['likes'].value" }, boost_mode: 'replace' } }]) {
      expect(scores(await q(fn, 'upd'))).toEqual({ x: 7 });
    }
  });

  it('boost multiplies the script\'s score and min_score drops what is under it', async () => {
    expect(await ss({ query: { match_all: {} }, script: "doc['price'].value", boost: 2, min_score: 50 })).toEqual({ 2: 50, 3: 80, 4: 60 });
    // In filter context it only matches: its sub-query's documents.
    const filtered = await q({ bool: { filter: { script_score: { query: { term: { tag: 'a' } }, script: '1' } } } });
    expect(scores(filtered)).toEqual({ 1: 0, 3: 0 });
  });

  it('randomScore is reproducible, in [0, 1), the same for the same field value, whatever the shard count', async () => {
    const byShards: Array<Record<string, number>> = [];
    for (const shards of [1, 3]) {
      await t.request('DELETE', '/rnd');
      await t.request('PUT', '/rnd', { settings: { number_of_shards: shards }, mappings: MAPPINGS });
      await seed(t, 'rnd', DOCS);
      const bySeed = scores(await q({ script_score: { query: { match_all: {} }, script: 'randomScore(7)' } }, 'rnd'));
      expect(Object.values(bySeed).every((v) => v >= 0 && v < 1)).toBe(true);
      const tagged = scores(await q({ script_score: { query: { match_all: {} }, script: { source: "randomScore(params.s, 'tag')", params: { s: 7 } } } }, 'rnd'));
      expect(tagged['1']).toBe(tagged['3']);
      expect(tagged['2']).toBe(tagged['4']);
      expect(tagged['1']).not.toBe(tagged['2']);
      byShards.push({ ...bySeed, ...Object.fromEntries(Object.entries(tagged).map(([k, v]) => [`tag${k}`, v])) });
    }
    expect(byShards[1]).toEqual(byShards[0]);
  });
});

describe('script_score with lang expression (Lucene expressions)', () => {
  const expr = (source: string, params: Record<string, unknown> = {}) => ({ source, lang: 'expression', params });

  it('doubles everywhere: doc values (0 without one), params by name, _score, functions, 1/0 for tests', async () => {
    const match = scores(await q({ match: { title: 'fox' } }));
    expect(await ss({ query: { match: { title: 'fox' } }, script: expr("_score * doc['likes'].value") }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => match[id] * (LIKES[id] ?? 0)));
    expect(await ss({ query: { match_all: {} }, script: expr("doc['likes'].empty ? 0.5 : ln(doc['likes'].value + 1) * factor", { factor: 2 }) }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => (LIKES[id] === undefined ? 0.5 : Math.log(LIKES[id] + 1) * 2)));
    expect(await ss({ query: { match_all: {} }, script: expr("(doc['price'] > 24 && doc['likes'].length == 1) + doc['likes'].value / 4 + max(1, 2)") }))
      .toEqual(expected(['1', '2', '3', '4'], (id) => (PRICE[id] > 24 && LIKES[id] !== undefined ? 1 : 0) + (LIKES[id] ?? 0) / 4 + 2));
  });

  it('compile errors as ExpressionScriptEngine reports them', async () => {
    const cause = async (source: string, params: Record<string, unknown> = {}) => {
      const res = await search({ query: { script_score: { query: { match_all: {} }, script: expr(source, params) } } });
      expectErrorType(res, 400, 'search_phase_execution_exception');
      const scriptException = res.body.error.failed_shards[0].reason.caused_by;
      expect(scriptException).toMatchObject({ type: 'script_exception', reason: 'compile error', script_stack: [source, '^---- HERE'], script: source, lang: 'expression' });
      return scriptException.caused_by;
    };
    expect(await cause('nope + 1')).toEqual({ type: 'parse_exception', reason: 'Unknown variable [nope]' });
    expect(await cause('s * 2', { s: 'x' })).toEqual({ type: 'parse_exception', reason: 'Parameter [s] must be a numeric type' });
    expect(await cause("doc['tag'].value")).toEqual({ type: 'parse_exception', reason: 'Field [tag] must be numeric, date, or geopoint' });
    expect(await cause("doc['nope'].value")).toEqual({ type: 'parse_exception', reason: 'Field [nope] does not exist in mappings' });
    expect(await cause('foo(1)')).toEqual({ type: 'parse_exception', reason: 'Unrecognized function call (foo).' });
  });
});

describe('script_score errors', () => {
  /** A shard failure's first reason, after checking the 400 search_phase_execution_exception around it. */
  async function shardFailure(body: Record<string, unknown>, index = 'shop') {
    const res = await search({ query: { script_score: body } }, index);
    expectErrorType(res, 400, 'search_phase_execution_exception', 'all shards failed');
    return { error: res.body.error, reason: res.body.error.failed_shards[0].reason };
  }

  it('a compile error: script_exception with the script stack, under query_shard_exception', async () => {
    const { error, reason } = await shardFailure({ query: { match_all: {} }, script: "doc['likes'].value + nope" });
    const scriptException = {
      type: 'script_exception', reason: 'compile error', script_stack: ["doc['likes'].value + nope", '                     ^---- HERE'],
      script: "doc['likes'].value + nope", lang: 'painless', position: { offset: 21, start: 0, end: 25 },
    };
    expect(error.root_cause).toEqual([scriptException]);
    expect(reason).toEqual({
      type: 'query_shard_exception', reason: 'failed to create query: compile error', index_uuid: expect.any(String), index: 'shop',
      caused_by: { ...scriptException, caused_by: { type: 'illegal_argument_exception', reason: 'cannot resolve symbol [nope]' } },
    });
    const cause = async (source: string) => (await shardFailure({ query: { match_all: {} }, script: source })).reason.caused_by.caused_by;
    expect(await cause('for (int i = 0; i < 10; i++) {}')).toEqual({ type: 'illegal_argument_exception', reason: '[for] is not supported by this server yet: a script is a single expression' });
    expect(await cause('1 / 0')).toEqual({ type: 'arithmetic_exception', reason: '/ by zero' });
    expect(await cause('return 1 +;')).toEqual({ type: 'illegal_argument_exception', reason: 'invalid sequence of tokens near [\';\'].' });
  });

  it('a runtime error: script_exception "runtime error" with the Java exception, for the shard whose document hits it', async () => {
    const scriptException = {
      type: 'script_exception', reason: 'runtime error', script_stack: ["doc['likes'].value * 2", '            ^---- HERE'],
      script: "doc['likes'].value * 2", lang: 'painless', position: { offset: 12, start: 0, end: 22 },
    };
    const missing = { type: 'illegal_state_exception', reason: 'A document doesn\'t have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!' };
    const { error, reason } = await shardFailure({ query: { match_all: {} }, script: "doc['likes'].value * 2" });
    expect(error.root_cause).toEqual([scriptException]);
    expect(reason).toEqual({ ...scriptException, caused_by: missing });
    // With 3 shards only the shard holding document 4 fails: partial results, as ES gives them.
    const partial = await search({ query: { script_score: { query: { match_all: {} }, script: "doc['likes'].value * 2" } } }, 'shop3');
    expect(partial.status).toBe(200);
    expect(partial.body._shards).toMatchObject({ total: 3, failed: 1 });
    expect(partial.body._shards.failures[0].reason).toEqual({ ...scriptException, caused_by: missing });
    expect(scores(partial)).toEqual(Object.fromEntries(ids(partial).map((id) => [id, LIKES[id] * 2])));
    const cause = async (source: string) => (await shardFailure({ query: { match_all: {} }, script: source })).reason.caused_by;
    expect(await cause("doc['nope'].value")).toEqual({ type: 'illegal_argument_exception', reason: 'No field found for [nope] in mapping' });
    expect(await cause("doc['tag'].value * 2")).toEqual({ type: 'class_cast_exception', reason: 'Cannot apply [*] operation to types [java.lang.String] and [java.lang.Integer].' });
    expect(await cause("doc['tag'].value")).toEqual({ type: 'class_cast_exception', reason: 'cannot implicitly cast def [java.lang.String] to double' });
  });

  it('division by zero: Java doubles give Infinity and NaN, integers an ArithmeticException', async () => {
    expect(await ss({ query: { match_all: {} }, script: "doc['price'].value / 0 > 1000 ? 1 : 0" })).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1 });
    const nan = await shardFailure({ query: { match_all: {} }, script: "(doc['price'].value - doc['price'].value) / 0.0" });
    expect(nan.reason).toEqual({ type: 'illegal_argument_exception', reason: expect.stringMatching(/^script_score script returned an invalid score \[NaN\] for doc \[\d+\]\. Must be a non-negative score!$/) });
    const source = "doc['likes'].value / (doc['likes'].value - doc['likes'].value)";
    const byZero = await shardFailure({ query: HAS_LIKES, script: source });
    expect(byZero.reason.caused_by).toEqual({ type: 'arithmetic_exception', reason: '/ by zero' });
    expect(byZero.reason.position).toEqual({ offset: 0, start: 0, end: source.length });
  });

  it('a negative score is refused, as ES refuses it', async () => {
    const { reason } = await shardFailure({ query: { match_all: {} }, script: "-doc['price'].value" });
    expect(reason).toEqual({ type: 'illegal_argument_exception', reason: expect.stringMatching(/^script_score script returned an invalid score \[-\d+\.\d+\] for doc \[\d+\]\. Must be a non-negative score!$/) });
  });

  it('languages, stored scripts and malformed script objects', async () => {
    const lang = await shardFailure({ query: { match_all: {} }, script: { source: '1', lang: 'python' } });
    expect(lang.reason).toMatchObject({ type: 'query_shard_exception', reason: 'failed to create query: script_lang not supported [python]', caused_by: { type: 'illegal_argument_exception' } });
    const stored = await search({ query: { script_score: { query: { match_all: {} }, script: { id: 'my-script' } } } });
    expectErrorType(stored, 400, 'x_content_parse_exception', /\[script_score\] failed to parse field \[script\]$/);
    expect(stored.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'stored scripts ([id]) are not supported by this server yet: give the script inline as [source]' });
    const both = await search({ query: { script_score: { query: { match_all: {} }, script: { source: '1', id: 'x' } } } });
    expect(both.body.error.caused_by.reason).toBe('must only use one of [source, id] when specifying a script');
    expectErrorType(await search({ query: { script_score: { query: { match_all: {} } } } }), 400, 'illegal_argument_exception', 'Required [script]');
    expectErrorType(await search({ query: { script_score: { script: '1' } } }), 400, 'illegal_argument_exception', 'Required [query]');
    expectErrorType(await search({ query: { script_score: { query: { match_all: {} }, script: '1', nope: 1 } } }), 400, 'x_content_parse_exception', /\[script_score\] unknown field \[nope\]$/);
    const unknownMember = await search({ query: { script_score: { query: { match_all: {} }, script: { source: '1', nope: 1 } } } });
    expect(unknownMember.body.error.caused_by.reason).toMatch(/\[script\] unknown field \[nope\]$/);
    expectErrorType(await search({ query: { script_score: { query: { match_all: {} }, script: { params: {} } } } }), 400, 'x_content_parse_exception');
  });

  it('hostile sources: past the size limit, nested too deep, long operator chains — a short prefix is quoted', async () => {
    const huge = `1${' + 1'.repeat(20000)}`;
    const tooBig = await search({ query: { script_score: { query: { match_all: {} }, script: huge } } });
    expectErrorType(tooBig, 400, 'search_phase_execution_exception');
    expect(tooBig.body.error.caused_by.caused_by).toEqual({
      type: 'illegal_argument_exception', reason: `exceeded max allowed inline script size in bytes [65535] with size [${huge.length}] for script [${huge.slice(0, 100)}...]`,
    });
    expect(JSON.stringify(tooBig.body).length).toBeLessThan(5000);
    for (const source of [`${'('.repeat(5000)}1${')'.repeat(5000)}`, `1${' + 1'.repeat(10000)}`, `${'- '.repeat(3000)}1`]) {
      const res = await search({ query: { script_score: { query: { match_all: {} }, script: source } } });
      expectErrorType(res, 400, 'search_phase_execution_exception');
      const scriptException = res.body.error.caused_by.caused_by;
      expect(scriptException.type).toBe('script_exception');
      expect(scriptException.script.length).toBeLessThanOrEqual(103);
      expect(JSON.stringify(res.body).length).toBeLessThan(5000);
    }
  });
});
