/**
 * The coordinator's end of one search worker's own message channel (workers/search.ts opens it at
 * start-up). A batch of shard searches is one postMessage each way: no pool task, task id, async
 * resource or atomics wake-up around it, which on this path cost more coordinator time than the
 * shard search itself. The channel carries one batch at a time, and one more queued behind it
 * under a deep queue (`canQueue`); the search pool decides which
 * channel gets which batch (search-pool.ts), Piscina keeps owning the threads' lifecycle.
 */
import type { MessagePort } from 'node:worker_threads';
import { InternalError } from '../errors/index.js';
import type { Exec, ShardSearchRequest } from '../search/index.js';
import {
  CHANNEL_FULL, CHANNEL_ROW, decodeChannelReply, rowSearch,
  type ChannelSearch, type SearchChannelReply, type SearchChannelRequest, type SearchPortAnnouncement, type SearchShardTask, type SegmentRef,
} from '../../workers/protocol.js';

/**
 * The worker running a task died or failed outside the task's own error handling (the task body
 * turns its errors into replies). Rendered as ES's generic `exception` (500); only the pool tells
 * it apart from an error reply, to retry.
 */
export class WorkerFailureError extends InternalError {}

/**
 * Most plans one worker keeps for its channel; past it the least recently sent is dropped. As many
 * as the parsed-request caches that make plans shared hold (http/search.ts, 4,096 bodies): a load
 * test cycling through 2,000 queries sends every one to every thread, and a smaller bound would
 * drop each plan before its next use. A kept match plan is a few hundred bytes of worker heap.
 */
export const KEPT_PLANS_PER_CHANNEL = 4096;

/**
 * Ids of plans that will be searched again (the coordinator's plan cache hands the same Exec back
 * for a repeated query): only these are kept by workers, a one-off plan travels inline.
 */
const sharedPlans = new WeakMap<Exec, number>();
let nextPlanId = 0;

/** Marks `plan` as one later searches reuse, so each channel sends its tree once. */
export function sharePlan(plan: Exec): void {
  if (!sharedPlans.has(plan)) sharedPlans.set(plan, nextPlanId++);
}

/** `item`'s position in `list`, added at the end if absent (a batch's lists hold one or two entries). */
function positionIn<T>(list: T[], item: T): number {
  const i = list.indexOf(item);
  return i >= 0 ? i : list.push(item) - 1;
}

/** Read-out page buffers a channel holds for its worker at most (the worker keeps as many spares: workers/page-buffers.ts). */
const KEEP_SPARES = 64;

/** How long a batch in flight on a channel whose worker end closed waits for the pool to report the thread gone. */
const DETACHED_FAIL_MS = 1000;

export class SearchChannel {
  readonly threadId: number;
  private readonly port: MessagePort;
  private readonly poolTask: Int32Array;
  /**
   * The worker's page buffers whose pages have all been read out (common/page-leases.ts), sent back
   * with the next batch for the worker to reuse (workers/page-buffers.ts).
   */
  private readonly spares: ArrayBuffer[] = [];
  /**
   * Batches posted and not yet answered, oldest first (the worker answers in the order it got
   * them): at most two, the second only while the first runs (see `canQueue`).
   */
  private readonly pending: Array<{ resolve(reply: SearchChannelReply): void; reject(error: Error): void }> = [];
  /** No new batches (the worker's end closed, or the channel failed). */
  private closed = false;
  /** Failed: removed from the pool, nothing pending. */
  private gone = false;
  /**
   * Ids of the plans the worker keeps for this channel, least recently sent first (as far as the
   * Map's order tells), each with `sends` when it last moved to the back: as in common/lru-cache.ts,
   * a plan sent among the last half-bound moves stays in place, sparing a Map delete and insert per
   * search.
   */
  private readonly kept = new Map<number, number>();
  /** Moves to the back of `kept` so far. */
  private sends = 0;

  constructor(announcement: SearchPortAnnouncement, private readonly onGone: (channel: SearchChannel) => void) {
    this.threadId = announcement.threadId;
    this.port = announcement.port;
    this.poolTask = announcement.poolTask;
    this.port.on('message', (reply: SearchChannelReply) => {
      // Reply rows become the result objects the pool settles searches with (protocol.ts); the page
      // buffer is leased until its pages are read out, then goes back (common/page-leases.ts).
      this.pending.shift()?.resolve({ replies: decodeChannelReply(reply, this.spares, KEEP_SPARES), runMs: reply.runMs });
    });
    // The worker's end went away: the thread exited or was terminated. No batch goes down the
    // channel any more, but one in flight fails only once the pool has let go of the thread
    // (`fail`, on Piscina's workerDestroy), so its retry cannot be handed to the dying thread as
    // a pool task; the timer is the backstop should that never be reported.
    this.port.on('close', () => {
      this.closed = true;
      setTimeout(() => this.fail(new WorkerFailureError(`search worker thread [${this.threadId}] exited`)), DETACHED_FAIL_MS).unref();
    });
    // The HTTP server keeps the process alive, never a channel.
    this.port.unref();
  }

  /** Open, with no batch in flight. */
  get idle(): boolean {
    return !this.closed && this.pending.length === 0;
  }

