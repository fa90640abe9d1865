/**
 * Worker entry for ML deployments: each thread of an allocation loads its model once (at thread
 * start, so a started deployment answers its first request without a load) and encodes the texts
 * it is sent. The model is the built-in one, a user's ONNX model, or the built-in one in simulation
 * mode (ml/loaded-model.ts). Probe threads (`workerData.probe`) load lazily instead, so `describe`
 * can measure the thread's memory before and after the load.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { workerData } from 'node:worker_threads';
import { EsError, InternalError } from '../src/errors/index.js';
import { loadModel, prepareSimulation, type LoadedModel } from '../src/ml/index.js';
import type { DescribeModelReply, DescribeModelTask, EncodeReply, EncodeTask, EncodeWorkerData, EncodedText } from './protocol.js';

const data = workerData as EncodeWorkerData;
let loading: Promise<LoadedModel> | null = null;

function asEsError(e: unknown, what: string): EsError {
  return e instanceof EsError ? e : new InternalError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
}

/** The model, loaded once per thread; a failed load is remembered and every task answers with it. */
function loaded(): Promise<LoadedModel> {
  loading ??= loadModel(data.model).catch((e: unknown) => {
    throw asEsError(e, 'could not load the model');
  });
  return loading;
}

if (!data.probe) loaded().catch(() => undefined);

export async function encode(task: EncodeTask): Promise<EncodeReply> {
  try {
    const m = await loaded();
    const vectors = await m.encode(task.texts, task.purpose ?? 'document');
    const value: EncodedText[] = vectors.map((v) => ({ tokens: v.tokens, weights: v.weights, isTruncated: v.isTruncated }));
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'inference failed').toPlain() };
  }
}

/** Answers once the model is loaded: the pool sends one per thread before it reports started. */
export async function ready(): Promise<EncodeReply> {
  try {
    await loaded();
    return { ok: true, value: [] };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'could not load the model').toPlain() };
  }
}

/** Generates the simulation graph (first use) and checks the runtime, without loading the graph. */
export async function prepare(): Promise<EncodeReply> {
  try {
    await prepareSimulation(data.model);
    return { ok: true, value: [] };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'could not prepare the simulation').toPlain() };
  }
}

function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function footprint(): number {
  const h = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number };
  return h.used_heap_size + (h.external_memory ?? 0);
}

export async function describe(task: DescribeModelTask): Promise<DescribeModelReply> {
  try {
    const m = await loaded();
    await m.encode([task.sample], 'document');
    collect();
    return { ok: true, value: { sizeBytes: m.sizeBytes, threadFootprintBytes: footprint() } };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'could not load the model').toPlain() };
  }
}
