/**
 * The one Piscina pool ("search pool"): any worker serves any shard. Segments are announced to
 * workers once over a broadcast channel and then referenced by id; a worker that missed an
 * announcement (e.g. a replacement thread) reports the ids it lacks and the task is resent with
 * every buffer it names inline. A full queue is ES's 429 `es_rejected_execution_exception`, never
 * unbounded growth.
 *
 * Worker faults: a worker that dies (exit, terminate, uncaught error) fails the task it was running
 * and Piscina starts a replacement (minThreads = maxThreads; Piscina 5 replaces a worker that had
 * finished starting up at once, one that died starting up when the next task finds the pool short
 * of threads). Segments live in coordinator-owned SharedArrayBuffers, so nothing is lost: the
 * replacement gets them through the `missing` → inline resend. A buffer stays available for that
 * resend while any search or merge that refers to it is unfinished, even if the shard has dropped
 * it meanwhile (a merge published), as Lucene keeps a searcher's segments open. A shard search whose
 * worker died is retried once (ES retries a failed shard on another copy); a second death fails it
 * with an `exception` (500) the coordinator reports as a shard failure. Build and merge tasks are
 * not retried: they reject with the same error and their callers keep their inputs.
 */
import { fileURLToPath } from 'node:url';
import { BroadcastChannel, type Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { workerExecArgv } from './worker-exec-argv.js';
import { EsError, InternalError, RejectedExecutionError } from '../errors/index.js';
import { finite, SearchPoolCounters, type SearchPoolStats } from './search-pool-stats.js';
import { SearchChannel, WorkerFailureError } from './search-channel.js';
import { IdleCollector } from './idle-collector.js';
import { MallocTrim } from './malloc-trim.js';
import type { ShardSearchResult } from '../search/index.js';
import {
  SEARCH_PORT, SEGMENT_CHANNEL, TASK, WORKER_MEMORY_CHANNEL, type SearchPortAnnouncement, type WorkerMemory, type BuildSegmentTask, type InlineBuffers, type MergeSegmentsTask, type SearchBatchReply,
  type SearchShardReply, type SearchShardTask, type SegmentBuilt, type SegmentChannelMessage, type SegmentRef, type WorkerReply,
} from '../../workers/protocol.js';
import type { Logger } from '../logging/index.js';

/** Most shard searches one batch task carries. */
const MAX_BATCH = 16;
/**
 * Most shard searches one batch carries while the queue is deep (DEEP_QUEUE waiting searches per
 * search thread, e.g. `_msearch` items at 100 connections). A batch costs both threads a message
 * round trip whatever it carries (~10 µs each side) and often a worker's park and wake-up, so twice
 * the searches per batch halves that per search (issue 19, msearch-i19ms: ~0.6 µs of coordinator
 * and ~1 µs of worker CPU per search); with that many waiting, a free thread taking up to this
 * cannot leave the other threads short, which is what MAX_BATCH guards in shallow queues. The pages
 * of DEEP_BATCH searches of 10 hits (~2.5 KB each) still fit a page buffer the worker gets back
 * (workers/page-buffers.ts MAX_PAGE_BUFFER_BYTES).
 */
const DEEP_BATCH = 32;
/** Waiting searches per search thread from which batches take up to DEEP_BATCH. */
const DEEP_QUEUE = 64;

/**
 * A shard search waiting for, or running on, a thread. Settling it releases its segments first.
 * A class rather than an object with closures: a search allocates no release or settle closures.
 */
class PendingSearch {
  /** Already resent once after its worker died: a second death fails it. */
  retried = false;
  private settled = false;

  constructor(
    readonly task: SearchShardTask,
    /** performance.now() when it started waiting for a thread (for the wait-time histogram). */
    readonly queuedAt: number,
    private readonly unuse: (refs: readonly SegmentRef[]) => void,
    private readonly onResult: (result: ShardSearchResult) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  resolve(result: ShardSearchResult): void {
    if (this.settle()) this.onResult(result);
  }

  reject(error: unknown): void {
    if (this.settle()) this.onError(error);
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.unuse(this.task.segments);
    return true;
  }
}

export interface SearchPoolOptions {
  readonly threads: number;
  /** Tasks waiting beyond the running ones before rejecting with 429. */
  readonly maxQueue: number;
  /** Directory of the compiled worker modules (dist/workers). */
  readonly workerDir: URL;
  /** For the heap trim's debug lines (malloc-trim.ts). */
  readonly logger?: Logger;
  /** The coordinator's free lists of reusable buffers, dropped at each idle collection (idle-collector.ts). */
  readonly releaseCaches?: () => void;
}

/** How long the idle collection waits for the workers' GCs before trimming the heap anyway (a busy worker answers after its task). */
const WORKER_GC_WAIT_MS = 2000;

export class SearchPool {
  private readonly pool: Piscina;
  private readonly channel = new BroadcastChannel(SEGMENT_CHANNEL);
  /** glibc's free heap returned after each idle collection (malloc-trim.ts). */
  readonly mallocTrim: MallocTrim;
  /** Full GCs in every thread once builds and merges stop: none in flight, none ended for 2 s (idle-collector.ts), then a heap trim. */
  private readonly idleCollector: IdleCollector;
  private readonly memoryChannel = new BroadcastChannel(WORKER_MEMORY_CHANNEL);
  /** The last heap figures each worker thread reported (`_nodes/stats`). */
  private readonly workerHeaps = new Map<number, WorkerMemory>();
  /**
   * The rounds in flight (askWorkers): what each waits for, and the threads that have answered it.
   * Rounds may overlap (a `_nodes/stats` during an idle collection); each counts its own answers.
   */
  private readonly rounds = new Set<{ readonly op: 'memory' | 'gc'; readonly answered: Set<number> }>();
  /** Every buffer announced and not dropped, for inline resends. */
  private readonly buffers = new Map<string, SharedArrayBuffer>();
  /** Unfinished searches and merges per buffer id: a dropped buffer goes once none refers to it. */
  private readonly inUse = new Map<string, number>();
  /** Ids dropped while still in use. */
  private readonly dropWhenUnused = new Set<string>();
  private readonly searchFile: string;
  private readonly buildFile: string;
  private readonly maxQueue: number;
  /** Configured threads: the dispatcher's bound, whatever Piscina's live count is while it replaces one. */
  private readonly size: number;
  private closed = false;
  /** Shard searches waiting for a free thread; they leave in batches. */
  private readonly waiting: PendingSearch[] = [];
  /** Search batches posted and not yet answered (at most one per thread, two on a channel: queueBehind). */
  private searchesInFlight = 0;
  /** Each live worker's own search channel (search-channel.ts), as the threads announce them. */
  private readonly channels: SearchChannel[] = [];
  /** A dispatch is scheduled for the end of this event-loop turn. */
  private dispatchScheduled = false;
  /** Counters for `_nodes/stats` (plain increments). */
  readonly counters = new SearchPoolCounters();

  constructor(options: SearchPoolOptions) {
    // Plain paths: Piscina converts a file URL on every task otherwise.
    this.searchFile = fileURLToPath(new URL('search.js', options.workerDir));
    this.buildFile = fileURLToPath(new URL('build-segment.js', options.workerDir));
    this.maxQueue = options.maxQueue;
    this.size = options.threads;
    this.mallocTrim = new MallocTrim(options.logger);
    this.idleCollector = new IdleCollector(() => this.askWorkers({ op: 'gc' }, WORKER_GC_WAIT_MS), {
      releaseHeap: () => void this.mallocTrim.trim(),
      releaseCaches: options.releaseCaches,
    });
    this.pool = new Piscina({
      filename: this.searchFile,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      maxQueue: options.maxQueue,
      // Piscina's defaults would recycle workers and lose their segment caches.
      concurrentTasksPerWorker: 1,
      // Run-time histogram for `_nodes/stats` (utilisation, run time): one more clock read and two
      // native histogram records per task, ~0.5 µs on the reference VM against a task's ~50 µs of
      // coordinator cost.
      recordTiming: true,
      execArgv: workerExecArgv(),
      // Idle workers wait with Atomics.waitAsync and keep running their event loop: segment drops
      // reach them at once (segment-cache.ts) and V8 can shrink their heaps after a build, where
      // a blocking wait pinned every dropped segment and the builder's garbage until the next task.
      atomics: 'async',
    });
    // Piscina emits 'error' when a worker fails while idle (its replacement is already starting);
    // without a listener that event would be thrown on the main thread and end the process.
    this.pool.on('error', () => {});
    this.pool.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && (m as SearchPortAnnouncement).op === SEARCH_PORT) this.attach(m as SearchPortAnnouncement);
    });
    // A thread that goes away takes its channel with it (search-channel.ts: its port closes first).
    this.pool.on('workerDestroy', (w: { threadId: number }) => {
      for (const c of this.channels) if (c.threadId === w.threadId) c.fail(new WorkerFailureError(`search worker thread [${w.threadId}] exited`));
    });
    (this.channel as unknown as { unref(): void }).unref();
    this.memoryChannel.onmessage = (e: { data: unknown }) => {
      const m = e.data as WorkerMemory;
      this.workerHeaps.set(m.threadId, m);
      // Any report is a fresh heap reading; only one sent after a collection answers a `gc` round.
      for (const r of this.rounds) if (r.op === 'memory' || m.after === 'gc') r.answered.add(m.threadId);
    };
    (this.memoryChannel as unknown as { unref(): void }).unref();
  }

  private attach(announcement: SearchPortAnnouncement): void {
    if (this.closed) {
      announcement.port.close();
      return;
    }
    this.channels.push(new SearchChannel(announcement, (c) => {
      const i = this.channels.indexOf(c);
      if (i >= 0) this.channels.splice(i, 1);
      // With no channel left, waiting searches go as pool tasks until a replacement announces one.
      this.scheduleDispatch();
    }));
    this.scheduleDispatch();
  }

  /**
   * The V8 heaps of the worker threads: asks every worker and resolves with the answers that came
   * within `waitMs` (a busy worker answers after its task; its previous figures stand in meanwhile).
   */
  async workerMemory(waitMs = 50): Promise<WorkerMemory[]> {
    const live = await this.askWorkers({ op: 'memory' }, waitMs);
    return [...this.workerHeaps.values()].filter((m) => live.has(m.threadId));
  }

  /**
   * Posts `msg` to every worker and waits until each live one has answered it (a worker reports its
   * heap after `memory`, and after its collection for `gc`), at most `waitMs`; a worker that did not
   * answer keeps its last figures in workerHeaps. Returns the live threads' ids.
   */
  private async askWorkers(msg: Extract<SegmentChannelMessage, { op: 'memory' | 'gc' }>, waitMs: number): Promise<Set<number>> {
    const live = new Set(this.pool.threads.map((w) => w.threadId));
    const round = { op: msg.op, answered: new Set<number>() };
    this.rounds.add(round);
    try {
      this.channel.postMessage(msg);
      const deadline = performance.now() + waitMs;
      const poll = Math.max(2, waitMs / 100);
      while (performance.now() < deadline && !this.closed && !answeredAll(round.answered, live)) await new Promise((r) => setTimeout(r, poll));
    } finally {
      this.rounds.delete(round);
    }
    return live;
  }

  get threads(): number {
    return this.pool.threads.length;
  }

  /**
   * The pool's worker threads right now (Piscina's `threads`): for diagnostics and fault-injection
   * tests, e.g. `workers()[0].terminate()` while a search runs.
   */
  workers(): readonly Worker[] {
    return this.pool.threads;
  }

  /** Bytes of the buffers workers are told to keep (announced and not dropped): what the pool pins. */
  retainedBytes(): number {
    let n = 0;
    for (const sab of this.buffers.values()) n += sab.byteLength;
    return n;
  }

  /** Makes a buffer available to every worker under `id`. */
  announce(id: string, sab: SharedArrayBuffer): void {
    this.buffers.set(id, sab);
    this.channel.postMessage({ op: 'add', id, sab });
  }

  /**
   * Lets workers release a buffer no published snapshot uses any more — once no unfinished search
   * or merge refers to it (a worker may yet need it inline).
   */
  drop(id: string): void {
    if (!this.buffers.has(id)) return;
    if (this.inUse.has(id)) this.dropWhenUnused.add(id);
    else this.release(id);
  }

  private release(id: string): void {
    this.dropWhenUnused.delete(id);
    this.idleCollector.dropped(this.buffers.get(id)?.byteLength ?? 0);
    this.buffers.delete(id);
    // Searches still in flight at close() settle after the channel has closed (their batches fail
    // a turn later): the workers are going away with it, and a post would throw out of settle.
    if (!this.closed) this.channel.postMessage({ op: 'drop', id });
  }

  /**
   * Keeps the buffers of `refs` available to workers until the returned function is called — what a
   * scroll or point in time holds between its searches, so merges and refreshes meanwhile cannot
   * make workers drop segments it still names.
   */
  hold(refs: readonly SegmentRef[]): () => void {
    return this.retain(refs);
  }

  /** Marks the buffers of `refs` in use until the returned function is called (once). */
  private retain(refs: readonly SegmentRef[]): () => void {
    this.useRefs(refs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.unuseRefs(refs);
    };
  }

  private useRefs(refs: readonly SegmentRef[]): void {
    for (const r of refs) {
      this.inUse.set(r.segment, (this.inUse.get(r.segment) ?? 0) + 1);
      if (r.liveDocs !== null) this.inUse.set(r.liveDocs, (this.inUse.get(r.liveDocs) ?? 0) + 1);
    }
  }

  /** Ends one use of each buffer `refs` name (an arrow: every pending search is handed it). */
  private readonly unuseRefs = (refs: readonly SegmentRef[]): void => {
    for (const r of refs) {
      this.unuse(r.segment);
      if (r.liveDocs !== null) this.unuse(r.liveDocs);
    }
  };

  private unuse(id: string): void {
    const n = this.inUse.get(id)! - 1;
    if (n > 0) {
      this.inUse.set(id, n);
      return;
    }
    this.inUse.delete(id);
    if (this.dropWhenUnused.has(id)) this.release(id);
  }

  /**
   * Posts one task. Rejects with 429 when Piscina's queue is full, and with a WorkerFailureError
   * when the worker died or failed outside the task's own error handling.
   */
  private async run<R>(task: object, name: string, filename: string, transferList?: ArrayBuffer[]): Promise<R> {
    if (this.closed) throw new InternalError('the search pool is shutting down');
    this.counters.active++;
    try {
      // The search file is the pool's default: naming it again would cost a lookup per task.
      const options = filename === this.searchFile ? { name } : transferList ? { name, filename, transferList } : { name, filename };
      return (await this.pool.run(task, options)) as R;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (/Task queue is at limit|No task queue available/.test(message)) {
        this.counters.rejected++;
        throw new RejectedExecutionError(
          `rejected execution of ${name} task on search pool [threads = ${this.threads}, queue capacity = ${this.maxQueue}, queued tasks = ${this.pool.queueSize}]`,
        );
      }
      if (this.closed) throw new InternalError('the search pool is shutting down');
      throw new WorkerFailureError(`worker failed while running a ${name} task: ${message}`);
    } finally {
      this.counters.active--;
      this.counters.completed++;
    }
  }

  /**
   * Every buffer `refs` name, for a resend. Not just the ids the worker reported missing: the resend
   * may run on another worker, and workers started at different times (replacements) have seen
   * different announcements. Retained buffers are never dropped, so all of them are here.
   */
  private inlineBuffers(refs: readonly SegmentRef[]): InlineBuffers {
    const inline: Record<string, SharedArrayBuffer> = {};
    const add = (id: string) => {
      const sab = this.buffers.get(id);
      if (!sab) throw new InternalError(`segment buffer [${id}] is no longer available`);
      inline[id] = sab;
    };
    for (const r of refs) {
      add(r.segment);
      if (r.liveDocs !== null) add(r.liveDocs);
    }
    return inline;
  }

  /** Runs a merge, resending it once with its buffers inline if a worker lacks some. */
  private async runMerge(task: MergeSegmentsTask): Promise<SegmentBuilt> {
    let reply = await this.run<WorkerReply<SegmentBuilt>>(task, TASK.merge, this.buildFile);
    if (!reply.ok && 'missing' in reply) {
      reply = await this.run<WorkerReply<SegmentBuilt>>({ ...task, inline: this.inlineBuffers(task.sources) }, TASK.merge, this.buildFile);
    }
    return replyValue(reply);
  }

  /**
   * Runs one shard's query phase. At most one search task per thread is in flight (two on its
   * channel under a deep queue: queueBehind); searches that
   * arrive while every thread is busy wait here and leave together as one batch task, so under
   * load the per-task cost (message passing, wake-up, promise plumbing: ~50 µs of coordinator
   * time) is shared, and an idle pool still answers at once. Beyond `maxQueue` waiting searches,
   * requests are rejected with 429 as ES rejects them.
   */
  search(segments: readonly SegmentRef[], request: SearchShardTask['request']): Promise<ShardSearchResult> {
    if (this.closed) return Promise.reject(new InternalError('the search pool is shutting down'));
    if (this.waiting.length >= this.maxQueue) {
      this.counters.rejected++;
      return Promise.reject(new RejectedExecutionError(
        `rejected execution of search task on search pool [threads = ${this.threads}, queue capacity = ${this.maxQueue}, queued tasks = ${this.waiting.length}]`,
      ));
    }
    // The executor is a module function, not a closure per search: it hands the settlers over here.
    const promise = new Promise<ShardSearchResult>(takeSettlers);
    const resolve = takenResolve!;
    const reject = takenReject!;
    takenResolve = takenReject = null;
    try {
      this.useRefs(segments);
      this.waiting.push(new PendingSearch({ segments, request }, performance.now(), this.unuseRefs, resolve, reject));
      this.scheduleDispatch();
    } catch (e) {
      reject(e);
    }
    return promise;
  }

  /**
   * Dispatches once the current turn of the event loop has run (setImmediate: after the poll phase
   * that read this request's socket), so the searches of every request read in the same turn — and
   * all items of an `_msearch` started together — leave as one batch message per worker instead of
   * one message each. An idle pool still starts within the same loop iteration.
   */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(this.dispatchNow);
  }

  private readonly dispatchNow = (): void => {
    this.dispatchScheduled = false;
    this.dispatchSearches();
  };

  /**
   * Hands waiting searches to free threads, split evenly over them. With the workers' channels
   * attached, a batch goes down a free thread's channel, preferring threads not running a build or
   * merge (one running a pool task gets searches only when no search is in flight anywhere, as the
   * pool's queue would have waited for some thread too). Before any channel is attached (start-up,
   * or every thread being replaced) batches are pool tasks.
   */
  private dispatchSearches(): void {
    while (this.waiting.length > 0) {
      if (this.channels.length === 0) {
        if (this.searchesInFlight >= this.size) return;
        const batch = this.takeBatch(this.size - this.searchesInFlight);
        this.searchesInFlight++;
        void this.runBatch(batch).finally(this.batchDone);
        continue;
      }
      let free = 0;
      let channel: SearchChannel | null = null;
      let fallback: SearchChannel | null = null;
      for (const c of this.channels) {
        if (!c.idle) continue;
        if (!c.runningPoolTask) {
          free++;
          channel ??= c;
        } else fallback ??= c;
      }
      if (channel === null) {
        if (fallback === null || this.searchesInFlight > 0) {
          this.queueBehind();
          return;
        }
        channel = fallback;
        free = 1;
      }
      this.sendOnChannel(channel, this.takeBatch(free));
    }
  }

  /**
   * With every channel busy and at least a full batch still waiting, queues one full batch behind
   * the batch in flight on each channel that has none queued (SearchChannel.canQueue): the worker
   * starts it as soon as it answers, instead of parking until the coordinator has read the answer
   * and posted again (the wake-up of a parked thread costs the posting thread far more CPU than
   * a post to a running one: BENCHMARKS.md `thread-handoff`). Only full batches, so batches do not
   * get smaller; a shallower queue waits for the next free thread as before, which keeps short
   * queues spread evenly.
   */
  private queueBehind(): void {
    for (const c of this.channels) {
      if (this.waiting.length < MAX_BATCH) return;
      // With a full batch waiting, takeBatch(1) takes a full one (MAX_BATCH, or DEEP_BATCH from a deep queue).
      if (c.canQueue && !c.runningPoolTask) this.sendOnChannel(c, this.takeBatch(1));
    }
  }

  private sendOnChannel(channel: SearchChannel, batch: PendingSearch[]): void {
    this.searchesInFlight++;
    void this.runOnChannel(channel, batch).finally(this.batchDone);
  }

  private readonly batchDone = (): void => {
    this.searchesInFlight--;
    this.dispatchSearches();
  };

  /** The next batch when `threads` threads are free: an even share of what waits (at most MAX_BATCH, DEEP_BATCH from a deep queue). */
  private takeBatch(threads: number): PendingSearch[] {
    const waiting = this.waiting.length;
    const bound = waiting >= DEEP_QUEUE * Math.max(1, this.channels.length) ? DEEP_BATCH : MAX_BATCH;
    const batch = this.waiting.splice(0, Math.min(bound, Math.ceil(waiting / threads)));
    const now = performance.now();
    for (let i = 0; i < batch.length; i++) this.counters.recordWait(now - batch[i].queuedAt);
    return batch;
  }

  private async runOnChannel(channel: SearchChannel, batch: PendingSearch[]): Promise<void> {
    this.counters.active++;
    let replies: SearchBatchReply;
    try {
      const searches = new Array<SearchShardTask>(batch.length);
      for (let i = 0; i < batch.length; i++) searches[i] = batch[i].task;
      const answer = await channel.run(searches);
      this.counters.recordRun(answer.runMs);
      replies = answer.replies;
    } catch (e) {
      for (const b of batch) this.searchFailed(b, this.closed ? new InternalError('the search pool is shutting down') : e);
      return;
    } finally {
      this.counters.active--;
      this.counters.completed++;
    }
    this.settleBatch(batch, replies);
  }

  private async runBatch(batch: PendingSearch[]): Promise<void> {
    let replies: SearchBatchReply;
    try {
      replies = batch.length === 1
        ? [await this.run<SearchShardReply>(batch[0].task, TASK.search, this.searchFile)]
        : await this.run<SearchBatchReply>({ searches: batch.map((b) => b.task) }, TASK.searchBatch, this.searchFile);
    } catch (e) {
      for (const b of batch) this.searchFailed(b, e);
      return;
    }
    this.settleBatch(batch, replies);
  }

  private settleBatch(batch: readonly PendingSearch[], replies: SearchBatchReply): void {
    batch.forEach((b, i) => {
      const reply = replies[i];
      if ('missing' in reply) this.resendInline(b);
      else settle(b, reply);
    });
  }

  /** A worker that missed a segment announcement (e.g. a replacement thread): resend with the buffers inline. */
  private resendInline(b: PendingSearch): void {
    let inline: InlineBuffers;
    try {
      inline = this.inlineBuffers(b.task.segments);
    } catch (e) {
      b.reject(e);
      return;
    }
    this.run<SearchShardReply>({ ...b.task, inline }, TASK.search, this.searchFile).then(
      (reply) => settle(b, reply),
      (e) => this.searchFailed(b, e),
    );
  }

  /** A search whose task failed: retried once, ahead of waiting searches, if its worker died. */
  private searchFailed(b: PendingSearch, e: unknown): void {
    if (e instanceof WorkerFailureError && !b.retried && !this.closed) {
      b.retried = true;
      this.waiting.unshift(b);
      this.dispatchSearches();
      return;
    }
    b.reject(e instanceof EsError ? e : new InternalError(`worker failed while running a search task: ${e instanceof Error ? e.message : String(e)}`));
  }

  async build(task: BuildSegmentTask): Promise<SegmentBuilt> {
    this.idleCollector.begin();
    try {
      // The task's arrays were made for it alone (IndexingBuffer.buildColumns): moved, not copied (its source chunks are shared).
      const transfer = [task.sourceRuns.buffer as ArrayBuffer, task.runFirstDoc.buffer as ArrayBuffer, task.sourceOffsets.buffer as ArrayBuffer, task.sourceCharOffsets.buffer as ArrayBuffer, task.numbers.buffer as ArrayBuffer];
      const reply = await this.run<WorkerReply<SegmentBuilt>>(task, TASK.build, this.buildFile, transfer);
      if ('missing' in reply) throw new InternalError('unexpected reply to a build task');
      return replyValue(reply);
    } finally {
      this.idleCollector.end();
    }
  }

  /** Full GCs in every thread now (cluster/idle-collector.ts `collectNow`). */
  collectGarbage(): void {
    this.idleCollector.collectNow();
  }

  async merge(task: MergeSegmentsTask): Promise<SegmentBuilt> {
    const done = this.retain(task.sources);
    this.idleCollector.begin();
    try {
      return await this.runMerge(task);
    } finally {
      done();
      this.idleCollector.end();
    }
  }

  /** The pool's state for `_nodes/stats` and `_cat/thread_pool` (ES ThreadPoolStats.Stats, plus Piscina's timings). */
  stats(): SearchPoolStats {
    const run = this.pool.histogram.runTime;
    const wait = this.counters.waitSummary();
    return {
      threads: this.threads,
      size: this.size,
      active: this.counters.active,
      queue: this.waiting.length + this.pool.queueSize,
      queueSize: this.maxQueue,
      rejected: this.counters.rejected,
      completed: this.counters.completed,
      largest: this.size,
      utilization: this.pool.utilization + this.counters.channelRunTotalMs / (Math.max(1, this.pool.duration) * this.size),
      runTimeMs: this.counters.runSummary({
        count: this.pool.completed, total: finite(run.mean) * this.pool.completed, mean: finite(run.mean), p50: finite(run.p50), p99: finite(run.p99), max: finite(run.max),
      }),
      waitTimeMs: wait,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idleCollector.close();
    for (const c of [...this.channels]) c.fail(new InternalError('the search pool is shutting down'));
    for (const w of this.waiting.splice(0)) w.reject(new InternalError('the search pool is shutting down'));
    this.channel.close();
    this.memoryChannel.close();
    await this.pool.destroy();
  }
}

/** The value of a worker reply, or the ES error it carries. */
function replyValue<T>(reply: WorkerReply<T>): T {
  if (reply.ok) return reply.value;
  if ('error' in reply) throw EsError.fromPlain(reply.error);
  throw new InternalError(`worker could not resolve segments [${reply.missing.join(', ')}]`);
}

/** Completes a search with its worker's reply (a second `missing` means the buffers could not be resolved). */
function settle(b: PendingSearch, reply: SearchShardReply): void {
  try {
    b.resolve(replyValue(reply));
  } catch (e) {
    b.reject(e);
  }
}

/** The settlers of the promise SearchPool.search just made (Promise runs its executor at once). */
let takenResolve: ((result: ShardSearchResult) => void) | null = null;
let takenReject: ((error: unknown) => void) | null = null;
function takeSettlers(resolve: (result: ShardSearchResult) => void, reject: (error: unknown) => void): void {
  takenResolve = resolve;
  takenReject = reject;
}

/** Whether every live thread has answered. */
function answeredAll(answered: ReadonlySet<number>, live: ReadonlySet<number>): boolean {
  for (const id of live) if (!answered.has(id)) return false;
  return true;
}
