/**
 * The one Piscina pool ("search pool"): any worker serves any shard. Segments are announced to
 * workers once over a broadcast channel and then referenced by id; a worker that missed an
 * announcement (e.g. a replacement thread) reports the ids it lacks and the task is resent with the
 * buffers inline. A full queue is ES's 429 `es_rejected_execution_exception`, never unbounded growth.
 */
import { fileURLToPath } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { EsError, InternalError, RejectedExecutionError } from '../errors/index.js';
import type { ShardSearchResult } from '../search/index.js';
import {
  SEGMENT_CHANNEL, TASK, type BuildSegmentTask, type InlineBuffers, type MergeSegmentsTask, type SearchBatchReply,
  type SearchShardReply, type SearchShardTask, type SegmentBuilt, type SegmentRef, type WorkerReply,
} from '../../workers/protocol.js';

/** Most shard searches one batch task carries. */
const MAX_BATCH = 16;

interface PendingSearch {
  readonly task: SearchShardTask;
  resolve(result: ShardSearchResult): void;
  reject(error: unknown): void;
}

export interface SearchPoolOptions {
  readonly threads: number;
  /** Tasks waiting beyond the running ones before rejecting with 429. */
  readonly maxQueue: number;
  /** Directory of the compiled worker modules (dist/workers). */
  readonly workerDir: URL;
}

export class SearchPool {
  private readonly pool: Piscina;
  private readonly channel = new BroadcastChannel(SEGMENT_CHANNEL);
  /** Every buffer announced and not dropped, for inline resends. */
  private readonly buffers = new Map<string, SharedArrayBuffer>();
  private readonly searchFile: string;
  private readonly buildFile: string;
  private readonly maxQueue: number;
  private closed = false;
  /** Shard searches waiting for a free thread; they leave in batches. */
  private readonly waiting: PendingSearch[] = [];
  /** Search tasks posted and not yet answered (at most one per thread). */
  private searchesInFlight = 0;

  constructor(options: SearchPoolOptions) {
    // Plain paths: Piscina converts a file URL on every task otherwise.
    this.searchFile = fileURLToPath(new URL('search.js', options.workerDir));
    this.buildFile = fileURLToPath(new URL('build-segment.js', options.workerDir));
    this.maxQueue = options.maxQueue;
    this.pool = new Piscina({
      filename: this.searchFile,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      maxQueue: options.maxQueue,
      // Piscina's defaults would recycle workers and lose their segment caches.
      concurrentTasksPerWorker: 1,
      // Per-task timing histograms cost main-thread time on every task; not needed.
      recordTiming: false,
    });
    (this.channel as unknown as { unref(): void }).unref();
  }

  get threads(): number {
    return this.pool.threads.length;
  }

  /** Makes a buffer available to every worker under `id`. */
  announce(id: string, sab: SharedArrayBuffer): void {
    this.buffers.set(id, sab);
    this.channel.postMessage({ op: 'add', id, sab });
  }

  /** Lets workers release a buffer no published snapshot uses any more. */
  drop(id: string): void {
    if (this.buffers.delete(id)) this.channel.postMessage({ op: 'drop', id });
  }

  private async run<T>(task: object, name: string, filename: string): Promise<WorkerReply<T>> {
    if (this.closed) throw new InternalError('the search pool is shutting down');
    try {
      // The search file is the pool's default: naming it again would cost a lookup per task.
      const options = filename === this.searchFile ? { name } : { name, filename };
      return (await this.pool.run(task, options)) as WorkerReply<T>;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (/Task queue is at limit|No task queue available/.test(message)) {
        throw new RejectedExecutionError(
          `rejected execution of ${name} task on search pool [threads = ${this.threads}, queue capacity = ${this.maxQueue}, queued tasks = ${this.pool.queueSize}]`,
        );
      }
      throw new InternalError(`worker failed while running a ${name} task: ${message}`);
    }
  }

