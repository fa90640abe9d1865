/**
 * Kept plans on a search channel (cluster/search-channel.ts): a plan the plan cache shares crosses
 * a channel once, later batches name it by id, and the channel's bound makes it tell the worker
 * which plans to let go of. The worker's end is a plain MessagePort here, so what goes down the
 * channel is read as the worker would receive it.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_PLANS_PER_CHANNEL, SearchChannel, sharePlan } from '../../src/cluster/search-channel.js';
import type { Exec, ShardSearchRequest } from '../../src/search/index.js';
import type { SearchChannelRequest, SearchShardTask } from '../../workers/protocol.js';

const term = (t: string): Exec => ({ kind: 'term', field: 'text', term: t, weight: 1.5, avgdl: 4 });

function task(query: Exec): SearchShardTask {
  const request: ShardSearchRequest = {
    query, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0,
  };
  return { segments: [{ segment: 's1', liveDocs: null }], request };
}

let ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports) p.close();
  ports = [];
});

/** A channel whose worker end answers every batch with empty replies and records what it got. */
function channel(): { channel: SearchChannel; received: SearchChannelRequest[] } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const received: SearchChannelRequest[] = [];
  port1.on('message', (m: SearchChannelRequest) => {
    received.push(m);
    port1.postMessage({ replies: [], runMs: 0 });
  });
  const c = new SearchChannel({ op: 'threadsearch:search-port', threadId: 1, port: port2, poolTask: new Int32Array(1) }, () => {});
  return { channel: c, received };
}

describe('kept plans on a search channel', () => {
  it('sends a shared plan once, then by id with the query left out; the task keeps its plan', async () => {
    const { channel: c, received } = channel();
    const shared = term('amber');
    sharePlan(shared);
    const oneOff = term('birch');
    const first = [task(shared), task(shared), task(oneOff)];
    await c.run(first);
    await c.run([task(shared)]);
    const [a, b] = received;
    expect(a.plans).toHaveLength(1);
    expect(a.plans![0][1]).toEqual(shared);
    const id = a.plans![0][0];
    expect(a.searches.map((s) => s.planId)).toEqual([id, id, -1]);
    // The second search of the same plan in one batch names it only; a one-off plan travels inline.
    expect(a.searches[1].request.query).toBeNull();
    expect(a.searches[2].request.query).toEqual(oneOff);
    expect(b.plans).toBeNull();
    expect(b.searches[0]).toMatchObject({ planId: id, request: { query: null, k: 10 } });
    // The coordinator's tasks are as they were (a resend as a pool task carries the plan).
    expect(first.map((t) => t.request.query)).toEqual([shared, shared, oneOff]);
  });

  it('past its bound tells the worker which plans to drop, least recently sent first', async () => {
    const { channel: c, received } = channel();
    const plans = Array.from({ length: KEPT_PLANS_PER_CHANNEL + 2 }, (_, i) => term(`t${i}`));
    for (const p of plans) sharePlan(p);
    await c.run(plans.slice(0, KEPT_PLANS_PER_CHANNEL).map(task));
    // Plan 0 is used again, so 1 and 2 are the least recently sent when two more arrive.
    await c.run([task(plans[0])]);
    await c.run(plans.slice(KEPT_PLANS_PER_CHANNEL).map(task));
    const ids = received[0].plans!.map(([id]) => id);
    expect(received[1].plans).toBeNull();
    expect(received[2].dropPlans).toEqual([ids[1], ids[2]]);
    expect(received[2].plans).toHaveLength(2);
  });
});
