/**
 * Pieces the learned-sparse clauses share: `pruning_config` (ES TokenPruningConfig, defaults and
 * ranges as ES checks them) and token → weight maps (`query_vector`, `tokens`).
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { javaFloatToString } from '../../common/float-json.js';
import { forEachEntry, isObject, readBoolean, readNumber, within } from '../parse-helpers.js';
import type { TokenPruningConfig, WeightedToken } from '../query-nodes.js';

export const DEFAULT_TOKEN_PRUNING: TokenPruningConfig = Object.freeze({
  tokensFreqRatioThreshold: 5,
  tokensWeightThreshold: 0.4,
  onlyScorePrunedTokens: false,
});

export function readPruningConfig(owner: string, value: unknown): TokenPruningConfig {
  if (!isObject(value)) throw new ParsingError(`[${owner}] pruning_config must be an object`);
  let ratio = DEFAULT_TOKEN_PRUNING.tokensFreqRatioThreshold;
  let weight = DEFAULT_TOKEN_PRUNING.tokensWeightThreshold;
  let only = DEFAULT_TOKEN_PRUNING.onlyScorePrunedTokens;
  within('pruning_config', () => forEachEntry(value, (k, v) => {
    if (k === 'tokens_freq_ratio_threshold') ratio = Math.fround(readNumber('pruning_config', k, v));
    else if (k === 'tokens_weight_threshold') weight = Math.fround(readNumber('pruning_config', k, v));
    else if (k === 'only_score_pruned_tokens') only = readBoolean('pruning_config', k, v);
    else throw new ParsingError(`[pruning_config] unknown token [${k}]`);
  }));
  if (ratio < 1 || ratio > 100) {
    throw new IllegalArgumentError(`[tokens_freq_ratio_threshold] must be between [1] and [100], got ${javaFloatToString(ratio)}`);
  }
  if (weight < 0 || weight > 1) throw new IllegalArgumentError('[tokens_weight_threshold] must be between 0 and 1');
  return { tokensFreqRatioThreshold: ratio, tokensWeightThreshold: weight, onlyScorePrunedTokens: only };
}

/**
 * `{ "token": weight, … }`, or (weighted_tokens) an array of such objects. Weights are read as
 * float32; their sign is checked when the query is built (Lucene's BoostQuery), as ES does.
 */
export function readWeightedTokens(owner: string, key: string, value: unknown): WeightedToken[] {
  const out: WeightedToken[] = [];
  const readMap = (obj: unknown) => {
    if (!isObject(obj)) throw new ParsingError(`[${owner}] [${key}] must be an object of token to weight`);
    forEachEntry(obj, (token, w) => {
      out.push({ token, weight: Math.fround(readNumber(owner, token, w)) });
    });
  };
  within(key, () => {
    if (Array.isArray(value)) value.forEach((item, i) => within(i, () => readMap(item)));
    else readMap(value);
  });
  return out;
}