  /** Runs a task that refers to segments, resending once with inline buffers if a worker lacks some. */
  private async runWithSegments<T>(task: { inline?: InlineBuffers }, name: string, filename: string): Promise<T> {
    let reply = await this.run<T>(task, name, filename);
    if (!reply.ok && 'missing' in reply) {
      const inline: Record<string, SharedArrayBuffer> = {};
      for (const id of reply.missing) {
        const sab = this.buffers.get(id);
        if (!sab) throw new InternalError(`segment buffer [${id}] is no longer available`);
        inline[id] = sab;
      }
      reply = await this.run<T>({ ...task, inline }, name, filename);
    }
    if (reply.ok) return reply.value;
    if ('error' in reply) throw EsError.fromPlain(reply.error);
    throw new InternalError(`worker could not resolve segments [${reply.missing.join(', ')}]`);
  }

  /**
   * Runs one shard's query phase. At most one search task per thread is in flight; searches that
   * arrive while every thread is busy wait here and leave together as one batch task, so under
   * load the per-task cost (message passing, wake-up, promise plumbing: ~50 µs of coordinator
   * time) is shared, and an idle pool still answers at once. Beyond `maxQueue` waiting searches,
   * requests are rejected with 429 as ES rejects them.
   */
  search(segments: readonly SegmentRef[], request: SearchShardTask['request']): Promise<ShardSearchResult> {
    if (this.closed) return Promise.reject(new InternalError('the search pool is shutting down'));
    if (this.waiting.length >= this.maxQueue) {
      return Promise.reject(new RejectedExecutionError(
        `rejected execution of search task on search pool [threads = ${this.threads}, queue capacity = ${this.maxQueue}, queued tasks = ${this.waiting.length}]`,
      ));
    }
    return new Promise<ShardSearchResult>((resolve, reject) => {
      this.waiting.push({ task: { segments, request }, resolve, reject });
      this.dispatchSearches();
    });
  }

  private dispatchSearches(): void {
    while (this.waiting.length > 0 && this.searchesInFlight < this.threads) {
      const batch = this.waiting.splice(0, Math.min(MAX_BATCH, Math.ceil(this.waiting.length / (this.threads - this.searchesInFlight))));
      this.searchesInFlight++;
      void this.runBatch(batch).finally(() => {
        this.searchesInFlight--;
        this.dispatchSearches();
      });
    }
  }

  private async runBatch(batch: PendingSearch[]): Promise<void> {
    let replies: SearchBatchReply;
    try {
      replies = batch.length === 1
        ? [await this.run<ShardSearchResult>(batch[0].task, TASK.search, this.searchFile) as SearchShardReply]
        : ((await this.pool.run({ searches: batch.map((b) => b.task) }, { name: TASK.searchBatch })) as SearchBatchReply);
    } catch (e) {
      for (const b of batch) b.reject(e instanceof EsError ? e : new InternalError(`worker failed while running a search task: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
    batch.forEach((b, i) => {
      const reply = replies[i];
      if (reply.ok) b.resolve(reply.value);
      else if ('error' in reply) b.reject(EsError.fromPlain(reply.error));
      // A worker that missed a segment announcement: resend this one with its buffers inline.
      else this.runWithSegments<ShardSearchResult>(b.task, TASK.search, this.searchFile).then(b.resolve, b.reject);
    });
  }

  async build(task: BuildSegmentTask): Promise<SegmentBuilt> {
    const reply = await this.run<SegmentBuilt>(task, TASK.build, this.buildFile);
    if (reply.ok) return reply.value;
    throw 'error' in reply ? EsError.fromPlain(reply.error) : new InternalError('unexpected reply to a build task');
  }

  merge(task: MergeSegmentsTask): Promise<SegmentBuilt> {
    return this.runWithSegments<SegmentBuilt>(task, TASK.merge, this.buildFile);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new InternalError('the search pool is shutting down'));
    this.channel.close();
    await this.pool.destroy();
  }
}
