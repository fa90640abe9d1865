/**
 * From a model's output to a sparse vector (sparse-encoder.md §7.4), SPLADE's pooling
 * (sentence-transformers SpladePooling):
 *
 *   w_j = max over unmasked positions i of act(logit_ij),   act = log(1 + relu(x)) by default
 *
 * Because act is monotone, max_i act(x_ij) = act(max_i x_ij): the loop takes the raw maximum per
 * column and applies act once per token. Special tokens (`[CLS]`, `[SEP]`, `[PAD]`, `[UNK]`,
 * `[MASK]`, `[unusedN]`) and weights ≤ the threshold are dropped, the rest optionally cut to the
 * top k. Token names are the vocabulary's own (ELSER rewrites `.` to `__`; a user model's keys stay
 * as its vocabulary spells them).
 */
import type { SparseVector } from '../sparse-encoder.js';
import { isSpecialToken, type Vocabulary } from '../vocabulary.js';
import type { Activation, SparseEncoderConfig } from './model-folder.js';

export function activate(x: number, activation: Activation): number {
  if (activation === 'none') return x;
  const r = x > 0 ? x : 0;
  return activation === 'relu' ? r : Math.log1p(r);
}

/** Token ids that may be output: not special. Computed once per vocabulary. */
export function outputMask(vocab: Vocabulary): Uint8Array {
  const mask = new Uint8Array(vocab.tokens.length);
  vocab.tokens.forEach((t, id) => (mask[id] = isSpecialToken(t) ? 0 : 1));
  return mask;
}

/** Weights per token id (≥ 0 after act) → the sparse vector: specials, zeros and sub-threshold weights dropped, top k kept, by weight descending. */
export function toSparseVector(
  weights: Float32Array | Float64Array, vocab: Vocabulary, allowed: Uint8Array, config: Pick<SparseEncoderConfig, 'threshold' | 'top_k'>, isTruncated: boolean,
): SparseVector {
  const ids: number[] = [];
  const floor = config.threshold;
  for (let j = 0; j < weights.length; j++) if (allowed[j] === 1 && weights[j] > floor && weights[j] > 0) ids.push(j);
  ids.sort((a, b) => weights[b] - weights[a] || a - b);
  const kept = config.top_k !== null && ids.length > config.top_k ? ids.slice(0, config.top_k) : ids;
  return { tokens: kept.map((id) => vocab.tokens[id]), weights: Float32Array.from(kept, (id) => weights[id]), isTruncated };
}

/**
 * Max pooling of row `b` of a [batch, sequence, vocab] logits tensor over the positions where
 * `mask` is 1, then the activation; writes into `out` (length vocab).
 */
export function maxPoolLogits(
  logits: Float32Array, b: number, sequence: number, vocabSize: number, mask: ArrayLike<bigint>, activation: Activation, out: Float32Array,
): Float32Array {
  out.fill(-Infinity);
  for (let i = 0; i < sequence; i++) {
    if (mask[b * sequence + i] !== 1n) continue;
    const row = (b * sequence + i) * vocabSize;
    for (let j = 0; j < vocabSize; j++) {
      const x = logits[row + j];
      if (x > out[j]) out[j] = x;
    }
  }
  for (let j = 0; j < vocabSize; j++) out[j] = out[j] === -Infinity ? 0 : activate(out[j], activation);
  return out;
}

/** Row `b` of a [batch, vocab] pooled output, activated. */
export function pooledRow(pooled: Float32Array, b: number, vocabSize: number, activation: Activation, out: Float32Array): Float32Array {
  for (let j = 0; j < vocabSize; j++) out[j] = activate(pooled[b * vocabSize + j], activation);
  return out;
}

/**
 * Inference-free query encoding (`query_mode: idf`, OpenSearch's doc-only models): each distinct
 * non-special token of the query weighs its idf; no model pass.
 */
export function idfQueryVector(ids: readonly number[], idf: Float32Array, vocab: Vocabulary, allowed: Uint8Array, config: Pick<SparseEncoderConfig, 'threshold' | 'top_k'>, isTruncated: boolean): SparseVector {
  const weights = new Float32Array(vocab.tokens.length);
  for (const id of ids) weights[id] = idf[id];
  return toSparseVector(weights, vocab, allowed, config, isTruncated);
}
