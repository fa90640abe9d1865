/**
 * The linear retriever (ES 8.18+/9.x LinearRetrieverBuilder) and weighted rrf children (ES 9.2
 * RRFRetrieverComponent): scores computed here by hand from the children's own plain searches,
 * the same with 1 shard or 3, the multi-field query format, and ES's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError, expectErrorType, ids } from './es.js';
import { HYBRID_DOCS, seedHybridIndices } from './hybrid-fixture.js';

let t: TestApp;

const DOCS = HYBRID_DOCS;

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seedHybridIndices(t, 'l1', 'l3');
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'l1') => t.request('POST', `/${index}/_search`, body);
const LEXICAL = { match: { title: 'apple banana' } };
const SPARSE = { sparse_vector: { field: 'ml.tokens', query_vector: { fruit: 1, red: 0.5 } } };
const f32 = Math.fround;
const hitPairs = (res: TestResponse): Array<[string, number]> => res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, f32(h._score)]);

/** A plain search's (id, score) list: what a child retriever contributes. */
async function plain(query: unknown, size: number, index = 'l1'): Promise<Array<[string, number]>> {
  const res = await search({ query, size }, index);
  expect(res.status).toBe(200);
  return hitPairs(res);
}

/** ES's normalizers, written out independently of the server's code. */
function normalize(list: Array<[string, number]>, how: 'none' | 'minmax' | 'l2_norm'): Array<[string, number]> {
  const s = list.map(([, x]) => x);
  if (how === 'minmax') {
    const min = Math.min(...s);
    const max = Math.max(...s);
    return list.map(([id, x]) => [id, Math.abs(max - min) < 1e-6 ? min : f32(f32(x - min) / f32(max - min))]);
  }
  if (how === 'l2_norm') {
    const norm = Math.sqrt(s.reduce((a, x) => a + f32(x * x), 0));
    return list.map(([id, x]) => [id, f32(x / norm)]);
  }
  return list;
}

function combine(lists: Array<Array<[string, number]>>, weights: number[], window = 10): Array<[string, number]> {
  const total = new Map<string, number>();
  lists.forEach((l, q) => l.forEach(([id, x]) => total.set(id, f32((total.get(id) ?? 0) + f32(weights[q] * x)))));
  // Ties: write order, which is id order in this fixture.
  return [...total].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).slice(0, window);
}

