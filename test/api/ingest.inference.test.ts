/**
 * The inference processor (es-api.md §4.3) against the built-in `.sparse_model_2` deployment:
 * `input_output` writes `{token: weight}` and `model_id` exactly where ES writes them, the legacy
 * `target_field` + `field_map` form, `ignore_missing`, ES's errors (not deployed, unknown model,
 * non-text input), one model request per bulk, the mis-mapping total-fields error per item, and the
 * whole semantic workflow from an empty server to a `text_expansion` hit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { float32ToJson } from '../../src/common/float-json.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError, expectErrorType } from './es.js';

const MODEL = '.sparse_model_2';
let t: TestApp;

async function deploy(app: TestApp): Promise<void> {
  expect((await app.request('PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } })).status).toBe(200);
  expect((await app.request('POST', `/_ml/trained_models/${MODEL}/deployment/_start?wait_for=started`)).status).toBe(200);
}

async function waitForTask(app: TestApp, id: string): Promise<TestResponse> {
  for (let i = 0; i < 1000; i++) {
    const res = await app.request('GET', `/_tasks/${id}`);
    if (res.body.completed) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${id} did not complete`);
}

/** Token weights as ES writes Java floats into _source: shortest float32 decimals. */
function expectFloatWeights(tokens: Record<string, unknown>): void {
  expect(Object.keys(tokens).length).toBeGreaterThan(0);
  for (const w of Object.values(tokens)) {
    expect(typeof w).toBe('number');
    expect(String(w)).toBe(float32ToJson(Math.fround(w as number)));
  }
}

const TEXT = 'The octopus hides in a coral reef near the sea floor';

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
});
afterAll(async () => t.close());

