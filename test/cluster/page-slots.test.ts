/**
 * Search workers' page slots (workers/page-slots.ts) and the coordinator's leases on them
 * (common/page-leases.ts), through a real MessagePort between a SearchChannel and this thread's
 * answerChannelBatch: a batch's pages go into the lowest free slot, which comes back once every page
 * has been copied out (or, for pages nobody reads, once the collector finds them unreachable); with
 * no slot free a batch takes a fresh buffer. Every page keeps the bytes of the same search run alone.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonPieces } from '../../src/common/json-pieces.js';
import { openPageLeases, releasePage } from '../../src/common/page-leases.js';
import { SearchChannel, sharePlan } from '../../src/cluster/search-channel.js';
import { answerChannelBatch, search } from '../../workers/search.js';
import { PAGE_SLOTS, PAGE_SLOT_BYTES, dropPageSlot, pageSlotStates, takePageSlot } from '../../workers/page-slots.js';
import type { SearchChannelRequest, SearchShardReply, SearchShardTask } from '../../workers/protocol.js';
import type { Exec, FetchSpec, ShardSearchRequest } from '../../src/search/index.js';
import { InProcessIndex } from '../support/engine-harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SPEC: FetchSpec = {
  index: 'idx', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null,
};

const taken = (): number[] => Array.from(pageSlotStates.keys()).filter((i) => Atomics.load(pageSlotStates, i) !== 0);
const text = (page: Uint8Array): string => Buffer.from(page.buffer, page.byteOffset, page.byteLength).toString('utf8');
/** Copies pages out as a response does (JsonPieces.writeInto). */
const written = (page: Uint8Array): string => {
  const body = JsonPieces.object('{"hits":', page, '}');
  const out = Buffer.alloc(body.byteLengthBound());
  return out.subarray(0, body.writeInto(out)).toString('utf8');
};

let ports: MessagePort[] = [];
beforeEach(() => {
  for (let i = 0; i < PAGE_SLOTS; i++) dropPageSlot(i);
});
afterEach(() => {
  for (const p of ports) p.close();
  ports = [];
});

describe('takePageSlot', () => {
  it('takes the lowest free slot, gives none when all are taken or the pages do not fit', () => {
    expect(takePageSlot(100)).toBe(0);
    expect(takePageSlot(100)).toBe(1);
    dropPageSlot(0);
    expect(takePageSlot(PAGE_SLOT_BYTES)).toBe(0);
    expect(takePageSlot(PAGE_SLOT_BYTES + 1)).toBe(-1);
    for (let i = 2; i < PAGE_SLOTS; i++) expect(takePageSlot(10)).toBe(i);
    expect(takePageSlot(10)).toBe(-1);
  });
});

