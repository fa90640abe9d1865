/**
 * Pieces shared by clause parsers: `boost`/`_name`, field^boost strings, operators, fuzziness and
 * the long/short form split of single-field clauses (`{"match": {"f": "x"}}` vs `{"f": {...}}`).
 */
import { ParsingError } from '../../errors/index.js';
import { forEachEntry, isObject, readNumber, readString, singleKey, unknownParameter, within, type JsonObject } from '../parse-helpers.js';
import type { BoostedField, Fuzziness, MinimumShouldMatch, Operator, ZeroTermsQuery } from '../query-nodes.js';

export interface CommonOptions {
  boost: number;
  name: string | null;
}

/** Reads `boost` and `_name`; returns true when `key` was one of them. */
export function readCommon(query: string, key: string, value: unknown, into: CommonOptions): boolean {
  if (key === 'boost') {
    into.boost = readNumber(query, key, value);
    if (into.boost < 0) throw new ParsingError(`negative [boost] are not allowed.`);
    return true;
  }
  if (key === '_name') {
    into.name = readString(query, key, value);
    return true;
  }
  return false;
}

export function newCommon(): CommonOptions {
  return { boost: 1, name: null };
}

export function readOperator(query: string, value: unknown): Operator {
  const s = readString(query, 'operator', value).toLowerCase();
  if (s === 'or' || s === 'and') return s;
  throw new ParsingError(`[${query}] Unsupported operator [${String(value)}]`);
}

export function readZeroTerms(query: string, value: unknown): ZeroTermsQuery {
  const s = readString(query, 'zero_terms_query', value).toLowerCase();
  if (s === 'none' || s === 'all') return s;
  throw new ParsingError(`[${query}] Unsupported zero_terms_query value [${String(value)}]`);
}

export function readMinimumShouldMatch(query: string, value: unknown): MinimumShouldMatch {
  if (value === null) return null;
  if (typeof value === 'number') return value;
  return readString(query, 'minimum_should_match', value);
}

/** `fuzziness`: 0/1/2, "0"/"1"/"2", "AUTO", "AUTO:low,high". */
export function readFuzziness(query: string, value: unknown): Fuzziness {
  const s = readString(query, 'fuzziness', value).trim();
  if (/^AUTO(:\d+,\d+)?$/i.test(s) || /^[0-2](\.0+)?$/.test(s)) return s.toUpperCase();
  throw new ParsingError(`[${query}] failed to parse [fuzziness]: invalid fuzziness value: [${s}]`);
}

/** "title^3" → {field: "title", boost: 3}. */
export function parseBoostedField(query: string, spec: string): BoostedField {
  const caret = spec.lastIndexOf('^');
  if (caret < 0) return { field: spec.trim(), boost: 1 };
  const boost = Number(spec.slice(caret + 1));
  if (!Number.isFinite(boost)) throw new ParsingError(`[${query}] failed to parse field boost [${spec}]`);
  return { field: spec.slice(0, caret).trim(), boost };
}

/** A single-field clause split into its field, its options object and the outer `boost`/`_name`. */
export interface FieldClause {
  readonly field: string;
  readonly options: JsonObject;
  readonly outer: CommonOptions;
}

/**
 * Single-field clauses (`match`, `term`, `prefix`, …) take `{ "<field>": <value or options> }`.
 * The short form becomes `{ [shortKey]: value }`. `boost`/`_name` may also sit beside the field at
 * the outer level in ES; we accept them there.
 */
export function splitFieldClause(query: string, body: unknown, shortKey: string): FieldClause {
  if (!isObject(body)) throw new ParsingError(`[${query}] query malformed, no start_object after query name`);
  const outer = newCommon();
  let field: string | null = null;
  let options: JsonObject = {};
  forEachEntry(body, (k, v) => {
    if (readCommon(query, k, v, outer)) return;
    if (field !== null) throw new ParsingError(`[${query}] query doesn't support multiple fields, found [${field}] and [${k}]`);
    field = k;
    if (Array.isArray(v)) throw new ParsingError(`[${query}] query does not support array of values`);
    if (v === null) throw new ParsingError(`[${query}] query value cannot be null`);
    options = isObject(v) ? v : { [shortKey]: v };
  });
  // e.g. {"term": {}} — ES: "[term] query malformed, no start_object after query name" for empty.
  if (field === null) throw new ParsingError(`[${query}] query malformed, no field found`);
  return { field, options, outer };
}

/** Visits a single-field clause's options, locating errors under the field. */
export function forEachOption(clause: FieldClause, visit: (key: string, value: unknown) => void): void {
  within(clause.field, () => forEachEntry(clause.options, visit));
}

export { singleKey, unknownParameter };
