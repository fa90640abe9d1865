/**
 * Worker entry for ML deployments: each thread of an allocation loads the built-in model once
 * (at thread start, so a started deployment answers its first request without a load) and encodes
 * the texts it is sent. Probe threads (`workerData.probe`) load lazily instead, so `describe` can
 * measure the thread's memory before and after the load.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { workerData } from 'node:worker_threads';
import { EsError, InternalError } from '../src/errors/index.js';
import { encode as encodeText, loadSparseModel, type SparseModel } from '../src/ml/index.js';
import type { DescribeModelReply, DescribeModelTask, EncodeReply, EncodeTask, EncodeWorkerData, EncodedText } from './protocol.js';

let model: SparseModel | null = null;
let loadError: EsError | null = null;

function loaded(): SparseModel {
  if (loadError) throw loadError;
  if (!model) {
    try {
      model = loadSparseModel();
    } catch (e) {
      loadError = asEsError(e, 'could not load the model');
      throw loadError;
    }
  }
  return model;
}

function asEsError(e: unknown, what: string): EsError {
  return e instanceof EsError ? e : new InternalError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
}

if (!(workerData as EncodeWorkerData | undefined)?.probe) {
  try {
    loaded();
  } catch {
    // kept in loadError: every task answers with it
  }
}

export function encode(task: EncodeTask): EncodeReply {
  try {
    const m = loaded();
    const value: EncodedText[] = new Array(task.texts.length);
    for (let i = 0; i < task.texts.length; i++) {
      const v = encodeText(m, task.texts[i]);
      value[i] = { tokens: v.tokens, weights: v.weights, isTruncated: v.isTruncated };
    }
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'inference failed').toPlain() };
  }
}

/** Answers once the model is loaded: the pool sends one per thread before it reports started. */
export function ready(): EncodeReply {
  try {
    loaded();
    return { ok: true, value: [] };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'could not load the model').toPlain() };
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

export function describe(task: DescribeModelTask): DescribeModelReply {
  try {
    const m = loaded();
    encodeText(m, task.sample);
    collect();
    return { ok: true, value: { sizeBytes: m.sizeBytes, threadFootprintBytes: footprint() } };
  } catch (e) {
    return { ok: false, error: asEsError(e, 'could not load the model').toPlain() };
  }
}
