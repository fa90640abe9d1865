/**
 * What an inference thread runs: the built-in `.sparse_model_2`, a user's ONNX model from a local
 * folder, or the built-in model in simulation mode — its vectors, plus a BERT-base-shaped graph run
 * over the same token ids so each inference costs what an ELSER-class model costs. `ModelSpec` is
 * plain data (it crosses into worker threads); `loadModel` does the (possibly slow) loading.
 */
import { MAX_SEQUENCE_LENGTH } from './wordpiece-tokenizer.js';
import { encode as encodeBuiltIn, type SparseVector } from './sparse-encoder.js';
import { loadSparseModel } from './sparse-model.js';
import { readModelFolder, type ModelFolder, type SparseEncoderConfig } from './onnx/model-folder.js';
import { OnnxSparseEncoder, type Purpose } from './onnx/onnx-encoder.js';
import { loadOnnxRuntime } from './onnx/onnx-runtime.js';
import { ensureSimulationGraph } from './onnx/simulation-graph.js';
import type { Simulation } from '../dsl/index.js';

export interface ModelSpec {
  /** A user model's folder; null = the built-in model. */
  readonly onnxPath: string | null;
  /** The built-in model's vectors with this graph's cost (null = none). */
  readonly simulate: Simulation | null;
  /** Where simulation graphs are generated (`<data>/models/.simulation`). */
  readonly simulationDir: string | null;
  /** The runtime's intra-op threads (threads_per_allocation). */
  readonly threads: number;
}

export interface LoadedModel {
  /** Bytes of the model's files (ES `model_size_bytes`). */
  readonly sizeBytes: number;
  encode(texts: readonly string[], purpose: Purpose): Promise<SparseVector[]>;
  release(): Promise<void>;
}

/** The simulation graph runs the built-in model's own token ids (the same BERT-uncased vocabulary), batched as user models are. */
const SIMULATION_CONFIG: SparseEncoderConfig = {
  max_tokens: MAX_SEQUENCE_LENGTH, pooling: 'max', activation: 'log1p_relu', output: 'logits', output_name: null, query_mode: 'model',
  top_k: null, threshold: 0, batch_size: 8,
};

function builtIn(): LoadedModel {
  const model = loadSparseModel();
  return {
    sizeBytes: model.sizeBytes,
    encode: async (texts) => texts.map((t) => encodeBuiltIn(model, t)),
    release: async () => undefined,
  };
}

/**
 * What must be in place before a simulated deployment's allocations start: the runtime (a clear
 * 400 when it is not installed) and the generated graph (seconds, once per data directory).
 */
export async function prepareSimulation(spec: ModelSpec): Promise<void> {
  if (spec.simulate === null || spec.simulationDir === null) return;
  await loadOnnxRuntime();
  ensureSimulationGraph(spec.simulationDir, spec.simulate);
}

export async function loadModel(spec: ModelSpec): Promise<LoadedModel> {
  if (spec.onnxPath !== null) {
    const encoder = await OnnxSparseEncoder.load(readModelFolder(spec.onnxPath), spec.threads);
    return { sizeBytes: encoder.folder.sizeBytes, encode: (texts, purpose) => encoder.encode(texts, purpose), release: () => encoder.release() };
  }
  const model = builtIn();
  if (spec.simulate === null) return model;
  if (spec.simulationDir === null) throw new Error('simulation mode needs a data directory for its graph');
  const graph = ensureSimulationGraph(spec.simulationDir, spec.simulate);
  const folder: ModelFolder = { path: spec.simulationDir, modelFile: graph, vocab: loadSparseModel().vocab, config: SIMULATION_CONFIG, idf: null, sizeBytes: model.sizeBytes };
  const simulator = await OnnxSparseEncoder.load(folder, spec.threads);
  return {
    sizeBytes: model.sizeBytes,
    encode: async (texts, purpose) => {
      await simulator.burn(texts);
      return model.encode(texts, purpose);
    },
    release: () => simulator.release(),
  };
}
