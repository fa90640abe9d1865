/**
 * ml/: the built-in sparse encoder `.sparse_model_2` (tokenizer, model artifact, encoder), the model
 * registry, deployments and the simulated ML nodes they are placed on.
 *
 * Invariants: encoding is a pure function of (text, model) — the same text gives the same vector on
 * every thread and machine; the model is loaded once per thread and never changed.
 * Imports: dsl/ (the deployment request vocabulary), analysis/ and leaves (errors/, common/) only;
 * never piscina (cluster/ owns the pools).
 */
export { encode, type SparseVector } from './sparse-encoder.js';
export { loadSparseModel, readSparseModel, sparseModelDir, SPARSE_MODEL_ID, type SparseModel } from './sparse-model.js';
export { basicTokenize, wordpiece, tokenize, inputIds, MAX_SEQUENCE_LENGTH, type TokenizedText } from './wordpiece-tokenizer.js';
export { parseVocabulary, isSpecialToken, type Vocabulary } from './vocabulary.js';

// User ONNX models and the simulation mode (what inference threads load).
export { loadModel, prepareSimulation, type LoadedModel, type ModelSpec } from './loaded-model.js';
export { readModelFolder, CONFIG_FILE, type ModelFolder, type SparseEncoderConfig } from './onnx/model-folder.js';

// Model management (pure parts): configs, deployment parameters, ML nodes, memory, placement.
export * from './ml-node.js';
export * from './memory-estimate.js';
export * from './placement.js';
export * from './trained-model.js';
export * from './expanded-ids.js';
export * from './deployment-params.js';
export * from './inference.js';
export * from './predicted-value.js';
