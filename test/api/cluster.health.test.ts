/**
 * GET /_cluster/health with wait_for_status, as ES answers it and as Rally's cluster-health
 * operation and the clients use it:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-health.html
 * One node holds no replica, so an index with replicas is yellow; one without is green.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/solo', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await t.request('PUT', '/replicated', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
});
afterAll(async () => t.close());

describe('GET /_cluster/health?wait_for_status', () => {
  it('a status already reached (or a better one) answers at once, 200, timed_out false', async () => {
    const green = await t.request('GET', '/_cluster/health/solo?wait_for_status=green&timeout=5s');
    expect(green.status).toBe(200);
    expect(green.body).toMatchObject({ status: 'green', timed_out: false });
    const yellow = await t.request('GET', '/_cluster/health?wait_for_status=yellow&timeout=5s');
    expect(yellow.status).toBe(200);
    expect(yellow.body).toMatchObject({ status: 'yellow', timed_out: false });
    expect((await t.request('GET', '/_cluster/health/solo?wait_for_status=yellow')).body).toMatchObject({ status: 'green', timed_out: false });
  });

  it('a status not reached within timeout is 408 with timed_out true and the status as it is', async () => {
    const started = Date.now();
    const res = await t.request('GET', '/_cluster/health?wait_for_status=green&timeout=300ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ cluster_name: expect.any(String), status: 'yellow', timed_out: true, unassigned_shards: 1 });
  });

  it('waits until a change reaches the status (replicas set to 0)', async () => {
    await t.request('PUT', '/later', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
    const waiting = t.request('GET', '/_cluster/health/later?wait_for_status=green&timeout=10s');
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.request('PUT', '/later/_settings', { index: { number_of_replicas: 0 } })).status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'green', timed_out: false });
  });

  it('without wait_for_status nothing waits: 200 and the status', async () => {
    const res = await t.request('GET', '/_cluster/health?timeout=1ms');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'yellow', timed_out: false });
  });

  it('a named index that does not exist is red and waited for: 408 after timeout, 200 once it is created', async () => {
    const missing = await t.request('GET', '/_cluster/health/not-yet?timeout=200ms');
    expect(missing.status).toBe(408);
    expect(missing.body).toMatchObject({ status: 'red', timed_out: true, active_shards: 0 });
    const waiting = t.request('GET', '/_cluster/health/not-yet?wait_for_status=yellow&timeout=10s');
    await new Promise((r) => setTimeout(r, 150));
    await t.request('PUT', '/not-yet', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'green', timed_out: false, active_primary_shards: 1 });
  });

  it('an unknown status is a 400', async () => {
    expectEsError(await t.request('GET', '/_cluster/health?wait_for_status=purple'), 400, 'illegal_argument_exception', 'unknown cluster health status [purple]');
  });

  it('a client that hangs up stops its wait: no poll keeps running until a long timeout', async () => {
    const base = await t.listen();
    // Each waiting request looks the index up every 100 ms until it exists or its timeout.
    const lookups = vi.spyOn(t.app.indices, 'resolve');
    const waits = Array.from({ length: 5 }, () => {
      const req = httpRequest(`${base}/_cluster/health/never-created?wait_for_status=green&timeout=1h`);
      req.on('error', () => {});
      req.end();
      return req;
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups.mock.calls.length).toBeGreaterThanOrEqual(10);
    for (const req of waits) req.destroy();
    await new Promise((r) => setTimeout(r, 250));
    lookups.mockClear();
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups.mock.calls.length).toBe(0);
    lookups.mockRestore();
    // The server still answers.
    expect((await t.request('GET', '/_cluster/health')).status).toBe(200);
  });
});
