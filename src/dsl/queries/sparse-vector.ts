/**
 * `sparse_vector` (ES SparseVectorQueryBuilder, 8.15+): `{ "field", "inference_id" + "query" |
 * "query_vector", "prune"?, "pruning_config"?, "boost"?, "_name"? }`. With `query`, the coordinator
 * encodes the text once with `inference_id` before planning and fills `queryVector`.
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { forEachEntry, isObject, readBoolean, readString, unknownParameter } from '../parse-helpers.js';
import type { SparseVectorQuery, TokenPruningConfig, WeightedToken } from '../query-nodes.js';
import { newCommon, readCommon } from './common.js';
import { readPruningConfig, readWeightedTokens } from './token-pruning.js';

export function parseSparseVector(body: unknown): SparseVectorQuery {
  const q = 'sparse_vector';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const c = newCommon();
  let field: string | null = null;
  let inferenceId: string | null = null;
  let query: string | null = null;
  let queryVector: WeightedToken[] | null = null;
  let prune = false;
  let pruningConfig: TokenPruningConfig | null = null;
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, c)) return;
    switch (k) {
      case 'field': field = readString(q, k, v); break;
      case 'inference_id': inferenceId = readString(q, k, v); break;
      case 'query': query = readString(q, k, v); break;
      case 'query_vector': queryVector = readWeightedTokens(q, k, v); break;
      case 'prune': prune = readBoolean(q, k, v); break;
      case 'pruning_config': pruningConfig = readPruningConfig(q, v); break;
      default: throw unknownParameter(q, k);
    }
  });
  if (field === null) throw new IllegalArgumentError(`[${q}] requires a field`);
  if ((queryVector === null) === (query === null)) {
    throw new IllegalArgumentError(`[${q}] requires one of [query_vector] or [query]`);
  }
  if (query !== null && inferenceId === null) {
    throw new IllegalArgumentError(`[${q}] requires [inference_id] when [query] is specified`);
  }
  return { kind: q, field, inferenceId, query, queryVector, prune, pruningConfig, ...c };
}
