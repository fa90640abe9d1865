/**
 * The simulation mode (`simulate: bert-base` on `_start` of the built-in model): the deployment
 * loads the simulation graph from `<data>/models/.simulation/` and runs it on every inference,
 * while the vectors stay the built-in model's; `_infer`, `_stats` and the assignment say so.
 *
 * The real BERT-base graph takes ~20 s to generate and ~1 min to load on a loaded 2-core machine,
 * so these tests place a graph of the same architecture at hidden size 16 (over the same 30,522
 * tokens) where the generated one would go; the BERT-base graph itself is measured by
 * bench/bert-simulation.ts and its generation is checked in test/ml/bert-graph.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildBertGraph } from '../../src/ml/onnx/bert-graph.js';
import { writeOnnxModel } from '../../src/ml/onnx/onnx-writer.js';
import { simulationGraphPath } from '../../src/ml/onnx/simulation-graph.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { tinyShape, writeTinyModel } from '../support/tiny-bert.js';
import { expectErrorType } from './es.js';

const GB = 1024 ** 3;
const MODEL = '.sparse_model_2';
const URL = `/_ml/trained_models/${MODEL}`;
const root = mkdtempSync(join(tmpdir(), 'threadsearch-sim-'));
const dataDir = join(root, 'data');
const graphPath = simulationGraphPath(join(dataDir, 'models', '.simulation'), 'bert-base');
const TEXTS = ['The octopus hides in a coral reef near the sea floor.', 'Stock markets fell sharply as investors sold bank shares.'];
let t: TestApp;

function placeGraph(bytes: Uint8Array): void {
  mkdirSync(join(dataDir, 'models', '.simulation'), { recursive: true });
  writeFileSync(graphPath, bytes);
}

beforeAll(async () => {
  placeGraph(writeOnnxModel(buildBertGraph(tinyShape(30_522, 7)).graph));
  t = await createTestApp({ dataDir, config: { mlNodes: [{ name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 8 }] } });
  expect((await t.request('PUT', URL, { input: { field_names: ['text_field'] } })).status).toBe(200);
});
afterEach(async () => {
  await t.request('POST', `${URL}/deployment/_stop?force=true`);
  await t.request('POST', '/_ml/trained_models/_all/deployment/_stop?force=true');
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

describe('simulate: bert-base', () => {
  it('keeps the built-in vectors and says it is simulated in _infer, _stats and the assignment', async () => {
    expect((await t.request('POST', `${URL}/deployment/_start?deployment_id=plain&wait_for=started`)).status).toBe(200);
    const plain = await t.request('POST', '/_ml/trained_models/plain/_infer', { docs: TEXTS.map((text_field) => ({ text_field })) });
    expect(plain.body.simulation).toBeUndefined();

    const start = await t.request('POST', `${URL}/deployment/_start?wait_for=started&timeout=120s&threads_per_allocation=2`, { simulate: 'bert-base' });
    expect(start.status).toBe(200);
    expect(start.body.assignment.task_parameters).toMatchObject({ simulate: 'bert-base', threads_per_allocation: 2 });
    const sim = await t.request('POST', `${URL}/_infer`, { docs: TEXTS.map((text_field) => ({ text_field })) });
    expect(sim.status).toBe(200);
    expect(sim.body.inference_results).toEqual(plain.body.inference_results);
    expect(sim.body.simulation).toEqual({ graph: 'bert-base', note: expect.stringMatching(/^simulation mode: every inference also runs a bert-base graph/) });
    const stats = (await t.request('GET', `${URL}/_stats`)).body.trained_model_stats.find((s: any) => s.deployment_stats?.deployment_id === MODEL);
    expect(stats.deployment_stats.simulation.graph).toBe('bert-base');
    expect(stats.deployment_stats.inference_count).toBe(TEXTS.length);
    // The stored deployment keeps the setting (it restarts simulated).
    expect((await t.request('GET', '/_ml/trained_models/plain/_stats')).body.trained_model_stats[0].deployment_stats.simulation).toBeUndefined();
  });

  it('also runs through the inference processor', async () => {
    expect((await t.request('POST', `${URL}/deployment/_start?wait_for=started&timeout=120s&simulate=bert-base`)).status).toBe(200);
    await t.request('PUT', '/_ingest/pipeline/sim', { processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'text', output_field: 'emb' }] } }] });
    const res = await t.request('POST', '/_ingest/pipeline/sim/_simulate', { docs: [{ _source: { text: TEXTS[0] } }] });
    expect(res.body.docs[0].doc._source.emb.octopus).toBeGreaterThan(0);
  });

  it('refuses unknown graphs, user models, and fails clearly on a damaged graph', async () => {
    expectErrorType(await t.request('POST', `${URL}/deployment/_start?simulate=gpt-9`), 400, 'illegal_argument_exception', '[simulate] must be one of [bert-base] but was [gpt-9]');
    const user = writeTinyModel(join(root, 'user-model'));
    expect((await t.request('PUT', '/_ml/trained_models/user-model', { input: { field_names: ['t'] }, location: { local: { path: user.dir } } })).status).toBe(200);
    expectErrorType(await t.request('POST', '/_ml/trained_models/user-model/deployment/_start?simulate=bert-base'), 400, 'status_exception', /\[simulate\] applies to built-in models only/);
    placeGraph(new TextEncoder().encode('damaged'));
    try {
      const res = await t.request('POST', `${URL}/deployment/_start?simulate=bert-base&wait_for=started&timeout=60s`);
      expectErrorType(res, 500, 'status_exception', /^Could not start trained model deployment, the following nodes failed with errors \[\{ml-1=.*cannot load the model graph/);
      // The built-in model still deploys without simulation.
      expect((await t.request('POST', `${URL}/deployment/_start?wait_for=started`)).status).toBe(200);
    } finally {
      placeGraph(writeOnnxModel(buildBertGraph(tinyShape(30_522, 7)).graph));
    }
  });
});
