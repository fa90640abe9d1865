/**
 * Worker faults: a search, build or merge worker thread that dies mid-task. The request must end
 * (never hang) with a 200 — the search pool retries a shard search once on another thread — or an
 * ES-shaped 5xx; Piscina replaces the thread; no shard data is lost (segments live in
 * coordinator-owned SharedArrayBuffers, which a replacement thread receives inline on its first
 * task); and later requests answer exactly as before.
 *
 * Threads are killed with `worker.terminate()` through SearchPool.workers(). Each scenario uses
 * its own server and kills only threads that were running when it started; where it kills several
 * at once it waits for them to be gone before asserting on later requests (a task posted to a
 * thread that is still exiting would fail too — a second fault, not a hang).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';

const THREADS = 2;
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'juniper', 'karst', 'larch'];
const MAPPINGS = { properties: { text: { type: 'text' }, n: { type: 'long' }, tag: { type: 'keyword' } } };

function docs(from: number, count: number): Array<[string, Record<string, unknown>]> {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const words = Array.from({ length: 4 + (i % 23) }, (_, w) => WORDS[(i * 7 + w * w * 3 + w) % WORDS.length]);
    return [`d${i}`, { text: words.join(' '), n: (i * 7919) % 10_007, tag: `t${i % 5}` }];
  });
}

async function index(t: TestApp, name: string, batch: Array<[string, Record<string, unknown>]>, refresh = true): Promise<void> {
  const lines: unknown[] = [];
  for (const [id, doc] of batch) lines.push({ index: { _index: name, _id: id } }, doc);
  const res = await t.bulk('/_bulk', lines, refresh ? '?refresh=true' : '');
  expect(res.body.errors).toBe(false);
}

/** A server with the same 4000 documents in a 3-shard and a 1-shard index. */
async function startServer(threads = THREADS): Promise<TestApp> {
  const t = await createTestApp({ threads });
  for (const [name, shards] of [['corpus', 3], ['single', 1]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await index(t, name, docs(0, 4000));
  }
  return t;
}

const QUERIES: unknown[] = [
  { query: { match: { text: 'amber cedar ember' } }, size: 20 },
  { query: { bool: { must: [{ match: { text: 'birch' } }, { match: { text: 'grove' } }] } }, sort: [{ n: 'asc' }], size: 15 },
  { query: { match_phrase: { text: 'delta fjord' } }, size: 10, track_total_hits: true },
  { query: { match_all: {} }, size: 0, track_total_hits: true },
];
const TARGETS = ['corpus', 'single'];

/** Every query on every target: [target, query, response body]. */
async function answers(t: TestApp): Promise<Array<[string, unknown, unknown]>> {
  const out: Array<[string, unknown, unknown]> = [];
  for (const target of TARGETS) {
    for (const q of QUERIES) {
      const res = await t.request('POST', `/${target}/_search`, q);
      expect(res.status).toBe(200);
      expect(res.body._shards.failed).toBe(0);
      out.push([target, q, comparable(res)]);
    }
  }
  return out;
}

/** A response without its timing. */
function comparable(res: TestResponse): unknown {
  const { took: _took, ...rest } = res.body;
  return rest;
}

/** Waits until the pool is back to its configured size and a round of searches succeeds in full. */
async function expectRecovered(t: TestApp, before: Array<[string, unknown, unknown]>, killed: readonly Worker[], threads = THREADS): Promise<void> {
  expect(t.app.pool.threads).toBe(threads);
  for (const w of killed) expect(t.app.pool.workers()).not.toContain(w);
  expect(await answers(t)).toEqual(before);
  // Enough concurrent searches that every thread, replacements included, serves some.
  const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => t.request('POST', `/${TARGETS[i % 2]}/_search`, QUERIES[i % QUERIES.length])));
  burst.forEach((res, i) => expect(comparable(res)).toEqual(before.find(([target, q]) => target === TARGETS[i % 2] && q === QUERIES[i % QUERIES.length])![2]));
  expect(t.app.pool.threads).toBe(threads);
}

