/**
 * JSON value → indexable value for one field type, with ES's coercion and error texts
 * (`NumberFieldMapper`, `BooleanFieldMapper`, `DateFieldMapper`, `KeywordFieldMapper`).
 * Returns `undefined` for values that are accepted but not indexed (keyword over `ignore_above`).
 */
import { DateTimeParseError, IllegalArgumentError, EsError, previewInput } from '../../errors/index.js';
import { DateParseError, parseDateFormat, type CompiledDateFormat } from '../../common/dates/index.js';
import type { ResolvedField } from './types.js';

import type { FeatureRef, FeatureValue } from './feature-values.js';
import { completionValue, type CompletionValue } from './completion-values.js';
import type { DenseVector } from './vector-values.js';

/** A scalar for text/keyword/numeric fields; one feature of a feature field's object; one completion input; a dense_vector's vector. */
export type IndexableValue = string | number | FeatureValue | FeatureRef | CompletionValue | DenseVector;

const formatCache = new Map<string, CompiledDateFormat>();
export function compiledFormat(spec: string): CompiledDateFormat {
  let f = formatCache.get(spec);
  if (!f) {
    f = parseDateFormat(spec);
    formatCache.set(spec, f);
  }
  return f;
}

/** Bounds and the noun ES's NumberFieldMapper names in "Value [x] is out of range for <noun>". */
const INT_RANGES: Record<string, [number, number, string]> = {
  long: [-9223372036854775808, 9223372036854775807, 'a long'],
  integer: [-2147483648, 2147483647, 'an integer'],
  short: [-32768, 32767, 'a short'],
  byte: [-128, 127, 'a byte'],
  unsigned_long: [0, 18446744073709551615, 'unsigned long'],
};

/** IEEE half-precision rounding, as Lucene HalfFloatPoint stores `half_float` values. */
export function toHalfFloat(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const sign = v < 0 ? -1 : 1;
  const a = Math.abs(v);
  if (a >= 65520) return sign * Infinity;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const step = 2 ** (e - 10);
  // Round half to even on the 10-bit mantissa grid.
  const q = a / step;
  let r = Math.round(q);
  if (Math.abs(q - Math.trunc(q) - 0.5) < 1e-12 && r % 2 === 1) r -= 1;
  return sign * r * step;
}

function numberFormatError(text: string): EsError {
  return new IllegalArgumentError(`For input string: "${previewInput(text)}"`);
}

function parseNumeric(field: ResolvedField, value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    if (!field.coerce) throw new IllegalArgumentError(`[coerce] is false, string values are not accepted for field [${field.path}]`);
    const t = value.trim();
    n = t === '' ? NaN : Number(t);
    if (Number.isNaN(n)) throw numberFormatError(value);
  } else if (typeof value === 'boolean') {
    throw new IllegalArgumentError(`Current token (VALUE_${value ? 'TRUE' : 'FALSE'}) not numeric, can not use numeric value accessors`);
  } else {
    throw new IllegalArgumentError(`Current token (START_${Array.isArray(value) ? 'ARRAY' : 'OBJECT'}) not numeric, can not use numeric value accessors`);
  }
  const range = INT_RANGES[field.type];
  if (range) {
    if (!Number.isFinite(n)) throw numberFormatError(String(value));
    if (!Number.isInteger(n)) {
      if (!field.coerce) throw new IllegalArgumentError(`Value [${String(value)}] has a decimal part`);
      n = Math.trunc(n); // ES coerces fractional values into integer types by truncation
    }
    if (n < range[0] || n > range[1]) throw new IllegalArgumentError(`Value [${String(value)}] is out of range for ${range[2]}`);
    return n;
  }
  if (!Number.isFinite(n)) throw new IllegalArgumentError(`[${field.type}] supports only finite values, but got [${String(value)}]`);
  return toValueSpace(field, n);
}

/**
 * A number as the field stores it: float32, half-float, or scaled_float's long over its scaling
 * factor (ES stores Math.round(value * scaling_factor) and divides on read). Index time and query
 * time both go through here, so a term query finds exactly the values that were indexed.
 */
export function toValueSpace(field: ResolvedField, n: number): number {
  switch (field.type) {
    case 'float':
      return Math.fround(n);
    case 'half_float':
      return toHalfFloat(n);
    case 'scaled_float':
      return Math.round(n * field.scalingFactor) / field.scalingFactor;
    default:
      return n;
  }
}

function parseBooleanValue(value: unknown): number {
  if (value === true || value === 'true') return 1;
  if (value === false || value === 'false' || value === '') return 0;
  throw new IllegalArgumentError(`Failed to parse value [${String(value)}] as only [true] or [false] are allowed.`);
}

function parseDateValue(field: ResolvedField, value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new IllegalArgumentError(`failed to parse date field [${value}] with format [${field.format}]`);
    // A JSON number is read as epoch millis whatever the format (ES parses its text with the format;
    // the default includes epoch_millis, and that is by far the common case).
    return Math.trunc(value);
  }
  if (typeof value !== 'string') throw new IllegalArgumentError(`failed to parse date field [${previewInput(JSON.stringify(value) ?? String(value))}] with format [${field.format}]`);
  const format = compiledFormat(field.format);
  try {
    return format.parse(value);
  } catch (e) {
    if (!(e instanceof DateParseError)) throw e;
    // ES JavaDateFormatter: caused by java.time's DateTimeParseException, "Failed to parse with all
    // enclosed parsers" when the format has alternatives (`a||b`); a single pattern's message names
    // the index where it failed, which the parser here does not report (0).
    const cause = value === '' ? new IllegalArgumentError(e.message)
      : new DateTimeParseError(format.alternatives.length > 1 ? 'Failed to parse with all enclosed parsers' : `Text '${value}' could not be parsed at index 0`);
    throw new IllegalArgumentError(`failed to parse date field [${value}] with format [${field.format}]`, cause);
  }
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new IllegalArgumentError(`Can't get text on a START_${Array.isArray(value) ? 'ARRAY' : 'OBJECT'}`);
}

/** Converts one scalar value for `field`; throws IllegalArgumentError (the `caused_by`) when invalid. */
export function toIndexableValue(field: ResolvedField, value: unknown): IndexableValue | undefined {
  switch (field.type) {
    case 'text':
    case 'search_as_you_type':
      return toText(value);
    case 'keyword': {
      const s = toText(value);
      return s.length > field.ignoreAbove ? undefined : s;
    }
    case 'boolean':
      return parseBooleanValue(value);
    case 'completion':
      // A completion multi-field of a text or keyword field: the parent's value is one input.
      return completionValue(field, toText(value), 1) ?? undefined;
    case 'date':
      return parseDateValue(field, value);
    default:
      return parseNumeric(field, value);
  }
}

/** A short preview of a value as ES prints it (`Preview of field's value: '...'`). */
export function previewValue(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    const s = Array.isArray(value)
      ? `[${value.map(previewValue).join(', ')}]`
      : `{${Object.entries(value).map(([k, v]) => `${k}=${previewValue(v)}`).join(', ')}}`;
    return s.length > 80 ? s.slice(0, 80) : s;
  }
  const s = String(value);
  return s.length > 80 ? s.slice(0, 80) : s;
}
