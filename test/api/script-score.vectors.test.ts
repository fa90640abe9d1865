/**
 * The vector functions of script_score scripts (ES VectorScoreScriptUtils): cosineSimilarity,
 * dotProduct, l1norm and l2norm of a param query vector against a dense_vector field, float and
 * byte, 1 and 3 shards alike; ES's runtime errors for a document without a vector and other dims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float32ToJson } from '../../src/common/float-json.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { queryRunner, scores, seed } from './es.js';

let t: TestApp;

const VECTORS: Record<string, number[]> = { 1: [1, 2, 3], 2: [3, 0, 4], 3: [1, 1, 1] };
const DOCS: Array<[string, Record<string, unknown>]> = [
  ...Object.entries(VECTORS).map(([id, v]): [string, Record<string, unknown>] => [id, { v, b: v }]),
  ['4', { title: 'no vector' }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['vec', 1], ['vec3', 3]] as const) {
    await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { v: { type: 'dense_vector', dims: 3, similarity: 'cosine' }, b: { type: 'dense_vector', dims: 3, element_type: 'byte', similarity: 'l2_norm' }, title: { type: 'text' } } },
    });
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

const { search, q } = queryRunner(() => t, 'vec');
const QV = [1, 0, 1];
const f = Math.fround;
const asFloat = (x: number) => Number(float32ToJson(f(x)));

async function ss(source: string, field = 'v'): Promise<Record<string, number>> {
  const query = { script_score: { query: { exists: { field } }, script: { source, params: { qv: QV } } } };
  const one = scores(await q(query, 'vec'));
  expect(scores(await q(query, 'vec3'))).toEqual(one);
  return one;
}

const sumF = (terms: number[]) => terms.reduce((acc, x) => f(acc + f(x)), 0);
const expected = (fn: (v: number[]) => number) => Object.fromEntries(Object.entries(VECTORS).map(([id, v]) => [id, asFloat(fn(v))]));

describe('script_score vector functions', () => {
  it('float vectors: cosine (+1 as ES\'s docs write it), dot product, l1 and l2 norms', async () => {
    const mq = f(Math.sqrt(2));
    const qn = QV.map((x) => f(x / mq));
    const norm = (v: number[]) => f(Math.sqrt(sumF(v.map((x) => x * x))));
    expect(await ss("cosineSimilarity(params.qv, 'v') + 1.0")).toEqual(expected((v) => f(sumF(v.map((x, i) => x * qn[i])) / norm(v)) + 1.0));
    expect(await ss("dotProduct(params.qv, 'v')")).toEqual({ 1: 4, 2: 7, 3: 2 });
    expect(await ss("l1norm(params.qv, 'v')")).toEqual({ 1: 4, 2: 5, 3: 1 });
    expect(await ss("1 / (1 + l2norm(params.qv, 'v'))")).toEqual(expected((v) => 1 / (1 + f(Math.sqrt(sumF(v.map((x, i) => (x - QV[i]) ** 2)))))));
  });

  it('byte vectors: integer products and distances', async () => {
    expect(await ss("dotProduct(params.qv, 'b')", 'b')).toEqual({ 1: 4, 2: 7, 3: 2 });
    expect(await ss("l1norm(params.qv, 'b')", 'b')).toEqual({ 1: 4, 2: 5, 3: 1 });
    const mag = (v: number[]) => f(Math.sqrt(sumF(v.map((x) => x * x))));
    expect(await ss("cosineSimilarity(params.qv, 'b')", 'b')).toEqual(expected((v) => f(v.reduce((a, x, i) => a + x * QV[i], 0) / f(f(Math.sqrt(2)) * mag(v)))));
  });

  it('ES\'s runtime errors: a document without a vector, a query vector of other dims', async () => {
    const missing = await search({ query: { script_score: { query: { match_all: {} }, script: { source: "dotProduct(params.qv, 'v')", params: { qv: QV } } } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.failed_shards[0].reason.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'A document doesn\'t have a value for a vector field!' });
    const dims = await search({ query: { script_score: { query: { exists: { field: 'v' } }, script: { source: "dotProduct(params.qv, 'v')", params: { qv: [1, 2] } } } } });
    expect(dims.body.error.failed_shards[0].reason.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'The query vector has a different number of dimensions [2] than the document vectors [3].' });
    const notVector = await search({ query: { script_score: { query: { exists: { field: 'v' } }, script: { source: "dotProduct(params.qv, 'title')", params: { qv: QV } } } } });
    expect(notVector.body.error.failed_shards[0].reason.caused_by.type).toBe('class_cast_exception');
  });
});