describe('before the model is deployed', () => {
  it('fails the document with 404 for an unknown model and 409 for a model without deployment', async () => {
    await t.request('PUT', '/_ingest/pipeline/unknown-model', { processors: [{ inference: { model_id: 'nope', input_output: { input_field: 'text', output_field: 'emb' } } }] });
    expectEsError(await t.request('PUT', '/pre/_doc/1?pipeline=unknown-model', { text: 'x' }), 404, 'resource_not_found_exception', 'Could not find trained model [nope]');
    await t.request('PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
    await t.request('PUT', '/_ingest/pipeline/undeployed', { processors: [{ inference: { model_id: MODEL, input_output: { input_field: 'text', output_field: 'emb' } } }] });
    expectErrorType(await t.request('PUT', '/pre/_doc/1?pipeline=undeployed', { text: 'x' }), 409, 'status_exception');
    await t.request('DELETE', `/_ml/trained_models/${MODEL}`);
  });
});

describe('inference processor', () => {
  beforeAll(async () => deploy(t));

  it('refuses invalid definitions with ES messages', async () => {
    const put = (inference: unknown) => t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ inference }] });
    expectEsError(await put({ input_output: { input_field: 'a' } }), 400, 'parse_exception', '[model_id] required property is missing', { processor_type: 'inference', property_name: 'model_id' });
    expectEsError(await put({ model_id: MODEL, input_output: [] }), 400, 'parse_exception', '[input_output] property cannot be empty at least one is required', { processor_type: 'inference', property_name: 'input_output' });
    expectEsError(await put({ model_id: MODEL, target_field: 'x', input_output: { input_field: 'a', output_field: 'b' } }), 400, 'parse_exception',
      '[target_field] option is incompatible with [input_output]. Use the [output_field] option to specify where to write the inference results to.', { processor_type: 'inference', property_name: 'target_field' });
    expectEsError(await put({ model_id: MODEL, input_output: [{ input_field: 'a', output_field: 'x' }, { input_field: 'a', output_field: 'y' }] }), 400, 'parse_exception',
      '[input_field] names must be unique but [a] is repeated', { processor_type: 'inference', property_name: 'input_field' });
    expectEsError(await put({ model_id: MODEL, input_output: { output_field: 'b' } }), 400, 'parse_exception', '[input_field] required property is missing', { processor_type: 'inference', property_name: 'input_field' });
  });

  it('writes tokens at the output field and model_id at the document root (no dot in output_field)', async () => {
    await t.request('PUT', '/_ingest/pipeline/elser', { processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'content', output_field: 'content_embedding' }] } }] });
    const res = await t.request('POST', '/_ingest/pipeline/elser/_simulate', { docs: [{ _source: { content: TEXT } }] });
    const src = res.body.docs[0].doc._source;
    expect(Object.keys(src)).toEqual(['content', 'content_embedding', 'model_id']);
    expect(src.model_id).toBe(MODEL);
    expectFloatWeights(src.content_embedding);
    expect(src.content_embedding.octopus).toBeGreaterThan(0);
    // The same weights the _infer API gives, rendered the same way.
    const infer = await t.request('POST', `/_ml/trained_models/${MODEL}/_infer`, { docs: [{ text_field: TEXT }] });
    expect(src.content_embedding).toEqual(infer.body.inference_results[0].predicted_value);
  });

  it('writes under the base path of a dotted output field, model_id only for the first entry', async () => {
    const res = await t.request('POST', '/_ingest/pipeline/_simulate', {
      pipeline: { processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'a', output_field: 'a_exp' }, { input_field: 'b', output_field: 'x.b_exp' }] } }] },
      docs: [{ _source: { a: 'coral reef', b: 'deep sea' } }],
    });
    const src = res.body.docs[0].doc._source;
    expect(src.model_id).toBe(MODEL);
    expectFloatWeights(src.a_exp);
    expect(Object.keys(src.x)).toEqual(['b_exp']);
    expectFloatWeights(src.x.b_exp);
  });

  it('supports the legacy target_field + field_map form', async () => {
    const res = await t.request('POST', '/_ingest/pipeline/_simulate', {
      pipeline: { processors: [{ inference: { model_id: MODEL, target_field: 'ml', field_map: { text: 'text_field' }, inference_config: { text_expansion: { results_field: 'tokens' } } } }] },
      docs: [{ _source: { text: TEXT } }],
    });
    const ml = res.body.docs[0].doc._source.ml;
    expect(Object.keys(ml)).toEqual(['tokens', 'model_id']);
    expect(ml.model_id).toBe(MODEL);
    expectFloatWeights(ml.tokens);
  });

  it('skips the processor when the first input is missing with ignore_missing, and fails without it', async () => {
    const pipeline = (ignore: boolean) => ({ processors: [{ inference: { model_id: MODEL, ignore_missing: ignore, input_output: [{ input_field: 'a', output_field: 'a_exp' }, { input_field: 'b', output_field: 'b_exp' }] } }] });
    const skipped = await t.request('POST', '/_ingest/pipeline/_simulate', { pipeline: pipeline(true), docs: [{ _source: { b: 'sea' } }, { _source: { a: 'sea' } }] });
    expect(skipped.body.docs[0].doc._source).toEqual({ b: 'sea' });
    // A missing later input is inferred as the empty string.
    expect(Object.keys(skipped.body.docs[1].doc._source)).toEqual(['a', 'a_exp', 'model_id', 'b_exp']);
    const failed = await t.request('POST', '/_ingest/pipeline/_simulate', { pipeline: pipeline(false), docs: [{ _source: { b: 'sea' } }, { _source: { a: 1, b: 'x' } }] });
    expect(failed.body.docs[0].error.reason).toBe('field [a] not present as part of path [a]');
    expect(failed.body.docs[1].error).toMatchObject({ type: 'status_exception', reason: 'input field [a] cannot be processed because it is not a text field' });
  });

  it('appends to an output field that already holds a value, as ES does', async () => {
    const res = await t.request('POST', '/_ingest/pipeline/elser/_simulate', { docs: [{ _source: { content: 'sea', content_embedding: { old: 1 } } }] });
    const src = res.body.docs[0].doc._source;
    expect(Array.isArray(src.content_embedding)).toBe(true);
    expect(src.content_embedding[0]).toEqual({ old: 1 });
  });

  it('sends a whole bulk to the model deployment in one request', async () => {
    const spy = vi.spyOn(t.app.ml, 'infer');
    const lines: unknown[] = [];
    for (let i = 0; i < 20; i++) lines.push({ index: { _index: 'batched', _id: String(i) } }, { content: `document ${i} about the sea` });
    const res = await t.bulk('/_bulk?pipeline=elser', lines);
    expect(res.body.errors).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0][1]).toHaveLength(20);
    spy.mockRestore();
  });

  it('turns each token into a mapped field of an unmapped output and fails items past the total fields limit, losing nothing else', async () => {
    await t.request('PUT', '/mismapped', { settings: { 'index.mapping.total_fields.limit': 40 } });
    const lines: unknown[] = [
      { index: { _index: 'mismapped', _id: 'long' } }, { content: 'octopus coral reef sea floor ocean fish whale dolphin shark tide wave beach sand shell crab kelp current' },
      { index: { _index: 'mismapped', _id: 'plain' } }, { title: 'no content, so the processor fails on its own' },
    ];
    const res = await t.bulk('/_bulk?pipeline=elser&refresh=true', lines);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(400);
    expect(res.body.items[0].index.error).toMatchObject({ type: 'document_parsing_exception', caused_by: { type: 'illegal_argument_exception' } });
    expect(res.body.items[0].index.error.reason).toMatch(/failed to parse: Limit of total fields \[40\] has been exceeded while adding new fields \[\d+\]$/);
    expect(res.body.items[1].index.error.reason).toBe('field [content] not present as part of path [content]');
    const short = await t.request('PUT', '/mismapped/_doc/short?pipeline=elser&refresh=true', { content: 'sea' });
    expect(short.status).toBe(201);
    const mapping = (await t.request('GET', '/mismapped/_mapping')).body.mismapped.mappings.properties;
    expect(mapping.content_embedding.properties).toBeDefined();
    expect(Object.values(mapping.content_embedding.properties).every((f: any) => f.type === 'float')).toBe(true);
  });
});

