/**
 * Parsing the three kNN spellings into one node: the top-level section's defaults (k from the body's
 * size, num_candidates 1.5 k rounded as Java rounds, at most 10,000), hex query vectors, the knn
 * query's open k, the knn retriever inside rrf with its parent's filter, and `rank` making each
 * section one list.
 */
import { describe, expect, it } from 'vitest';
import { fusionLeaves, parseQuery, parseSearchRequest, type KnnQuery } from '../../src/dsl/index.js';

const section = (body: Record<string, unknown>) => parseSearchRequest(body).knn![0];

describe('top-level knn', () => {
  it('defaults k to the body\'s size (10 without one) and num_candidates to round(1.5 k), at most 10,000', () => {
    expect(section({ knn: { field: 'v', query_vector: [1] } })).toMatchObject({ k: 10, numCandidates: 15 });
    expect(section({ size: 3, knn: { field: 'v', query_vector: [1] } })).toMatchObject({ k: 3, numCandidates: 5 });
    expect(section({ size: 1, knn: { field: 'v', query_vector: [1] } })).toMatchObject({ k: 1, numCandidates: 2 });
    expect(section({ knn: { field: 'v', query_vector: [1], k: 9000 } })).toMatchObject({ k: 9000, numCandidates: 10_000 });
  });

  it('reads float32 values, numeric strings and hex bytes', () => {
    expect(section({ knn: { field: 'v', query_vector: [0.1, '2'] } }).queryVector).toEqual([Math.fround(0.1), 2]);
    expect(section({ knn: { field: 'v', query_vector: '7f80ff00' } }).queryVector).toEqual([127, -128, -1, 0]);
    expect(section({ knn: { field: 'v', query_vector: 3 } }).queryVector).toEqual([3]);
  });

  it('takes an array of sections, each its own node, unresolved', () => {
    const r = parseSearchRequest({ knn: [{ field: 'a', query_vector: [1] }, { field: 'b', query_vector: [2], boost: 2, similarity: 0.5, filter: { match_all: {} } }] });
    expect(r.knn!.map((n) => [n.field, n.boost, n.similarity, n.filter.length, n.matches])).toEqual([['a', 1, null, 0, null], ['b', 2, 0.5, 1, null]]);
  });

  it('with rank, each section is one more list after the query', () => {
    const r = parseSearchRequest({ query: { match_all: {} }, knn: { field: 'v', query_vector: [1] }, rank: { rrf: {} } });
    expect(r.knn).toBeNull();
    expect(fusionLeaves(r.fusion!.root).map((l) => l.query.kind)).toEqual(['match_all', 'knn']);
  });
});

describe('knn query and retriever', () => {
  it('the query leaves k open for the coordinator', () => {
    const q = parseQuery({ knn: { field: 'v', query_vector: [1, 2], num_candidates: 5, boost: 2, _name: 'n' } }) as KnnQuery;
    expect(q).toMatchObject({ kind: 'knn', field: 'v', k: null, numCandidates: 5, boost: 2, name: 'n', matches: null });
  });

  it('a knn retriever under rrf gets the rrf filter in its own', () => {
    const r = parseSearchRequest({
      retriever: { rrf: { retrievers: [{ standard: { query: { match_all: {} } } }, { knn: { field: 'v', query_vector: [1], k: 2, num_candidates: 3, filter: { term: { a: 'x' } } } }], filter: { term: { b: 'y' } } } },
    });
    const knn = fusionLeaves(r.fusion!.root)[1].query as KnnQuery;
    expect(knn).toMatchObject({ kind: 'knn', k: 2, numCandidates: 3 });
    expect(knn.filter.map((f) => (f as { field: string }).field)).toEqual(['a', 'b']);
  });

  it('a top-level knn retriever is a knn section', () => {
    const r = parseSearchRequest({ retriever: { knn: { field: 'v', query_vector: [1], k: 2, num_candidates: 3 } } });
    expect(r.fusion).toBeNull();
    expect(r.knn!.map((n) => [n.k, n.numCandidates])).toEqual([[2, 3]]);
  });
});
