/**
 * Registered models and started deployments survive a restart: deployments come back started (as
 * ES's persistent tasks restart), stopped ones stay stopped, and a deployment whose node is gone
 * comes back unallocated rather than lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.js';
import { expectEsError } from './es.js';

const GB = 1024 ** 3;
const MODEL = '.sparse_model_2';
const URL = `/_ml/trained_models/${MODEL}`;
const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-ml-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const nodes = [{ name: 'ml-1', memoryBytes: 16 * GB, allocatedProcessors: 4 }];

describe('ML state across restarts', () => {
  it('keeps the model and restarts its deployments with their parameters', async () => {
    let t = await createTestApp({ dataDir, config: { mlNodes: nodes } });
    await t.request('PUT', URL, { input: { field_names: ['body'] } });
    expect((await t.request('POST', `${URL}/deployment/_start?deployment_id=kept&number_of_allocations=2&queue_capacity=7&wait_for=fully_allocated`)).status).toBe(200);
    expect((await t.request('POST', `${URL}/deployment/_start?deployment_id=dropped`)).status).toBe(200);
    expect((await t.request('POST', '/_ml/trained_models/dropped/deployment/_stop')).status).toBe(200);
    const before = (await t.request('POST', '/_ml/trained_models/kept/_infer', { docs: [{ body: 'sore muscles' }] })).body;
    await t.close();

    t = await createTestApp({ dataDir, config: { mlNodes: nodes } });
    try {
      const config = (await t.request('GET', URL)).body.trained_model_configs[0];
      expect(config.input).toEqual({ field_names: ['body'] });
      const stats = (await t.request('GET', `${URL}/_stats`)).body;
      expect(stats.trained_model_stats.map((s: any) => s.deployment_stats.deployment_id)).toEqual(['kept']);
      expect(stats.trained_model_stats[0].deployment_stats).toMatchObject({
        state: 'started', number_of_allocations: 2, queue_capacity: 7, allocation_status: { allocation_count: 2, target_allocation_count: 2, state: 'fully_allocated' },
      });
      // Same model, same function: the same vector after the restart.
      expect((await t.request('POST', '/_ml/trained_models/kept/_infer', { docs: [{ body: 'sore muscles' }] })).body).toEqual(before);
      expectEsError(await t.request('POST', '/_ml/trained_models/dropped/_infer', { docs: [{ body: 'x' }] }), 404, 'resource_not_found_exception', 'Could not find trained model [dropped]');
    } finally {
      await t.close();
    }
  });

  it('brings a deployment back unallocated when no configured node can host it', async () => {
    const t = await createTestApp({ dataDir, config: { mlNodes: [{ name: 'tiny', memoryBytes: 2 * GB, allocatedProcessors: 4 }] } });
    try {
      const s = (await t.request('GET', '/_ml/trained_models/kept/_stats')).body.trained_model_stats[0].deployment_stats;
      expect(s.allocation_status).toEqual({ allocation_count: 0, target_allocation_count: 2, state: 'starting' });
      expect(s.reason).toContain('This node is not an ML node');
      expectEsError(await t.request('POST', '/_ml/trained_models/kept/_infer', { docs: [{ body: 'x' }] }), 409, 'status_exception', 'Trained model deployment [kept] is not allocated to any nodes');
    } finally {
      await t.close();
    }
  });
});