  /**
   * Open, with one batch in flight and none behind it: a second batch posted now waits in the
   * worker's port and runs as soon as the first is answered, so the worker does not park between
   * them. A post to a thread that is running costs the coordinator a fraction of waking a parked
   * one (`thread-handoff`: ~32 against ~145 µs), and the worker saves its own park and wake-up.
   */
  get canQueue(): boolean {
    return !this.closed && this.pending.length === 1;
  }

  /** The thread is running a pool task (a segment build or merge) and would answer late. */
  get runningPoolTask(): boolean {
    return Atomics.load(this.poolTask, 0) !== 0;
  }

  /**
   * Sends one batch (to an idle channel, or behind the one in flight: `canQueue`); rejects with a
   * WorkerFailureError when the thread goes away first.
   */
  run(tasks: readonly SearchShardTask[]): Promise<SearchChannelReply> {
    if (!this.idle && !this.canQueue) return Promise.reject(new InternalError('search channel is busy or closed'));
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject };
      this.pending.push(entry);
      try {
        this.post(tasks);
      } catch (e) {
        // Nothing went down the channel (a value that cannot be cloned): the batch fails, the channel stays.
        this.pending.pop();
        reject(e instanceof Error ? e : new InternalError(String(e)));
      }
    });
  }

  /**
   * Posts a batch, each shared plan's tree only the first time this channel carries it. A plain
   * search with a kept plan goes as a row of numbers (protocol.ts SearchChannelRequest.rows), with
   * its segment list and fetch named by position in the batch's lists of distinct ones; any other
   * search goes as its task object, a kept plan's `query` set to null while postMessage clones it
   * (it clones synchronously) and put back after: no per-search copy of the request, and a task
   * keeps its plan for a resend as a pool task.
   */
  private post(tasks: readonly SearchShardTask[]): void {
    let plans: Array<readonly [number, Exec]> | null = null;
    let dropPlans: number[] | null = null;
    const rows = new Float64Array(tasks.length * CHANNEL_ROW);
    const searches: ChannelSearch[] = [];
    const refs: Array<readonly SegmentRef[]> = [];
    const fetches: Array<NonNullable<ShardSearchRequest['fetch']>> = [];
    const swapped: Array<{ request: { query: Exec | null }; plan: Exec }> = [];
    try {
      for (let i = 0; i < tasks.length; i++) {
        const task = tasks[i];
        const o = i * CHANNEL_ROW;
        const plan = task.request.query;
        const id = sharedPlans.get(plan);
        if (id === undefined) {
          rows[o] = CHANNEL_FULL;
          searches.push({ segments: task.segments, request: task.request, planId: -1 });
          continue;
        }
        const sent = this.kept.get(id);
        if (sent !== undefined) {
          if (this.sends - sent >= KEPT_PLANS_PER_CHANNEL >> 1) {
            this.kept.delete(id);
            this.kept.set(id, ++this.sends);
          }
        } else {
          (plans ??= []).push([id, plan]);
          // Never a plan this batch names by id: one left in place is among the newest half, and a
          // batch (at most 32 searches: search-pool.ts DEEP_BATCH) evicts far fewer than the older
          // half holds. Nor one the batch in flight names: the worker runs that batch before it
          // reads this one's drops.
          if (this.kept.size >= KEPT_PLANS_PER_CHANNEL) {
            const oldest = this.kept.keys().next().value as number;
            this.kept.delete(oldest);
            (dropPlans ??= []).push(oldest);
          }
          this.kept.set(id, ++this.sends);
        }
        const request = task.request;
        if (rowSearch(request)) {
          rows[o] = id;
          rows[o + 1] = request.k;
          rows[o + 2] = request.trackTotalHitsUpTo;
          rows[o + 3] = request.trackScores ? 1 : 0;
          rows[o + 4] = request.terminateAfter;
          rows[o + 5] = request.deadline!;
          rows[o + 6] = positionIn(refs, task.segments);
          rows[o + 7] = request.fetch === undefined || request.fetch === null ? -1 : positionIn(fetches, request.fetch);
          continue;
        }
        rows[o] = CHANNEL_FULL;
        if (sent !== undefined) {
          const held = request as unknown as { query: Exec | null };
          held.query = null;
          swapped.push({ request: held, plan });
        }
        searches.push({ segments: task.segments, request, planId: id });
      }
      // Page buffers read out since the last batch go back with this one (moved, not copied).
      const spares = this.spares.length === 0 ? null : this.spares.splice(0);
      const message: SearchChannelRequest = { searches, plans, dropPlans, rows, refs, fetches, spares };
      try {
        if (spares === null) this.port.postMessage(message);
        else this.port.postMessage(message, spares);
      } catch (e) {
        // The worker did not get these plans: later batches send them again.
        if (plans !== null) for (const [id] of plans) this.kept.delete(id);
        throw e;
      }
    } finally {
      for (const s of swapped) s.request.query = s.plan;
    }
  }

  /** Ends the channel; a batch in flight fails with `error` (the pool retries a worker failure elsewhere). */
  fail(error: Error): void {
    if (this.gone) return;
    this.gone = true;
    this.closed = true;
    const pending = this.pending.splice(0);
    this.port.close();
    this.onGone(this);
    for (const p of pending) p.reject(error);
  }
}
