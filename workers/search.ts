/**
 * Worker entry: the query phase of shards (search/shard-search over their segments), in batches.
 * Batches arrive on this thread's own search channel (announced to the coordinator when the module
 * loads, at worker start-up), or as pool tasks when the coordinator has no channel to this thread.
 */
import { MessageChannel, parentPort, threadId } from 'node:worker_threads';
import { InternalError } from '../src/errors/index.js';
import { searchShard, type Exec } from '../src/search/index.js';
import { poolTaskFlag } from './pool-task.js';
import { SEARCH_PORT, type SearchBatchReply, type SearchBatchTask, type SearchChannelReply, type SearchChannelRequest, type SearchPortAnnouncement, type SearchShardReply, type SearchShardTask } from './protocol.js';
import { reply, resolveRefs } from './segment-cache.js';

export function search(task: SearchShardTask): SearchShardReply {
  return reply(() => {
    const shard = resolveRefs(task.segments, task.inline);
    if ('missing' in shard) return shard;
    return searchShard(task.request, shard);
  });
}

/** A batch of shard searches, each with its own reply (one failing does not fail the others). */
export function searchBatch(task: SearchBatchTask): SearchBatchReply {
  return task.searches.map(search);
}

/** Plans the coordinator sent once and names by id (protocol.ts SearchChannelRequest), for this thread's channel. */
const keptPlans = new Map<number, Exec>();

/** A channel batch: kept plans updated first, then each search with its plan inline or by id. */
function channelBatch(request: SearchChannelRequest): SearchBatchReply {
  if (request.dropPlans !== null) for (const id of request.dropPlans) keptPlans.delete(id);
  if (request.plans !== null) for (const [id, plan] of request.plans) keptPlans.set(id, plan);
  const replies = new Array<SearchShardReply>(request.searches.length);
  for (let i = 0; i < replies.length; i++) {
    const s = request.searches[i];
    if (s.planId >= 0) {
      const plan = keptPlans.get(s.planId);
      if (plan === undefined) {
        replies[i] = { ok: false, error: new InternalError(`search plan [${s.planId}] is not kept by this worker`).toPlain() };
        continue;
      }
      // The request is this thread's own clone: it takes the kept plan in place of its null.
      (s.request as { query: Exec | null }).query = plan;
    }
    replies[i] = search(s as SearchShardTask);
  }
  return replies;
}

/** The rendered pages of a batch's replies, to transfer rather than copy (each has a buffer of its own). */
function renderedBuffers(replies: SearchBatchReply): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const r of replies) if (r.ok && r.value.rendered !== undefined) out.push(r.value.rendered.buffer as ArrayBuffer);
  return out;
}

if (parentPort !== null) {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (request: SearchChannelRequest) => {
    const started = performance.now();
    const replies = channelBatch(request);
    const answer: SearchChannelReply = { replies, runMs: performance.now() - started };
    port1.postMessage(answer, renderedBuffers(replies));
  });
  // The channel never keeps the thread alive: the pool decides when it ends.
  port1.unref();
  const announcement: SearchPortAnnouncement = { op: SEARCH_PORT, threadId, port: port2 as never, poolTask: poolTaskFlag };
  parentPort.postMessage(announcement, [port2]);
}
