/**
 * kNN search over dense_vector fields (exact): the top-level `knn` section (object or array), its
 * scores for every similarity and element type against a brute-force answer computed here,
 * `filter`, `similarity`, `boost`, knn + query (sum of scores over the union), aggregations,
 * paging, `_msearch`, deleted documents, `explain`, and the same answers with 1 shard and with 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { ids } from './es.js';
import { DOC_COUNT, KNN_DOCS, SIMILARITIES, expectedTop, f32, fieldOf, seedKnnIndices, similarityScore } from './knn-fixture.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seedKnnIndices(t, 'k1', 'k3');
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'k1') => t.request('POST', `/${index}/_search`, body);
/** Ids and float32 scores (JSON prints float32 scores shortest, so they read back exactly). */
const hitPairs = (res: TestResponse): Array<[string, number]> => res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, f32(h._score)]);

const FLOAT_Q = [0.5, -1.25, 1];
const BYTE_Q = [10, -20, 30, 5];
const UNIT_Q = [0.6, 0.8, 0];
const queryFor = (sim: string, byte: boolean) => (byte ? BYTE_Q : sim === 'dot_product' ? UNIT_Q : FLOAT_Q);

/** Both indices give the same hits (ids, scores, order) and totals. */
async function sameOnThreeShards(body: unknown): Promise<TestResponse> {
  const one = await search(body, 'k1');
  const three = await search(body, 'k3');
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  expect(hitPairs(three)).toEqual(hitPairs(one));
  expect(three.body.hits.total).toEqual(one.body.hits.total);
  return one;
}

describe('top-level knn: scores and top k', () => {
  for (const byte of [false, true]) {
    for (const sim of SIMILARITIES) {
      it(`${byte ? 'byte' : 'float'} ${sim}: the brute-force top k with Lucene's scores, on 1 and 3 shards`, async () => {
        const q = queryFor(sim, byte);
        const res = await sameOnThreeShards({ knn: { field: fieldOf(sim, byte), query_vector: q, k: 7, num_candidates: 20 } });
        const expected = expectedTop(sim, byte, q, 7);
        expect(hitPairs(res).slice(0, 7)).toEqual(expected);
        // size defaults to 10, k is 7: only the 7 nearest are hits.
        expect(res.body.hits.total).toEqual({ value: 7, relation: 'eq' });
        expect(f32(res.body.hits.max_score)).toBe(expected[0][1]);
      });
    }
  }

  it('k defaults to size, num_candidates to 1.5 k', async () => {
    const q = FLOAT_Q;
    const res = await sameOnThreeShards({ size: 4, knn: { field: 'f_l2_norm', query_vector: q } });
    expect(hitPairs(res)).toEqual(expectedTop('l2_norm', false, q, 4));
    expect(res.body.hits.total.value).toBe(4);
  });

  it('k larger than the documents with vectors returns every one of them', async () => {
    const res = await sameOnThreeShards({ size: 100, knn: { field: 'f_cosine', query_vector: FLOAT_Q, k: 100, num_candidates: 100 } });
    expect(ids(res).length).toBe(DOC_COUNT - DOC_COUNT / 10);
    expect(hitPairs(res)).toEqual(expectedTop('cosine', false, FLOAT_Q, 100));
  });

  it('pages the k nearest with from and size', async () => {
    const all = expectedTop('l2_norm', false, FLOAT_Q, 10);
    const res = await sameOnThreeShards({ from: 3, size: 4, knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 10, num_candidates: 10 } });
    expect(hitPairs(res)).toEqual(all.slice(3, 7));
    expect(res.body.hits.total.value).toBe(10);
  });

  it('takes a hex query vector for a byte field', async () => {
    const hex = BYTE_Q.map((b) => (b & 0xff).toString(16).padStart(2, '0')).join('');
    const res = await sameOnThreeShards({ knn: { field: 'b_l2_norm', query_vector: hex, k: 5, num_candidates: 5 } });
    expect(hitPairs(res)).toEqual(expectedTop('l2_norm', true, BYTE_Q, 5));
  });
});

