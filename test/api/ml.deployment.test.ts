/**
 * Model deployments — `POST /_ml/trained_models/<id>/deployment/_start|_stop|_update`, `_infer`
 * and the deprecated `deployment/_infer`, and `_stats` (es-api.md §5.3–5.5), on simulated ML nodes
 * (`--ml-nodes`): placement, partial allocation, shared and freed capacity, the bounded queue.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EsError } from '../../src/errors/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, expectErrorType } from './es.js';

const GB = 1024 ** 3;
const MODEL = '.sparse_model_2';
const URL = `/_ml/trained_models/${MODEL}`;
let t: TestApp;

beforeAll(async () => {
  // One simulated node with 2 processors, one too small to be an ML node.
  t = await createTestApp({ config: { mlNodes: [{ name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 2 }, { name: 'small', memoryBytes: 2 * GB, allocatedProcessors: 8 }] } });
  expect((await t.request('PUT', URL, { input: { field_names: ['text_field'] } })).status).toBe(200);
});
afterAll(async () => t.close());
afterEach(async () => {
  await t.request('POST', '/_ml/trained_models/_all/deployment/_stop');
});

async function deploymentStats(id = MODEL): Promise<any> {
  const res = await t.request('GET', `/_ml/trained_models/${id}/_stats`);
  expect(res.status).toBe(200);
  return res.body.trained_model_stats.find((s: any) => s.deployment_stats?.deployment_id === id)?.deployment_stats;
}

/** The deployment's stats once `count` allocations have started (or after ~5 s: a loaded machine starts threads slowly). */
async function statsWithAllocations(id: string, count: number): Promise<any> {
  let s = await deploymentStats(id);
  for (let i = 0; i < 200 && s.allocation_status.allocation_count < count; i++) {
    await new Promise((r) => setTimeout(r, 25));
    s = await deploymentStats(id);
  }
  return s;
}

