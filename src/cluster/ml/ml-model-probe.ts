/**
 * Measures a model once, when it is registered (or, in simulation mode, when it is deployed): a
 * one-thread pool loads it in a fresh worker and reports the artifact's size and the thread's
 * memory after loading and one encode. Loading is also the check: a user model whose folder or
 * graph is wrong fails here with the loader's 400 reason, before anything is stored.
 * These become `model_size_bytes` and the per-thread memory the placement counts
 * (`per_allocation_memory_bytes`), so memory estimates come from the real model, not a guess.
 */
import { Piscina } from 'piscina';
import { workerExecArgv } from '../worker-exec-argv.js';
import { EsError, InternalError } from '../../errors/index.js';
import type { ModelProbe, ModelSpec } from '../../ml/index.js';
import { TASK, type DescribeModelReply, type EncodeReply, type EncodeWorkerData } from '../../../workers/protocol.js';
import { encodeWorkerFile } from './ml-allocation.js';

const SAMPLE = 'Sparse encoders expand a passage into weighted vocabulary terms, including related terms the passage never uses.';

/** The built-in model, with one runtime thread. */
export const BUILT_IN_SPEC: ModelSpec = { onnxPath: null, simulate: null, simulationDir: null, threads: 1 };

export async function probeModel(workerDir: URL, model: ModelSpec = BUILT_IN_SPEC): Promise<ModelProbe> {
  const reply = await inFreshThread<DescribeModelReply>(workerDir, model, TASK.describe, { sample: SAMPLE }, 'could not load the model');
  return { sizeBytes: reply.sizeBytes, threadFootprintBytes: reply.threadFootprintBytes };
}

/** The simulation mode's preparation (graph generated on first use, runtime present), off the main thread. */
export async function prepareSimulationGraph(workerDir: URL, model: ModelSpec): Promise<void> {
  await inFreshThread<EncodeReply>(workerDir, model, TASK.prepare, {}, 'could not prepare the simulation');
}

/** Runs one task in a one-thread pool started for it; its ES error (or the thread's failure) rejects. */
async function inFreshThread<R extends DescribeModelReply | EncodeReply>(workerDir: URL, model: ModelSpec, name: string, task: unknown, what: string): Promise<Extract<R, { ok: true }>['value']> {
  const pool = new Piscina({
    filename: encodeWorkerFile(workerDir),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    recordTiming: false,
    execArgv: workerExecArgv(),
    workerData: { probe: true, model } satisfies EncodeWorkerData,
  });
  pool.on('error', () => {});
  try {
    let reply: R;
    try {
      reply = (await pool.run(task, { name })) as R;
    } catch (e) {
      throw new InternalError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!reply.ok) throw EsError.fromPlain(reply.error);
    return reply.value as Extract<R, { ok: true }>['value'];
  } finally {
    await pool.destroy();
  }
}