describe('linear retriever', () => {
  it('sums weight × minmax-normalized scores of each child, the same with 1 shard or 3', async () => {
    const body = {
      retriever: {
        linear: {
          retrievers: [
            { retriever: { standard: { query: LEXICAL } }, weight: 2, normalizer: 'minmax' },
            { retriever: { standard: { query: SPARSE } }, weight: 1.5, normalizer: 'minmax' },
          ],
        },
      },
    };
    const expected = combine([normalize(await plain(LEXICAL, 10), 'minmax'), normalize(await plain(SPARSE, 10), 'minmax')], [2, 1.5]);
    const one = await search(body, 'l1');
    expect(one.status).toBe(200);
    expect(hitPairs(one)).toEqual(expected);
    expect(f32(one.body.hits.max_score)).toBe(expected[0][1]);
    // hits.total counts every document matching any child (ES's compound query).
    expect(one.body.hits.total).toEqual({ value: 6, relation: 'eq' });
    expect(one.body.hits.hits[0]._rank).toBeUndefined();
    const three = await search(body, 'l3');
    expect(hitPairs(three)).toEqual(hitPairs(one));
  });

  it('takes the top-level normalizer as the default for children without their own (ES 9.1+)', async () => {
    const body = {
      retriever: {
        linear: {
          normalizer: 'l2_norm',
          retrievers: [{ retriever: { standard: { query: LEXICAL } } }, { retriever: { standard: { query: SPARSE } }, normalizer: 'none' }],
        },
      },
    };
    const expected = combine([normalize(await plain(LEXICAL, 10), 'l2_norm'), await plain(SPARSE, 10)], [1, 1]);
    expect(hitPairs(await search(body))).toEqual(expected);
  });

  it('uses raw scores and weight 1 when neither a normalizer nor a weight is given', async () => {
    const body = { retriever: { linear: { retrievers: [{ retriever: { standard: { query: LEXICAL } } }, { retriever: { standard: { query: SPARSE } } }] } } };
    expect(hitPairs(await search(body))).toEqual(combine([await plain(LEXICAL, 10), await plain(SPARSE, 10)], [1, 1]));
  });

  it('fuses each child over its top rank_window_size, cuts to the window, then applies min_score', async () => {
    const children = [
      { retriever: { standard: { query: LEXICAL } }, normalizer: 'minmax' },
      { retriever: { standard: { query: SPARSE } }, normalizer: 'minmax' },
    ];
    const expected = combine([normalize(await plain(LEXICAL, 3), 'minmax'), normalize(await plain(SPARSE, 3), 'minmax')], [1, 1], 3);
    const windowed = await search({ retriever: { linear: { retrievers: children, rank_window_size: 3 } }, size: 3 });
    expect(hitPairs(windowed)).toEqual(expected);
    const bar = expected[1][1];
    const filtered = await search({ retriever: { linear: { retrievers: children, rank_window_size: 3, min_score: bar } }, size: 3 });
    expect(hitPairs(filtered)).toEqual(expected.filter(([, s]) => s >= bar));
  });

  it('nests: a linear child of an rrf retriever contributes its fused list, and filters reach every leaf', async () => {
    const inner = { linear: { retrievers: [{ retriever: { standard: { query: LEXICAL } }, normalizer: 'minmax' }] } };
    const res = await search({ retriever: { rrf: { retrievers: [inner, { standard: { query: SPARSE } }], filter: { term: { tag: 'a' } } } } });
    expect(res.status).toBe(200);
    expect(ids(res).every((id) => DOCS.find(([d]) => d === id)![1].tag === 'a')).toBe(true);
    expect(ids(res).sort()).toEqual(['1', '3', '5']);
  });

  it('runs the multi-field query format as one most_fields multi_match, normalized by the top-level normalizer', async () => {
    const res = await search({ retriever: { linear: { query: 'apple banana', fields: ['title^2', 'tag'], normalizer: 'minmax' } } });
    expect(res.status).toBe(200);
    const expected = normalize(await plain({ multi_match: { query: 'apple banana', type: 'most_fields', fields: ['title^2', 'tag'] } }, 10), 'minmax');
    expect(hitPairs(res)).toEqual(expected);
  });

  it("fails as ES's validation does", async () => {
    const validation = (res: TestResponse, ...messages: string[]) =>
      expectEsError(res, 400, 'action_request_validation_exception', `Validation Failed: ${messages.map((m, i) => `${i + 1}: ${m};`).join('')}`);
    const child = { retriever: { standard: { query: LEXICAL } } };
    validation(await search({ retriever: { linear: {} } }), '[linear] must provide [retrievers] or [query]');
    validation(await search({ retriever: { linear: { query: 'apple' } } }), '[linear] [normalizer] must be provided when [query] is specified');
    validation(await search({ retriever: { linear: { fields: ['title'], normalizer: 'minmax' } } }), '[linear] [query] must be provided when [fields] is specified');
    validation(await search({ retriever: { linear: { query: '', fields: [], normalizer: 'minmax', retrievers: [child] } } }),
      '[linear] [query] cannot be empty', '[linear] [fields] cannot be empty', '[linear] cannot combine [retrievers] and [query]');
    validation(await search({ retriever: { linear: { retrievers: [child], rank_window_size: 5 } }, size: 6 }),
      '[linear] requires [rank_window_size: 5] be greater than or equal to [size: 6]');
  });

  it('refuses a negative weight, an unknown normalizer, an unknown component field and a negative min_score', async () => {
    const child = { standard: { query: LEXICAL } };
    expectErrorType(await search({ retriever: { linear: { retrievers: [{ retriever: child, weight: -1 }] } } }), 400, 'x_content_parse_exception',
      /Failed to build \[retriever-component\] after last required field arrived$/);
    const unknown = await search({ retriever: { linear: { retrievers: [{ retriever: child, normalizer: 'zscore' }] } } });
    expectErrorType(unknown, 400, 'x_content_parse_exception', /\[retriever-component\] failed to parse field \[normalizer\]$/);
    expect(JSON.stringify(unknown.body)).toContain('Unknown normalizer [zscore]');
    expectErrorType(await search({ retriever: { linear: { retrievers: [{ retriever: child, boost: 2 }] } } }), 400, 'x_content_parse_exception',
      /\[retriever-component\] unknown field \[boost\]$/);
    const negative = await search({ retriever: { linear: { retrievers: [{ retriever: child }], min_score: -1 } } });
    expectErrorType(negative, 400, 'x_content_parse_exception', /Failed to build \[linear\] after last required field arrived$/);
    expect(JSON.stringify(negative.body)).toContain('[min_score] must be greater than or equal to 0, was: [-1]');
    expectErrorType(await search({ retriever: { linear: { query: 'apple', fields: ['title^-1'], normalizer: 'minmax' } } }), 400, 'illegal_argument_exception',
      '[linear] per-field weights must be non-negative');
  });

  it('refuses the multi-field format over several indices', async () => {
    const res = await t.request('POST', '/l1,l3/_search', { retriever: { linear: { query: 'apple', normalizer: 'minmax' } } });
    expectErrorType(res, 400, 'illegal_argument_exception', '[linear] cannot specify [query] when querying multiple indices');
  });
});

describe('weighted rrf children (ES 9.2)', () => {
  it('multiplies a child’s 1/(k + rank) by its weight; an unweighted child keeps weight 1', async () => {
    const lexical = await plain(LEXICAL, 10);
    const sparse = await plain(SPARSE, 10);
    const total = new Map<string, number>();
    const add = (l: Array<[string, number]>, w: number) => l.forEach(([id], i) => total.set(id, f32((total.get(id) ?? 0) + f32(w * f32(1 / (60 + i + 1))))));
    add(lexical, 3);
    add(sparse, 1);
    const res = await search({ retriever: { rrf: { retrievers: [{ retriever: { standard: { query: LEXICAL } }, weight: 3 }, { standard: { query: SPARSE } }] } } });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(hitPairs(res));
    for (const [id, s] of total) if (id in byId) expect(byId[id]).toBe(s);
    expect(ids(res)[0]).toBe(lexical[0][0]);
  });

  it('refuses a negative or non-numeric weight', async () => {
    const child = { standard: { query: LEXICAL } };
    expectErrorType(await search({ retriever: { rrf: { retrievers: [{ retriever: child, weight: -2 }, child] } } }), 400, 'x_content_parse_exception',
      /Failed to build \[rrf_component\] after last required field arrived$/);
    expectErrorType(await search({ retriever: { rrf: { retrievers: [{ retriever: child, weight: 'x' }, child] } } }), 400, 'parsing_exception',
      '[VALUE_STRING] expected number');
  });
});
