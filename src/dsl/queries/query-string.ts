/**
 * `query_string` (ES QueryStringQueryBuilder). The syntax itself (../query-string/) is parsed at
 * planning, per index: ES parses it while building the shard query, so syntax errors are shard failures.
 */
import { ParsingError } from '../../errors/index.js';
import { forEachEntry, isObject, mapItems, readBoolean, readInt, readNumber, readString, unknownParameter } from '../parse-helpers.js';
import type { BoostedField, MultiMatchType, QueryStringQuery } from '../query-nodes.js';
import { parseBoostedField, readCommon, readFuzziness, readMinimumShouldMatch, readOperator } from './common.js';

export function parseQueryStringQuery(body: unknown): QueryStringQuery {
  const q = 'query_string';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = {
    kind: q as typeof q, query: null as string | null, defaultField: null as string | null, fields: null as BoostedField[] | null,
    defaultOperator: 'or' as 'or' | 'and', analyzer: null as string | null, lenient: null as boolean | null,
    minimumShouldMatch: null as string | number | null, fuzziness: null as string | null, phraseSlop: 0,
    tieBreaker: null as number | null, type: 'best_fields' as MultiMatchType, analyzeWildcard: false,
    allowLeadingWildcard: true, boost: 1, name: null as string | null,
  };
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    switch (k) {
      case 'query': node.query = readString(q, k, v); break;
      case 'default_field': node.defaultField = readString(q, k, v); break;
      case 'fields': node.fields = mapItems(v, (f) => parseBoostedField(q, readString(q, k, f))); break;
      case 'default_operator': node.defaultOperator = readOperator(q, v); break;
      case 'analyzer': case 'quote_analyzer': node.analyzer = readString(q, k, v); break;
      case 'lenient': node.lenient = readBoolean(q, k, v); break;
      case 'minimum_should_match': node.minimumShouldMatch = readMinimumShouldMatch(q, v); break;
      case 'fuzziness': node.fuzziness = readFuzziness(q, v); break;
      case 'phrase_slop': node.phraseSlop = readInt(q, k, v); break;
      case 'tie_breaker': node.tieBreaker = readNumber(q, k, v); break;
      case 'type': node.type = readString(q, k, v).toLowerCase() as MultiMatchType; break;
      case 'analyze_wildcard': node.analyzeWildcard = readBoolean(q, k, v); break;
      case 'allow_leading_wildcard': node.allowLeadingWildcard = readBoolean(q, k, v); break;
      // Accepted for compatibility; they tune rewrites and expansions we do not distinguish.
      case 'auto_generate_synonyms_phrase_query': case 'enable_position_increments': case 'fuzzy_max_expansions':
      case 'fuzzy_prefix_length': case 'fuzzy_transpositions': case 'max_determinized_states': case 'quote_field_suffix':
      case 'rewrite': case 'fuzzy_rewrite': case 'time_zone': case 'escape':
        break;
      default: throw unknownParameter(q, k);
    }
  });
  if (node.query === null) throw new ParsingError(`[${q}] must be provided with a [query]`);
  if (node.defaultField !== null && node.fields !== null) {
    throw new ParsingError(`[${q}] cannot use [fields] parameter in conjunction with [default_field]`);
  }
  return { ...node, query: node.query };
}
