/**
 * Hybrid search with reciprocal rank fusion (es-api.md §3.11): the 8.9–8.13 `sub_searches` +
 * `rank: {rrf}` form (hits with `_rank`) and the 8.14+ `retriever` forms (`standard`, `rrf`, nested
 * rrf, `filter` on every child), ranks from globally merged lists (the same with 1 shard or 3),
 * `hits.total` over the union of the lists, and ES's validation errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectErrorType, expectEsError, ids } from './es.js';
import { HYBRID_DOCS, seedHybridIndices } from './hybrid-fixture.js';

let t: TestApp;

const DOCS = HYBRID_DOCS;

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seedHybridIndices(t, 'h1', 'h3');
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'h1', query = '') => t.request('POST', `/${index}/_search${query}`, body);
const LEXICAL = { match: { title: 'apple banana' } };
const SPARSE = { sparse_vector: { field: 'ml.tokens', query_vector: { fruit: 1, red: 0.5 } } };
const f32 = Math.fround;

/** RRF of the id orders of two plain searches, computed here from the formula (float32 sums). */
async function expectedFusion(queries: unknown[], window: number, k: number, index = 'h1'): Promise<Array<[string, number]>> {
  const score = new Map<string, number>();
  const first = new Map<string, number[]>();
  for (const [q, query] of queries.entries()) {
    const res = await search({ query, size: window }, index);
    ids(res).forEach((id, i) => {
      score.set(id, f32((score.get(id) ?? 0) + f32(1 / (k + i + 1))));
      const pos = first.get(id) ?? queries.map(() => -1);
      pos[q] = i;
      first.set(id, pos);
    });
  }
  return [...score].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) as Array<[string, number]>;
}

/** Ids and scores; JSON prints float32 scores shortest, so they are read back as float32. */
const hitPairs = (res: TestResponse) => res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, f32(h._score)]);

describe('sub_searches + rank.rrf (8.9–8.13)', () => {
  it('fuses the lists: _score is the RRF score, _rank the 1-based position', async () => {
    const res = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { window_size: 10, rank_constant: 5 } } });
    expect(res.status).toBe(200);
    const expected = await expectedFusion([LEXICAL, SPARSE], 10, 5);
    expect(hitPairs(res)).toEqual(expected.slice(0, 10));
    expect(res.body.hits.hits.map((h: { _rank: number }) => h._rank)).toEqual(expected.slice(0, 10).map((_, i) => i + 1));
    expect(res.body.hits.hits[0]._source).toEqual(DOCS.find(([id]) => id === expected[0][0])![1]);
    expect(f32(res.body.hits.max_score)).toBe(expected[0][1]);
  });

  it('matches the hand computation: doc 2 is 1st lexical (tf 1, shortest) and 1st sparse (3 + 0.5)', async () => {
    const res = await search({ sub_searches: [{ query: { match: { title: 'apple' } } }, { query: SPARSE }], rank: { rrf: {} }, size: 4 });
    // Lexical "apple" (avgdl 15/7): 2 (tf 1, len 1: 0.58·idf), 1 (tf 2, len 3: 0.56·idf), 4 (tf 1, len 2: 0.47·idf), 6.
    // Sparse: 2 (3 + 0.5), 3 (2), 1 (1), 4 (0.5 × 2 = 1, a tie with 1 kept in write order), 5 (0.5).
    // k = 60: 2 → 1/61 + 1/61; 1 → 1/62 + 1/63; 4 → 1/63 + 1/64; 3 → 1/62.
    expect(ids(res)).toEqual(['2', '1', '4', '3']);
    expect(hitPairs(res).map(([, s]: [string, number]) => s)).toEqual([
      f32(f32(1 / 61) + f32(1 / 61)), f32(f32(1 / 62) + f32(1 / 63)), f32(f32(1 / 63) + f32(1 / 64)), f32(1 / 62),
    ]);
  });

  it('counts hits.total over documents matching any sub-search', async () => {
    const res = await search({ sub_searches: [{ query: { match: { title: 'cherry' } } }, { query: { match: { title: 'durian' } } }], rank: { rrf: {} } });
    expect(res.body.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(ids(res).sort()).toEqual(['4', '5']);
  });

  it('pages with from over the fused list, _rank counting from', async () => {
    const all = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { window_size: 10 } } });
    const page = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { window_size: 10 } }, from: 2, size: 2 });
    expect(ids(page)).toEqual(ids(all).slice(2, 4));
    expect(page.body.hits.hits.map((h: { _rank: number }) => h._rank)).toEqual([3, 4]);
    const beyond = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: {} }, from: 50 });
    expect(beyond.status).toBe(200);
    expect(beyond.body.hits.hits).toEqual([]);
  });

  it('takes a window per list: a document below the window of every list is not fused', async () => {
    const res = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { rank_window_size: 2 } }, size: 2 });
    const expected = await expectedFusion([LEXICAL, SPARSE], 2, 60);
    expect(hitPairs(res)).toEqual(expected.slice(0, 2));
  });

  it('applies the request min_score and _source filtering to every list and hit', async () => {
    const res = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: {} }, min_score: 1.5, _source: ['tag'] });
    const lexical = await search({ query: LEXICAL, min_score: 1.5 });
    const sparse = await search({ query: SPARSE, min_score: 1.5 });
    expect(ids(res).sort()).toEqual([...new Set([...ids(lexical), ...ids(sparse)])].sort());
    expect(res.body.hits.hits[0]._source).toEqual({ tag: expect.any(String) });
  });
});

