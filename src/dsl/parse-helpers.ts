/**
 * Small readers for request JSON that fail with ES's wording. Every DSL parser goes through these
 * so a wrong type anywhere gives the same kind of error ES gives: `x_content_parse_exception`
 * "[<name>] failed to parse field [<field>]" (object-parser fields) or `parsing_exception` for
 * query-clause structure.
 */
import { ParsingError, XContentParseError, IllegalArgumentError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { isPlainObject } from '../common/json.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return isPlainObject(v);
}

/** ES object parsers: "[owner] failed to parse field [field]" with the value problem as the cause. */
export function fieldError(owner: string, field: string, detail: string): XContentParseError {
  return new XContentParseError(`[${owner}] failed to parse field [${field}]`, new IllegalArgumentError(detail));
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

/** ES accepts a single value where an array is expected ("must": {...} ≡ "must": [{...}]). */
export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

export function readStringArray(owner: string, field: string, v: unknown): string[] {
  return asArray(v).map((x) => readString(owner, field, x));
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
