/**
 * A user model folder (sparse-encoder.md §7.5): `model.onnx`, a WordPiece vocabulary (`vocab.txt`
 * or a Hugging Face `tokenizer.json`), an optional `sparse_encoder.json` config and, for
 * inference-free query encoders (`query_mode: idf`), `idf.json`. Everything here is checked
 * without the ONNX runtime; the graph itself is checked when a thread loads it (onnx-encoder.ts).
 * Every problem is a 400 `status_exception` naming the file, never a crash.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { StatusError } from '../../errors/index.js';
import { MAX_SEQUENCE_LENGTH } from '../wordpiece-tokenizer.js';
import { parseVocabulary, type Vocabulary } from '../vocabulary.js';

export const MODEL_FILE = 'model.onnx';
export const CONFIG_FILE = 'sparse_encoder.json';
export const IDF_FILE = 'idf.json';

export type Activation = 'log1p_relu' | 'relu' | 'none';

/** The folder's `sparse_encoder.json`, defaults filled in. */
export interface SparseEncoderConfig {
  /** Positions per text, `[CLS]` and `[SEP]` included (2…512). */
  readonly max_tokens: number;
  readonly pooling: 'max';
  readonly activation: Activation;
  /** `logits`: [batch, sequence, vocab], pooled here; `pooled`: [batch, vocab], already pooled by the graph. */
  readonly output: 'logits' | 'pooled';
  /** The graph output to read; null = its first output. */
  readonly output_name: string | null;
  /** `idf`: queries are weighted from idf.json with no model pass (inference-free doc-only encoders). */
  readonly query_mode: 'model' | 'idf';
  /** Keep only the k largest weights per text (null = all). */
  readonly top_k: number | null;
  /** Drop weights ≤ this (0 keeps every positive weight). */
  readonly threshold: number;
  /** Texts per runtime call. */
  readonly batch_size: number;
}

const DEFAULTS: SparseEncoderConfig = {
  max_tokens: MAX_SEQUENCE_LENGTH, pooling: 'max', activation: 'log1p_relu', output: 'logits', output_name: null, query_mode: 'model',
  top_k: null, threshold: 0, batch_size: 8,
};
const MAX_BATCH_SIZE = 256;

function bad(reason: string): StatusError {
  return new StatusError(reason, 400);
}

function readJson(path: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw bad(`cannot read [${file}]: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw bad(`[${file}] is not valid JSON: ${(e as Error).message.slice(0, 120)}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function oneOf<T extends string>(raw: Record<string, unknown>, key: string, allowed: readonly T[], def: T): T {
  const v = raw[key];
  if (v === undefined) return def;
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw bad(`[${CONFIG_FILE}] [${key}] must be one of [${allowed.join(', ')}]`);
  return v as T;
}

function intIn(raw: Record<string, unknown>, key: string, min: number, max: number, def: number | null): number | null {
  const v = raw[key];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(`[${CONFIG_FILE}] [${key}] must be an integer between ${min} and ${max}`);
  return v;
}

/** `sparse_encoder.json` (absent: every default). Unknown keys are refused so a typo never passes silently. */
export function parseConfig(raw: unknown): SparseEncoderConfig {
  if (raw === undefined) return DEFAULTS;
  if (!isObject(raw)) throw bad(`[${CONFIG_FILE}] must be a JSON object`);
  for (const key of Object.keys(raw)) {
    if (!(key in DEFAULTS)) throw bad(`[${CONFIG_FILE}] unknown setting [${key.slice(0, 40)}]; known: [${Object.keys(DEFAULTS).join(', ')}]`);
  }
  const output = oneOf(raw, 'output', ['logits', 'pooled'] as const, 'logits');
  const threshold = raw.threshold ?? 0;
  if (typeof threshold !== 'number' || !(threshold >= 0)) throw bad(`[${CONFIG_FILE}] [threshold] must be a number ≥ 0`);
  const outputName = raw.output_name ?? null;
  if (outputName !== null && typeof outputName !== 'string') throw bad(`[${CONFIG_FILE}] [output_name] must be a string`);
  return {
    max_tokens: intIn(raw, 'max_tokens', 2, MAX_SEQUENCE_LENGTH, MAX_SEQUENCE_LENGTH)!,
    pooling: oneOf(raw, 'pooling', ['max'] as const, 'max'),
    // A pooled output is usually already activated (OpenSearch exports apply log1p∘relu in the graph).
    activation: oneOf(raw, 'activation', ['log1p_relu', 'relu', 'none'] as const, output === 'pooled' ? 'none' : 'log1p_relu'),
    output,
    output_name: outputName,
    query_mode: oneOf(raw, 'query_mode', ['model', 'idf'] as const, 'model'),
    top_k: intIn(raw, 'top_k', 1, 1_000_000, null),
    threshold,
    batch_size: intIn(raw, 'batch_size', 1, MAX_BATCH_SIZE, DEFAULTS.batch_size)!,
  };
}

/** A Hugging Face `tokenizer.json` with a WordPiece model, as `vocab.txt` lines (id order). */
export function vocabularyFromTokenizerJson(raw: unknown): string {
  const model = isObject(raw) ? raw.model : undefined;
  if (!isObject(model) || model.type !== 'WordPiece' || !isObject(model.vocab)) {
    throw bad('[tokenizer.json] must hold a WordPiece model ("model": {"type": "WordPiece", "vocab": {...}}); other tokenizers are not supported');
  }
  if (model.continuing_subword_prefix !== undefined && model.continuing_subword_prefix !== '##') {
    throw bad('[tokenizer.json] continuing_subword_prefix must be "##"');
  }
  const normalizer = isObject(raw) ? raw.normalizer : undefined;
  if (isObject(normalizer) && normalizer.type === 'BertNormalizer' && normalizer.lowercase === false) {
    throw bad('[tokenizer.json] is cased (lowercase: false); only uncased BERT tokenizers are supported');
  }
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(model.vocab)) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 10_000_000) throw bad(`[tokenizer.json] token [${token.slice(0, 40)}] has no valid id`);
    if (tokens[id] !== undefined) throw bad(`[tokenizer.json] id ${id} is used twice`);
    tokens[id] = token;
  }
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === undefined) throw bad(`[tokenizer.json] the vocabulary has no token with id ${i}`);
  return tokens.join('\n');
}

