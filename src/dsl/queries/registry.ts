/**
 * Query JSON → QueryNode. One registry line per clause; the clause parsers live beside this file.
 */
import { IllegalArgumentError, NamedObjectNotFoundError, ParsingError } from '../../errors/index.js';
import { isObject, within } from '../parse-helpers.js';
import type { QueryNode } from '../query-nodes.js';
import { parseBool, parseBoosting, parseConstantScore, parseDisMax } from './bool.js';
import { parseFunctionScore } from './function-score.js';
import { parseScriptScore } from './script-score.js';
import { parseScriptQuery } from './script-query.js';
import { parseMatch, parseMatchBoolPrefix, parseMatchPhrase, parseMatchPhrasePrefix } from './match.js';
import { parseMatchAll, parseMatchNone } from './match-all.js';
import { parseMultiMatch } from './multi-match.js';
import { parseQueryStringQuery } from './query-string.js';
import { parseSimpleQueryString } from './simple-query-string.js';
import { parseSparseVector } from './sparse-vector.js';
import { parseTextExpansion } from './text-expansion.js';
import { parseWeightedTokens } from './weighted-tokens.js';
import { parseRankFeature } from './rank-feature.js';
import { parseKnnQuery } from '../knn.js';
import { parseExists, parseFuzzy, parseIds, parsePrefix, parseRange, parseTerm, parseTerms, parseWildcard, parseRegexp } from './term-level.js';

const PARSERS: Record<string, (body: unknown) => QueryNode> = {
  match_all: parseMatchAll,
  match_none: parseMatchNone,
  match: parseMatch,
  match_phrase: parseMatchPhrase,
  match_phrase_prefix: parseMatchPhrasePrefix,
  match_bool_prefix: parseMatchBoolPrefix,
  multi_match: parseMultiMatch,
  query_string: parseQueryStringQuery,
  simple_query_string: parseSimpleQueryString,
  bool: (b) => parseBool(b, parseQuery),
  dis_max: (b) => parseDisMax(b, parseQuery),
  constant_score: (b) => parseConstantScore(b, parseQuery),
  boosting: (b) => parseBoosting(b, parseQuery),
  function_score: (b) => parseFunctionScore(b, parseQuery),
  script_score: (b) => parseScriptScore(b, parseQuery),
  script: parseScriptQuery,
  term: parseTerm,
  terms: parseTerms,
  range: parseRange,
  exists: parseExists,
  ids: parseIds,
  prefix: parsePrefix,
  wildcard: parseWildcard,
  regexp: parseRegexp,
  fuzzy: parseFuzzy,
  text_expansion: parseTextExpansion,
  sparse_vector: parseSparseVector,
  weighted_tokens: parseWeightedTokens,
  rank_feature: parseRankFeature,
  knn: (b) => parseKnnQuery(b, parseQuery),
};

export const SUPPORTED_QUERIES: readonly string[] = Object.keys(PARSERS);

/** ES `indices.query.bool.max_nested_depth` (default 30): how deep compound queries may nest. */
export const MAX_NESTED_DEPTH = 30;
let depth = 0;

/** Parses one query clause object `{ "<kind>": {...} }`. */
export function parseQuery(json: unknown): QueryNode {
  // Parsing is synchronous, so one counter tracks the current nesting (ES counts named query objects).
  if (depth >= MAX_NESTED_DEPTH) {
    throw new IllegalArgumentError('The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]');
  }
  depth++;
  try {
    return parseClause(json);
  } finally {
    depth--;
  }
}

function parseClause(json: unknown): QueryNode {
  if (!isObject(json)) throw new ParsingError('[_na] query malformed, must start with start_object');
  const keys = Object.keys(json);
  if (keys.length === 0) throw new ParsingError('query malformed, empty clause found');
  const kind = keys[0];
  if (keys.length > 1) {
    // ES stops at the second field name.
    return within(keys[1], () => {
      throw new ParsingError(`[${kind}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`, undefined, 'key');
    });
  }
  const parser = Object.prototype.hasOwnProperty.call(PARSERS, kind) ? PARSERS[kind] : undefined;
  return within(kind, () => {
    if (!parser) throw new ParsingError(`unknown query [${kind}]`, new NamedObjectNotFoundError(`unknown field [${kind}]`));
    return parser(json[kind]);
  });
}
