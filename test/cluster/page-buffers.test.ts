/**
 * Page buffers that go round between a search worker and the coordinator (workers/page-buffers.ts,
 * common/page-leases.ts), through a real MessagePort between a SearchChannel and this thread's
 * answerChannelBatch: a batch's buffer goes back to the worker with a later batch once every page
 * in it has been copied out, each page counted once, and the worker writes later batches into it; a
 * buffer with a page nobody reads is not sent back (the worker allocates another). Every page keeps
 * the bytes of the same search run alone.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonPieces } from '../../src/common/json-pieces.js';
import { releasePage, returnedPageBuffers } from '../../src/common/page-leases.js';
import { SearchChannel, sharePlan } from '../../src/cluster/search-channel.js';
import { answerChannelBatch, search } from '../../workers/search.js';
import { MAX_PAGE_BUFFER_BYTES, addSpares, pageBufferCounts, takePageBuffer } from '../../workers/page-buffers.js';
import { encodeChannelReply, type SearchChannelRequest, type SearchShardReply, type SearchShardTask } from '../../workers/protocol.js';
import type { Exec, FetchSpec, ShardSearchRequest } from '../../src/search/index.js';
import { InProcessIndex } from '../support/engine-harness.js';

const SPEC: FetchSpec = {
  index: 'idx', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null, fields: null,
};

const text = (page: Uint8Array): string => Buffer.from(page.buffer, page.byteOffset, page.byteLength).toString('utf8');
/** Copies a page out as a response does (JsonPieces.writeInto). */
const written = (page: Uint8Array): string => {
  const body = JsonPieces.object('{"hits":', page, '}');
  const out = Buffer.alloc(body.byteLengthBound());
  return out.subarray(0, body.writeInto(out)).toString('utf8');
};

let ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports) p.close();
  ports = [];
});

describe('takePageBuffer', () => {
  it('takes a spare that fits, else allocates in steps; a buffer above the largest is never kept as a spare', () => {
    const before = pageBufferCounts();
    const a = takePageBuffer(100);
    expect(a.byteLength).toBe(16 * 1024);
    addSpares([a.buffer as ArrayBuffer, new ArrayBuffer(0)]);
    expect(pageBufferCounts().spares).toBe(before.spares + 1);
    expect(takePageBuffer(40_000).byteLength).toBe(48 * 1024);
    expect(takePageBuffer(16 * 1024).buffer).toBe(a.buffer);
    expect(pageBufferCounts().allocated).toBe(before.allocated + 2);
    const spares = pageBufferCounts().spares;
    addSpares([new ArrayBuffer(MAX_PAGE_BUFFER_BYTES + 1)]);
    expect(pageBufferCounts().spares).toBe(spares);
  });
});

describe('encodeChannelReply', () => {
  const replyWith = (page: Uint8Array): SearchShardReply => ({
    ok: true,
    value: { hits: new Float64Array(0), totalHits: 0, totalRelation: 'eq', maxScore: 0, terminatedEarly: false, timedOut: false, sortValues: null, rendered: page },
  } as unknown as SearchShardReply);

  it('lets a batch buffer go round only up to the largest buffer the worker keeps', () => {
    const small = new Uint8Array(new ArrayBuffer(MAX_PAGE_BUFFER_BYTES), 0, 10);
    expect(encodeChannelReply([replyWith(small)], 0, MAX_PAGE_BUFFER_BYTES).answer.returnable).toBe(true);
    expect(encodeChannelReply([replyWith(small)], 0).answer.returnable).toBe(false);
    const large = new Uint8Array(new ArrayBuffer(MAX_PAGE_BUFFER_BYTES + 1), 0, 10);
    expect(encodeChannelReply([replyWith(large)], 0, MAX_PAGE_BUFFER_BYTES).answer.returnable).toBe(false);
  });
});