/** A 5xx ES error body (never a hang, never a stack trace). */
function expectEsServerError(res: TestResponse): void {
  expect(res.status).toBeGreaterThanOrEqual(500);
  expect(res.status).not.toBe(502);
  expect(res.status).not.toBe(503);
  expect(res.status).not.toBe(504);
  expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  expect(typeof res.body.error.type).toBe('string');
  expect(typeof res.body.error.reason).toBe('string');
  expect(res.body.error.root_cause.length).toBeGreaterThan(0);
  expect(res.body.status).toBe(res.status);
}

let t: TestApp | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = null;
});

describe('a worker thread that dies during a search', () => {
  it('is replaced, and the search is retried on the new thread and answers in full', { timeout: 30_000 }, async () => {
    // One thread: the search is posted to it at once (the pool is idle) and it is killed right
    // then; the retry can only run on its replacement, which must be sent the segments inline.
    t = await startServer(1);
    const before = await answers(t);
    const pool = t.app.pool;
    const [victim] = pool.workers();
    const search = pool.search.bind(pool);
    let killed: Promise<unknown> = Promise.resolve();
    vi.spyOn(pool, 'search').mockImplementationOnce((segments, request) => {
      const result = search(segments, request);
      killed = victim.terminate();
      return result;
    });
    const res = await t.request('POST', '/single/_search', QUERIES[0]);
    expect(res.status).toBe(200);
    expect(comparable(res)).toEqual(before[QUERIES.length][2]);
    await killed;
    await expectRecovered(t, before, [victim], 1);
  });

  it('during a burst of concurrent searches: every request ends, with 200 or an ES-shaped error', { timeout: 30_000 }, async () => {
    t = await startServer();
    const before = await answers(t);
    const expected = new Map(before.map(([target, q, body]) => [`${target}|${QUERIES.indexOf(q)}`, body]));
    const pool = t.app.pool;
    const victim = pool.workers()[0];
    const requests = Array.from({ length: 60 }, (_, i) => ({ target: TARGETS[i % 2], q: i % QUERIES.length }));
    const pending = requests.map(({ target, q }) => t!.request('POST', `/${target}/_search`, QUERIES[q]));
    await new Promise((resolve) => setTimeout(resolve, 2));
    await victim.terminate();
    const responses = await Promise.all(pending);
    responses.forEach((res, i) => {
      if (res.status !== 200) return expectEsServerError(res);
      const body = res.body;
      if (body._shards.failed === 0) {
        expect(comparable(res)).toEqual(expected.get(`${requests[i].target}|${requests[i].q}`));
      } else {
        // A shard that failed twice: the others' hits, and the failure as ES's ShardSearchFailure.
        expect(body._shards.successful + body._shards.failed).toBe(body._shards.total);
        for (const f of body._shards.failures) {
          expect(f).toEqual({ shard: expect.any(Number), index: requests[i].target, node: expect.any(String), reason: { type: 'exception', reason: expect.any(String) } });
        }
      }
    });
    await expectRecovered(t, before, [victim]);
  });
});

