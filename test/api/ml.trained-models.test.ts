/**
 * Trained model configs — `PUT|GET|DELETE /_ml/trained_models/<id>` and `GET …/_stats`
 * (es-api.md §5.1–5.3): only the built-in `.sparse_model_2` can be registered; PUT registers it
 * at once (nothing to download) and it is `fully_defined`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, expectErrorType } from './es.js';

const MODEL = '.sparse_model_2';
const URL = `/_ml/trained_models/${MODEL}`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('before the model is registered', () => {
  it('GET of the id is 404 and of _all is an empty list', async () => {
    expectEsError(await t.request('GET', URL), 404, 'resource_not_found_exception', `No known trained model with model_id [${MODEL}]`);
    expect((await t.request('GET', '/_ml/trained_models')).body).toEqual({ count: 0, trained_model_configs: [] });
    expectEsError(await t.request('GET', '/_ml/trained_models?allow_no_match=false'), 404, 'resource_not_found_exception', 'No known trained model with model_id [*]');
  });

  it('_infer of the unregistered model is 404 Could not find trained model', async () => {
    expectEsError(await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: 'x' }] }), 404, 'resource_not_found_exception', `Could not find trained model [${MODEL}]`);
  });
});

describe('PUT /_ml/trained_models/<id>', () => {
  it('refuses models that are not built in, and model definitions', async () => {
    const other = await t.request('PUT', '/_ml/trained_models/my-bert', { input: { field_names: ['text'] } });
    expectErrorType(other, 400, 'status_exception', /^Cannot create model \[my-bert\]: besides the built-in models \[\.sparse_model_2\], this server loads ONNX models from a local folder; give its path as \[location\.local\.path\] or place one at \[.*models\/my-bert\]; uploading model definitions is not supported$/);
    const withDefinition = await t.request('PUT', URL, { input: { field_names: ['text'] }, compressed_definition: 'H4sI' });
    expectErrorType(withDefinition, 400, 'status_exception', /uploading model definitions is not supported/);
  });

  it.each([
    ['malformed JSON', '{"input": ', 'x_content_parse_exception'],
    ['an unknown field', { input: { field_names: ['t'] }, colour: 'red' }, 'x_content_parse_exception'],
    ['an unknown field in input', { input: { field_names: ['t'], other: 1 } }, 'x_content_parse_exception'],
    ['input of the wrong type', { input: 5 }, 'x_content_parse_exception'],
    ['field_names of the wrong type', { input: { field_names: [{}] } }, 'x_content_parse_exception'],
    ['no input', { description: 'x' }, 'illegal_argument_exception'],
    ['empty field_names', { input: { field_names: [] } }, 'illegal_argument_exception'],
    ['a body that is not an object', '[1]', 'parsing_exception'],
    ['another model type', { input: { field_names: ['t'] }, model_type: 'tree_ensemble' }, 'status_exception'],
    ['an inconsistent model_id', { model_id: 'other', input: { field_names: ['t'] } }, 'status_exception'],
  ])('is 400 for %s', async (_name, body, type) => {
    expectErrorType(await t.request('PUT', URL, body), 400, type);
  });

  it('names the unknown field as ES does', async () => {
    const res = await t.request('PUT', URL, { input: { field_names: ['t'] }, colour: 'red' });
    expect(res.body.error.reason).toBe('[1:32] [trained_model_config] unknown field [colour]');
  });

  it('registers the built-in model at once, fully defined, and refuses it twice', async () => {
    const res = await t.request('PUT', URL, { input: { field_names: ['text_field'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      model_id: MODEL, model_type: 'pytorch', created_by: 'api_user', input: { field_names: ['text_field'] },
      inference_config: { text_expansion: { tokenization: { bert: { max_sequence_length: 512, truncate: 'first' } } } },
    });
    expect(res.body.model_size_bytes).toBeGreaterThan(0);
    expect(res.body.metadata.per_allocation_memory_bytes).toBeGreaterThan(0);
    expect(res.body.fully_defined).toBeUndefined();
    expectEsError(await t.request('PUT', URL, { input: { field_names: ['text_field'] } }), 400, 'resource_already_exists_exception', `Trained machine learning model [${MODEL}] already exists`);
  });
});

describe('GET /_ml/trained_models[/<id>]', () => {
  it('lists by id, wildcard, comma list and _all; include=definition_status adds fully_defined', async () => {
    for (const id of [MODEL, '.sparse*', '_all', `${MODEL},.sparse*`, '*']) {
      const res = await t.request('GET', `/_ml/trained_models/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(1);
      expect(res.body.trained_model_configs[0].model_id).toBe(MODEL);
    }
    const status = await t.request('GET', `${URL}?include=definition_status`);
    expect(status.body.trained_model_configs[0].fully_defined).toBe(true);
  });

  it('is 404 for a concrete id that matches nothing, even beside one that does', async () => {
    expectEsError(await t.request('GET', `/_ml/trained_models/${MODEL},nope`), 404, 'resource_not_found_exception', 'No known trained model with model_id [nope]');
  });

  it('allows a wildcard to match nothing unless allow_no_match=false', async () => {
    expect((await t.request('GET', '/_ml/trained_models/x*')).body).toEqual({ count: 0, trained_model_configs: [] });
    expectEsError(await t.request('GET', '/_ml/trained_models/x*?allow_no_match=false'), 404, 'resource_not_found_exception', 'No known trained model with model_id [x*]');
  });

  it('refuses an unknown include, a bad boolean and unknown parameters', async () => {
    expectErrorType(await t.request('GET', `${URL}?include=everything`), 400, 'illegal_argument_exception', /unknown value \[everything\] for \[include\]/);
    expectErrorType(await t.request('GET', `${URL}?allow_no_match=maybe`), 400, 'illegal_argument_exception');
    expectErrorType(await t.request('GET', `${URL}?colour=red`), 400, 'illegal_argument_exception', /contains unrecognized parameter: \[colour\]/);
    expectErrorType(await t.request('GET', `${URL}?size=99999999999`), 400, 'illegal_argument_exception', 'Failed to parse int parameter [size] with value [99999999999]');
  });
});

describe('GET /_ml/trained_models/<id>/_stats without a deployment', () => {
  it('reports the model with its memory requirement and no deployment_stats', async () => {
    const res = await t.request('GET', `${URL}/_stats`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const s = res.body.trained_model_stats[0];
    expect(s.model_id).toBe(MODEL);
    expect(s.model_size_stats.required_native_memory_bytes).toBeGreaterThanOrEqual(240 * 1024 * 1024);
    expect(s.pipeline_count).toBe(0);
    expect(s.deployment_stats).toBeUndefined();
    expect(s.inference_stats.inference_count).toBe(0);
    expectEsError(await t.request('GET', '/_ml/trained_models/nope/_stats'), 404, 'resource_not_found_exception', 'No known trained model with model_id [nope]');
  });
});

describe('DELETE /_ml/trained_models/<id>', () => {
  it('is 404 for an unknown id', async () => {
    expectEsError(await t.request('DELETE', '/_ml/trained_models/nope'), 404, 'resource_not_found_exception', 'No known trained model with model_id [nope]');
  });

  it('is 409 while deployed (unless forced) and removes the model otherwise', async () => {
    expect((await t.request('POST', `${URL}/deployment/_start`)).status).toBe(200);
    expectEsError(await t.request('DELETE', URL), 409, 'status_exception', `Cannot delete model [${MODEL}] as it is currently deployed; use force to delete the model`);
    expect((await t.request('DELETE', `${URL}?force=true`)).body).toEqual({ acknowledged: true });
    expect((await t.request('GET', '/_ml/trained_models')).body.count).toBe(0);
    expect((await t.request('PUT', URL, { input: { field_names: ['text_field'] } })).status).toBe(200);
    expect((await t.request('DELETE', URL)).body).toEqual({ acknowledged: true });
  });
});
