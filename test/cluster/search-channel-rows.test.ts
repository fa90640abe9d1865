/**
 * Searches as rows on a search channel (workers/protocol.ts SearchChannelRequest.rows and
 * SearchChannelReply.rows): a plain search with a kept plan crosses the channel as numbers each
 * way, anything else as its object, in one batch. Through a real MessagePort to this thread's
 * channelBatch, every search answers exactly as the same search run alone: totals, hits, flags and
 * the rendered page's bytes; a failing search keeps its error and its place.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchChannel, sharePlan } from '../../src/cluster/search-channel.js';
import { channelBatch, search } from '../../workers/search.js';
import { CHANNEL_FULL, CHANNEL_ROW, encodeChannelReply, type SearchChannelRequest, type SearchShardReply, type SearchShardTask } from '../../workers/protocol.js';
import type { Exec, FetchSpec, ShardSearchRequest } from '../../src/search/index.js';
import { InProcessIndex } from '../support/engine-harness.js';

const SPEC: FetchSpec = {
  index: 'idx', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null, fields: null,
};

let ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports) p.close();
  ports = [];
});

describe('searches as rows on a search channel', () => {
  const index = new InProcessIndex({ properties: { text: { type: 'text' }, n: { type: 'long' } } });
  const words = ['amber', 'birch', 'cedar', 'dune', 'elm'];
  index.addSegment(Array.from({ length: 300 }, (_, i) => ({
    id: `d${i}`, source: { text: `${words[i % 5]} ${words[(i * 7) % 5]} ${words[(i * 3) % 5]} ${'x'.repeat(i % 40)}`, n: i },
  })));
  const segment = index.segments[0];
  const refs = [{ segment: 'rows-seg', liveDocs: null }];
  const fetch = { from: 0, spec: SPEC };
  const request = (query: Exec, over: Partial<ShardSearchRequest> = {}): ShardSearchRequest => ({
    query, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null,
    terminateAfter: 0, fetch, deadline: 0, aggs: null, suggest: null, ...over,
  });
  const alone = (r: ShardSearchRequest): SearchShardReply => search({ segments: refs, request: r } as SearchShardTask);
  const comparable = (r: SearchShardReply): unknown => {
    if (!r.ok) return r;
    const { rendered, hits, ...rest } = r.value;
    return { ...rest, hits: [...hits], rendered: rendered === undefined ? undefined : Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength).toString('utf8') };
  };

  it('answers rows and objects in one batch as each search alone', async () => {
    expect(search({ segments: refs, request: request(index.plan({ match: { text: 'amber' } })), inline: { 'rows-seg': segment.sab as SharedArrayBuffer } }).ok).toBe(true);
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const received: SearchChannelRequest[] = [];
    port1.on('message', (m: SearchChannelRequest) => {
      received.push(m);
      const { answer, transfer } = encodeChannelReply(channelBatch(m), 0.5);
      port1.postMessage(answer, transfer);
    });
    const channel = new SearchChannel({ op: 'threadsearch:search-port', threadId: 1, port: port2, poolTask: new Int32Array(1) }, () => {});
    const shared = ['amber birch', 'cedar', 'dune elm amber', 'nothing-matches'].map((text) => index.plan({ match: { text } }));
    for (const p of shared) sharePlan(p);
    const requests = [
      request(shared[0]),
      request(shared[1], { k: 3, trackScores: true, terminateAfter: 5, trackTotalHitsUpTo: 7 }),
      // Objects: a one-off plan, a sort, a min_score; a row without a fetch; a row matching nothing.
      request(index.plan({ match: { text: 'birch' } })),
      request(shared[2], { sort: [{ kind: 'numeric', field: 'n', desc: false, mode: 'min', missing: Number.MAX_VALUE }] }),
      request(shared[0], { minScore: 0.5 }),
      request(shared[2], { fetch: null }),
      request(shared[3]),
    ];
    const answer = await channel.run(requests.map((r) => ({ segments: refs, request: r })));
    const rows = received[0].rows!;
    expect(Array.from({ length: requests.length }, (_, i) => rows[i * CHANNEL_ROW] === CHANNEL_FULL)).toEqual([false, false, true, true, true, false, false]);
    expect(answer.runMs).toBe(0.5);
    expect(answer.replies.map(comparable)).toEqual(requests.map((r) => comparable(alone(r))));
    // A second batch names the kept plans only, and a plan the worker lost fails alone.
    const again = await channel.run([{ segments: refs, request: request(shared[1]) }]);
    expect(received[1].plans).toBeNull();
    expect(again.replies.map(comparable)).toEqual([comparable(alone(request(shared[1])))]);
  });

  it('keeps a failed search in its place among rows', () => {
    const plan = index.plan({ match: { text: 'cedar' } });
    const rows = new Float64Array(3 * CHANNEL_ROW);
    const row = (i: number, planId: number) => rows.set([planId, 10, 10_000, 0, 0, 0, 0, 0], i * CHANNEL_ROW);
    row(0, 41);
    row(1, 42);
    row(2, CHANNEL_FULL);
    const replies = channelBatch({
      searches: [{ segments: refs, request: { ...request(plan), query: null }, planId: 41 }], plans: [[41, plan]], dropPlans: null, rows, refs: [refs], fetches: [fetch],
    });
    expect(replies.map((r) => r.ok)).toEqual([true, false, true]);
    expect(replies[1]).toMatchObject({ ok: false, error: { reason: 'search plan [42] is not kept by this worker' } });
    expect(comparable(replies[0])).toEqual(comparable(alone(request(plan))));
    expect(comparable(replies[2])).toEqual(comparable(alone(request(plan))));
  });
});
