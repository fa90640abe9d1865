/** `query_string` (ES QueryStringQueryBuilder); the syntax itself is parsed by ../query-string/. */
import { ParsingError, QueryShardError, ParseError } from '../../errors/index.js';
import { asArray, isObject, readBoolean, readInt, readNumber, readString, unknownParameter } from '../parse-helpers.js';
import type { BoostedField, MultiMatchType, QueryStringQuery } from '../query-nodes.js';
import { parseQueryString, QueryStringSyntaxError } from '../query-string/index.js';
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
  for (const [k, v] of Object.entries(body)) {
    if (readCommon(q, k, v, node)) continue;
    switch (k) {
      case 'query': node.query = readString(q, k, v); break;
      case 'default_field': node.defaultField = readString(q, k, v); break;
      case 'fields': node.fields = asArray(v).map((f) => parseBoostedField(q, readString(q, k, f))); break;
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
  }
  if (node.query === null) throw new ParsingError(`[${q}] must be provided with a [query]`);
  if (node.defaultField !== null && node.fields !== null) {
    throw new ParsingError(`[${q}] cannot use [fields] parameter in conjunction with [default_field]`);
  }
  let parsed;
  try {
    parsed = parseQueryString(node.query, node.defaultOperator);
  } catch (e) {
    // ES reports syntax errors at query-building time on the shard: query_shard_exception
    // "Failed to parse query [...]" caused by parse_exception "Cannot parse '...': ...".
    if (e instanceof QueryStringSyntaxError) {
      throw new QueryShardError(`Failed to parse query [${node.query}]`, undefined, new ParseError(e.message));
    }
    throw e;
  }
  return { ...node, query: node.query, parsed };
}
