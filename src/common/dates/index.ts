/**
 * Elasticsearch dates as pure functions: the `format` mapping parameter (built-in names such as
 * strict_date_optional_time, epoch_millis, and java.time-style custom patterns), parsing values
 * to epoch milliseconds, rendering `*_as_string` values, `time_zone` parameters and date math
 * (`now-1d/d`, `2024-01-01||+1M/d`). Follows ES's DateFormatters, JavaDateFormatter, EpochTime,
 * Iso8601Parser and JavaDateMathParser; error messages are ES's.
 *
 * Invariants:
 * - Instants are epoch milliseconds as JS numbers (UTC), always safe integers; precision below the
 *   millisecond is truncated (floored for negative epoch values), as ES's `date` type does.
 * - Parsing is strict like java.time's ResolverStyle.STRICT: February 30th, month 13 or hour 24
 *   are errors, never rolled over. Text without a zone is read in the given time zone (UTC).
 * - Rendering uses the first alternative of a format, in UTC unless a zone is given.
 * - Pure: no I/O and no clock (`now` is a parameter). Module-level caches (compiled formats,
 *   zones, offsets) are bounded; parse state is reused, which is safe because nothing here is
 *   asynchronous or re-entrant.
 *
 * Must not import: `node:` modules or any other folder of the project (`common/` is a leaf).
 */
export { DateFormatError, DateParseError } from './errors.js';
export type { CompiledDateFormat, DateFormat } from './format.js';
export { DEFAULT_DATE_FORMAT, parseDateFormat } from './format.js';
export { addCalendarUnits, parseDateMath, roundToCalendarUnit, type CalendarUnit } from './date-math.js';
export type { TimeZone } from './time-zone.js';
export { UTC, localToUtc, parseTimeZone } from './time-zone.js';
