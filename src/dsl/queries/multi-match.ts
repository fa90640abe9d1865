/** `multi_match` (ES MultiMatchQueryBuilder). */
import { IllegalArgumentError, ParseError, ParsingError } from '../../errors/index.js';
import { forEachEntry, isObject, mapItems, readBoolean, readInt, readNumber, readString, unknownParameter } from '../parse-helpers.js';
import type { BoostedField, MultiMatchQuery, MultiMatchType } from '../query-nodes.js';
import { parseBoostedField, readCommon, readFuzziness, readMinimumShouldMatch, readOperator, readZeroTerms } from './common.js';

const TYPES: readonly MultiMatchType[] = ['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'];

export function parseMultiMatch(body: unknown): MultiMatchQuery {
  const q = 'multi_match';
  if (!isObject(body)) throw new ParsingError(`[${q}] query malformed, no start_object after query name`);
  const node = {
    kind: q as typeof q, query: null as string | number | boolean | null, fields: null as BoostedField[] | null,
    type: 'best_fields' as MultiMatchType, operator: 'or' as 'or' | 'and', minimumShouldMatch: null as string | number | null,
    tieBreaker: null as number | null, fuzziness: null as string | null, prefixLength: 0, maxExpansions: 50,
    fuzzyTranspositions: true, autoGenerateSynonymsPhraseQuery: true, slop: 0, analyzer: null as string | null, lenient: false,
    zeroTermsQuery: 'none' as 'none' | 'all', boost: 1, name: null as string | null,
  };
  forEachEntry(body, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    switch (k) {
      case 'query':
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ParsingError(`[${q}] unknown token after [query]`);
        node.query = v;
        break;
      case 'fields':
        node.fields = mapItems(v, (f) => parseBoostedField(q, readString(q, k, f)));
        break;
      case 'type': {
        // MultiMatchQueryBuilder.Type.parse: the names (and `boolean`, best_fields' old name) exactly.
        const s = readString(q, k, v);
        const t = (s === 'boolean' ? 'best_fields' : s) as MultiMatchType;
        if (!TYPES.includes(t)) throw new ParseError(`failed to parse [${q}] query type [${s}]. unknown type.`);
        node.type = t;
        break;
      }
      case 'operator': node.operator = readOperator(q, v); break;
      case 'minimum_should_match': node.minimumShouldMatch = readMinimumShouldMatch(q, v); break;
      case 'tie_breaker': node.tieBreaker = readNumber(q, k, v); break;
      case 'fuzziness': node.fuzziness = readFuzziness(q, v); break;
      case 'prefix_length': node.prefixLength = readInt(q, k, v); break;
      case 'max_expansions': node.maxExpansions = readInt(q, k, v); break;
      case 'fuzzy_transpositions': node.fuzzyTranspositions = readBoolean(q, k, v); break;
      case 'slop': node.slop = readInt(q, k, v); break;
      case 'analyzer': node.analyzer = readString(q, k, v); break;
      case 'lenient': node.lenient = readBoolean(q, k, v); break;
      case 'zero_terms_query': node.zeroTermsQuery = readZeroTerms(q, v); break;
      case 'auto_generate_synonyms_phrase_query': node.autoGenerateSynonymsPhraseQuery = readBoolean(q, k, v); break;
      case 'fuzzy_rewrite': readString(q, k, v); break;
      default: throw unknownParameter(q, k);
    }
  });
  if (node.query === null) throw new ParsingError(`No text specified for multi_match query`);
  if (node.fuzziness !== null && (node.type === 'phrase' || node.type === 'phrase_prefix' || node.type === 'cross_fields')) {
    throw new ParsingError(`Fuzziness not allowed for type [${node.type}]`);
  }
  if (node.slop !== 0 && node.type === 'bool_prefix') throw new ParsingError(`[slop] not allowed for type [bool_prefix]`);
  // The builder's setters, in the order fromXContent calls them.
  if (node.maxExpansions <= 0) throw new IllegalArgumentError('Max expansions must be strictly great than zero.');
  if (node.prefixLength < 0) throw new IllegalArgumentError('No negative prefix length allowed.');
  if (node.slop < 0) throw new IllegalArgumentError('No negative slop allowed.');
  return { ...node, query: node.query };
}