describe('retriever (8.14+)', () => {
  const rrf = (extra: Record<string, unknown> = {}) => ({
    retriever: { rrf: { retrievers: [{ standard: { query: LEXICAL } }, { standard: { query: SPARSE } }], rank_window_size: 10, rank_constant: 5, ...extra } },
  });

  it('gives the same ranking and scores as the sub_searches form, without _rank', async () => {
    const legacy = await search({ sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { rank_window_size: 10, rank_constant: 5 } } });
    const res = await search(rrf());
    expect(res.status).toBe(200);
    expect(hitPairs(res)).toEqual(hitPairs(legacy));
    expect(res.body.hits.hits.every((h: object) => !('_rank' in h))).toBe(true);
    expect(res.body.hits.total).toEqual(legacy.body.hits.total);
  });

  it('ranks from globally merged lists: the same hits and scores with 1 shard and with 3', async () => {
    for (const body of [rrf(), { ...rrf({ rank_window_size: 3 }), size: 3 }, { sub_searches: [{ query: LEXICAL }, { query: SPARSE }], rank: { rrf: { window_size: 2 } }, size: 2 }]) {
      const [one, three] = [await search(body, 'h1'), await search(body, 'h3')];
      expect(three.status).toBe(200);
      expect(hitPairs(three)).toEqual(hitPairs(one));
      expect(three.body.hits.total).toEqual(one.body.hits.total);
      expect(three.body._shards.total).toBe(3);
    }
  });

  it('cuts the fused list to rank_window_size: from beyond it is empty', async () => {
    const res = await search({ ...rrf({ rank_window_size: 3 }), size: 3, from: 3 });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toEqual([]);
  });

  it('applies an rrf filter to every child, and a standard filter to its own query', async () => {
    const filtered = await search(rrf({ filter: { term: { tag: 'a' } } }));
    const expectedA = (await expectedFusion([
      { bool: { must: [LEXICAL], filter: [{ term: { tag: 'a' } }] } }, { bool: { must: [SPARSE], filter: [{ term: { tag: 'a' } }] } },
    ], 10, 5));
    expect(hitPairs(filtered)).toEqual(expectedA);
    const own = await search({ retriever: { rrf: { retrievers: [{ standard: { query: LEXICAL, filter: { term: { tag: 'b' } } } }, { standard: { query: SPARSE } }] } } });
    expect(own.status).toBe(200);
    const lexicalB = ids(await search({ query: { bool: { must: [LEXICAL], filter: [{ term: { tag: 'b' } }] } } }));
    const sparse = ids(await search({ query: SPARSE }));
    expect(ids(own).sort()).toEqual([...new Set([...lexicalB, ...sparse])].sort());
  });

  it('applies a child min_score to that list only', async () => {
    const res = await search({ retriever: { rrf: { retrievers: [{ standard: { query: LEXICAL } }, { standard: { query: SPARSE, min_score: 2 } }] } } });
    const sparseKept = ids(await search({ query: SPARSE, min_score: 2 }));
    const lexical = ids(await search({ query: LEXICAL }));
    expect(ids(res).sort()).toEqual([...new Set([...lexical, ...sparseKept])].sort());
  });

  it('fuses a nested rrf retriever as one list of its parent', async () => {
    const inner = { rrf: { retrievers: [{ standard: { query: { match: { title: 'apple' } } } }, { standard: { query: SPARSE } }], rank_window_size: 10 } };
    const res = await search({ retriever: { rrf: { retrievers: [inner, { standard: { query: { match: { title: 'banana' } } } }], rank_window_size: 10 } } });
    expect(res.status).toBe(200);
    const innerRes = await search({ retriever: inner });
    const banana = ids(await search({ query: { match: { title: 'banana' } } }));
    const score = new Map<string, number>();
    for (const list of [ids(innerRes), banana]) list.forEach((id, i) => score.set(id, f32((score.get(id) ?? 0) + f32(1 / (61 + i)))));
    const expected = [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(ids(res)).toEqual(expected);
  });

  it('runs a top-level standard retriever as a plain query, with its filter, min_score and sort', async () => {
    const plain = await search({ query: { bool: { must: [LEXICAL], filter: [{ term: { tag: 'b' } }] } }, min_score: 0.1 });
    const res = await search({ retriever: { standard: { query: LEXICAL, filter: [{ term: { tag: 'b' } }], min_score: 0.1 } } });
    expect(hitPairs(res)).toEqual(hitPairs(plain));
    const sorted = await search({ retriever: { standard: { query: LEXICAL, sort: [{ tag: 'desc' }] } }, _source: false });
    expect(sorted.body.hits.hits[0].sort).toEqual(['b']);
    const matchAll = await search({ retriever: { standard: {} } });
    expect(matchAll.body.hits.total.value).toBe(DOCS.length);
  });

  it('returns no hits and a zero total when no list matches', async () => {
    const res = await search({ retriever: { rrf: { retrievers: [{ standard: { query: { match: { title: 'zzz' } } } }, { standard: { query: { term: { tag: 'zzz' } } } }] } } });
    expect(res.status).toBe(200);
    expect(res.body.hits).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('omits hits.total when track_total_hits is false', async () => {
    const res = await search({ ...rrf(), track_total_hits: false });
    expect(res.body.hits.total).toBeUndefined();
    expect(res.body.hits.hits.length).toBeGreaterThan(0);
  });
});

describe('validation errors', () => {
  const two = [{ query: LEXICAL }, { query: SPARSE }];
  const validation = (res: TestResponse, ...messages: string[]) =>
    expectEsError(res, 400, 'action_request_validation_exception', `Validation Failed: ${messages.map((m, i) => `${i + 1}: ${m};`).join('')}`);

  it('rejects a size above the window, naming the parameter as sent', async () => {
    validation(await search({ sub_searches: two, rank: { rrf: { window_size: 5 } }, size: 6 }), '[rank] requires [window_size: 5] be greater than or equal to [size: 6]');
    validation(await search({ sub_searches: two, rank: { rrf: {} }, size: 20 }), '[rank] requires [rank_window_size: 10] be greater than or equal to [size: 20]');
    validation(await search({ sub_searches: two, rank: { rrf: {} } }, 'h1', '?size=11'), '[rank] requires [rank_window_size: 10] be greater than or equal to [size: 11]');
    validation(await search({ retriever: { rrf: { retrievers: two.map((s) => ({ standard: s })), rank_window_size: 5 } }, size: 6 }),
      '[rrf] requires [rank_window_size: 5] be greater than or equal to [size: 6]');
  });

  it('rejects size 0, fewer than two result sets and sort, listing every failure', async () => {
    validation(await search({ query: LEXICAL, rank: { rrf: {} }, size: 0, sort: ['tag'] }),
      '[rank] requires [size] greater than [0]',
      '[rank] requires a minimum of [2] result sets using a combination of sub searches and/or knn searches',
      '[rank] cannot be used with [sort]');
    validation(await search({ sub_searches: two, rank: { rrf: {} }, highlight: { fields: { title: {} } }, collapse: { field: 'tag' } }),
      '[rank] cannot be used with [collapse]', '[rank] cannot be used with [highlighter]');
    validation(await search({ sub_searches: two }), '[sub_searches] requires [rank]');
  });

  it('rejects rank_constant below 1 as the rrf parser does', async () => {
    const res = await search({ sub_searches: two, rank: { rrf: { rank_constant: 0 } } });
    expectErrorType(res, 400, 'x_content_parse_exception', 'Failed to build [rrf] after last required field arrived');
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: '[rank_constant] must be greater or equal to [1] for [rrf]' });
    const r2 = await search({ retriever: { rrf: { retrievers: two.map((s) => ({ standard: s })), rank_constant: -3 } } });
    expect(r2.body.error.caused_by.reason).toBe('[rank_constant] must be greater or equal to [1] for [rrf]');
  });

  it('rejects combining a retriever with members it sets itself', async () => {
    const r = { rrf: { retrievers: two.map((s) => ({ standard: s })) } };
    expectEsError(await search({ retriever: r, query: LEXICAL }), 400, 'illegal_argument_exception', 'cannot specify [retriever] and [query]');
    expectEsError(await search({ min_score: 2, query: LEXICAL, retriever: r, terminate_after: 1 }), 400, 'illegal_argument_exception',
      'cannot specify [retriever] and [query, terminate_after, min_score]');
    expectEsError(await search({ retriever: r, sort: ['tag'] }), 400, 'illegal_argument_exception', 'cannot specify [retriever] and [sort]');
    expectEsError(await search({ retriever: r, rank: { rrf: {} } }), 400, 'illegal_argument_exception', 'cannot specify [retriever] and [rank]');
    expectEsError(await search({ query: LEXICAL, sub_searches: two }), 400, 'illegal_argument_exception', 'cannot specify field [sub_searches] and field [query]');
  });

  it('rejects options children of compound retrievers cannot take', async () => {
    const res = await search({ retriever: { rrf: { retrievers: [{ standard: { query: LEXICAL, terminate_after: 3 } }, { standard: { query: SPARSE } }] } } });
    expectEsError(res, 400, 'illegal_argument_exception', '[terminate_after] cannot be used in children of compound retrievers');
  });

  it('answers malformed retrievers with ES parse errors, never a crash', async () => {
    expectErrorType(await search({ retriever: { nope: {} } }), 400, 'parsing_exception', 'unknown retriever [nope]');
    expectErrorType(await search({ retriever: {} }), 400, 'parsing_exception', 'retriever malformed, empty clause found');
    expectErrorType(await search({ retriever: { standard: 3 } }), 400, 'parsing_exception', '[standard] retriever malformed, no [START_OBJECT] after retriever name');
    expectErrorType(await search({ retriever: { standard: {}, rrf: {} } }), 400, 'parsing_exception', '[standard] malformed retriever, expected [END_OBJECT] but found [FIELD_NAME]');
    expectErrorType(await search({ retriever: { standard: { qery: {} } } }), 400, 'x_content_parse_exception', /\[standard\] unknown field \[qery\]$/);
    expectErrorType(await search({ retriever: { rrf: { retrievers: 'x' } } }), 400, 'x_content_parse_exception', /\[rrf\] retrievers doesn't support values of type: VALUE_STRING$/);
    expectErrorType(await search({ retriever: { rrf: { retrievers: [{ standard: {} }], rank_window_size: 'big' } } }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ retriever: { rrf: { retrievers: [{ standard: { query: { nope: {} } } }] } } }), 400, 'parsing_exception', 'unknown query [nope]');
    expectErrorType(await search({ retriever: { rrf: { retrievers: [[1]] } } }), 400, 'parsing_exception', 'retriever malformed, must start with [START_OBJECT]');
    expectErrorType(await search({ rank: { rrf: { window_size: 1e12 } }, sub_searches: two }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ rank: { foo: {} }, sub_searches: two }), 400, 'named_object_not_found_exception');
    expectErrorType(await search({ rank: { rrf: { foo: 1 } }, sub_searches: two }), 400, 'x_content_parse_exception', /\[rrf\] unknown field \[foo\]$/);
    expectErrorType(await search({ sub_searches: ['x'], rank: { rrf: {} } }), 400, 'x_content_parse_exception', /malformed query within the \[sub_searches\] field; found VALUE_STRING$/);
    let deep: unknown = { standard: {} };
    for (let i = 0; i < 200; i++) deep = { rrf: { retrievers: [deep] } };
    expectErrorType(await search({ retriever: deep }), 400, 'illegal_argument_exception');
  });

  it('bounds each list by index.max_result_window', async () => {
    const res = await search({ sub_searches: two, rank: { rrf: { window_size: 20_000 } } });
    expectErrorType(res, 400, 'search_phase_execution_exception', 'all shards failed');
    expect(res.body.error.root_cause[0].reason).toMatch(/^Result window is too large, from \+ size must be less than or equal to: \[10000\] but was \[20000\]/);
  });

  it('keeps post_filter rejected as not implemented yet', async () => {
    expectEsError(await search({ sub_searches: two, rank: { rrf: {} }, post_filter: { term: { tag: 'a' } } }), 400, 'illegal_argument_exception',
      '[post_filter] is not supported by this server yet');
  });
});