describe('a worker thread that dies while building or merging segments', () => {
  it('fails at most that refresh; the writes stay buffered and the next refresh publishes them', { timeout: 30_000 }, async () => {
    t = await startServer();
    const pool = t.app.pool;
    const original = [...pool.workers()];
    await index(t, 'corpus', docs(4000, 1500), false);
    await index(t, 'single', docs(4000, 1500), false);
    const build = pool.build.bind(pool);
    let killed: Promise<unknown> = Promise.resolve();
    vi.spyOn(pool, 'build').mockImplementationOnce((task) => {
      const result = build(task);
      killed = Promise.all(original.map((w) => w.terminate()));
      return result;
    });
    const refresh = await t.request('POST', '/corpus/_refresh');
    if (refresh.status !== 200) expectEsServerError(refresh);
    vi.restoreAllMocks();
    await killed;
    expect((await t.request('POST', '/_refresh')).status).toBe(200);
    for (const [target, shards] of [['corpus', 3], ['single', 1]] as const) {
      const count = await t.request('GET', `/${target}/_count`);
      expect(count.body).toEqual({ count: 5500, _shards: { total: shards, successful: shards, skipped: 0, failed: 0 } });
    }
    // Both indices hold the same documents, so they answer the same hits (scores are index-wide).
    for (const q of QUERIES) {
      const [sharded, single] = await Promise.all(TARGETS.map((target) => t!.request('POST', `/${target}/_search`, q)));
      expect(sharded.body.hits).toEqual({ ...single.body.hits, hits: single.body.hits.hits.map((h: { _index: string }) => ({ ...h, _index: 'corpus' })) });
    }
    expect(pool.threads).toBe(THREADS);
  });

  it('fails at most that merge, and the segments it read still answer; a later merge succeeds', { timeout: 30_000 }, async () => {
    t = await startServer();
    const pool = t.app.pool;
    for (let batch = 0; batch < 4; batch++) await index(t, 'single', docs(4000 + batch * 100, 100));
    const before = await answers(t);
    const original = [...pool.workers()];
    const merge = pool.merge.bind(pool);
    let killed: Promise<unknown> = Promise.resolve();
    vi.spyOn(pool, 'merge').mockImplementationOnce((task) => {
      const result = merge(task);
      killed = Promise.all(original.map((w) => w.terminate()));
      return result;
    });
    const merged = await t.request('POST', '/single/_forcemerge?max_num_segments=1');
    if (merged.status !== 200) expectEsServerError(merged);
    vi.restoreAllMocks();
    await killed;
    expect(await answers(t)).toEqual(before);
    expect((await t.request('POST', '/single/_forcemerge?max_num_segments=1')).status).toBe(200);
    expect(await answers(t)).toEqual(before);
    expect(pool.threads).toBe(THREADS);
  });
});

describe('replacement worker threads', () => {
  it('get a buffer inline even if its shard dropped it while the search was in flight', { timeout: 30_000 }, async () => {
    // The replacement has seen no segment announcement, so the search takes two round trips
    // (`missing`, then the buffers inline). Dropping the buffers right after the search is posted
    // is what a merge publishing at that moment does: the pool must keep them until it is done.
    t = await startServer(1);
    const before = await answers(t);
    const pool = t.app.pool;
    await Promise.all(pool.workers().map((w) => w.terminate()));
    const search = pool.search.bind(pool);
    vi.spyOn(pool, 'search').mockImplementationOnce((segments, request) => {
      const result = search(segments, request);
      for (const ref of segments) {
        pool.drop(ref.segment);
        if (ref.liveDocs !== null) pool.drop(ref.liveDocs);
      }
      return result;
    });
    const res = await t.request('POST', '/single/_search', QUERIES[0]);
    expect(res.status).toBe(200);
    expect(comparable(res)).toEqual(before[QUERIES.length][2]);
  });

  it('answer in full while refreshes and merges publish new segments and drop old ones', { timeout: 60_000 }, async () => {
    // Replacements have seen none of the earlier segment announcements and each sees the later
    // ones from when it started: their searches are resent inline (to any thread), while merges
    // publish and drop their sources.
    t = await startServer();
    await Promise.all(t.app.pool.workers().map((w) => w.terminate()));
    let expected = 4000;
    for (let round = 0; round < 12; round++) {
      await index(t, 'corpus', docs(10_000 + round * 50, 50));
      expected += 50;
      const counts = await Promise.all(Array.from({ length: 6 }, () => t!.request('GET', '/corpus/_count')));
      for (const c of counts) expect(c.body).toEqual({ count: expected, _shards: { total: 3, successful: 3, skipped: 0, failed: 0 } });
    }
    expect(t.app.pool.threads).toBe(THREADS);
  });
});
