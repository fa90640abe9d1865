/**
 * Shard failures in the query phase, as ES reports them (es-api.md §3.3 and §9): with some shards
 * successful the search answers 200 with their hits and `_shards.failures` (ES ShardSearchFailure:
 * shard, index, node, reason); with every shard failed it is `search_phase_execution_exception`
 * "all shards failed"; `allow_partial_search_results=false` fails on any shard failure
 * ("Partial shards failure").
 *
 * The failure is injected where the search pool hands it to the coordinator: the error the pool
 * rejects with once a shard's worker has died twice (or a worker replied with an unexpected error).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InternalError } from '../../src/errors/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
const REASON = 'worker failed while running a search task: worker exited with code: 1';
const QUERY = { query: { match: { body: 'fox' } }, size: 100 };

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  expect((await t.request('PUT', '/books', { settings: { number_of_shards: 3 } })).status).toBe(200);
  const lines: unknown[] = [];
  for (let i = 0; i < 90; i++) lines.push({ index: { _id: `b${i}` } }, { body: i % 3 === 0 ? 'quick brown fox' : 'lazy fox dog', n: i });
  expect((await t.bulk('/books/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
});
afterAll(async () => t?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Makes the pool fail the shard searches at these positions of each request's scatter (shards in order). */
function failShards(...positions: number[]): void {
  const pool = t.app.pool;
  const search = pool.search.bind(pool);
  let call = 0;
  vi.spyOn(pool, 'search').mockImplementation((segments, request) => {
    const position = call++ % 3;
    return positions.includes(position) ? Promise.reject(new InternalError(REASON)) : search(segments, request);
  });
}

describe('a search some of whose shards fail', () => {
  it('answers 200 with the other shards\' hits and lists the failure in _shards', async () => {
    const full = await t.request('POST', '/books/_search', QUERY);
    failShards(1);
    const res = await t.request('POST', '/books/_search', QUERY);
    expect(res.status).toBe(200);
    expect(res.body.timed_out).toBe(false);
    expect(res.body._shards).toEqual({
      total: 3, successful: 2, skipped: 0, failed: 1,
      failures: [{ shard: 1, index: 'books', node: expect.any(String), reason: { type: 'exception', reason: REASON } }],
    });
    // The hits are exactly the full result's hits that the answering shards hold, scored the same.
    const partial = res.body.hits.hits as Array<{ _id: string; _score: number }>;
    expect(partial.length).toBeGreaterThan(0);
    expect(res.body.hits.total.value).toBe(partial.length);
    expect(partial.length).toBeLessThan(full.body.hits.hits.length);
    const fullById = new Map((full.body.hits.hits as Array<{ _id: string; _score: number }>).map((h) => [h._id, h._score]));
    for (const h of partial) expect(h._score).toBe(fullById.get(h._id));
    const order = full.body.hits.hits.map((h: { _id: string }) => h._id).filter((id: string) => partial.some((p) => p._id === id));
    expect(partial.map((h) => h._id)).toEqual(order);
  });

  it('groups identical failures of one index, as ES does, while counting every failed shard', async () => {
    failShards(0, 2);
    const res = await t.request('POST', '/books/_search', QUERY);
    expect(res.status).toBe(200);
    expect(res.body._shards).toEqual({
      total: 3, successful: 1, skipped: 0, failed: 2,
      failures: [{ shard: 0, index: 'books', node: expect.any(String), reason: { type: 'exception', reason: REASON } }],
    });
  });

  it('fails with "Partial shards failure" when partial results are not allowed', async () => {
    failShards(1);
    const res = await t.request('POST', '/books/_search?allow_partial_search_results=false', QUERY);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'exception', reason: REASON }],
        type: 'search_phase_execution_exception',
        reason: 'Partial shards failure',
        phase: 'query',
        grouped: true,
        failed_shards: [{ shard: 1, index: 'books', node: expect.any(String), reason: { type: 'exception', reason: REASON } }],
      },
      status: 500,
    });
  });

  it('counts what the other shards hold, listing the failure', async () => {
    failShards(2);
    const res = await t.request('POST', '/books/_count', { query: { match: { body: 'fox' } } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(0);
    expect(res.body.count).toBeLessThan(90);
    expect(res.body._shards).toMatchObject({ total: 3, successful: 2, skipped: 0, failed: 1, failures: [{ shard: 2, index: 'books' }] });
  });
});

describe('a search all of whose shards fail', () => {
  it('is search_phase_execution_exception "all shards failed" with the cause\'s status', async () => {
    failShards(0, 1, 2);
    for (const url of ['/books/_search', '/books/_count']) {
      const res = await t.request('POST', url, { query: { match: { body: 'fox' } } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: {
          root_cause: [{ type: 'exception', reason: REASON }],
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          phase: 'query',
          grouped: true,
          failed_shards: [{ shard: 0, index: 'books', node: expect.any(String), reason: { type: 'exception', reason: REASON } }],
          caused_by: { type: 'exception', reason: REASON },
        },
        status: 500,
      });
    }
  });
});