describe('page slots on a search channel', () => {
  const index = new InProcessIndex({ properties: { text: { type: 'text' } } });
  const words = ['amber', 'birch', 'cedar', 'dune', 'élan'];
  index.addSegment(Array.from({ length: 200 }, (_, i) => ({
    id: `d${i}`, source: { text: `${words[i % 5]} ${words[(i * 7) % 5]} ${words[(i * 3) % 5]} ${'ü'.repeat(i % 30)}` },
  })));
  const refs = [{ segment: 'slot-seg', liveDocs: null }];
  const request = (query: Exec, over: Partial<ShardSearchRequest> = {}): ShardSearchRequest => ({
    query, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null,
    terminateAfter: 0, fetch: { from: 0, spec: SPEC }, deadline: 0, aggs: null, suggest: null, ...over,
  });
  const plans = ['amber birch', 'cedar', 'dune élan', 'birch'].map((q) => index.plan({ match: { text: q } }));
  for (const p of plans) sharePlan(p);
  const alone = (r: ShardSearchRequest): string => {
    const reply = search({ segments: refs, request: r } as SearchShardTask);
    if (!reply.ok || reply.value.rendered === undefined) throw new Error('no page');
    return text(reply.value.rendered);
  };

  function channel(): SearchChannel {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    port1.on('message', (m: SearchChannelRequest) => {
      const { answer, transfer } = answerChannelBatch(m);
      port1.postMessage(answer, transfer);
    });
    return new SearchChannel({ op: 'threadsearch:search-port', threadId: 1, port: port2, poolTask: new Int32Array(1), pageSlots: pageSlotStates }, () => {});
  }
  const pages = (replies: readonly SearchShardReply[]): Uint8Array[] => replies.map((r) => {
    if (!r.ok || r.value.rendered === undefined) throw new Error('no page');
    return r.value.rendered;
  });
  // A batch of rows, and one object (a sorted search's page comes with sort values).
  const tasks = (): SearchShardTask[] => [
    ...plans.map((p) => ({ segments: refs, request: request(p) })),
    { segments: refs, request: request(plans[0], { sort: [{ kind: 'score', desc: true }], trackScores: true }) },
  ];

  it('writes a batch into a slot and takes it back once every page is copied out, each page once', async () => {
    expect(search({ segments: refs, request: request(plans[0]), inline: { 'slot-seg': index.segments[0].sab as SharedArrayBuffer } }).ok).toBe(true);
    const expected = plans.map((p) => alone(request(p)));
    const c = channel();
    const first = pages((await c.run(tasks())).replies);
    expect(first.every((p) => p.buffer instanceof SharedArrayBuffer)).toBe(true);
    expect(taken()).toEqual([0]);
    expect(openPageLeases()).toBe(1);
    // A page read twice counts once: the slot waits for the others.
    expect(written(first[0])).toBe(`{"hits":${expected[0]}}`);
    expect(written(first[0])).toBe(`{"hits":${expected[0]}}`);
    expect(taken()).toEqual([0]);
    // A second batch meanwhile takes the next slot.
    const second = pages((await c.run(tasks())).replies);
    expect(taken()).toEqual([0, 1]);
    for (let i = 1; i < first.length - 1; i++) expect(written(first[i])).toBe(`{"hits":${expected[i]}}`);
    expect(taken()).toEqual([0, 1]);
    // The object reply's page (sorted) is in the slot too, read through toString.
    expect(JsonPieces.object('{"hits":', first[4], '}').toString()).toMatch(/^\{"hits":\[\{"_index":"idx"/);
    expect(taken()).toEqual([1]);
    for (const p of second) releasePage(p);
    expect(taken()).toEqual([]);
    expect(openPageLeases()).toBe(0);
    // Reused: the next batch writes slot 0 again, with its own bytes.
    const third = pages((await c.run(tasks())).replies);
    expect(taken()).toEqual([0]);
    third.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`));
    releasePage(third[4]);
    expect(taken()).toEqual([]);
  });

  it('takes a fresh buffer when every slot is leased, with the same bytes', async () => {
    const expected = plans.map((p) => alone(request(p)));
    const c = channel();
    const held: Uint8Array[][] = [];
    for (let i = 0; i < PAGE_SLOTS; i++) held.push(pages((await c.run(tasks())).replies));
    expect(taken()).toHaveLength(PAGE_SLOTS);
    const extra = pages((await c.run(tasks())).replies);
    expect(extra.every((p) => p.buffer instanceof ArrayBuffer)).toBe(true);
    extra.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`));
    held.forEach((batch) => batch.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`)));
    for (const batch of held) releasePage(batch[4]);
    expect(taken()).toEqual([]);
    expect(openPageLeases()).toBe(0);
  });

  it('gives back the slot of pages nobody reads once they are collected', async () => {
    const c = channel();
    let dropped: Uint8Array[] | null = pages((await c.run(tasks())).replies);
    const kept = pages((await c.run(tasks())).replies);
    expect(taken()).toEqual([0, 1]);
    expect(dropped).toHaveLength(5);
    dropped = null;
    for (let i = 0; i < 50 && taken().includes(0); i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(taken()).toEqual([1]);
    expect(openPageLeases()).toBe(1);
    for (const p of kept) releasePage(p);
    expect(openPageLeases()).toBe(0);
  });
});
