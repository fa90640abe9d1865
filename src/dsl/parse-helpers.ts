/**
 * Small readers for request JSON that fail with ES's wording. Every DSL parser goes through these
 * so a wrong type anywhere gives the same kind of error ES gives: `x_content_parse_exception`
 * "[<name>] failed to parse field [<field>]" (object-parser fields) or `parsing_exception` for
 * query-clause structure.
 *
 * Parsers walk objects with `forEachEntry` and arrays with `mapItems`, which locate parse errors:
 * an error leaving the value under a key gets that key prepended to its JSON path (a try/catch,
 * free until something throws), and `parseBody` marks the path complete at the body root.
 */
import { EsError, ParsingError, XContentParseError, IllegalArgumentError, NumberFormatError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { isPlainObject } from '../common/json.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return isPlainObject(v);
}

/** Parses the value under `key`; a parse error from inside is located under `key`. */
export function within<T>(key: string | number, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof EsError) e.prependPath(key);
    throw e;
  }
}

/** Visits an object's members in order, locating errors under their keys. */
export function forEachEntry(obj: JsonObject, visit: (key: string, value: unknown) => void): void {
  for (const key of Object.keys(obj)) within(key, () => visit(key, obj[key]));
}

/**
 * Parses each element of an array (locating errors under their index), or a lone value as one:
 * ES accepts a single value where an array is expected ("must": {...} ≡ "must": [{...}]).
 */
export function mapItems<T>(v: unknown, parse: (item: unknown) => T): T[] {
  return Array.isArray(v) ? v.map((item, i) => within(i, () => parse(item))) : [parse(v)];
}

/** Runs the parser of a whole request body: errors leaving it are located from the body root. */
export function parseBody<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof EsError) e.markInBody();
    throw e;
  }
}

/** Jackson's token names, as its "not numeric" / "not of boolean type" messages print them. */
function jacksonToken(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'VALUE_TRUE' : 'VALUE_FALSE';
  if (typeof v === 'number') return Number.isInteger(v) ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
  return tokenName(v);
}

/** Java's Double.parseDouble (without its rarities: NaN, Infinity, hex), failing with its messages. */
function parseJavaDouble(text: string): number {
  const t = text.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(t)) return Number(t.replace(/[dDfF]$/, ''));
  throw t === '' ? new NumberFormatError(null) : new NumberFormatError(t);
}

/** XContentParser.floatValue()/doubleValue() with coercion: numbers, or numeric strings. */
export function doubleValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseJavaDouble(v);
  throw new XContentParseError(`Current token (${jacksonToken(v)}) not numeric, can not use numeric value accessors`);
}

/** XContentParser.intValue() with coercion: fractions truncate, numeric strings parse as doubles. */
export function intValue(v: unknown): number {
  const n = doubleValue(v);
  if (n < -2147483648 || n > 2147483647 || Number.isNaN(n)) {
    if (typeof v === 'string') throw new IllegalArgumentError(`Value [${v}] is out of range for an integer`);
    throw new XContentParseError(`Numeric value (${String(v)}) out of range of int (-2147483648 - 2147483647)`);
  }
  return Math.trunc(n);
}

/** XContentParser.booleanValue(): booleans, or exactly "true"/"false". */
export function booleanValue(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') throw new XContentParseError(`Current token (${jacksonToken(v)}) not of boolean type`);
  if (v === 'true' || v === 'false') return v === 'true';
  throw new IllegalArgumentError(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

/** ES object parsers: "[owner] failed to parse field [field]" with the value problem as the cause. */
export function fieldError(owner: string, field: string, detail: string): XContentParseError {
  return new XContentParseError(`[${owner}] failed to parse field [${field}]`, new IllegalArgumentError(detail));
}

/** ObjectParser's wrapping of a value's own failure: "[owner] failed to parse field [field]" caused by it. */
export function parsingField<T>(owner: string, field: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof EsError) throw new XContentParseError(`[${owner}] failed to parse field [${field}]`, e);
    throw e;
  }
}

export function readString(owner: string, field: string, v: unknown): string {
  if (typeof v === 'string') return v;
  // ES's XContent parsers coerce numbers and booleans into strings where a string is expected.
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw fieldError(owner, field, `[${field}] expected a string but found [${tokenName(v)}]`);
}

/** Numbers may be sent as JSON numbers or numeric strings (ES coerces). */
export function readNumber(owner: string, field: string, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw fieldError(owner, field, `[${field}] expected a number but found [${typeof v === 'string' ? v : tokenName(v)}]`);
}

export function readInt(owner: string, field: string, v: unknown): number {
  const n = readNumber(owner, field, v);
  if (!Number.isInteger(n)) throw fieldError(owner, field, `[${field}] expected an integer but found [${String(v)}]`);
  if (n > 2147483647 || n < -2147483648) throw fieldError(owner, field, `Numeric value (${String(v)}) out of range of int (-2147483648 - 2147483647)`);
  return n;
}

export function readBoolean(owner: string, field: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw fieldError(owner, field, `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
}

export function readObject(owner: string, field: string, v: unknown): JsonObject {
  if (isObject(v)) return v;
  throw new ParsingError(`[${owner}] ${field} must be an object but found [${tokenName(v)}]`);
}

export function readStringArray(owner: string, field: string, v: unknown): string[] {
  return mapItems(v, (x) => readString(owner, field, x));
}

/** The one key of a `{ "<name>": {...} }` object, or a parse error naming the clause. */
export function singleKey(owner: string, obj: JsonObject): [string, unknown] {
  const keys = Object.keys(obj);
  if (keys.length === 0) throw new ParsingError(`[${owner}] query malformed, empty clause found`);
  if (keys.length > 1) {
    throw new ParsingError(`[${owner}] query doesn't support multiple fields, found [${keys[0]}] and [${keys[1]}]`);
  }
  return [keys[0], obj[keys[0]]];
}

export function unknownParameter(query: string, key: string): ParsingError {
  return new ParsingError(`[${query}] query does not support [${key}]`);
}
