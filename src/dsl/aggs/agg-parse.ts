/**
 * What every aggregation parser shares: ES ObjectParser's behaviour for an aggregation body
 * (unknown fields with "did you mean", values checked per field) and the values-source members
 * (`field`, `missing`, …) of ValuesSourceAggregationBuilder.
 */
import { didYouMean } from '../../common/did-you-mean.js';
import { DateFormatError, parseDateFormat } from '../../common/dates/index.js';
import { IllegalArgumentError, ParsingError, XContentParseError } from '../../errors/index.js';
import { tokenName } from '../json-body.js';
import { forEachEntry, isObject, mapItems, readString, type JsonObject } from '../parse-helpers.js';
import type { MissingValue, TermsOrder } from './agg-nodes.js';

/** Members ES knows that this server does not implement: they fail clearly instead of being ignored. */
const NOT_YET = new Set(['script', 'extended_bounds', 'hard_bounds', 'value_type', 'time_zone', 'keyed_response']);

/**
 * Runs one handler per member of an aggregation's body, in order. Unknown members fail as
 * ObjectParser does: `[<type>] unknown field [x]` (+ suggestions), an x_content_parse_exception.
 */
export function parseAggBody(type: string, body: unknown, handlers: Record<string, (v: unknown) => void>): void {
  if (!isObject(body)) throw new ParsingError(`Expected [START_OBJECT] under [${type}], but got a [${tokenName(body)}]`);
  forEachEntry(body, (k, v) => {
    const handler = Object.prototype.hasOwnProperty.call(handlers, k) ? handlers[k] : undefined;
    if (handler) return handler(v);
    if (NOT_YET.has(k)) throw new IllegalArgumentError(`[${k}] of [${type}] aggregations is not supported by this server yet`);
    throw new XContentParseError(`[${type}] unknown field [${k}]${didYouMean(k, Object.keys(handlers))}`, undefined, 'key');
  });
}

/** `missing`: any scalar (ES reads it as an object and converts it per field type later). */
export function readMissing(type: string, v: unknown): MissingValue {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw new XContentParseError(`[${type}] missing doesn't support values of type: ${tokenName(v)}`);
}

/** ValuesSourceAggregationBuilder: without a script, `field` is required. */
export function requireField(field: string | null): string {
  if (field === null) throw new IllegalArgumentError('Required one of fields [field, script], but none were specified. ');
  return field;
}

/** A date `format` (date_histogram, date_range), checked now: a bad pattern is ES's illegal_argument_exception. */
export function readDateFormat(type: string, v: unknown): string {
  const spec = readString(type, 'format', v);
  try {
    parseDateFormat(spec);
  } catch (e) {
    if (e instanceof DateFormatError) throw new IllegalArgumentError(e.message);
    throw e;
  }
  return spec;
}

/** A bucket aggregation's `order`: one `{key: direction}` object or a list of them (the first counts here); none keeps `fallback`. */
export function readFirstOrder(v: unknown, parse: (o: unknown) => TermsOrder, fallback: TermsOrder): TermsOrder {
  return mapItems(v, parse)[0] ?? fallback;
}

export function readField(type: string, v: unknown): string {
  return readString(type, 'field', v);
}

export type { JsonObject };
