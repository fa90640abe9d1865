/**
 * `indices_boost` (search-your-data/search-multiple-indices.html#index-boost): each hit's score is
 * float(score × its index's boost), the first entry naming an index winning; entries are index
 * names, aliases or wildcards resolved as the search's targets are; a name matching nothing is
 * index_not_found_exception. Scores, order and max_score do not depend on the number of shards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { ids, indexNotFound, scores } from './es.js';

let t: TestApp;
const f = Math.fround;

const WORDS = ['quick fox', 'lazy dog', 'quick brown fox jumps', 'fox', 'dog and fox', 'quick quick dog'];

async function createPair(prefix: string, shards: number): Promise<void> {
  for (const side of ['a', 'b']) {
    const index = `${prefix}-${side}`;
    const res = await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' } } } });
    expect(res.status).toBe(200);
    const lines: unknown[] = [];
    WORDS.forEach((title, i) => lines.push({ index: { _id: `${side}${i}` } }, { title, tag: 'x', n: i }));
    expect((await t.bulk(`/${index}/_bulk`, lines, '?refresh=true')).body.errors).toBe(false);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  await createPair('one', 1);
  await createPair('three', 3);
  expect((await t.request('POST', '/_aliases', { actions: [{ add: { index: 'one-b', alias: 'one-b-alias' } }, { add: { index: 'three-b', alias: 'three-b-alias' } }] })).status).toBe(200);
});
afterAll(async () => t.close());

const search = (path: string, body: unknown): Promise<TestResponse> => t.request('POST', path, body);
const CONSTANT = { constant_score: { filter: { term: { tag: 'x' } } } };

describe('indices_boost: scores', () => {
  it('multiplies each hit\'s score by its index\'s boost; max_score is the boosted best', async () => {
    const res = await search('/one-a,one-b/_search', { query: CONSTANT, indices_boost: [{ 'one-a': 1.5 }], size: 20 });
    expect(res.status).toBe(200);
    expect(res.body.hits.max_score).toBe(1.5);
    expect(res.body.hits.total).toEqual({ value: 12, relation: 'eq' });
    const s = scores(res);
    for (let i = 0; i < WORDS.length; i++) {
      expect(s[`a${i}`]).toBe(1.5);
      expect(s[`b${i}`]).toBe(1);
    }
    // The boosted index ranks first; ties keep index then write order.
    expect(ids(res)).toEqual([...WORDS.map((_, i) => `a${i}`), ...WORDS.map((_, i) => `b${i}`)]);
    expect(res.body.hits.hits[0]).toMatchObject({ _index: 'one-a', _id: 'a0', _score: 1.5 });
  });

  it('boosts BM25 scores as float(score × boost), reordering the merged hits', async () => {
    const query = { match: { title: 'quick fox' } };
    const plain = await search('/one-*/_search', { query, size: 20 });
    const boosted = await search('/one-*/_search', { query, size: 20, indices_boost: [{ 'one-b': 2.5 }] });
    const before = scores(plain);
    const after = scores(boosted);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    // Rendered scores are float32s' shortest digits: read back as float32s they are exact.
    for (const [id, score] of Object.entries(before)) expect(f(after[id])).toBe(id.startsWith('b') ? f(f(score) * f(2.5)) : f(score));
    const expected = Object.entries(after).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([id]) => id);
    expect(ids(boosted).map((id) => after[id])).toEqual(expected.map((id) => after[id]));
    expect(boosted.body.hits.max_score).toBe(Math.max(...Object.values(after)));
    expect(ids(boosted)[0].startsWith('b')).toBe(true);
  });

  it('resolves aliases and wildcards; the first entry naming an index wins', async () => {
    const viaAlias = scores(await search('/one-*/_search', { query: CONSTANT, size: 20, indices_boost: [{ 'one-b-alias': 2 }] }));
    expect([viaAlias.a0, viaAlias.b0]).toEqual([1, 2]);
    const wildcardFirst = scores(await search('/one-*/_search', { query: CONSTANT, size: 20, indices_boost: [{ 'one-*': 3 }, { 'one-a': 5 }] }));
    expect([wildcardFirst.a0, wildcardFirst.b0]).toEqual([3, 3]);
    const nameFirst = scores(await search('/one-*/_search', { query: CONSTANT, size: 20, indices_boost: [{ 'one-a': 5 }, { 'one-*': 3 }] }));
    expect([nameFirst.a0, nameFirst.b0]).toEqual([5, 3]);
    // An entry for an index the search does not target changes nothing; nor does a wildcard matching nothing.
    const other = scores(await search('/one-a/_search', { query: CONSTANT, indices_boost: [{ 'one-b': 7 }, { 'nothing-*': 4 }] }));
    expect(other.a0).toBe(1);
  });

  it('applies to min_score, track_scores under a field sort, and _msearch items', async () => {
    const min = await search('/one-*/_search', { query: CONSTANT, size: 20, min_score: 1.2, indices_boost: [{ 'one-a': 1.5 }] });
    expect(min.body.hits.total.value).toBe(6);
    expect(ids(min).every((id) => id.startsWith('a'))).toBe(true);
    const sorted = await search('/one-*/_search', { query: CONSTANT, size: 2, sort: [{ n: 'desc' }], track_scores: true, indices_boost: [{ 'one-b': 4 }] });
    expect(sorted.body.hits.hits.map((h: any) => [h._id, h._score, h.sort])).toEqual([['a5', 1, [5]], ['b5', 4, [5]]]);
    expect(sorted.body.hits.max_score).toBe(4);
    const ndjson = [{ index: 'one-*' }, { query: CONSTANT, size: 1, indices_boost: [{ 'one-b': 2 }] }].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const multi = await t.request('POST', '/_msearch', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(multi.body.responses[0].hits.hits[0]).toMatchObject({ _id: 'b0', _score: 2 });
  });

  it('explains a boosted score as a function score, the explanation\'s value being the _score', async () => {
    for (const path of ['/one-*/_search', '/three-*/_search']) {
      const res = await search(path, { query: { match: { title: 'fox' } }, explain: true, size: 20, indices_boost: [{ '*-b': 1.5 }] });
      expect(res.status).toBe(200);
      for (const h of res.body.hits.hits) expect(h._explanation.value).toBe(h._score);
      const boosted = res.body.hits.hits.find((h: any) => h._id.startsWith('b'));
      expect(boosted._explanation.description).toBe('function score, score mode [first], boost mode [multiply]');
      expect(f(boosted._explanation.value)).toBe(f(f(boosted._explanation.details[0].value) * 1.5));
    }
  });

  it('gives the same hits and scores with 1 shard and with 3', async () => {
    for (const query of [{ match: { title: 'quick fox' } }, { match: { title: 'dog' } }, CONSTANT]) {
      const one = await search('/one-*/_search', { query, size: 20, indices_boost: [{ 'one-b-alias': 1.75 }, { 'one-*': 0.5 }] });
      const three = await search('/three-*/_search', { query, size: 20, indices_boost: [{ 'three-b-alias': 1.75 }, { 'three-*': 0.5 }] });
      expect(three.body._shards.total).toBe(6);
      expect(three.body.hits.hits.map((h: any) => [h._id, h._score])).toEqual(one.body.hits.hits.map((h: any) => [h._id, h._score]));
      expect(three.body.hits.max_score).toBe(one.body.hits.max_score);
    }
  });

  it('boosts the hits of a scroll and of a point in time', async () => {
    const scroll = await search('/one-*/_search?scroll=1m', { query: CONSTANT, size: 3, indices_boost: [{ 'one-b': 2 }] });
    expect(scroll.body.hits.hits.map((h: any) => [h._id, h._score])).toEqual([['b0', 2], ['b1', 2], ['b2', 2]]);
    await t.request('DELETE', '/_search/scroll', { scroll_id: scroll.body._scroll_id });
    const pit = (await t.request('POST', '/one-*/_pit?keep_alive=1m')).body.id;
    const res = await search('/_search', { query: CONSTANT, size: 1, pit: { id: pit }, indices_boost: [{ 'one-b': 2 }] });
    expect(res.body.hits.hits[0]).toMatchObject({ _id: 'b0', _score: 2 });
    await t.request('DELETE', '/_pit', { id: pit });
  });
});