describe('filter, similarity, boost', () => {
  it('keeps the k nearest among documents matching the filter (a query or an array)', async () => {
    const expected = expectedTop('l2_norm', false, FLOAT_Q, 6, (d) => d.tag === 'red');
    for (const filter of [{ term: { tag: 'red' } }, [{ term: { tag: 'red' } }, { range: { n: { gte: 0 } } }]]) {
      const res = await sameOnThreeShards({ knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 6, num_candidates: 10, filter } });
      expect(hitPairs(res)).toEqual(expected);
    }
  });

  it('similarity keeps documents within the raw similarity (a distance for l2_norm, a cosine for cosine)', async () => {
    const l2 = await sameOnThreeShards({ size: 20, knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 20, num_candidates: 50, similarity: 1.5 } });
    // distance ≤ 1.5 ⇔ score ≥ 1 / (1 + 1.5²)
    expect(hitPairs(l2)).toEqual(expectedTop('l2_norm', false, FLOAT_Q, 20).filter(([, s]) => s >= f32(1 / f32(1 + 2.25))));
    expect(ids(l2).length).toBeLessThan(20);
    const cos = await sameOnThreeShards({ size: 20, knn: { field: 'f_cosine', query_vector: FLOAT_Q, k: 20, num_candidates: 50, similarity: 0.5 } });
    expect(hitPairs(cos)).toEqual(expectedTop('cosine', false, FLOAT_Q, 20).filter(([, s]) => s >= f32(1.5 / 2)));
    const bytes = await sameOnThreeShards({ size: 20, knn: { field: 'b_dot_product', query_vector: BYTE_Q, k: 20, num_candidates: 50, similarity: 1000 } });
    expect(hitPairs(bytes)).toEqual(expectedTop('dot_product', true, BYTE_Q, 20).filter(([, s]) => s >= f32(0.5 + f32(1000 / (4 * 32768)))));
  });

  it('boost multiplies the scores', async () => {
    const res = await sameOnThreeShards({ knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 5, num_candidates: 5, boost: 2.5 } });
    expect(hitPairs(res)).toEqual(expectedTop('l2_norm', false, FLOAT_Q, 5).map(([id, s]) => [id, f32(s * 2.5)]));
  });
});

describe('knn with query, several sections, aggregations', () => {
  it('hits are the union of query matches and the k nearest, scores summed (bool should)', async () => {
    const knn = expectedTop('l2_norm', false, FLOAT_Q, 5);
    const res = await sameOnThreeShards({
      size: 100, query: { constant_score: { filter: { term: { tag: 'red' } }, boost: 2 } },
      knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 5, num_candidates: 5 },
    });
    const score = new Map<string, number>();
    for (const [id, doc] of KNN_DOCS) if (doc.tag === 'red') score.set(id, 2);
    for (const [id, s] of knn) score.set(id, f32((score.get(id) ?? 0) + s));
    const order = new Map(KNN_DOCS.map(([id], i) => [id, i]));
    const expected = [...score].sort((a, b) => b[1] - a[1] || order.get(a[0])! - order.get(b[0])!);
    expect(hitPairs(res)).toEqual(expected);
    expect(res.body.hits.total.value).toBe(expected.length);
  });

  it('several knn sections: each its own k nearest, scores summed', async () => {
    const a = expectedTop('l2_norm', false, FLOAT_Q, 4);
    const b = expectedTop('cosine', true, BYTE_Q, 4);
    const res = await sameOnThreeShards({
      knn: [
        { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 4, num_candidates: 4 },
        { field: 'b_cosine', query_vector: BYTE_Q, k: 4, num_candidates: 4, boost: 0.5 },
      ],
    });
    const score = new Map<string, number>();
    for (const [id, s] of a) score.set(id, s);
    for (const [id, s] of b) score.set(id, f32((score.get(id) ?? 0) + f32(s * 0.5)));
    expect(new Map(hitPairs(res))).toEqual(score);
  });

  it('aggregations and post_filter see the union', async () => {
    const knn = expectedTop('max_inner_product', false, FLOAT_Q, 8);
    const byTag = new Map<string, number>();
    for (const [id] of knn) {
      const tag = KNN_DOCS[Number(id)][1].tag as string;
      byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    }
    const res = await sameOnThreeShards({
      knn: { field: 'f_max_inner_product', query_vector: FLOAT_Q, k: 8, num_candidates: 8 },
      aggs: { tags: { terms: { field: 'tag' } } }, post_filter: { term: { tag: 'blue' } },
    });
    const buckets = Object.fromEntries(res.body.aggregations.tags.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count]));
    expect(buckets).toEqual(Object.fromEntries(byTag));
    expect(hitPairs(res)).toEqual(knn.filter(([id]) => KNN_DOCS[Number(id)][1].tag === 'blue'));
  });

  it('sorts the union by a field', async () => {
    const knn = expectedTop('l2_norm', false, FLOAT_Q, 6);
    const res = await sameOnThreeShards({ knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 6, num_candidates: 6 }, sort: [{ n: 'desc' }] });
    expect(ids(res)).toEqual(knn.map(([id]) => id).sort((x, y) => Number(y) - Number(x)));
  });

  it('runs in _msearch', async () => {
    const body = { knn: { field: 'f_cosine', query_vector: FLOAT_Q, k: 3, num_candidates: 3 } };
    const lines = [{ index: 'k1' }, body, { index: 'k3' }, body].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const res = await t.request('POST', '/_msearch', lines, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    const expected = expectedTop('cosine', false, FLOAT_Q, 3);
    for (const r of res.body.responses) expect(hitPairs({ body: r } as TestResponse)).toEqual(expected);
  });

  it('explains a knn hit with its score', async () => {
    const res = await search({ explain: true, knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 2, num_candidates: 2, boost: 2 } }, 'k3');
    const hit = res.body.hits.hits[0];
    expect(hit._explanation).toEqual({ value: hit._score, description: 'within top k documents', details: [] });
    // With a query, ES's bool sums the clauses.
    const both = await search({ explain: true, query: { match: { title: 'apple' } }, knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 60, num_candidates: 60 } }, 'k3');
    const apple = both.body.hits.hits.find((h: { _source: { title: string } }) => h._source.title === 'apple pie');
    expect(apple._explanation.description).toBe('sum of:');
    expect(apple._explanation.value).toBe(apple._score);
    expect(apple._explanation.details.map((d: { description: string }) => d.description)).toContain('within top k documents');
  });
});