/** `idf.json`: {token: weight}, weights finite and ≥ 0; tokens outside the vocabulary are refused. */
export function parseIdf(raw: unknown, vocab: Vocabulary): Float32Array {
  if (!isObject(raw)) throw bad(`[${IDF_FILE}] must be a JSON object of {token: weight}`);
  const idf = new Float32Array(vocab.tokens.length);
  for (const [token, w] of Object.entries(raw)) {
    const id = vocab.ids.get(token);
    if (id === undefined) throw bad(`[${IDF_FILE}] token [${token.slice(0, 40)}] is not in the vocabulary`);
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw bad(`[${IDF_FILE}] weight of [${token.slice(0, 40)}] must be a finite number ≥ 0`);
    idf[id] = w;
  }
  return idf;
}

/** A checked model folder, as a worker thread loads it. */
export interface ModelFolder {
  readonly path: string;
  readonly modelFile: string;
  readonly vocab: Vocabulary;
  readonly config: SparseEncoderConfig;
  /** Per token id; present iff query_mode is idf. */
  readonly idf: Float32Array | null;
  /** model.onnx + vocabulary + idf bytes. */
  readonly sizeBytes: number;
}

/** Reads and checks everything in the folder except the graph. */
export function readModelFolder(path: string): ModelFolder {
  if (!isAbsolute(path)) throw bad(`model folder [${path.slice(0, 200)}] must be an absolute path`);
  if (!existsSync(path) || !statSync(path).isDirectory()) throw bad(`model folder [${path.slice(0, 200)}] does not exist`);
  const modelFile = join(path, MODEL_FILE);
  if (!existsSync(modelFile)) throw bad(`model folder [${path.slice(0, 200)}] has no [${MODEL_FILE}]`);
  let sizeBytes = statSync(modelFile).size;
  let vocabText: string;
  if (existsSync(join(path, 'vocab.txt'))) {
    vocabText = readFileSync(join(path, 'vocab.txt'), 'utf8');
  } else if (existsSync(join(path, 'tokenizer.json'))) {
    vocabText = vocabularyFromTokenizerJson(readJson(join(path, 'tokenizer.json'), 'tokenizer.json'));
  } else {
    throw bad(`model folder [${path.slice(0, 200)}] has neither [vocab.txt] nor [tokenizer.json]`);
  }
  sizeBytes += Buffer.byteLength(vocabText);
  let vocab: Vocabulary;
  try {
    vocab = parseVocabulary(vocabText);
  } catch (e) {
    throw bad(`the model's vocabulary is not a BERT WordPiece vocabulary: ${(e as Error).message}`);
  }
  const configPath = join(path, CONFIG_FILE);
  const config = parseConfig(existsSync(configPath) ? readJson(configPath, CONFIG_FILE) : undefined);
  let idf: Float32Array | null = null;
  if (config.query_mode === 'idf') {
    const idfPath = join(path, IDF_FILE);
    if (!existsSync(idfPath)) throw bad(`[query_mode] is [idf] but model folder [${path.slice(0, 200)}] has no [${IDF_FILE}]`);
    idf = parseIdf(readJson(idfPath, IDF_FILE), vocab);
    sizeBytes += statSync(idfPath).size;
  }
  return { path, modelFile, vocab, config, idf, sizeBytes };
}
