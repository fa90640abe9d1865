/**
 * The kNN pre-phase's shard search and kernels, in one thread: a shard's top k is the same whether
 * its scan runs in one part or is split in several (the split the coordinator uses for large
 * shards), ties go to the earlier write order, deleted documents are no candidates, and the
 * similarity kernels match a plain loop for every length (the unrolled loops' tails).
 */
import { describe, expect, it } from 'vitest';
import { InProcessIndex } from '../support/engine-harness.js';
import { mulberry32 } from '../../src/common/prng.js';
import { HIT_STRIDE, type Exec, type ShardSearchResult } from '../../src/search/index.js';
import { dotProduct, squareDistance, thresholdScore } from '../../src/search/exec/vector-similarity.js';

const random = mulberry32(7);
const DIMS = 5;
const vector = () => Array.from({ length: DIMS }, () => Math.fround(random() * 2 - 1));

function index(docs: number, segments: number): InProcessIndex {
  const ix = new InProcessIndex({ properties: { v: { type: 'dense_vector', dims: DIMS, similarity: 'l2_norm' }, tag: { type: 'keyword' } } });
  const per = Math.ceil(docs / segments);
  for (let s = 0; s < segments; s++) {
    const batch = [];
    for (let d = s * per; d < Math.min(docs, (s + 1) * per); d++) {
      // Every 7th document repeats the first vector: ties whose order must be write order.
      batch.push({ id: String(d), source: { v: d % 7 === 0 ? FIRST : vector(), tag: d % 2 === 0 ? 'even' : 'odd' } });
    }
    ix.addSegment(batch);
  }
  return ix;
}
const FIRST = vector();

function candidates(ix: InProcessIndex, exec: Exec, k: number, parts: number): Array<[number, number]> {
  const all: Array<[number, number]> = [];
  for (let part = 0; part < parts; part++) {
    const r: ShardSearchResult = ix.searchPlan(exec, { k, knnCandidates: { part, parts } });
    for (let o = 0; o < r.hits.length; o += HIT_STRIDE) all.push([r.hits[o], r.hits[o + 3]]);
  }
  return all.sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, k);
}

const knnNode = (extra: Record<string, unknown> = {}) => ({
  kind: 'knn', field: 'v', queryVector: FIRST, k: 20, numCandidates: 20, filter: [], similarity: null, boost: 1, name: null, matches: 'candidates', ...extra,
});

describe('kNN candidates on a shard', () => {
  it('gives the same top k in 1, 2 or 3 parts, over several segments', () => {
    const ix = index(500, 3);
    const exec = ix.plan(knnNode());
    const one = candidates(ix, exec, 25, 1);
    expect(one.length).toBe(25);
    expect(candidates(ix, exec, 25, 2)).toEqual(one);
    expect(candidates(ix, exec, 25, 3)).toEqual(one);
    // The repeated vector scores 1 (distance 0): those documents first, in write order.
    expect(one.slice(0, 5)).toEqual([0, 7, 14, 21, 28].map((order) => [1, order]));
  });

  it('skips deleted documents and applies the filter', () => {
    const ix = index(200, 2);
    ix.deleteIds(['0', '7']);
    const top = candidates(ix, ix.plan(knnNode()), 3, 2);
    expect(top.map(([, order]) => order)).toEqual([14, 21, 28]);
    const filtered = candidates(ix, ix.plan(knnNode({ filter: [{ kind: 'term', field: 'tag', value: 'odd', boost: 1, name: null, caseInsensitive: false }] })), 3, 1);
    expect(filtered.map(([, order]) => order)).toEqual([21, 35, 49]);
  });
});

describe('similarity kernels', () => {
  it('match a plain loop at every length and offset', () => {
    for (let dims = 1; dims <= 13; dims++) {
      const q = Float32Array.from({ length: dims }, () => random() * 2 - 1);
      const values = Float32Array.from({ length: dims * 3 }, () => random() * 2 - 1);
      const bytes = Int8Array.from({ length: dims * 3 }, () => Math.floor(random() * 256) - 128);
      for (const v of [values, bytes]) {
        for (let doc = 0; doc < 3; doc++) {
          let dot = 0;
          let d2 = 0;
          for (let i = 0; i < dims; i++) {
            dot += q[i] * v[doc * dims + i];
            d2 += (q[i] - v[doc * dims + i]) ** 2;
          }
          expect(dotProduct(q, v, doc * dims, dims)).toBeCloseTo(dot, 9);
          expect(squareDistance(q, v, doc * dims, dims)).toBeCloseTo(d2, 9);
        }
      }
    }
  });

  it('convert a similarity threshold as ES does', () => {
    expect(thresholdScore('l2_norm', 'float', 2, 3)).toBe(Math.fround(1 / 5));
    expect(thresholdScore('cosine', 'byte', 0.5, 3)).toBe(0.75);
    expect(thresholdScore('dot_product', 'float', 0, 3)).toBe(0.5);
    expect(thresholdScore('dot_product', 'byte', 3 * 32768, 3)).toBe(1.5);
    expect(thresholdScore('max_inner_product', 'float', -1, 3)).toBe(0.5);
    expect(thresholdScore('max_inner_product', 'float', 2, 3)).toBe(3);
  });
});