describe('deleted and updated documents', () => {
  it('a deleted document is no candidate: the next nearest takes its place', async () => {
    for (const index of ['kd1', 'kd3']) {
      await t.request('PUT', `/${index}`, { settings: { number_of_shards: index === 'kd1' ? 1 : 3 }, mappings: { properties: { v: { type: 'dense_vector', dims: 3, similarity: 'l2_norm' } } } });
      const lines = KNN_DOCS.filter(([, doc]) => doc.f_l2_norm !== undefined).flatMap(([id, doc]) => [{ index: { _index: index, _id: id } }, { v: doc.f_l2_norm }]);
      expect((await t.bulk('/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
    }
    const top = expectedTop('l2_norm', false, FLOAT_Q, 4);
    for (const index of ['kd1', 'kd3']) {
      expect((await t.request('DELETE', `/${index}/_doc/${top[0][0]}?refresh=true`)).status).toBe(200);
      const res = await search({ knn: { field: 'v', query_vector: FLOAT_Q, k: 3, num_candidates: 3 } }, index);
      expect(hitPairs(res)).toEqual(top.slice(1, 4));
    }
  });
});

describe('the knn query', () => {
  it('inside bool: the k nearest, then the bool\'s other clauses', async () => {
    const knn = expectedTop('l2_norm', false, FLOAT_Q, 10);
    const res = await sameOnThreeShards({
      query: { bool: { must: [{ knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 10 } }], filter: [{ term: { tag: 'blue' } }] } },
    });
    expect(hitPairs(res)).toEqual(knn.filter(([id]) => KNN_DOCS[Number(id)][1].tag === 'blue'));
  });

  it('k defaults to the size, capped by num_candidates; its filter narrows the candidates', async () => {
    const res = await sameOnThreeShards({ size: 5, query: { knn: { field: 'f_cosine', query_vector: FLOAT_Q, num_candidates: 3, filter: { term: { tag: 'red' } }, boost: 3 } } });
    expect(hitPairs(res)).toEqual(expectedTop('cosine', false, FLOAT_Q, 3, (d) => d.tag === 'red').map(([id, s]) => [id, f32(s * 3)]));
  });
});

describe('retrievers and rank', () => {
  const LEX = { match: { title: 'apple' } };

  /** RRF of two id lists (float32 sums, ties by the first list's presence, then write order). */
  async function fused(lists: string[][], k = 60): Promise<string[]> {
    const score = new Map<string, number>();
    for (const list of lists) list.forEach((id, i) => score.set(id, f32((score.get(id) ?? 0) + f32(1 / (k + i + 1)))));
    return [...score].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).map(([id]) => id);
  }

  it('a top-level knn retriever is a knn search', async () => {
    const res = await sameOnThreeShards({ retriever: { knn: { field: 'f_dot_product', query_vector: UNIT_Q, k: 4, num_candidates: 10 } } });
    expect(hitPairs(res)).toEqual(expectedTop('dot_product', false, UNIT_Q, 4));
  });

  it('an rrf retriever fuses a standard and a knn list', async () => {
    const knnIds = expectedTop('l2_norm', false, FLOAT_Q, 10).map(([id]) => id);
    const lexIds = ids(await search({ query: LEX, size: 10 }));
    const res = await sameOnThreeShards({
      retriever: { rrf: { retrievers: [{ standard: { query: LEX } }, { knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 10, num_candidates: 10 } }] } },
    });
    const expected = await fused([lexIds, knnIds]);
    expect(ids(res).slice(0, 5)).toEqual(expected.slice(0, 5));
  });

  it('rank rrf with query + knn (8.8–8.13): each knn section is a list', async () => {
    const knnIds = expectedTop('cosine', false, FLOAT_Q, 10).map(([id]) => id);
    const lexIds = ids(await search({ query: LEX, size: 10 }));
    const res = await sameOnThreeShards({ query: LEX, knn: { field: 'f_cosine', query_vector: FLOAT_Q, k: 10, num_candidates: 10 }, rank: { rrf: {} } });
    expect(ids(res).slice(0, 5)).toEqual((await fused([lexIds, knnIds])).slice(0, 5));
    expect(res.body.hits.hits[0]._rank).toBe(1);
  });

  it('an rrf retriever\'s filter reaches its knn child', async () => {
    const res = await sameOnThreeShards({
      retriever: { rrf: { retrievers: [{ standard: { query: LEX } }, { knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 10, num_candidates: 10 } }], filter: { term: { tag: 'red' } } } },
    });
    expect(ids(res).length).toBeGreaterThan(0);
    for (const id of ids(res)) expect(KNN_DOCS[Number(id)][1].tag).toBe('red');
  });
});

