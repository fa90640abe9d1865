/** `match`, `match_phrase`, `match_phrase_prefix`, `match_bool_prefix` (ES MatchQueryBuilder & co). */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { readBoolean, readInt, readString, unknownParameter } from '../parse-helpers.js';
import type { MatchBoolPrefixQuery, MatchPhrasePrefixQuery, MatchPhraseQuery, MatchQuery, TextQueryOptions } from '../query-nodes.js';
import { readCommon, readFuzziness, readMinimumShouldMatch, readOperator, readZeroTerms, splitFieldClause, forEachOption } from './common.js';

/** Options every text-analysing clause accepts; returns true when `key` was one of them. */
function readTextOption(q: string, key: string, v: unknown, o: { -readonly [K in keyof TextQueryOptions]: TextQueryOptions[K] }): boolean {
  switch (key) {
    case 'analyzer':
      o.analyzer = readString(q, key, v);
      return true;
    case 'lenient':
      o.lenient = readBoolean(q, key, v);
      return true;
    case 'zero_terms_query':
      o.zeroTermsQuery = readZeroTerms(q, v);
      return true;
    default:
      return false;
  }
}

function queryValue(q: string, v: unknown): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw new ParsingError(`[${q}] unknown token [${Array.isArray(v) ? 'START_ARRAY' : v === null ? 'VALUE_NULL' : 'START_OBJECT'}] after [query]`);
}

export function parseMatch(body: unknown): MatchQuery {
  const q = 'match';
  const clause = splitFieldClause(q, body, 'query');
  const { field, outer } = clause;
  const node = {
    kind: 'match' as const, field, query: '' as string | number | boolean, operator: 'or' as 'or' | 'and',
    minimumShouldMatch: null as string | number | null, fuzziness: null as string | null, prefixLength: 0,
    maxExpansions: 50, fuzzyTranspositions: true, analyzer: null as string | null, lenient: false,
    zeroTermsQuery: 'none' as 'none' | 'all', autoGenerateSynonymsPhraseQuery: true, boost: outer.boost, name: outer.name,
  };
  let hasQuery = false;
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node) || readTextOption(q, k, v, node)) return;
    switch (k) {
      case 'query': node.query = queryValue(q, v); hasQuery = true; break;
      case 'operator': node.operator = readOperator(q, v); break;
      case 'minimum_should_match': node.minimumShouldMatch = readMinimumShouldMatch(q, v); break;
      case 'fuzziness': node.fuzziness = readFuzziness(q, v); break;
      case 'prefix_length': node.prefixLength = readInt(q, k, v); break;
      case 'max_expansions': node.maxExpansions = readInt(q, k, v); break;
      case 'fuzzy_transpositions': node.fuzzyTranspositions = readBoolean(q, k, v); break;
      case 'auto_generate_synonyms_phrase_query': node.autoGenerateSynonymsPhraseQuery = readBoolean(q, k, v); break;
      // Accepted and without effect here, as our rewrites are exact.
      case 'fuzzy_rewrite': readString(q, k, v); break;
      default: throw unknownParameter(q, k);
    }
  });
  if (!hasQuery) throw new ParsingError(`[${q}] requires query value`);
  if (node.maxExpansions <= 0) throw new ParsingError(`[${q}] [max_expansions] must be greater than 0`);
  return node;
}

/**
 * MatchPhraseQueryBuilder / MatchPhrasePrefixQueryBuilder.fromXContent: `query`, `analyzer`, `slop`,
 * `zero_terms_query` (+ `max_expansions` for the prefix variant); no `lenient`. Out-of-range values
 * fail in the builders' setters (IllegalArgumentException).
 */
function parsePhraseLike<K extends 'match_phrase' | 'match_phrase_prefix'>(q: K, body: unknown) {
  const clause = splitFieldClause(q, body, 'query');
  const { field, outer } = clause;
  const node = {
    kind: q as typeof q, field, query: '', slop: 0, maxExpansions: 50, analyzer: null as string | null, lenient: false,
    zeroTermsQuery: 'none' as 'none' | 'all', boost: outer.boost, name: outer.name,
  };
  let hasQuery = false;
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    if (k === 'query') { node.query = String(queryValue(q, v)); hasQuery = true; }
    else if (k === 'analyzer') node.analyzer = readString(q, k, v);
    else if (k === 'zero_terms_query') node.zeroTermsQuery = readZeroTerms(q, v);
    else if (k === 'slop') node.slop = readInt(q, k, v);
    else if (k === 'max_expansions' && q === 'match_phrase_prefix') node.maxExpansions = readInt(q, k, v);
    else throw unknownParameter(q, k);
  });
  if (!hasQuery) throw new IllegalArgumentError(`[${q}] requires query value`);
  if (node.slop < 0) throw new IllegalArgumentError('No negative slop allowed.');
  if (node.maxExpansions < 0) throw new IllegalArgumentError('No negative maxExpansions allowed.');
  return node;
}

export function parseMatchPhrase(body: unknown): MatchPhraseQuery {
  const { maxExpansions: _unused, ...node } = parsePhraseLike('match_phrase', body);
  return node;
}

export function parseMatchPhrasePrefix(body: unknown): MatchPhrasePrefixQuery {
  return parsePhraseLike('match_phrase_prefix', body);
}

/**
 * MatchBoolPrefixQueryBuilder.fromXContent: the `match` options that make sense for a prefix — no
 * `lenient`, `zero_terms_query` or `auto_generate_synonyms_phrase_query`.
 */
export function parseMatchBoolPrefix(body: unknown): MatchBoolPrefixQuery {
  const q = 'match_bool_prefix';
  const clause = splitFieldClause(q, body, 'query');
  const { field, outer } = clause;
  const node = {
    kind: q as typeof q, field, query: '', operator: 'or' as 'or' | 'and', minimumShouldMatch: null as string | number | null,
    fuzziness: null as string | null, prefixLength: 0, maxExpansions: 50, fuzzyTranspositions: true,
    analyzer: null as string | null, lenient: false, zeroTermsQuery: 'none' as 'none' | 'all', boost: outer.boost, name: outer.name,
  };
  let hasQuery = false;
  forEachOption(clause, (k, v) => {
    if (readCommon(q, k, v, node)) return;
    switch (k) {
      case 'query': node.query = String(queryValue(q, v)); hasQuery = true; break;
      case 'analyzer': node.analyzer = readString(q, k, v); break;
      case 'operator': node.operator = readOperator(q, v); break;
      case 'minimum_should_match': node.minimumShouldMatch = readMinimumShouldMatch(q, v); break;
      case 'fuzziness': node.fuzziness = readFuzziness(q, v); break;
      case 'prefix_length': node.prefixLength = readInt(q, k, v); break;
      case 'max_expansions': node.maxExpansions = readInt(q, k, v); break;
      case 'fuzzy_transpositions': node.fuzzyTranspositions = readBoolean(q, k, v); break;
      case 'fuzzy_rewrite': readString(q, k, v); break;
      default: throw unknownParameter(q, k);
    }
  });
  if (!hasQuery) throw new IllegalArgumentError(`[${q}] requires query value`);
  if (node.prefixLength < 0) throw new IllegalArgumentError(`[${q}] requires prefix length to be non-negative.`);
  if (node.maxExpansions <= 0) throw new IllegalArgumentError(`[${q}] requires maxExpansions to be positive.`);
  return node;
}
