/**
 * `GET|POST /{index}/_explain/{id}` (search-explain.html): the explanation tree of a document's
 * score, whose `value` equals the `_score` a search gives the document — checked over 50 random
 * queries per scorer family (BM25 leaves and phrases, learned-sparse features, bool/dis_max
 * compounds), on two shards with several segments so statistics are index-wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound } from './es.js';

let t: TestApp;
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honey', 'kiwi', 'lemon', 'mango', 'nut', 'olive', 'pear', 'quince', 'rasp'];
const TAGS = ['red', 'green', 'blue'];
let seed = 42;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = <T>(xs: readonly T[]) => xs[rnd(xs.length)];
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');

beforeAll(async () => {
  t = await createTestApp({ threads: 1 });
  await t.request('PUT', '/fruit', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' }, tokens: { type: 'sparse_vector' } } },
  });
  // Three refreshes: several segments per shard.
  for (let batch = 0; batch < 3; batch++) {
    const lines: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      const id = batch * 60 + i;
      const tokens: Record<string, number> = {};
      for (let k = 0; k < 1 + rnd(5); k++) tokens[pick(WORDS)] = (1 + rnd(300)) / 100;
      lines.push({ index: { _id: String(id) } }, { title: words(1 + rnd(4)), body: words(3 + rnd(20)), tag: pick(TAGS), n: rnd(100), tokens });
    }
    expect((await t.bulk('/fruit/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
  }
});
afterAll(async () => t.close());

/** Searches, then explains every hit: each explanation's value must be the hit's _score. */
async function checkQuery(query: unknown): Promise<number> {
  const res = await t.request('POST', '/fruit/_search', { query, size: 5 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const hit of res.body.hits.hits) {
    const ex = await t.request('POST', `/fruit/_explain/${hit._id}`, { query });
    expect(ex.status).toBe(200);
    expect(ex.body.matched).toBe(true);
    expect(ex.body.explanation.value, `${JSON.stringify(query)} doc ${hit._id}`).toBe(hit._score);
  }
  return res.body.hits.hits.length;
}

function bm25Query(): unknown {
  switch (rnd(5)) {
    case 0: return { match: { body: words(1 + rnd(4)) } };
    case 1: return { match: { title: { query: words(2), operator: 'and' } } };
    case 2: return { multi_match: { query: words(2), fields: ['title^2', 'body'] } };
    case 3: return { match_phrase: { body: { query: words(2), slop: rnd(3) } } };
    default: return { term: { title: { value: pick(WORDS), boost: 1 + rnd(3) } } };
  }
}

function sparseQuery(): unknown {
  const query_vector: Record<string, number> = {};
  for (let k = 0; k < 1 + rnd(6); k++) query_vector[pick(WORDS)] = (1 + rnd(200)) / 100;
  return rnd(2) === 0 ? { sparse_vector: { field: 'tokens', query_vector } } : { sparse_vector: { field: 'tokens', query_vector, boost: 0.5 + rnd(4) / 2 } };
}

function boolQuery(): unknown {
  const clause = () => (rnd(3) === 0 ? sparseQuery() : bm25Query());
  const bool: Record<string, unknown> = {};
  if (rnd(2)) bool.must = [clause()];
  bool.should = Array.from({ length: 1 + rnd(3) }, clause);
  if (rnd(2)) bool.filter = [{ term: { tag: pick(TAGS) } }];
  if (rnd(3) === 0) bool.must_not = [{ range: { n: { lt: 20 } } }];
  if (rnd(4) === 0) return { dis_max: { queries: [{ bool }, clause()], tie_breaker: rnd(2) ? 0.3 : 0 } };
  if (rnd(5) === 0) return { constant_score: { filter: { match: { body: pick(WORDS) } }, boost: 2 } };
  return { bool };
}

describe('_explain value equals _score', () => {
  for (const [family, make] of [['BM25', bm25Query], ['sparse', sparseQuery], ['bool', boolQuery]] as const) {
    it(`over 50 random ${family} queries`, async () => {
      let hits = 0;
      for (let i = 0; i < 50; i++) hits += await checkQuery(make());
      expect(hits).toBeGreaterThan(100);
    });
  }
});

describe('_explain shapes and errors', () => {
  it('a term: Lucene BM25 explanation with idf and tf details', async () => {
    const res = await t.request('GET', '/fruit/_search', { query: { match: { title: 'apple' } }, size: 1 });
    const hit = res.body.hits.hits[0];
    const ex = await t.request('GET', `/fruit/_explain/${hit._id}`, { query: { match: { title: 'apple' } } });
    expect(ex.body._index).toBe('fruit');
    expect(ex.body._id).toBe(hit._id);
    const top = ex.body.explanation;
    expect(top.description).toMatch(/^weight\(title:apple in \d+\) \[PerFieldSimilarity\], result of:$/);
    const score = top.details[0];
    expect(score.description).toMatch(/^score\(freq=\d+\.0\), computed as boost \* idf \* tf from:$/);
    expect(score.details.map((d: any) => d.description)).toEqual([
      'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
      'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
    ]);
    const [n, N] = score.details[0].details.map((d: any) => d.value);
    expect(N).toBe(180);
    expect(n).toBe((await t.request('POST', '/fruit/_count', { query: { match: { title: 'apple' } } })).body.count);
    expect(score.details[1].details.map((d: any) => d.description)).toEqual([
      'freq, occurrences of term within document', 'k1, term saturation parameter', 'b, length normalization parameter',
      'dl, length of field (approximate)', 'avgdl, average length of field',
    ]);
  });

  it('a document the query does not match, a missing document, a missing index, no query', async () => {
    const miss = await t.request('GET', '/fruit/_explain/0', { query: { term: { tag: 'nope' } } });
    expect(miss.status).toBe(200);
    expect(miss.body).toMatchObject({ _index: 'fruit', _id: '0', matched: false, explanation: { value: 0 } });
    const gone = await t.request('GET', '/fruit/_explain/nope', { query: { match_all: {} } });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ _index: 'fruit', _id: 'nope', matched: false });
    expect((await t.request('GET', '/missing/_explain/1', { query: { match_all: {} } })).body).toEqual(indexNotFound('missing'));
    expectEsError(await t.request('GET', '/fruit/_explain/1'), 400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
    const q = await t.request('GET', '/fruit/_explain/1?q=title:apple');
    expect(q.status).toBe(200);
  });

  it('bool clauses: sum of the matching clauses, filters as required matches of 0', async () => {
    const query = { bool: { must: [{ match: { body: 'apple banana' } }], filter: [{ range: { n: { gte: 0 } } }] } };
    const res = await t.request('GET', '/fruit/_search', { query, size: 1 });
    const ex = await t.request('GET', `/fruit/_explain/${res.body.hits.hits[0]._id}`, { query });
    expect(ex.body.explanation.description).toBe('sum of:');
    const filter = ex.body.explanation.details.at(-1);
    expect(filter).toMatchObject({ value: 0, description: 'match on required clause, product of:' });
    expect(filter.details[0]).toEqual({ value: 0, description: '# clause', details: [] });
    expect(filter.details[1]).toMatchObject({ value: 1, description: expect.stringMatching(/^n:\[0 TO /) });
  });
});

describe('explain: true in _search', () => {
  it('every hit carries _shard, _node and the _explanation _explain gives, whose value is its _score', async () => {
    for (const query of [bm25Query(), sparseQuery(), boolQuery(), { match: { body: 'apple banana' } }]) {
      const res = await t.request('POST', '/fruit/_search', { query, size: 4, explain: true, _source: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const hit of res.body.hits.hits) {
        expect(Object.keys(hit)).toEqual(['_shard', '_node', '_index', '_id', '_score', '_explanation']);
        expect(hit._shard).toMatch(/^\[fruit\]\[[01]\]$/);
        expect(hit._node).toEqual(expect.any(String));
        expect(hit._explanation.value, `${JSON.stringify(query)} doc ${hit._id}`).toBe(hit._score);
        const ex = await t.request('POST', `/fruit/_explain/${hit._id}`, { query });
        expect(hit._explanation).toEqual(ex.body.explanation);
      }
    }
  });

  it('?explain=true, one-shard indices, and sorted hits keep `sort` before `_explanation`', async () => {
    await t.request('PUT', '/fruit1', { settings: { number_of_shards: 1 } });
    await t.request('PUT', '/fruit1/_doc/a?refresh=true', { body: 'apple apple pear' });
    const res = await t.request('POST', '/fruit1/_search?explain=true', { query: { match: { body: 'apple' } }, sort: ['_score', '_doc'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [hit] = res.body.hits.hits;
    expect(Object.keys(hit)).toEqual(['_shard', '_node', '_index', '_id', '_score', '_source', 'sort', '_explanation']);
    expect(hit._shard).toBe('[fruit1][0]');
    expect(hit._explanation.value).toBe(hit._score);
    const plain = await t.request('POST', '/fruit1/_search', { query: { match: { body: 'apple' } } });
    expect(Object.keys(plain.body.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source']);
  });

  it('explains in _msearch items too; retrievers are refused', async () => {
    const res = await t.request('POST', '/fruit/_msearch', '{}\n{"query":{"match":{"title":"apple"}},"size":1,"explain":true}\n');
    expect(res.body.responses[0].hits.hits[0]._explanation.value).toBe(res.body.responses[0].hits.hits[0]._score);
    const rrf = await t.request('POST', '/fruit/_search', {
      explain: true, retriever: { rrf: { retrievers: [{ standard: { query: { match: { title: 'apple' } } } }, { standard: { query: { match: { body: 'apple' } } } }] } },
    });
    expectEsError(rrf, 400, 'illegal_argument_exception', '[explain] is not supported by this server yet for retrievers and [rank]');
  });
});
