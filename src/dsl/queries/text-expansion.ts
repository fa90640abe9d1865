/**
 * `text_expansion` (ES TextExpansionQueryBuilder, 8.8+, deprecated in 8.15 for `sparse_vector`):
 * `{ "<field>": { "model_id", "model_text", "pruning_config"?, "boost"?, "_name"? } }`. The model
 * runs on the coordinator before planning (cluster/), which fills `tokens`.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { readString, unknownParameter } from '../parse-helpers.js';
import type { TextExpansionQuery, TokenPruningConfig } from '../query-nodes.js';
import { forEachOption, readCommon, splitFieldClause } from './common.js';
import { readPruningConfig } from './token-pruning.js';

export function parseTextExpansion(body: unknown): TextExpansionQuery {
  const q = 'text_expansion';
  const clause = splitFieldClause(q, body, 'model_text');
  const node = { ...clause.outer, modelId: null as string | null, modelText: null as string | null, pruningConfig: null as TokenPruningConfig | null };
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'model_id') node.modelId = readString(q, k, v);
    else if (k === 'model_text') node.modelText = readString(q, k, v);
    else if (k === 'pruning_config') node.pruningConfig = readPruningConfig(q, v);
    else throw unknownParameter(q, k);
  });
  if (node.modelId === null) throw new IllegalArgumentError(`[${q}] requires a model_id value`);
  if (node.modelText === null) throw new IllegalArgumentError(`[${q}] requires a model_text value`);
  return {
    kind: q, field: clause.field, modelId: node.modelId, modelText: node.modelText, pruningConfig: node.pruningConfig,
    tokens: null, boost: node.boost, name: node.name,
  };
}