describe('_start', () => {
  it('starts a deployment and answers with the assignment', async () => {
    const res = await t.request('POST', `${URL}/deployment/_start?wait_for=fully_allocated`);
    expect(res.status).toBe(200);
    expect(res.body.assignment).toMatchObject({
      task_parameters: { model_id: MODEL, deployment_id: MODEL, threads_per_allocation: 1, number_of_allocations: 1, queue_capacity: 1024, priority: 'normal' },
      routing_table: { 'ml-1': { current_allocations: 1, target_allocations: 1, routing_state: 'started', reason: '' } },
      assignment_state: 'started',
      max_assigned_allocations: 1,
    });
    expect(res.body.assignment.start_time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(res.body.assignment.task_parameters.per_allocation_memory_bytes).toBeGreaterThan(0);
  });

  it('refuses a second deployment with the same id', async () => {
    await t.request('POST', `${URL}/deployment/_start`);
    expectEsError(await t.request('POST', `${URL}/deployment/_start`), 400, 'status_exception', `Could not start model deployment because an existing deployment with the same id [${MODEL}] exist`);
  });

  it.each([
    ['threads_per_allocation=3', 'Validation Failed: 1: [threads_per_allocation] must be a power of 2 less than or equal to 32;'],
    ['threads_per_allocation=64', 'Validation Failed: 1: [threads_per_allocation] must be a power of 2 less than or equal to 32;'],
    ['number_of_allocations=0', 'Validation Failed: 1: [number_of_allocations] must be a positive integer;'],
    ['queue_capacity=0', 'Validation Failed: 1: [queue_capacity] must be a positive integer;'],
    ['queue_capacity=200000', 'Validation Failed: 1: [queue_capacity] must be less than 100000;'],
    ['priority=low&number_of_allocations=2', 'Validation Failed: 1: [number_of_allocations] must be 1 when [priority] is low;'],
  ])('validates %s as ES does', async (query, reason) => {
    expectEsError(await t.request('POST', `${URL}/deployment/_start?${query}`), 400, 'action_request_validation_exception', reason);
  });

  it.each([
    ['number_of_allocations=99999999999', 'illegal_argument_exception', 'Failed to parse int parameter [number_of_allocations] with value [99999999999]'],
    ['threads_per_allocation=two', 'illegal_argument_exception', 'Failed to parse int parameter [threads_per_allocation] with value [two]'],
    ['wait_for=done', 'illegal_argument_exception', 'No enum constant org.elasticsearch.xpack.core.ml.inference.assignment.AllocationStatus.State.DONE'],
    ['timeout=soon', 'parse_exception', 'failed to parse setting [timeout] with value [soon] as a time value: unit is missing or unrecognized'],
    ['cache_size=big', 'parse_exception', 'failed to parse setting [cache_size] with value [big] as a size in bytes: unit is missing or unrecognized'],
  ])('refuses %s', async (query, type, reason) => {
    expectEsError(await t.request('POST', `${URL}/deployment/_start?${query}`), 400, type, reason);
  });

  it('refuses unknown parameters and body fields, and unknown models', async () => {
    expectErrorType(await t.request('POST', `${URL}/deployment/_start?threads=2`), 400, 'illegal_argument_exception', /unrecognized parameter: \[threads\]/);
    expectErrorType(await t.request('POST', `${URL}/deployment/_start`, { threads: 2 }), 400, 'x_content_parse_exception', /unknown field \[threads\]/);
    expectErrorType(await t.request('POST', `${URL}/deployment/_start`, '{"number_of'), 400, 'x_content_parse_exception');
    expectEsError(await t.request('POST', '/_ml/trained_models/nope/deployment/_start'), 404, 'resource_not_found_exception', 'No known trained model with model_id [nope]');
  });

  it('takes parameters from the body too (8.16+ clients)', async () => {
    const res = await t.request('POST', `${URL}/deployment/_start`, { number_of_allocations: 2, queue_capacity: 10, deployment_id: 'from-body' });
    expect(res.status).toBe(200);
    expect(res.body.assignment.task_parameters).toMatchObject({ deployment_id: 'from-body', number_of_allocations: 2, queue_capacity: 10 });
  });

  it('is 429 with the placement explanation when no node can take a single allocation', async () => {
    const res = await t.request('POST', `${URL}/deployment/_start?threads_per_allocation=4`);
    expect(res.status).toBe(429);
    expect(res.body.error.type).toBe('status_exception');
    expect(res.body.error.reason).toBe('Could not start deployment because no ML nodes with sufficient capacity were found');
    expect(res.body.error.caused_by.type).toBe('illegal_state_exception');
    expect(res.body.error.caused_by.reason).toBe(
      'Could not start deployment because no suitable nodes were found, allocation explanation [' +
        'Could not assign (more) allocations on node [ml-1]. Reason: This node has insufficient allocated processors. Available processors [2], free processors [2], processors required for each allocation of this model [4].|' +
        'Could not assign (more) allocations on node [small]. Reason: This node is not an ML node: it has [2gb] of memory, less than the [4gb] an ML node needs.]',
    );
    // Nothing was left behind.
    expect(await deploymentStats()).toBeUndefined();
  });

  it('starts partially allocated when only some allocations fit; wait_for=fully_allocated then times out', async () => {
    const res = await t.request('POST', `${URL}/deployment/_start?number_of_allocations=3&wait_for=fully_allocated&timeout=1s`);
    expectEsError(res, 408, 'model_deployment_timeout_exception', `Timed out after [1s] waiting for trained model deployment [${MODEL}] to start. Use the trained model stats API to track the state of the deployment and try again once it has started.`);
    const s = await statsWithAllocations(MODEL, 2);
    expect(s.state).toBe('started');
    expect(s.allocation_status).toEqual({ allocation_count: 2, target_allocation_count: 3, state: 'started' });
    expect(s.reason).toContain('insufficient allocated processors');
    // It serves requests meanwhile.
    expect((await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: 'partial' }] })).status).toBe(200);
  });

  it('shares node capacity between deployments, and a stop frees it for a partially allocated one', async () => {
    expect((await t.request('POST', `${URL}/deployment/_start?deployment_id=first&wait_for=fully_allocated`)).status).toBe(200);
    const second = await t.request('POST', `${URL}/deployment/_start?deployment_id=second&number_of_allocations=2`);
    expect(second.status).toBe(200);
    expect(second.body.assignment.routing_table['ml-1'].target_allocations).toBe(1);
    expectErrorType(await t.request('POST', `${URL}/deployment/_start?deployment_id=third`), 429, 'status_exception', 'Could not start deployment because no ML nodes with sufficient capacity were found');
    expect((await t.request('POST', '/_ml/trained_models/first/deployment/_stop')).body).toEqual({ stopped: true });
    // The freed processor goes to the partially allocated deployment.
    const s = await statsWithAllocations('second', 2);
    expect(s.allocation_status).toEqual({ allocation_count: 2, target_allocation_count: 2, state: 'fully_allocated' });
  });
});