describe('scores by formula, spot checks', () => {
  it('l2_norm float: 1 / (1 + squared distance)', async () => {
    const v = KNN_DOCS[0][1].f_l2_norm as number[];
    const res = await search({ knn: { field: 'f_l2_norm', query_vector: v, k: 1, num_candidates: 1 } });
    expect(hitPairs(res)).toEqual([['0', 1]]);
  });
});

describe('with other search features', () => {
  const KNN = { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 6, num_candidates: 6 };

  it('over several indices: one global top k, ties by index then write order', async () => {
    const res = await search({ knn: KNN }, 'k1,k3');
    const top = expectedTop('l2_norm', false, FLOAT_Q, 3);
    // Both indices hold the same vectors: each score twice, k1's copy first.
    expect(res.body.hits.hits.map((h: { _index: string; _id: string; _score: number }) => [h._index, h._id, f32(h._score)]))
      .toEqual(top.flatMap(([id, s]) => [['k1', id, s], ['k3', id, s]]));
  });

  it('min_score, collapse and rescore apply to the union', async () => {
    const top = expectedTop('l2_norm', false, FLOAT_Q, 6);
    const cut = await sameOnThreeShards({ knn: KNN, min_score: top[2][1] });
    expect(hitPairs(cut)).toEqual(top.slice(0, 3));
    const collapsed = await sameOnThreeShards({ knn: KNN, collapse: { field: 'tag' } });
    const firstOfTag = new Map<string, [string, number]>();
    for (const hit of top) if (!firstOfTag.has(KNN_DOCS[Number(hit[0])][1].tag as string)) firstOfTag.set(KNN_DOCS[Number(hit[0])][1].tag as string, hit);
    expect(hitPairs(collapsed)).toEqual([...firstOfTag.values()]);
    const rescored = await sameOnThreeShards({ knn: KNN, rescore: { window_size: 6, query: { rescore_query: { term: { tag: 'red' } }, query_weight: 1, rescore_query_weight: 1 } } });
    expect(ids(rescored).sort()).toEqual(top.map(([id]) => id).sort());
    // Red docs gain the rescore query's score; the others keep their kNN score; the page is re-sorted.
    const knnScore = new Map(top);
    const rescoredHits = rescored.body.hits.hits as { _id: string; _score: number }[];
    expect(rescoredHits.some((h) => KNN_DOCS[Number(h._id)][1].tag === 'red')).toBe(true);
    for (const h of rescoredHits) {
      if (KNN_DOCS[Number(h._id)][1].tag === 'red') expect(h._score).toBeGreaterThan(knnScore.get(h._id)! + 0.01);
      else expect(f32(h._score)).toBe(knnScore.get(h._id));
    }
    const scores = rescoredHits.map((h) => h._score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('highlights the query\'s matches among the union', async () => {
    const res = await search({ query: { match: { title: 'apple' } }, knn: KNN, highlight: { fields: { title: {} } }, size: 100 });
    const apple = res.body.hits.hits.filter((h: { _source: { title: string } }) => h._source.title === 'apple pie');
    expect(apple.length).toBeGreaterThan(0);
    for (const h of apple) expect(h.highlight.title).toEqual(['<em>apple</em> pie']);
  });

  it('pages through a scroll and searches a point in time', async () => {
    const top = expectedTop('l2_norm', false, FLOAT_Q, 6);
    const first = await t.request('POST', '/k3/_search?scroll=1m', { knn: KNN, size: 4 });
    expect(hitPairs(first)).toEqual(top.slice(0, 4));
    const next = await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: first.body._scroll_id });
    expect(hitPairs(next)).toEqual(top.slice(4, 6));
    const pit = await t.request('POST', '/k3/_pit?keep_alive=1m');
    const res = await t.request('POST', '/_search', { knn: KNN, pit: { id: pit.body.id } });
    expect(hitPairs(res)).toEqual(top);
  });
});

describe('_count', () => {
  it('counts a knn query\'s global top k (k defaulting to 10)', async () => {
    for (const index of ['k1', 'k3']) {
      const res = await t.request('POST', `/${index}/_count`, { query: { knn: { field: 'f_cosine', query_vector: FLOAT_Q } } });
      expect(res.body.count).toBe(10);
      const filtered = await t.request('POST', `/${index}/_count`, { query: { knn: { field: 'f_cosine', query_vector: FLOAT_Q, k: 50, filter: { term: { tag: 'red' } } } } });
      expect(filtered.body.count).toBe(expectedTop('cosine', false, FLOAT_Q, 50, (d) => d.tag === 'red').length);
    }
  });
});

describe('linear retriever', () => {
  it('takes a knn child, the same on 1 and 3 shards', async () => {
    const res = await sameOnThreeShards({
      retriever: { linear: { retrievers: [
        { retriever: { standard: { query: { match: { title: 'apple' } } } }, weight: 1, normalizer: 'minmax' },
        { retriever: { knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 5, num_candidates: 5 } }, weight: 2, normalizer: 'minmax' },
      ] } },
    });
    const knnIds = expectedTop('l2_norm', false, FLOAT_Q, 5).map(([id]) => id);
    // The nearest document has the top knn score (normalized 1, weight 2): no lexical match alone outranks it.
    expect(knnIds).toContain(ids(res)[0]);
  });
});

