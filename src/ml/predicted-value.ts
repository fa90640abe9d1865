/**
 * A SparseVector as ES renders `predicted_value` for text_expansion: an object token → weight,
 * weights printed as Java prints a float (the shortest decimal that reads back as the float32).
 * Rendered to a JSON string directly so responses splice it in without a re-stringify.
 */
import { float32ToJson } from '../common/float-json.js';
import type { SparseVector } from './sparse-encoder.js';

/** Tokens as JSON keys, by token: the vocabulary is small and fixed, so each is quoted once. */
const quotedTokens = new Map<string, string>();
const MAX_QUOTED_TOKENS = 100_000;

function quoted(token: string): string {
  let q = quotedTokens.get(token);
  if (q === undefined) {
    if (quotedTokens.size >= MAX_QUOTED_TOKENS) quotedTokens.clear();
    quotedTokens.set(token, (q = JSON.stringify(token)));
  }
  return q;
}

export function predictedValueJson(v: SparseVector): string {
  let out = '{';
  for (let i = 0; i < v.tokens.length; i++) {
    if (i > 0) out += ',';
    out += quoted(v.tokens[i]) + ':' + float32ToJson(v.weights[i]);
  }
  return out + '}';
}

/** One `inference_results` entry: `predicted_value`, plus `is_truncated` only when the input was cut. */
export function inferenceResultJson(v: SparseVector, resultsField = 'predicted_value'): string {
  return `{${JSON.stringify(resultsField)}:${predictedValueJson(v)}${v.isTruncated ? ',"is_truncated":true' : ''}}`;
}
