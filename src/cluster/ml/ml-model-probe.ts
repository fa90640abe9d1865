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
import { TASK, type DescribeModelReply, type EncodeWorkerData } from '../../../workers/protocol.js';
import { encodeWorkerFile } from './ml-allocation.js';

const SAMPLE = 'Sparse encoders expand a passage into weighted vocabulary terms, including related terms the passage never uses.';

/** The built-in model, with one runtime thread. */
export const BUILT_IN_SPEC: ModelSpec = { onnxPath: null, simulate: null, simulationDir: null, threads: 1 };

export async function probeModel(workerDir: URL, model: ModelSpec = BUILT_IN_SPEC): Promise<ModelProbe> {
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
    let reply: DescribeModelReply;
    try {
      reply = (await pool.run({ sample: SAMPLE }, { name: TASK.describe })) as DescribeModelReply;
    } catch (e) {
      throw new InternalError(`could not load the model: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!reply.ok) throw EsError.fromPlain(reply.error);
    return { sizeBytes: reply.value.sizeBytes, threadFootprintBytes: reply.value.threadFootprintBytes };
  } finally {
    await pool.destroy();
  }
}