describe('_infer', () => {
  it('returns predicted_value token weights per doc, by model id, deployment id and the deprecated path', async () => {
    await t.request('POST', `${URL}/deployment/_start?deployment_id=my-elser`);
    const body = { docs: [{ text_field: 'muscle soreness after running' }, { text_field: 'the cat sat' }] };
    const res = await t.request('POST', `${URL}/_infer`, body);
    expect(res.status).toBe(200);
    expect(res.body.inference_results).toHaveLength(2);
    const first = res.body.inference_results[0].predicted_value as Record<string, number>;
    expect(Object.keys(first)).toContain('muscle');
    const weights = Object.values(first);
    expect(weights.every((w) => w > 0)).toBe(true);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
    expect(res.body.inference_results[0].is_truncated).toBeUndefined();
    expect((await t.request('POST', '/_ml/trained_models/my-elser/_infer', body)).body).toEqual(res.body);
    expect((await t.request('POST', '/_ml/trained_models/my-elser/deployment/_infer', body)).body).toEqual(res.body);
  });

  it('marks inputs longer than 512 wordpieces is_truncated', async () => {
    await t.request('POST', `${URL}/deployment/_start`);
    const long = Array.from({ length: 700 }, (_, i) => `word${i % 50}`).join(' ');
    const res = await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: long }] });
    expect(res.status).toBe(200);
    expect(res.body.inference_results[0].is_truncated).toBe(true);
  });

  it('honours inference_config.text_expansion.results_field', async () => {
    await t.request('POST', `${URL}/deployment/_start`);
    const res = await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: 'cat' }], inference_config: { text_expansion: { results_field: 'tokens' } } });
    expect(Object.keys(res.body.inference_results[0])).toEqual(['tokens']);
  });

  it('is 409 when the model is registered but not deployed', async () => {
    expectEsError(await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: 'x' }] }), 409, 'status_exception', `Model [${MODEL}] must be deployed to use. Please deploy with the start trained model deployment API.`);
  });

  it('is 404 for an unknown id', async () => {
    expectEsError(await t.request('POST', '/_ml/trained_models/nope/_infer', { docs: [{ text_field: 'x' }] }), 404, 'resource_not_found_exception', 'Could not find trained model [nope]');
  });

  it.each([
    ['a doc without the input field', { docs: [{ body: 'x' }] }, 'status_exception', 'Input field [text_field] does not exist in the request document'],
    ['a non-string input', { docs: [{ text_field: 5 }] }, 'status_exception', 'Input value [5] for field [text_field] must be a string'],
    ['no docs', {}, 'illegal_argument_exception', 'Validation Failed: 1: at least one document is required;'],
    ['docs that are not an array', { docs: 'x' }, 'x_content_parse_exception', undefined],
    ['an unknown field', { docs: [{ text_field: 'x' }], extra: 1 }, 'x_content_parse_exception', undefined],
    ['another task type', { docs: [{ text_field: 'x' }], inference_config: { ner: {} } }, 'status_exception', 'Trained model is configured for task [text_expansion] but called with task [ner]'],
    ['malformed JSON', '{"docs": [', 'x_content_parse_exception', undefined],
  ])('is 400 for %s', async (_name, body, type, reason) => {
    await t.request('POST', `${URL}/deployment/_start`);
    expectErrorType(await t.request('POST', `${URL}/_infer`, body), 400, type, reason);
  });

  it('rejects requests beyond queue_capacity with ES\'s 429 while the allocation is busy, and counts them', async () => {
    await t.request('POST', `${URL}/deployment/_start?queue_capacity=1`);
    // Synchronous calls: the first takes the only allocation, the second fills the queue.
    const big = Array.from({ length: 200 }, (_, i) => `document ${i} about muscles, running and soreness`);
    const running = t.app.ml.infer(MODEL, big);
    const queued = t.app.ml.infer(MODEL, ['queued']);
    const rejected = await t.app.ml.infer(MODEL, ['rejected']).then(() => null, (e: unknown) => e);
    expect(rejected).toBeInstanceOf(EsError);
    expect((rejected as EsError).toBody()).toEqual({
      error: {
        root_cause: [{ type: 'es_rejected_execution_exception', reason: 'inference process queue is full. Unable to execute command' }],
        type: 'es_rejected_execution_exception',
        reason: 'inference process queue is full. Unable to execute command',
      },
      status: 429,
    });
    expect((await running).length).toBe(200);
    expect((await queued).length).toBe(1);
    const s = await deploymentStats();
    expect(s.rejected_execution_count).toBe(1);
    expect(s.nodes[0].rejected_execution_count).toBe(1);
    expect(s.inference_count).toBe(201);
  });
});

