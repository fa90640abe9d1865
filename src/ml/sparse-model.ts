/**
 * The `.sparse_model_2` model as loaded in one thread: the BERT-uncased vocabulary and the
 * distilled artifact (priors, inflection classes, expansion neighbours, context vectors) from
 * `models/sparse_model_2/`, checked against its committed sha256 so a damaged file never encodes.
 * Loaded once per thread and never changed: encoding is a pure function of text and model.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArtifact, type ModelArtifact } from './model-artifact.js';
import { parseVocabulary, type Vocabulary } from './vocabulary.js';

export const SPARSE_MODEL_ID = '.sparse_model_2';
const MODEL_DIR = join('models', 'sparse_model_2');

export interface SparseModel {
  /** Size of the artifact and vocabulary in bytes (ES `model_size_bytes`). */
  readonly sizeBytes: number;
  /** sha256 of the artifact, as committed beside it. */
  readonly sha256: string;
  readonly vocab: Vocabulary;
  readonly artifact: ModelArtifact;
  /** Token id → expansion candidate index, −1 for tokens that are not candidates. */
  readonly candidateIndex: Int32Array;
  /** The candidates' unit context vectors (N × D), decoded once to doubles for the hot loop (no float32 conversions there). */
  readonly vectors: Float64Array;
}

/** The installed model directory: found upward from this file, so `src/` (tests) and `dist/src/` both work. */
export function sparseModelDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, MODEL_DIR, 'model.bin'))) return join(dir, MODEL_DIR);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find ${MODEL_DIR}/model.bin above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export function readSparseModel(dir: string): SparseModel {
  const bytes = readFileSync(join(dir, 'model.bin'));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const expected = readFileSync(join(dir, 'model.bin.sha256'), 'utf8').split(/\s/)[0];
  if (sha256 !== expected) throw new Error(`${join(dir, 'model.bin')} is damaged: sha256 ${sha256}, expected ${expected}`);
  const vocabText = readFileSync(join(dir, 'vocab.txt'), 'utf8');
  const vocab = parseVocabulary(vocabText);
  const artifact = readArtifact(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (artifact.prior.length !== vocab.tokens.length) throw new Error('model artifact and vocabulary sizes differ');
  const candidateIndex = new Int32Array(vocab.tokens.length).fill(-1);
  artifact.candidates.forEach((id, i) => (candidateIndex[id] = i));
  const vectors = new Float64Array(artifact.vectors.length);
  const d = artifact.dimensions;
  for (let i = 0; i < artifact.candidates.length; i++) {
    // Renormalise after int8 rounding so cosines stay cosines.
    let norm = 0;
    for (let x = i * d; x < (i + 1) * d; x++) norm += artifact.vectors[x] * artifact.vectors[x];
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let x = i * d; x < (i + 1) * d; x++) vectors[x] = artifact.vectors[x] * scale;
  }
  return { sizeBytes: bytes.byteLength + Buffer.byteLength(vocabText), sha256, vocab, artifact, candidateIndex, vectors };
}

let loaded: SparseModel | undefined;

/** Loads (once per thread) and returns the built-in model. Synchronous; well under a second. */
export function loadSparseModel(): SparseModel {
  loaded ??= readSparseModel(sparseModelDir());
  return loaded;
}
