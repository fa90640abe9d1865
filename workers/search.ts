/**
 * Worker entry: the query phase of shards (search/shard-search over their segments), in batches.
 * Batches arrive on this thread's own search channel (announced to the coordinator when the module
 * loads, at worker start-up), or as pool tasks when the coordinator has no channel to this thread.
 */
import { MessageChannel, parentPort, receiveMessageOnPort, threadId } from 'node:worker_threads';
import { InternalError } from '../src/errors/index.js';
import { beginPages, endPages, searchShard, type Exec } from '../src/search/index.js';
import { poolTaskFlag, setSearchDrain } from './pool-task.js';
import {
  CHANNEL_FULL, CHANNEL_ROW, SEARCH_PORT, encodeChannelReply, rowRequest, type ChannelSearch, type SearchBatchReply, type SearchBatchTask, type SearchChannelRequest,
  type SearchPortAnnouncement, type SearchShardReply, type SearchShardTask,
} from './protocol.js';
import { reply, resolveRefs } from './segment-cache.js';
import { MAX_PAGE_BUFFER_BYTES, addSpares, takePageBuffer } from './page-buffers.js';

export function search(task: SearchShardTask): SearchShardReply {
  return reply(() => {
    const shard = resolveRefs(task.segments, task.inline);
    if ('missing' in shard) return shard;
    return searchShard(task.request, shard);
  });
}

/** A batch of shard searches, each with its own reply (one failing does not fail the others). */
export function searchBatch(task: SearchBatchTask): SearchBatchReply {
  return runBatch(task.searches.length, (i) => search(task.searches[i]));
}

/** Plans the coordinator sent once and names by id (protocol.ts SearchChannelRequest), for this thread's channel. */
const keptPlans = new Map<number, Exec>();

/**
 * A channel batch: kept plans updated first, then each search — a row, or an object with its plan
 * inline or by id. `returnable`: the pages go into a spare buffer the coordinator sends back (only
 * when the reply goes back on the channel, whose coordinator end does: workers/page-buffers.ts).
 */
export function channelBatch(request: SearchChannelRequest, returnable = false): SearchBatchReply {
  if (request.spares !== undefined && request.spares !== null) addSpares(request.spares);
  if (request.dropPlans !== null) for (const id of request.dropPlans) keptPlans.delete(id);
  if (request.plans !== null) for (const [id, plan] of request.plans) keptPlans.set(id, plan);
  const rows = request.rows ?? null;
  if (rows === null) return runBatch(request.searches.length, (i) => objectSearch(request.searches[i]), returnable);
  // runBatch runs the searches in order: the objects are taken as their rows come.
  let next = 0;
  return runBatch(rows.length / CHANNEL_ROW, (i) => {
    const o = i * CHANNEL_ROW;
    const planId = rows[o];
    if (planId === CHANNEL_FULL) return objectSearch(request.searches[next++]);
    const plan = keptPlans.get(planId);
    if (plan === undefined) return notKept(planId);
    return search({ segments: request.refs![rows[o + 6]], request: rowRequest(rows, o, plan, request.fetches) });
  }, returnable);
}

function objectSearch(s: ChannelSearch): SearchShardReply {
  if (s.planId >= 0) {
    const plan = keptPlans.get(s.planId);
    if (plan === undefined) return notKept(s.planId);
    // The request is this thread's own clone: it takes the kept plan in place of its null.
    (s.request as { query: Exec | null }).query = plan;
  }
  return search(s as SearchShardTask);
}

function notKept(planId: number): SearchShardReply {
  return { ok: false, error: new InternalError(`search plan [${planId}] is not kept by this worker`).toPlain() };
}

/** `n` searches' replies, their rendered pages in one buffer (one that goes round when `returnable`; transferred, or cloned, once). */
function runBatch(n: number, run: (i: number) => SearchShardReply, returnable = false): SearchShardReply[] {
  const replies = new Array<SearchShardReply>(n);
  beginPages();
  try {
    for (let i = 0; i < n; i++) replies[i] = run(i);
  } finally {
    movePages(replies, returnable);
  }
  return replies;
}

/** Moves the replies' rendered pages (views of the render scratch) to the batch's one buffer. */
function movePages(replies: SearchBatchReply, returnable: boolean): void {
  const pages: Uint8Array[] = [];
  let size = 0;
  for (const r of replies) {
    if (r !== undefined && r.ok && r.value.rendered !== undefined) {
      pages.push(r.value.rendered);
      size += r.value.rendered.byteLength;
    }
  }
  // Only a buffer no larger than MAX_PAGE_BUFFER_BYTES goes round (answerChannelBatch tells encodeChannelReply so).
  const moved = endPages(pages, returnable && pages.length > 0 && size <= MAX_PAGE_BUFFER_BYTES ? takePageBuffer(size) : null);
  let p = 0;
  for (const r of replies) if (r !== undefined && r.ok && r.value.rendered !== undefined) (r.value as { rendered: Uint8Array }).rendered = moved[p++];
}

/** A batch that came on this thread's channel, answered as the channel's reply (its pages in a buffer that goes round). */
export function answerChannelBatch(request: SearchChannelRequest): ReturnType<typeof encodeChannelReply> {
  const started = performance.now();
  const replies = channelBatch(request, true);
  return encodeChannelReply(replies, performance.now() - started, MAX_PAGE_BUFFER_BYTES);
}

if (parentPort !== null) {
  const { port1, port2 } = new MessageChannel();
  const answerBatch = (request: SearchChannelRequest): void => {
    const { answer, transfer } = answerChannelBatch(request);
    port1.postMessage(answer, transfer);
  };
  port1.on('message', answerBatch);
  // Before a build or merge runs here, the batches already queued on the channel are answered
  // (in order: receiveMessageOnPort takes them from the same queue the listener reads).
  // A failure here is what it would be in the listener (an uncaught error: the thread is replaced and
  // the batch retried), not the pool task's.
  setSearchDrain(() => {
    try {
      for (let m = receiveMessageOnPort(port1); m !== undefined; m = receiveMessageOnPort(port1)) answerBatch(m.message as SearchChannelRequest);
    } catch (e) {
      queueMicrotask(() => {
        throw e;
      });
    }
  });
  // The channel never keeps the thread alive: the pool decides when it ends.
  port1.unref();
  const announcement: SearchPortAnnouncement = { op: SEARCH_PORT, threadId, port: port2 as never, poolTask: poolTaskFlag };
  parentPort.postMessage(announcement, [port2]);
}