describe('the semantic workflow from an empty server', () => {
  it('deploy → sparse_vector index → pipeline → reindex task polled → text_expansion hit with tokens and model_id', async () => {
    const app = await createTestApp({ threads: 2 });
    try {
      await deploy(app);
      const docs = [
        ['1', 'The octopus hides in a coral reef near the sea floor.'],
        ['2', 'Stock markets fell sharply as investors sold bank shares.'],
        ['3', 'A recipe for bread: flour, water, salt and yeast.'],
      ];
      const lines = docs.flatMap(([id, content]) => [{ index: { _index: 'articles', _id: id } }, { content }]);
      expect((await app.bulk('/_bulk?refresh=true', lines)).body.errors).toBe(false);
      expect((await app.request('PUT', '/articles-semantic', { mappings: { properties: { content: { type: 'text' }, content_embedding: { type: 'sparse_vector' } } } })).status).toBe(200);
      expect((await app.request('PUT', '/_ingest/pipeline/elser-v2', {
        processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'content', output_field: 'content_embedding' }] } }],
      })).body).toEqual({ acknowledged: true });
      const started = await app.request('POST', '/_reindex?wait_for_completion=false', {
        source: { index: 'articles', size: 2 }, dest: { index: 'articles-semantic', pipeline: 'elser-v2' },
      });
      const done = await waitForTask(app, started.body.task);
      expect(done.body.response).toMatchObject({ total: 3, created: 3, batches: 2, failures: [] });
      await app.request('POST', '/articles-semantic/_refresh');
      const res = await app.request('POST', '/articles-semantic/_search', {
        query: { text_expansion: { content_embedding: { model_id: MODEL, model_text: 'octopus in the ocean' } } },
      });
      expect(res.status).toBe(200);
      const top = res.body.hits.hits[0];
      expect(top._id).toBe('1');
      expect(top._source.model_id).toBe(MODEL);
      expect(top._source.content).toBe(docs[0][1]);
      expectFloatWeights(top._source.content_embedding);
      expect(top._source.content_embedding.octopus).toBeGreaterThan(0);
      const mapping = (await app.request('GET', '/articles-semantic/_mapping')).body['articles-semantic'].mappings.properties;
      expect(mapping.content_embedding).toEqual({ type: 'sparse_vector' });
    } finally {
      await app.close();
    }
  });
});