describe('aggregations with RRF', () => {
  // Union of the lists' matches: "cherry" → 4; sparse `red` → 2, 4. Not the fused page (size 1) nor the windows.
  const lists = [{ match: { title: 'cherry' } }, { sparse_vector: { field: 'ml.tokens', query_vector: { red: 1 } } }];
  const aggs = { tags: { terms: { field: 'tag' } }, n: { value_count: { field: 'tag' } } };
  const expected = {
    tags: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'b', doc_count: 2 }] },
    n: { value: 2 },
  };

  it('aggregates every document matching any list, in both forms and with 1 or 3 shards', async () => {
    for (const index of ['h1', 'h3']) {
      const legacy = await search({ sub_searches: lists.map((query) => ({ query })), rank: { rrf: { window_size: 1 } }, size: 1, aggs }, index);
      const retriever = await search({
        retriever: { rrf: { retrievers: lists.map((query) => ({ standard: { query } })), rank_window_size: 1 } }, size: 1, aggregations: aggs,
      }, index);
      for (const res of [legacy, retriever]) {
        expect(res.status).toBe(200);
        expect(res.body.hits.hits).toHaveLength(1);
        expect(res.body.hits.total).toEqual({ value: 2, relation: 'eq' });
        expect(res.body.aggregations).toEqual(expected);
      }
    }
  });

  it('aggregates with track_total_hits false, and over each child filter', async () => {
    const res = await search({
      retriever: { rrf: { retrievers: [{ standard: { query: { match: { title: 'apple' } } } }, { standard: { query: SPARSE } }], filter: { term: { tag: 'a' } } } },
      track_total_hits: false, aggs: { tags: { terms: { field: 'tag' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.hits.total).toBeUndefined();
    // apple or fruit/red, tag a: 1, 3, 5.
    expect(res.body.aggregations.tags.buckets).toEqual([{ key: 'a', doc_count: 3 }]);
  });

  it('rejects aggregations on text fields as a plain search does', async () => {
    const res = await search({ sub_searches: lists.map((query) => ({ query })), rank: { rrf: {} }, aggs: { t: { terms: { field: 'title' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(res.body.error.root_cause[0].reason).toMatch(/^Fielddata is disabled on \[title\]/);
  });
});

describe('with a model: text_expansion in a list', () => {
  it('encodes the model text once on the coordinator and fuses like the same tokens given inline', async () => {
    const model = '.sparse_model_2';
    expect((await t.request('PUT', `/_ml/trained_models/${model}`, { input: { field_names: ['text_field'] } })).status).toBe(200);
    expect((await t.request('POST', `/_ml/trained_models/${model}/deployment/_start?wait_for=started`)).status).toBe(200);
    const text = 'red fruit';
    const inferred = await t.request('POST', `/_ml/trained_models/${model}/_infer`, { docs: [{ text_field: text }] });
    const tokens = inferred.body.inference_results[0].predicted_value as Record<string, number>;
    const te = { text_expansion: { 'ml.tokens': { model_id: model, model_text: text } } };
    const inline = { sparse_vector: { field: 'ml.tokens', query_vector: tokens } };
    const body = (q: unknown) => ({ retriever: { rrf: { retrievers: [{ standard: { query: LEXICAL } }, { standard: { query: q } }] } } });
    const [viaModel, viaTokens, sharded] = [await search(body(te)), await search(body(inline)), await search(body(te), 'h3')];
    expect(viaModel.status).toBe(200);
    expect(hitPairs(viaModel)).toEqual(hitPairs(viaTokens));
    expect(hitPairs(sharded)).toEqual(hitPairs(viaModel));
  });
});
