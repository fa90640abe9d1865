/**
 * A second batch queued behind the one in flight on a search channel (cluster/search-channel.ts
 * `canQueue`, search-pool.ts `queueBehind`): the worker answers in order and each batch gets its
 * own reply; a channel that fails rejects both; and a deep queue of searches over the pool answers
 * exactly as the same searches one at a time.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SearchChannel, WorkerFailureError } from '../../src/cluster/search-channel.js';
import type { ShardSearchRequest } from '../../src/search/index.js';
import type { SearchChannelReply, SearchChannelRequest, SearchShardTask } from '../../workers/protocol.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

function task(k: number): SearchShardTask {
  const request: ShardSearchRequest = {
    query: { kind: 'term', field: 'text', term: 'amber', weight: 1.5, avgdl: 4 }, k, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0,
  };
  return { segments: [{ segment: 's1', liveDocs: null }], request };
}

let ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports) p.close();
  ports = [];
});

/** A channel whose worker end holds each batch until `answer()` and replies with its searches' k. */
function heldChannel(): { channel: SearchChannel; held: SearchChannelRequest[]; answer(): void; gone: SearchChannel[] } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const held: SearchChannelRequest[] = [];
  port1.on('message', (m: SearchChannelRequest) => held.push(m));
  const gone: SearchChannel[] = [];
  const channel = new SearchChannel({ op: 'threadsearch:search-port', threadId: 7, port: port2, poolTask: new Int32Array(1) }, (c) => gone.push(c));
  const answer = () => {
    const m = held.shift()!;
    const reply: SearchChannelReply = { replies: m.searches.map((s) => ({ ok: true, value: { k: s.request.k } })) as never, runMs: 0 };
    port1.postMessage(reply);
  };
  return { channel, held, answer, gone };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
};
const ks = (r: SearchChannelReply) => r.replies.map((x) => (x as unknown as { value: { k: number } }).value.k);

describe('a batch queued behind the one in flight', () => {
  it('an idle channel takes a batch; with one in flight it takes one more; with two it refuses', async () => {
    const { channel: c, held, answer } = heldChannel();
    expect(c.idle).toBe(true);
    expect(c.canQueue).toBe(false);
    const first = c.run([task(1), task(2)]);
    expect(c.idle).toBe(false);
    expect(c.canQueue).toBe(true);
    const second = c.run([task(3)]);
    expect(c.canQueue).toBe(false);
    await expect(c.run([task(4)])).rejects.toThrow('busy');
    await until(() => held.length === 2);
    answer();
    expect(ks(await first)).toEqual([1, 2]);
    // The queued batch is now the one in flight: one more may queue behind it.
    expect(c.canQueue).toBe(true);
    answer();
    expect(ks(await second)).toEqual([3]);
    expect(c.idle).toBe(true);
  });

  it('a failing channel rejects the batch in flight and the one queued behind it', async () => {
    const { channel: c, gone } = heldChannel();
    const first = c.run([task(1)]);
    const second = c.run([task(2)]);
    c.fail(new WorkerFailureError('search worker thread [7] exited'));
    await expect(first).rejects.toBeInstanceOf(WorkerFailureError);
    await expect(second).rejects.toBeInstanceOf(WorkerFailureError);
    expect(gone).toEqual([c]);
    expect(c.idle).toBe(false);
    expect(c.canQueue).toBe(false);
  });
});

describe('a deep queue of searches over the pool', () => {
  const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath'];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ threads: 2 });
    expect((await t.request('PUT', '/docs', { settings: { number_of_shards: 2 }, mappings: { properties: { text: { type: 'text' } } } })).status).toBe(200);
    const lines: unknown[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push({ index: { _index: 'docs', _id: `d${i}` } }, { text: Array.from({ length: 2 + (i % 5) }, (_, w) => WORDS[(i * 3 + w * w) % WORDS.length]).join(' ') });
    }
    const res = await t.request('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    expect(res.body.errors).toBe(false);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 160 searches started at once (enough for batches queued behind busy threads) as it answers each alone', async () => {
    const queries = Array.from({ length: 160 }, (_, i) => ({ query: { match: { text: `${WORDS[i % 8]} ${WORDS[(i * 5 + 1) % 8]}` } }, size: 3 + (i % 4) }));
    const alone: unknown[] = [];
    for (const q of queries.slice(0, 16)) alone.push((await t.request('POST', '/docs/_search', q)).body.hits);
    const together = await Promise.all(queries.map((q) => t.request('POST', '/docs/_search', q)));
    expect(together.map((r) => r.status)).toEqual(queries.map(() => 200));
    expect(together.slice(0, 16).map((r) => r.body.hits)).toEqual(alone);
    for (let i = 16; i < queries.length; i++) expect(together[i].body.hits).toEqual(together[i % 16].body.hits);
    expect(t.app.pool.stats().active).toBe(0);
  });

  it('takes batches above 16 searches from a deep queue (search-pool.ts DEEP_BATCH), answered as alone', async () => {
    const queries = Array.from({ length: 480 }, (_, i) => ({ query: { match: { text: `${WORDS[i % 8]} ${WORDS[(i * 3 + 2) % 8]}` } }, size: 2 + (i % 5) }));
    const alone: unknown[] = [];
    for (const q of queries.slice(0, 40)) alone.push((await t.request('POST', '/docs/_search', q)).body.hits);
    const before = t.app.pool.stats();
    // 480 searches of a 2-shard index at once: ~960 shard searches wait, far above DEEP_QUEUE per thread.
    const together = await Promise.all(queries.map((q) => t.request('POST', '/docs/_search', q)));
    const after = t.app.pool.stats();
    expect(together.map((r) => r.status)).toEqual(queries.map(() => 200));
    expect(together.slice(0, 40).map((r) => r.body.hits)).toEqual(alone);
    for (let i = 40; i < queries.length; i++) expect(together[i].body.hits).toEqual(together[i % 40].body.hits);
    const searches = after.waitTimeMs.count - before.waitTimeMs.count;
    const batches = after.completed - before.completed;
    expect(searches).toBe(960);
    // Batches of at most 16 would take at least 60 messages.
    expect(batches).toBeLessThan(searches / 16);
    expect(after.active).toBe(0);
  });
});
