/**
 * `weighted_tokens` (ES WeightedTokensQueryBuilder, 8.13+): a precomputed query vector,
 * `{ "<field>": { "tokens": {t: w} | [{t: w}, …], "pruning_config"?, "boost"?, "_name"? } }`.
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { unknownParameter } from '../parse-helpers.js';
import type { TokenPruningConfig, WeightedToken, WeightedTokensQuery } from '../query-nodes.js';
import { forEachOption, readCommon, splitFieldClause } from './common.js';
import { readPruningConfig, readWeightedTokens } from './token-pruning.js';

export function parseWeightedTokens(body: unknown): WeightedTokensQuery {
  const q = 'weighted_tokens';
  const clause = splitFieldClause(q, body, '__invalid__');
  if ('__invalid__' in clause.options) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = { ...clause.outer, tokens: null as WeightedToken[] | null, pruningConfig: null as TokenPruningConfig | null };
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'tokens') node.tokens = readWeightedTokens(q, k, v);
    else if (k === 'pruning_config') node.pruningConfig = readPruningConfig(q, v);
    else throw unknownParameter(q, k);
  });
  if (node.tokens === null || node.tokens.length === 0) throw new IllegalArgumentError(`[${q}] requires at least one token`);
  return { kind: q, field: clause.field, tokens: node.tokens, pruningConfig: node.pruningConfig, boost: node.boost, name: node.name };
}
