/**
 * User ONNX models over the REST APIs: a generated tiny BERT-MLM model registered from a local
 * folder (`location.local.path`, and `<data>/models/<id>`), deployed with allocations × threads,
 * and its vectors through `_infer`, the inference processor, `_reindex` and `text_expansion` equal
 * to the pure-JS reference (≤ 1e-5 before quantisation); `query_mode: idf`; bad models refused at
 * registration or deployment with the reason, the server serving on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { maxAbsDiff, referenceVector, writeTinyModel, type TinyModel } from '../support/tiny-bert.js';
import { expectErrorType } from './es.js';

const GB = 1024 ** 3;
const root = mkdtempSync(join(tmpdir(), 'threadsearch-onnx-api-'));
const dataDir = join(root, 'data');
let t: TestApp;
let tiny: TinyModel;

const DOCS = [
  'The quick brown fox jumps over the lazy dog.',
  'sparse vector search with a model',
  'how do vaccines work? the heart and the blood',
  'river bank, money bank; fish and birds by the water',
];

const toMap = (o: Record<string, number>): Map<string, number> => new Map(Object.entries(o));

beforeAll(async () => {
  tiny = writeTinyModel(join(root, 'tiny'));
  t = await createTestApp({ dataDir, config: { mlNodes: [{ name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 16 }] } });
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a model from a local folder', () => {
  it('registers with location.local.path and renders the folder', async () => {
    const res = await t.request('PUT', '/_ml/trained_models/tiny-splade', { input: { field_names: ['text_field'] }, location: { local: { path: tiny.dir } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      model_id: 'tiny-splade', model_type: 'pytorch', location: { local: { path: tiny.dir } },
      inference_config: { text_expansion: { tokenization: { bert: { max_sequence_length: 512 } } } },
    });
    expect(res.body.model_size_bytes).toBeGreaterThan(10_000);
    expect((await t.request('GET', '/_ml/trained_models/tiny-splade')).body.trained_model_configs[0].location).toEqual({ local: { path: tiny.dir } });
  });

  it('deploys with allocations × threads and _infer gives the reference vectors', async () => {
    const start = await t.request('POST', '/_ml/trained_models/tiny-splade/deployment/_start?number_of_allocations=2&threads_per_allocation=2&wait_for=fully_allocated&timeout=120s');
    expect(start.status).toBe(200);
    expect(start.body.assignment.task_parameters).toMatchObject({ number_of_allocations: 2, threads_per_allocation: 2 });
    const res = await t.request('POST', '/_ml/trained_models/tiny-splade/_infer', { docs: DOCS.map((text_field) => ({ text_field })) });
    expect(res.status).toBe(200);
    expect(res.body.simulation).toBeUndefined();
    res.body.inference_results.forEach((r: { predicted_value: Record<string, number>; is_truncated: boolean }, i: number) => {
      expect(r.is_truncated).toBeUndefined();
      const ref = referenceVector(tiny, DOCS[i]);
      expect(new Set(Object.keys(r.predicted_value))).toEqual(new Set(ref.keys()));
      expect(maxAbsDiff(toMap(r.predicted_value), ref)).toBeLessThanOrEqual(1e-5);
    });
    const stats = (await t.request('GET', '/_ml/trained_models/tiny-splade/_stats')).body.trained_model_stats[0];
    expect(stats.deployment_stats).toMatchObject({ state: 'started', inference_count: DOCS.length, allocation_status: { allocation_count: 2, state: 'fully_allocated' } });
    expect(stats.deployment_stats.simulation).toBeUndefined();
  });

  it('the inference processor, _reindex and text_expansion use the same vectors', async () => {
    const mappings = { properties: { text: { type: 'text' }, emb: { type: 'sparse_vector' } } };
    expect((await t.request('PUT', '/docs', { mappings })).status).toBe(200);
    expect((await t.request('PUT', '/docs-reindexed', { mappings })).status).toBe(200);
    expect((await t.request('PUT', '/_ingest/pipeline/tiny', { processors: [{ inference: { model_id: 'tiny-splade', input_output: [{ input_field: 'text', output_field: 'emb' }] } }] })).status).toBe(200);
    const lines = DOCS.flatMap((text, i) => [{ index: { _index: 'docs', _id: String(i) } }, { text }]);
    expect((await t.bulk('/_bulk?refresh=true&pipeline=tiny', lines)).body.errors).toBe(false);
    // Reindex from a copy without vectors, through the pipeline.
    expect((await t.bulk('/_bulk?refresh=true', DOCS.flatMap((text, i) => [{ index: { _index: 'plain', _id: String(i) } }, { text }]))).body.errors).toBe(false);
    const reindex = await t.request('POST', '/_reindex?refresh=true', { source: { index: 'plain', size: 3 }, dest: { index: 'docs-reindexed', pipeline: 'tiny' } });
    expect(reindex.body).toMatchObject({ total: DOCS.length, created: DOCS.length, failures: [] });
    for (const index of ['docs', 'docs-reindexed']) {
      for (let i = 0; i < DOCS.length; i++) {
        const src = (await t.request('GET', `/${index}/_doc/${i}`)).body._source;
        expect(src.model_id).toBe('tiny-splade');
        expect(maxAbsDiff(toMap(src.emb), referenceVector(tiny, DOCS[i]))).toBeLessThanOrEqual(1e-5);
      }
    }
    // text_expansion: the query is encoded by the model too; scores are dot products of the vectors
    // (documents' weights stored with 8 mantissa bits, so compared to 1%).
    const query = 'fox and dog search';
    const q = referenceVector(tiny, query);
    const dot = (d: Map<string, number>) => [...q].reduce((s, [k, w]) => s + w * (d.get(k) ?? 0), 0);
    const expected = DOCS.map((d, i) => ({ id: String(i), score: dot(referenceVector(tiny, d)) })).sort((a, b) => b.score - a.score);
    const res = await t.request('POST', '/docs-reindexed/_search', { query: { text_expansion: { emb: { model_id: 'tiny-splade', model_text: query } } } });
    expect(res.status).toBe(200);
    const hits = res.body.hits.hits as Array<{ _id: string; _score: number }>;
    expect(hits.map((h) => h._id)).toEqual(expected.map((e) => e.id));
    hits.forEach((h, i) => expect(Math.abs(h._score - expected[i].score) / expected[i].score).toBeLessThan(0.01));
  });

  it('finds a model placed at <data>/models/<id> without a location', async () => {
    writeTinyModel(join(dataDir, 'models', 'in-data-dir'), { max_tokens: 128 });
    const res = await t.request('PUT', '/_ml/trained_models/in-data-dir', { input: { field_names: ['text'] } });
    expect(res.status).toBe(200);
    expect(res.body.location).toEqual({ local: { path: join(dataDir, 'models', 'in-data-dir') } });
    expect(res.body.inference_config.text_expansion.tokenization.bert.max_sequence_length).toBe(128);
  });
});

describe('query_mode idf (inference-free queries)', () => {
  it('text_expansion weighs query tokens from idf.json, documents go through the model', async () => {
    const dir = join(root, 'doc-only');
    const m = writeTinyModel(dir, { query_mode: 'idf' });
    writeFileSync(join(dir, 'idf.json'), JSON.stringify({ fox: 3, dog: 2, the: 0.01 }));
    expect((await t.request('PUT', '/_ml/trained_models/doc-only', { input: { field_names: ['text'] }, location: { local: { path: dir } } })).status).toBe(200);
    expect((await t.request('POST', '/_ml/trained_models/doc-only/deployment/_start?wait_for=started&timeout=120s')).status).toBe(200);
    await t.request('PUT', '/idf', { mappings: { properties: { emb: { type: 'sparse_vector' } } } });
    await t.request('PUT', '/_ingest/pipeline/doc-only', { processors: [{ inference: { model_id: 'doc-only', input_output: [{ input_field: 'text', output_field: 'emb' }] } }] });
    expect((await t.request('PUT', '/idf/_doc/1?refresh=true&pipeline=doc-only', { text: DOCS[0] })).status).toBe(201);
    const d = referenceVector(m, DOCS[0]);
    const expected = 3 * (d.get('fox') ?? 0) + 2 * (d.get('dog') ?? 0) + 0.01 * (d.get('the') ?? 0);
    const res = await t.request('POST', '/idf/_search', { query: { text_expansion: { emb: { model_id: 'doc-only', model_text: 'the fox, the dog' } } } });
    expect(res.body.hits.hits[0]._score).toBeCloseTo(expected, 1);
    expect(Math.abs(res.body.hits.hits[0]._score - expected) / expected).toBeLessThan(0.01);
  });
});

describe('bad models', () => {
  it('are refused at registration with the reason, and nothing is stored', async () => {
    const put = (id: string, path: string) => t.request('PUT', `/_ml/trained_models/${id}`, { input: { field_names: ['text'] }, location: { local: { path } } });
    expectErrorType(await put('missing', join(root, 'nowhere')), 400, 'status_exception', /model folder \[.*nowhere\] does not exist/);
    const mismatch = join(root, 'mismatch');
    writeTinyModel(mismatch, undefined, { vocabSize: 70 });
    expectErrorType(await put('mismatch', mismatch), 400, 'status_exception', /vocabulary size mismatch: output \[logits\] scores 70 tokens but the vocabulary has \d+/);
    const garbage = join(root, 'garbage');
    writeTinyModel(garbage);
    writeFileSync(join(garbage, 'model.onnx'), 'definitely not protobuf');
    expectErrorType(await put('garbage', garbage), 400, 'status_exception', /cannot load the model graph/);
    expectErrorType(await put('Bad_ID', tiny.dir), 400, 'status_exception', /Invalid model_id/);
    expectErrorType(await t.request('PUT', '/_ml/trained_models/x', { input: { field_names: ['t'] }, location: { local: {} } }), 400, 'illegal_argument_exception', /\[location\.local\.path\] must be set/);
    expect((await t.request('GET', '/_ml/trained_models/mismatch,garbage,missing?allow_no_match=true')).status).toBe(404);
  });

  it('fail at deployment (model damaged after registration) with the reason, and the server serves on', async () => {
    const dir = join(root, 'damaged');
    writeTinyModel(dir);
    expect((await t.request('PUT', '/_ml/trained_models/damaged', { input: { field_names: ['text'] }, location: { local: { path: dir } } })).status).toBe(200);
    writeFileSync(join(dir, 'model.onnx'), 'broken');
    const res = await t.request('POST', '/_ml/trained_models/damaged/deployment/_start?wait_for=started&timeout=60s');
    expectErrorType(res, 500, 'status_exception', /^Could not start trained model deployment, the following nodes failed with errors \[\{ml-1=.*cannot load the model graph/);
    const ok = await t.request('POST', '/_ml/trained_models/tiny-splade/_infer', { docs: [{ text_field: DOCS[0] }] });
    expect(ok.status).toBe(200);
  });
});

describe('restart', () => {
  it('a deployed user model restarts with the server and answers the same vectors', async () => {
    await t.close();
    t = await createTestApp({ dataDir, config: { mlNodes: [{ name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 16 }] } });
    const res = await t.request('POST', '/_ml/trained_models/tiny-splade/_infer?timeout=60s', { docs: [{ text_field: DOCS[2] }] });
    expect(res.status).toBe(200);
    expect(maxAbsDiff(toMap(res.body.inference_results[0].predicted_value), referenceVector(tiny, DOCS[2]))).toBeLessThanOrEqual(1e-5);
  });
});