describe('indices_boost: errors and hostile input', () => {
  it('an entry naming no index is index_not_found_exception, unless ignore_unavailable', async () => {
    const res = await search('/one-*/_search', { indices_boost: [{ 'one-a': 2 }, { missing: 2 }] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
    const ignored = await search('/one-*/_search?ignore_unavailable=true', { query: CONSTANT, indices_boost: [{ missing: 2 }, { 'one-a': 3 }] });
    expect(ignored.status).toBe(200);
    expect(ignored.body.hits.max_score).toBe(3);
  });

  it('refuses malformed entries with ES\'s parsing errors', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ 'one-a': 1.5 }, 'parsing_exception', 'Unknown key for a START_OBJECT in [indices_boost].'],
      ['one-a', 'parsing_exception', 'Unknown key for a VALUE_STRING in [indices_boost].'],
      [[5], 'parsing_exception', 'Expected [START_OBJECT] in [indices_boost] but found [VALUE_NUMBER]'],
      [[{}], 'parsing_exception', 'Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]'],
      [[{ 'one-a': '1.5' }], 'parsing_exception', 'Expected [VALUE_NUMBER] in [indices_boost] but found [VALUE_STRING]'],
      [[{ 'one-a': null }], 'parsing_exception', 'Expected [VALUE_NUMBER] in [indices_boost] but found [VALUE_NULL]'],
      [[{ 'one-a': { x: 1 } }], 'parsing_exception', 'Expected [VALUE_NUMBER] in [indices_boost] but found [START_OBJECT]'],
      [[{ 'one-a': 1, 'one-b': 2 }], 'parsing_exception', 'Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]'],
      [[{ 'one-a': -1 }], 'illegal_argument_exception', '[indices_boost] boost must be a finite, non-negative float, got [-1] for [one-a]'],
      [[{ 'one-a': 1e300 }], 'illegal_argument_exception', '[indices_boost] boost must be a finite, non-negative float, got [1e+300] for [one-a]'],
    ];
    for (const [indicesBoost, type, reason] of cases) {
      const res = await search('/one-*/_search', { indices_boost: indicesBoost });
      expect(res.status, JSON.stringify(indicesBoost)).toBe(400);
      expect(res.body.error.type, JSON.stringify(indicesBoost)).toBe(type);
      expect(res.body.error.reason, JSON.stringify(indicesBoost)).toContain(reason);
    }
  });

  it('an empty array is no boost; hybrid searches refuse it as not built yet', async () => {
    expect(scores(await search('/one-a/_search', { query: CONSTANT, indices_boost: [] })).a0).toBe(1);
    const rrf = await search('/one-*/_search', {
      retriever: { rrf: { retrievers: [{ standard: { query: { match: { title: 'fox' } } } }, { standard: { query: { match: { title: 'dog' } } } }] } },
      indices_boost: [{ 'one-a': 2 }],
    });
    expect(rrf.status).toBe(400);
    expect(rrf.body.error.reason).toBe('[indices_boost] is not supported by this server yet');
  });
});
