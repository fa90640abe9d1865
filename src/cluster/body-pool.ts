/**
 * A small Piscina pool that inflates, decodes and parses large JSON request bodies
 * (workers/read-body.ts), so one client sending a body of tens of megabytes (or a small gzip body
 * that expands to them) does not stall every other request while it is read. Started on first use:
 * most nodes never see such a body. A full queue is ES's 429, as for the search pool.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ContentTooLongError, DecompressionError, EsError, InternalError, RejectedExecutionError } from '../errors/index.js';
import type { ParsedJson } from '../dsl/index.js';
import { TASK, type ContentCoding, type ReadBodyReply, type ReadBodyTask } from '../../workers/protocol.js';
import { workerExecArgv } from './worker-exec-argv.js';

export interface BodyPoolOptions {
  /** Directory of the compiled worker modules (dist/workers). */
  readonly workerDir: URL;
  /** Threads (default 1: the work is rare, and the search pool owns the cores). */
  readonly threads?: number;
  /** Bodies waiting for a thread beyond the running ones before 429. */
  readonly maxQueue?: number;
}

export type { ContentCoding };

/**
 * A body's decoded bytes (UTF-8; its text is decoded from them only if a route needs it) with its
 * JSON value or the ES error parsing it gave.
 */
export interface ReadBody {
  readonly bytes: Uint8Array;
  readonly json: ParsedJson;
}

export class BodyPool {
  private pool: Piscina | null = null;
  private readonly file: string;
  private readonly threads: number;
  private readonly maxQueue: number;

  constructor(options: BodyPoolOptions) {
    this.file = fileURLToPath(new URL('read-body.js', options.workerDir));
    this.threads = options.threads ?? 1;
    this.maxQueue = options.maxQueue ?? 64;
  }

  /**
   * Inflates `bytes` (sent with Content-Encoding `coding`, null: none), decodes them (UTF-8) and
   * parses them as JSON in a worker; the bytes are transferred there and the decoded ones back.
   * Throws ES's 413 past `maxContentLength` decoded bytes, 400 for a body that does not inflate.
   * A query DSL body (`maxTokenCount` set) is held to its limits before it is decoded: its parse
   * error is then Jackson's, and the main thread never receives more than the limits allow.
   */
  async read(bytes: Uint8Array, coding: ContentCoding | null, maxContentLength: number, maxTokenCount: number | null = null): Promise<ReadBody> {
    let pool = this.pool;
    if (pool === null) {
      pool = this.pool = new Piscina({
        filename: this.file,
        minThreads: 0,
        maxThreads: this.threads,
        idleTimeout: 60_000,
        maxQueue: this.maxQueue,
        concurrentTasksPerWorker: 1,
        execArgv: workerExecArgv(),
      });
      // A worker that fails while idle emits 'error' on the pool (its task, if any, is rejected);
      // without a listener that event would be thrown on the main thread and end the process.
      pool.on('error', () => {});
    }
    // Transfer when the bytes are a whole buffer of their own; copy a view of a shared one.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const task: ReadBodyTask = { bytes: own ? bytes : new Uint8Array(bytes), coding, maxContentLength, maxTokenCount };
    let reply: ReadBodyReply;
    try {
      reply = (await pool.run(task, { name: TASK.readBody, transferList: [task.bytes.buffer as ArrayBuffer] })) as ReadBodyReply;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (/Task queue is at limit|No task queue available/.test(message)) {
        throw new RejectedExecutionError(`rejected execution of a request body read [threads = ${this.threads}, queue capacity = ${this.maxQueue}]`);
      }
      throw new InternalError(`worker failed while reading a request body: ${message}`);
    }
    if ('tooLong' in reply) throw new ContentTooLongError(maxContentLength);
    if ('corrupt' in reply) throw new DecompressionError(reply.corrupt);
    return { bytes: reply.bytes, json: 'error' in reply ? { error: EsError.fromPlain(reply.error) } : { value: reply.value } };
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}
