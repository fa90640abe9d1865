/**
 * `fields` / `docvalue_fields` of a search body or a `top_hits` aggregation (ES FieldAndFormat):
 * a name or pattern, a date `format`, `include_unmapped`.
 */
import { IllegalArgumentError, ParsingError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { booleanValue, forEachEntry, isObject, mapItems, readString } from './parse-helpers.js';

/** A `fields` / `docvalue_fields` entry (ES FieldAndFormat): a name or pattern, a date `format`, `include_unmapped`. */
export interface FieldAndFormat {
  readonly field: string;
  readonly format: string | null;
  readonly includeUnmapped: boolean;
}

const FIELD_AND_FORMAT = 'fetch_field_and_format';

/** ES FieldAndFormat.fromXContent over a `fields` / `docvalue_fields` array. */
export function parseFieldsAndFormats(v: unknown): FieldAndFormat[] {
  return mapItems(v, (item) => {
    if (typeof item === 'string') return { field: item, format: null, includeUnmapped: false };
    if (!isObject(item)) throw new ParsingError(`[${FIELD_AND_FORMAT}] Expected START_OBJECT or VALUE_STRING but was: ${tokenName(item)}`);
    let field: string | null = null;
    let format: string | null = null;
    let includeUnmapped = false;
    forEachEntry(item, (k, value) => {
      if (k === 'field') field = readString(FIELD_AND_FORMAT, k, value);
      else if (k === 'format') format = readString(FIELD_AND_FORMAT, k, value);
      else if (k === 'include_unmapped') includeUnmapped = booleanValue(value);
      else throw new XContentParseError(`[${FIELD_AND_FORMAT}] unknown field [${k}]`, undefined, 'key');
    });
    if (field === null) throw new IllegalArgumentError('Required [field]');
    return { field, format, includeUnmapped };
  });
}
