/**
 * The search pool's batching over the workers' own search channels (cluster/search-channel.ts):
 * searches started in one event-loop turn leave as one batch per free thread, and answer exactly as
 * when they run one at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath'];
const QUERIES = WORDS.map((w, i) => ({ query: { match: { text: `${w} ${WORDS[(i + 3) % WORDS.length]}` } }, size: 5 }));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  expect((await t.request('PUT', '/docs', { settings: { number_of_shards: 3 }, mappings: { properties: { text: { type: 'text' } } } })).status).toBe(200);
  const lines: unknown[] = [];
  for (let i = 0; i < 600; i++) {
    lines.push({ index: { _index: 'docs', _id: `d${i}` } }, { text: Array.from({ length: 3 + (i % 7) }, (_, w) => WORDS[(i * 5 + w * w) % WORDS.length]).join(' ') });
  }
  const res = await t.request('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
  expect(res.body.errors).toBe(false);
});
afterAll(async () => {
  await t.close();
});

/** A search response without its timing. */
function comparable(body: Record<string, unknown>): unknown {
  const { took: _took, status: _status, ...rest } = body;
  return rest;
}

describe('searches on the workers\' search channels', () => {
  it('an _msearch\'s items leave in batches (fewer messages than shard searches) and answer as single searches do', async () => {
    const single = [];
    for (const q of QUERIES) {
      const res = await t.request('POST', '/docs/_search', q);
      expect(res.status).toBe(200);
      single.push(comparable(res.body));
    }
    const before = t.app.pool.stats().completed;
    const body = QUERIES.map((q) => `{}\n${JSON.stringify(q)}\n`).join('');
    const res = await t.request('POST', '/docs/_msearch', body, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    const batches = t.app.pool.stats().completed - before;
    // 8 searches × 3 shards = 24 shard searches; up to 4 searches run at once (max_concurrent_searches),
    // so each turn's shard searches go as one batch per free thread: about half as many messages on
    // an idle machine (≤ 12), more when the threads free up one at a time under load (14 seen), but
    // always fewer messages than shard searches.
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(24);
    expect(res.body.responses.map((r: Record<string, unknown>) => r.status)).toEqual(QUERIES.map(() => 200));
    expect(res.body.responses.map(comparable)).toEqual(single);
  });

  it('counts channel batches in the pool\'s run time and utilisation', async () => {
    await t.request('POST', '/docs/_search', QUERIES[0]);
    const stats = t.app.pool.stats();
    expect(stats.runTimeMs.count).toBeGreaterThan(0);
    expect(stats.runTimeMs.total).toBeGreaterThan(0);
    expect(stats.utilization).toBeGreaterThan(0);
    expect(stats.active).toBe(0);
  });
});
