/**
 * The one Piscina pool ("search pool"): any worker serves any shard. Segments are announced to
 * workers once over a broadcast channel and then referenced by id; a worker that missed an
 * announcement (e.g. a replacement thread) reports the ids it lacks and the task is resent with the
 * buffers inline. A full queue is ES's 429 `es_rejected_execution_exception`, never unbounded growth.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { EsError, InternalError, RejectedExecutionError } from '../errors/index.js';
import type { ShardSearchResult } from '../search/index.js';
import {
  SEGMENT_CHANNEL, TASK, type BuildSegmentTask, type InlineBuffers, type MergeSegmentsTask, type SearchShardTask,
  type SegmentBuilt, type SegmentRef, type WorkerReply,
} from '../../workers/protocol.js';

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

  constructor(options: SearchPoolOptions) {
    this.searchFile = new URL('search.js', options.workerDir).href;
    this.buildFile = new URL('build-segment.js', options.workerDir).href;
    this.maxQueue = options.maxQueue;
    this.pool = new Piscina({
      filename: this.searchFile,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      maxQueue: options.maxQueue,
      // Piscina's defaults would recycle workers and lose their segment caches.
      concurrentTasksPerWorker: 1,
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
      return (await this.pool.run(task, { name, filename })) as WorkerReply<T>;
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

  search(segments: readonly SegmentRef[], request: SearchShardTask['request']): Promise<ShardSearchResult> {
    const task: SearchShardTask = { segments, request };
    return this.runWithSegments<ShardSearchResult>(task, TASK.search, this.searchFile);
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
    this.channel.close();
    await this.pool.destroy();
  }
}
