/**
 * One model allocation. It serves one request at a time (its owner, MlDeployment, only hands it a
 * request when it is idle). For the built-in model it is a Piscina pool of `threads_per_allocation`
 * encode threads, a request's texts split into one contiguous chunk per thread, balanced by length,
 * so a large request's latency drops with more threads, as libtorch's intra-op threads do for ES.
 * For an ONNX model (or the simulation mode) it is one thread whose onnxruntime session has
 * `threads_per_allocation` intra-op threads, which parallelise each batch's matrix products.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { workerExecArgv } from '../worker-exec-argv.js';
import { EsError, InternalError } from '../../errors/index.js';
import type { ModelSpec, SparseVector } from '../../ml/index.js';
import { TASK, type EncodeReply, type EncodeTask, type EncodeWorkerData } from '../../../workers/protocol.js';

/** A short text every thread encodes once at start: the deployment is only "started" if this works. */
const WARM_UP_TEXT = 'the quick brown fox jumps over the lazy dog';

export function encodeWorkerFile(workerDir: URL): string {
  return fileURLToPath(new URL('encode.js', workerDir));
}

/** What a deployment's allocations load, and with how many runtime threads. */
export type AllocationModel = Omit<ModelSpec, 'threads'>;

export class MlAllocation {
  private readonly pool: Piscina;
  /** Pool threads: `threads_per_allocation` for the built-in model, 1 when the runtime owns the threads. */
  readonly threads: number;
  private closed = false;

  constructor(threadsPerAllocation: number, workerDir: URL, model: AllocationModel) {
    const runtimeThreads = model.onnxPath !== null || model.simulate !== null;
    const threads = runtimeThreads ? 1 : threadsPerAllocation;
    this.threads = threads;
    this.pool = new Piscina({
      filename: encodeWorkerFile(workerDir),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      // The owner queues requests itself (bounded by queue_capacity); Piscina never holds more
      // than one chunk per thread.
      maxQueue: threads,
      concurrentTasksPerWorker: 1,
      recordTiming: false,
      execArgv: workerExecArgv(),
      workerData: { probe: false, model: { ...model, threads: runtimeThreads ? threadsPerAllocation : 1 } } satisfies EncodeWorkerData,
    });
    // A worker failing while idle: Piscina replaces it; without a listener the event would throw.
    this.pool.on('error', () => {});
  }

  /** Resolves once every thread has loaded the model and encoded a sample (rejects with the load error). */
  async start(): Promise<void> {
    // One task per thread at once: each lands on its own idle thread (concurrentTasksPerWorker 1).
    await Promise.all(Array.from({ length: this.threads }, () => this.runTask({ texts: [WARM_UP_TEXT] })));
  }

  /** Encodes `texts`, split over the allocation's threads; results in input order. */
  async encode(texts: readonly string[], purpose: 'document' | 'query' = 'document'): Promise<SparseVector[]> {
    const chunks = splitByLength(texts, this.threads);
    const parts = await Promise.all(chunks.map((c) => this.runTask({ texts: c, purpose })));
    return parts.flat();
  }

  private async runTask(task: EncodeTask): Promise<SparseVector[]> {
    if (this.closed) throw new InternalError('the model allocation is shutting down');
    let reply: EncodeReply;
    try {
      reply = (await this.pool.run(task, { name: TASK.encode })) as EncodeReply;
    } catch (e) {
      throw new InternalError(`inference thread failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!reply.ok) throw EsError.fromPlain(reply.error);
    return reply.value as SparseVector[];
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }
}

/** At most `parts` contiguous chunks of similar total text length (empty chunks dropped). */
export function splitByLength(texts: readonly string[], parts: number): string[][] {
  if (parts <= 1 || texts.length <= 1) return [texts.slice()];
  let total = 0;
  for (const t of texts) total += t.length + 1;
  const chunks: string[][] = [];
  let current: string[] = [];
  let acc = 0;
  for (let i = 0; i < texts.length; i++) {
    current.push(texts[i]);
    acc += texts[i].length + 1;
    const remainingTexts = texts.length - i - 1;
    const remainingParts = parts - chunks.length - 1;
    // Close this chunk once it holds its share, or when each later chunk still needs one text.
    if (remainingParts > 0 && (acc >= (total * (chunks.length + 1)) / parts || remainingTexts === remainingParts)) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