describe('a large shard', () => {
  it('splits its scan over the search threads and still gives the brute-force top k (= 3 shards)', async () => {
    const n = 40_000;
    const vec = (i: number) => [f32(Math.sin(i * 0.37)), f32(Math.cos(i * 0.91)), f32(((i * 7919) % 1000) / 500 - 1)];
    for (const [index, shards] of [['big1', 1], ['big3', 3]] as const) {
      await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: { properties: { v: { type: 'dense_vector', dims: 3, similarity: 'l2_norm' } } } });
      for (let from = 0; from < n; from += 10_000) {
        const lines = [];
        for (let i = from; i < from + 10_000; i++) lines.push({ index: { _index: index, _id: String(i) } }, { v: vec(i) });
        expect((await t.bulk('/_bulk', lines)).body.errors).toBe(false);
      }
      await t.request('POST', `/${index}/_refresh`);
    }
    const q = [0.1, -0.2, 0.3];
    const expected = Array.from({ length: n }, (_, i) => [String(i), similarityScore('l2_norm', false, q, vec(i)), i] as const)
      .sort((a, b) => b[1] - a[1] || a[2] - b[2]).slice(0, 20).map(([id, s]) => [id, s]);
    const body = { size: 20, knn: { field: 'v', query_vector: q, k: 20, num_candidates: 20 } };
    const one = await search(body, 'big1');
    expect(hitPairs(one)).toEqual(expected);
    expect(hitPairs(await search(body, 'big3'))).toEqual(expected);
  });
});

describe('the _explain API', () => {
  it('explains a knn query: a document among the top k matches, another does not', async () => {
    const top = expectedTop('l2_norm', false, FLOAT_Q, 10);
    const query = { knn: { field: 'f_l2_norm', query_vector: FLOAT_Q, k: 3, boost: 2 } };
    const hit = await t.request('POST', `/k3/_explain/${top[0][0]}`, { query });
    expect(hit.status).toBe(200);
    expect(hit.body.matched).toBe(true);
    expect(f32(hit.body.explanation.value)).toBe(f32(top[0][1] * 2));
    expect(hit.body.explanation).toMatchObject({ description: 'within top k documents', details: [] });
    const miss = await t.request('POST', `/k3/_explain/${top[5][0]}`, { query });
    expect(miss.body.matched).toBe(false);
  });
});
