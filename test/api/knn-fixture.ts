/**
 * The kNN tests' fixture: 60 documents with a float vector per similarity (dims 3), a byte vector
 * per similarity (dims 4), a keyword tag, a title and a number, from a seeded generator, loaded
 * into one index of 1 shard and one of 3. `expectedTop` is the brute-force answer, its scores
 * computed here from Lucene's formulas (float32, as ES returns them), independently of the server.
 */
import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import { seed } from './es.js';

export const f32 = Math.fround;

/** mulberry32: a small deterministic generator. */
function random(seedValue: number): () => number {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Similarity = 'l2_norm' | 'cosine' | 'dot_product' | 'max_inner_product';
export const SIMILARITIES: readonly Similarity[] = ['l2_norm', 'cosine', 'dot_product', 'max_inner_product'];

/** The field of a similarity and element type. */
export const fieldOf = (sim: Similarity, byte: boolean) => `${byte ? 'b' : 'f'}_${sim}`;

const rnd = random(42);
const floatVector = (): number[] => [0, 1, 2].map(() => f32(rnd() * 4 - 2));
const unit = (v: number[]): number[] => {
  const m = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => f32(x / m));
};
const byteVector = (): number[] => [0, 1, 2, 3].map(() => Math.floor(rnd() * 256) - 128);

export const DOC_COUNT = 60;
export const KNN_DOCS: Array<[string, Record<string, unknown>]> = [];
for (let i = 0; i < DOC_COUNT; i++) {
  const doc: Record<string, unknown> = { tag: i % 3 === 0 ? 'red' : 'blue', title: i % 4 === 0 ? 'apple pie' : 'plain bread', n: i };
  // Every 10th document has no vectors (they never match a kNN search).
  if (i % 10 !== 9) {
    for (const sim of SIMILARITIES) {
      doc[fieldOf(sim, false)] = sim === 'dot_product' ? unit(floatVector()) : floatVector();
      let b = byteVector();
      if (sim === 'cosine' && b.every((x) => x === 0)) b = [1, 0, 0, 0];
      doc[fieldOf(sim, true)] = b;
    }
  }
  KNN_DOCS.push([String(i), doc]);
}

const MAPPINGS = {
  properties: {
    tag: { type: 'keyword' }, title: { type: 'text' }, n: { type: 'integer' },
    unindexed: { type: 'dense_vector', dims: 3, index: false },
    ...Object.fromEntries(SIMILARITIES.flatMap((sim) => [
      [fieldOf(sim, false), { type: 'dense_vector', dims: 3, similarity: sim }],
      [fieldOf(sim, true), { type: 'dense_vector', dims: 4, element_type: 'byte', similarity: sim }],
    ])),
  },
};

/** Creates `<one>` with 1 shard and `<three>` with 3, both holding KNN_DOCS. */
export async function seedKnnIndices(t: TestApp, one: string, three: string): Promise<void> {
  for (const [name, shards] of [[one, 1], [three, 3]] as const) {
    const res = await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    expect(res.status).toBe(200);
    await seed(t, name, KNN_DOCS);
  }
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
/** A float sum of float squares, then sqrt (as ES sums a vector's squared magnitude). */
const magnitude = (v: readonly number[]) => f32(Math.sqrt(v.reduce((s, x) => f32(s + f32(x * x)), 0)));

/** Lucene's VectorSimilarityFunction score of a document vector (float32). */
export function similarityScore(sim: Similarity, byte: boolean, q: readonly number[], v: readonly number[]): number {
  const qv = q.map(f32);
  switch (sim) {
    case 'l2_norm': {
      const d2 = qv.reduce((s, x, i) => s + (x - v[i]) * (x - v[i]), 0);
      return f32(1 / f32(1 + f32(d2)));
    }
    case 'dot_product': {
      const d = f32(dot(qv, v));
      return byte ? f32(0.5 + f32(d / f32(v.length * 32768))) : Math.max(f32(f32(1 + d) / 2), 0);
    }
    case 'cosine': {
      const cos = f32(dot(qv, v) / (magnitude(qv) * magnitude(v)));
      return byte ? f32(f32(1 + cos) / 2) : Math.max(f32(f32(1 + cos) / 2), 0);
    }
    case 'max_inner_product': {
      const d = f32(dot(qv, v));
      return d < 0 ? f32(1 / f32(1 - d)) : f32(d + 1);
    }
  }
}

/**
 * The brute-force top k: every document with a vector in `field` that `accept` keeps, best score
 * first, ties in write order (the fixture's ids are in write order).
 */
export function expectedTop(
  sim: Similarity, byte: boolean, q: readonly number[], k: number, accept: (doc: Record<string, unknown>, id: string) => boolean = () => true,
): Array<[string, number]> {
  const field = fieldOf(sim, byte);
  const scored: Array<[string, number, number]> = [];
  KNN_DOCS.forEach(([id, doc], order) => {
    const v = doc[field] as number[] | undefined;
    if (v === undefined || !accept(doc, id)) return;
    scored.push([id, similarityScore(sim, byte, q, v), order]);
  });
  scored.sort((a, b) => b[1] - a[1] || a[2] - b[2]);
  return scored.slice(0, k).map(([id, score]) => [id, score]);
}
