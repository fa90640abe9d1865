/**
 * URL query parameter values → typed values, read the way ES's RestRequest reads them: strict
 * booleans, integers and longs with ES's error texts. Pure, so request parsers in dsl/ that merge
 * body fields with URL parameters (ML deployments, `_msearch` item defaults) read them the same way
 * as the routes in http/.
 */
import { IllegalArgumentError, ParseError, previewInput } from '../errors/index.js';
import { parseTimeValue } from '../common/time-value.js';

/** A request's URL query parameters (the last value of a repeated name). */
export type UrlParams = Record<string, string | undefined>;

export function boolParam(query: UrlParams, name: string, def: boolean): boolean {
  const v = query[name];
  if (v === undefined) return def;
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw new IllegalArgumentError(`Failed to parse value [${previewInput(v)}] only [true] or [false] are allowed.`);
}

export function intParam(query: UrlParams, name: string, def: number): number {
  const v = query[name];
  if (v === undefined) return def;
  if (!/^-?\d+$/.test(v)) throw new IllegalArgumentError(`Failed to parse int parameter [${name}] with value [${previewInput(v)}]`);
  const n = Number(v);
  if (n > 2147483647 || n < -2147483648) throw new IllegalArgumentError(`Failed to parse int parameter [${name}] with value [${previewInput(v)}]`);
  return n;
}

export function longParam(query: UrlParams, name: string): number | null {
  const v = query[name];
  if (v === undefined) return null;
  if (!/^-?\d+$/.test(v)) throw new IllegalArgumentError(`Failed to parse long parameter [${name}] with value [${previewInput(v)}]`);
  return Number(v);
}

/** ES TimeValue.parseTimeValue on a REST parameter or body field: parse_exception on a bad value. */
export function timeParam(value: string | undefined, name: string, def: number): { ms: number; text: string } {
  if (value === undefined) return { ms: def, text: `${def / 1000}s` };
  try {
    return { ms: parseTimeValue(value, name), text: value };
  } catch (e) {
    throw new ParseError((e as Error).message);
  }
}
