/**
 * The two ways date handling fails, with ES's messages. `common/` is a leaf (it may not import
 * `errors/`), so callers map these to ES error types: DateParseError is what ES reports as
 * `parse_exception` / `illegal_argument_exception` for a bad value, DateFormatError is a bad
 * `format` mapping parameter (`illegal_argument_exception` / `mapper_parsing_exception`).
 */

/**
 * The part of a client's date text a message quotes: the first 100 characters, then `...` (the
 * rule of errors/input-preview.ts, which this leaf cannot import), so that a megabyte-long "date"
 * is not copied into every error that wraps this one.
 */
export function dateTextPreview(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 100)}...`;
}

/** A date value, date math expression or time zone that cannot be parsed. */
export class DateParseError extends Error {
  override readonly name = 'DateParseError';
}

/** A `format` specification that cannot be compiled (unknown pattern letter, empty alternative...). */
export class DateFormatError extends Error {
  override readonly name = 'DateFormatError';
}
