/**
 * `simple_query_string` (ES SimpleQueryStringBuilder.fromXContent). The syntax itself
 * (../query-string/simple.ts) is read when the query is planned on each index, and never fails.
 */
import { IllegalArgumentError, ParsingError, previewInput } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, readBoolean, readInt, readString, within } from '../parse-helpers.js';
import type { BoostedField, Operator, SimpleQueryStringQuery } from '../query-nodes.js';
import { SQS_ALL_FLAGS, SQS_FLAGS } from '../query-string/index.js';
import { parseBoostedField, readCommon } from './common.js';

const Q = 'simple_query_string';

/** ES SimpleQueryStringFlag names (NEAR and SLOP are one bit). */
const FLAG_BITS: Record<string, number> = { ...SQS_FLAGS, SLOP: SQS_FLAGS.NEAR };

/**
 * SimpleQueryStringFlag.resolveFlags: `|`-separated names, case-insensitive, not trimmed; empty
 * parts skipped; NONE or ALL end the list there; an empty string is ALL.
 */
export function resolveSimpleQueryStringFlags(spec: string): number {
  if (spec.length === 0) return SQS_ALL_FLAGS;
  let flags = 0;
  for (const name of spec.split('|')) {
    if (name.length === 0) continue;
    const upper = name.toUpperCase();
    if (upper === 'NONE') return 0;
    if (upper === 'ALL') return SQS_ALL_FLAGS;
    const bit = Object.prototype.hasOwnProperty.call(FLAG_BITS, upper) ? FLAG_BITS[upper] : undefined;
    if (bit === undefined) throw new IllegalArgumentError(`Unknown ${Q} flag [${previewInput(name)}]`);
    flags |= bit;
  }
  return flags;
}

/** ES Operator.fromString: Enum.valueOf of the upper-cased name. */
function readDefaultOperator(value: string): Operator {
  const upper = value.toUpperCase();
  if (upper === 'OR' || upper === 'AND') return upper === 'OR' ? 'or' : 'and';
  throw new IllegalArgumentError(`No enum constant org.elasticsearch.index.query.Operator.${previewInput(upper)}`);
}

function isValue(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

export function parseSimpleQueryString(body: unknown): SimpleQueryStringQuery {
  if (!isObject(body)) throw new ParsingError(`[${Q}] query malformed, no start_object after query name`);
  const node = {
    kind: Q as typeof Q, query: null as string | null, fields: null as BoostedField[] | null, defaultOperator: 'or' as Operator,
    analyzer: null as string | null, flags: SQS_ALL_FLAGS, lenient: null as boolean | null, minimumShouldMatch: null as string | null,
    quoteFieldSuffix: null as string | null, analyzeWildcard: false, autoGenerateSynonymsPhraseQuery: true,
    fuzzyPrefixLength: 0, fuzzyMaxExpansions: 50, fuzzyTranspositions: true, boost: 1, name: null as string | null,
  };
  forEachEntry(body, (k, v) => {
    if (Array.isArray(v)) {
      if (k !== 'fields') throw new ParsingError(`[${Q}] query does not support [${k}]`);
      node.fields = v.map((f, i) => within(i, () => {
        if (!isValue(f)) throw new ParsingError(`[${Q}] unknown token [${tokenName(f)}] after [${k}]`);
        return parseBoostedField(Q, String(f));
      }));
      return;
    }
    if (!isValue(v)) throw new ParsingError(`[${Q}] unknown token [${tokenName(v)}] after [${k}]`);
    if (readCommon(Q, k, v, node)) return;
    switch (k) {
      case 'query': node.query = readString(Q, k, v); break;
      case 'analyzer': node.analyzer = readString(Q, k, v); break;
      case 'default_operator': node.defaultOperator = readDefaultOperator(readString(Q, k, v)); break;
      case 'flags':
        if (typeof v === 'number') {
          const n = readInt(Q, k, v);
          node.flags = n < 0 ? SQS_ALL_FLAGS : n;
        } else {
          node.flags = resolveSimpleQueryStringFlags(String(v));
        }
        break;
      case 'lenient': node.lenient = readBoolean(Q, k, v); break;
      case 'analyze_wildcard': node.analyzeWildcard = readBoolean(Q, k, v); break;
      case 'minimum_should_match': node.minimumShouldMatch = readString(Q, k, v); break;
      case 'quote_field_suffix': node.quoteFieldSuffix = readString(Q, k, v); break;
      case 'auto_generate_synonyms_phrase_query': node.autoGenerateSynonymsPhraseQuery = readBoolean(Q, k, v); break;
      case 'fuzzy_prefix_length': node.fuzzyPrefixLength = readInt(Q, k, v); break;
      case 'fuzzy_max_expansions': node.fuzzyMaxExpansions = readInt(Q, k, v); break;
      case 'fuzzy_transpositions': node.fuzzyTranspositions = readBoolean(Q, k, v); break;
      default: throw new ParsingError(`[${Q}] unsupported field [${k}]`);
    }
  });
  if (node.query === null) throw new ParsingError(`[${Q}] query text missing`);
  return { ...node, query: node.query };
}