describe('page buffers on a search channel', () => {
  const index = new InProcessIndex({ properties: { text: { type: 'text' } } });
  const words = ['amber', 'birch', 'cedar', 'dune', 'élan'];
  index.addSegment(Array.from({ length: 200 }, (_, i) => ({
    id: `d${i}`, source: { text: `${words[i % 5]} ${words[(i * 7) % 5]} ${words[(i * 3) % 5]} ${'ü'.repeat(i % 30)}` },
  })));
  const refs = [{ segment: 'buf-seg', liveDocs: null }];
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

  /** A channel to this thread's answerChannelBatch; `seen` collects the spares each batch brought back. */
  function channel(seen: number[] = []): SearchChannel {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    port1.on('message', (m: SearchChannelRequest) => {
      seen.push(m.spares?.length ?? 0);
      const { answer, transfer } = answerChannelBatch(m);
      port1.postMessage(answer, transfer);
    });
    return new SearchChannel({ op: 'threadsearch:search-port', threadId: 1, port: port2, poolTask: new Int32Array(1) }, () => {});
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

  it('sends a batch buffer back once every page is copied out, each page once, and the worker reuses it', async () => {
    expect(search({ segments: refs, request: request(plans[0]), inline: { 'buf-seg': index.segments[0].sab as SharedArrayBuffer } }).ok).toBe(true);
    const expected = plans.map((p) => alone(request(p)));
    const seen: number[] = [];
    const c = channel(seen);
    const returned = returnedPageBuffers();
    const first = pages((await c.run(tasks())).replies);
    const buffer = first[0].buffer;
    expect(first.every((p) => p.buffer === buffer)).toBe(true);
    // A page read twice counts once: the buffer waits for the others.
    expect(written(first[0])).toBe(`{"hits":${expected[0]}}`);
    expect(written(first[0])).toBe(`{"hits":${expected[0]}}`);
    for (let i = 1; i < 4; i++) expect(written(first[i])).toBe(`{"hits":${expected[i]}}`);
    expect(returnedPageBuffers()).toBe(returned);
    // The object reply's page (sorted) is in the buffer too, read through toString.
    expect(JsonPieces.object('{"hits":', first[4], '}').toString()).toMatch(/^\{"hits":\[\{"_index":"idx"/);
    expect(returnedPageBuffers()).toBe(returned + 1);
    expect(buffer.byteLength).toBeGreaterThan(0);
    // The next batch takes it back to the worker (detached here), which writes into it again.
    const allocated = pageBufferCounts().allocated;
    const second = pages((await c.run(tasks())).replies);
    expect(seen).toEqual([0, 1]);
    expect(buffer.byteLength).toBe(0);
    expect(pageBufferCounts().allocated).toBe(allocated);
    second.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`));
    releasePage(second[4]);
    // Round and round: no new buffer while every batch is read out before the next.
    for (let round = 0; round < 20; round++) {
      const batch = pages((await c.run(tasks())).replies);
      batch.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`));
      releasePage(batch[4]);
    }
    expect(pageBufferCounts().allocated).toBe(allocated);
  });

  it('keeps batches waiting at once apart, and does not send back a buffer with a page nobody read', async () => {
    const expected = plans.map((p) => alone(request(p)));
    const seen: number[] = [];
    const c = channel(seen);
    const held: Uint8Array[][] = [];
    for (let i = 0; i < 8; i++) held.push(pages((await c.run(tasks())).replies));
    expect(new Set(held.map((b) => b[0].buffer)).size).toBe(8);
    held.forEach((batch) => batch.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`)));
    // Batch 0's sorted page is never read: its buffer stays here, the others go back.
    for (const batch of held.slice(1)) releasePage(batch[4]);
    const last = pages((await c.run(tasks())).replies);
    expect(seen.at(-1)).toBe(7);
    expect(held[0][0].buffer.byteLength).toBeGreaterThan(0);
    expect(held[1][0].buffer.byteLength).toBe(0);
    last.slice(0, 4).forEach((p, i) => expect(written(p)).toBe(`{"hits":${expected[i]}}`));
  });
});
