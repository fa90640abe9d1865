/**
 * The two ways date handling fails, with ES's messages. `common/` is a leaf (it may not import
 * `errors/`), so callers map these to ES error types: DateParseError is what ES reports as
 * `parse_exception` / `illegal_argument_exception` for a bad value, DateFormatError is a bad
 * `format` mapping parameter (`illegal_argument_exception` / `mapper_parsing_exception`).
 */

/** A date value, date math expression or time zone that cannot be parsed. */
export class DateParseError extends Error {
  override readonly name = 'DateParseError';
}

/** A `format` specification that cannot be compiled (unknown pattern letter, empty alternative...). */
export class DateFormatError extends Error {
  override readonly name = 'DateFormatError';
}