describe('_stats of a deployment', () => {
  it('reports measured per-node figures', async () => {
    await t.request('POST', `${URL}/deployment/_start?number_of_allocations=2&wait_for=fully_allocated`);
    for (let i = 0; i < 3; i++) await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: `text ${i}` }, { text_field: 'more' }] });
    const s = await deploymentStats();
    expect(s).toMatchObject({
      deployment_id: MODEL, model_id: MODEL, threads_per_allocation: 1, number_of_allocations: 2, queue_capacity: 1024, state: 'started',
      allocation_status: { allocation_count: 2, target_allocation_count: 2, state: 'fully_allocated' }, priority: 'normal', inference_count: 6,
    });
    expect(s.rejected_execution_count).toBeUndefined();
    expect(s.nodes).toHaveLength(1);
    const n = s.nodes[0];
    expect(Object.keys(n.node)).toEqual(['ml-1']);
    expect(n.node['ml-1'].name).toBe('ml-1');
    expect(n.routing_state).toEqual({ routing_state: 'started' });
    expect(n.inference_count).toBe(6);
    expect(n.average_inference_time_ms).toBeGreaterThan(0);
    expect(n.number_of_pending_requests).toBe(0);
    expect(n.number_of_allocations).toBe(2);
    expect(n.throughput_last_minute).toBe(6);
    const top = (await t.request('GET', `${URL}/_stats`)).body.trained_model_stats[0];
    expect(top.inference_stats.inference_count).toBe(6);
    expect(top.model_size_stats.required_native_memory_bytes).toBeGreaterThan(top.model_size_stats.model_size_bytes);
  });
});

describe('_update and _stop', () => {
  it('changes the number of allocations up and down', async () => {
    await t.request('POST', `${URL}/deployment/_start`);
    const up = await t.request('POST', `${URL}/deployment/_update`, { number_of_allocations: 2 });
    expect(up.status).toBe(200);
    expect(up.body.assignment.task_parameters.number_of_allocations).toBe(2);
    let s = await deploymentStats();
    for (let i = 0; i < 200 && s.allocation_status.allocation_count < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
      s = await deploymentStats();
    }
    expect(s.allocation_status.allocation_count).toBe(2);
    const down = await t.request('POST', `${URL}/deployment/_update`, { number_of_allocations: 1 });
    expect(down.body.assignment.routing_table['ml-1']).toMatchObject({ current_allocations: 1, target_allocations: 1 });
    expect((await t.request('POST', `${URL}/_infer`, { docs: [{ text_field: 'still works' }] })).status).toBe(200);
  });

  it('refuses bad updates', async () => {
    await t.request('POST', `${URL}/deployment/_start`);
    expectEsError(await t.request('POST', '/_ml/trained_models/nope/deployment/_update', { number_of_allocations: 2 }), 404, 'resource_not_found_exception', 'No known model deployment with id [nope]');
    expectEsError(await t.request('POST', `${URL}/deployment/_update`, { number_of_allocations: 0 }), 400, 'action_request_validation_exception', 'Validation Failed: 1: [number_of_allocations] must be a positive integer;');
    expectErrorType(await t.request('POST', `${URL}/deployment/_update`, {}), 400, 'illegal_argument_exception');
    expectErrorType(await t.request('POST', `${URL}/deployment/_update`, { number_of_allocations: 'many' }), 400, 'x_content_parse_exception');
  });

  it('stops by model id or deployment id; unknown ids are 404', async () => {
    await t.request('POST', `${URL}/deployment/_start?deployment_id=d1`);
    expect((await t.request('POST', '/_ml/trained_models/d1/deployment/_stop')).body).toEqual({ stopped: true });
    expectErrorType(await t.request('POST', '/_ml/trained_models/d1/_infer', { docs: [{ text_field: 'x' }] }), 404, 'resource_not_found_exception');
    // Stopping a registered model that is not deployed is a no-op, as in ES.
    expect((await t.request('POST', `${URL}/deployment/_stop`)).body).toEqual({ stopped: true });
    expectEsError(await t.request('POST', '/_ml/trained_models/nope/deployment/_stop'), 404, 'resource_not_found_exception', 'No known model deployment with id [nope]');
    expect((await t.request('POST', '/_ml/trained_models/x*/deployment/_stop')).body).toEqual({ stopped: true });
    expectErrorType(await t.request('POST', '/_ml/trained_models/x*/deployment/_stop?allow_no_match=false'), 404, 'resource_not_found_exception');
  });

  it('fails queued requests when stopped, and finishes the running one', async () => {
    await t.request('POST', `${URL}/deployment/_start?queue_capacity=5`);
    const running = t.app.ml.infer(MODEL, Array.from({ length: 100 }, (_, i) => `text ${i}`));
    const queued = t.app.ml.infer(MODEL, ['queued']).then(() => null, (e: EsError) => e);
    await t.request('POST', `${URL}/deployment/_stop`);
    expect((await running).length).toBe(100);
    const e = await queued;
    expect(e?.status).toBe(429);
    expect(e?.message).toBe('unable to process as inference process worker service has shutdown');
  });
});
