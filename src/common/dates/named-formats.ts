/**
 * ES's built-in formats (DateFormatters.forPattern; the "mapping-date-format" docs page), each a
 * printer and the parsers tried in order, transcribed from DateFormatters.java. `strict_` variants
 * want 4-digit years and 2-digit fields; the others accept 1-digit fields. Formats with a zone
 * accept it as an offset or zone id ("+01:00", "Z", "Europe/Paris") or as "+0100"/"+01".
 * epoch_millis and epoch_second live in epoch.ts.
 */
import type { Element } from './elements.js';
import { F, ZONE_ID, fraction, literal, offset, optional, value } from './elements.js';
import { compilePattern } from './pattern.js';

export interface NamedFormat {
  readonly printer: readonly Element[];
  readonly parsers: readonly (readonly Element[])[];
}

const lit = literal;
const opt = optional;

// Strict pieces: 4+ digit years ('+' beyond 4, as SignStyle.EXCEEDS_PAD), 2-digit fields.
const YEAR = value(F.YEAR, 4, 10, 'exceedsPad');
const MONTH = value(F.MONTH, 2);
const DAY = value(F.DAY, 2);
const HOUR = value(F.HOUR, 2);
const MINUTE = value(F.MINUTE, 2);
const SECOND = value(F.SECOND, 2);
const DAY_OF_YEAR = value(F.DAY_OF_YEAR, 3);
const WEEK_YEAR = value(F.WEEK_YEAR, 4, 10, 'exceedsPad');
const WEEK = value(F.WEEK, 2);
const WEEK_DAY = value(F.DAY_OF_WEEK, 1);
const YMD: Element[] = [YEAR, lit('-'), MONTH, lit('-'), DAY];
const HMS: Element[] = [HOUR, lit(':'), MINUTE, lit(':'), SECOND];
const WEEK_DATE: Element[] = [WEEK_YEAR, lit('-W'), WEEK, lit('-'), WEEK_DAY];
const BASIC_YMD: Element[] = [value(F.YEAR, 4, 4, 'normal'), MONTH, DAY];
const BASIC_HMS: Element[] = [HOUR, MINUTE, SECOND];
const BASIC_ORDINAL: Element[] = compilePattern('yyyyDDD');
const BASIC_WEEK_DATE: Element[] = [value(F.WEEK_YEAR, 4), lit('W'), value(F.WEEK, 1, 2), value(F.DAY_OF_WEEK, 1, 19, 'normal')];

// Lenient pieces (DATE_FORMATTER, HOUR_MINUTE_FORMATTER...): 1-9 digit years, 1-2 digit fields.
const L_DATE: Element[] = [value(F.YEAR, 1, 9, 'normal'), opt(lit('-'), value(F.MONTH, 1, 2), opt(lit('-'), value(F.DAY, 1, 2)))];
const L_HOUR = value(F.HOUR, 1, 2);
const L_HM: Element[] = [L_HOUR, lit(':'), value(F.MINUTE, 1, 2)];
const L_SECOND = value(F.SECOND, 1, 2);
const L_HMS: Element[] = [...L_HM, lit(':'), L_SECOND];
const L_ORDINAL: Element[] = [YEAR, lit('-'), value(F.DAY_OF_YEAR, 1, 3)];
const L_WEEK_DATE: Element[] = [WEEK_YEAR, lit('-W'), value(F.WEEK, 1, 2), lit('-'), WEEK_DAY];

const FRACTION = fraction(1, 9); // '.' and 1-9 digits
const MILLIS = fraction(1, 3);
const COMMA_FRACTION: Element[] = [lit(','), fraction(1, 9, false)];
const PRINT_MILLIS = fraction(3, 3);
const PRINT_OFFSET = offset('+HH:MM', 'Z');
const NO_COLON_OFFSET = offset('+HHmm', 'Z'); // TIME_ZONE_FORMATTER_NO_COLON

/** `base` then a zone, in the two spellings ES's zoned formats try: zone-or-offset id, then +HHmm. */
function zoned(...base: Element[]): Element[][] {
  return [[...base, ZONE_ID], [...base, NO_COLON_OFFSET]];
}

/** ISO date-time printer: "2024-01-01T00:00:00.000Z" (STRICT_DATE_OPTIONAL_TIME_PRINTER, rendering UTC). */
const ISO_PRINTER: Element[] = [...YMD, lit('T'), ...HMS, PRINT_MILLIS, PRINT_OFFSET];

const formats = new Map<string, NamedFormat>();

function define(name: string, printer: readonly Element[], ...parsers: (readonly Element[])[]): void {
  formats.set(name, { printer, parsers: parsers.length > 0 ? parsers : [printer] });
}

/** A format and its strict_ companion: `strictParsers` defaults to the printer. */
function pair(name: string, printer: readonly Element[], lenient: (readonly Element[])[], strict: (readonly Element[])[] = [printer]): void {
  define(name, printer, ...lenient);
  define(`strict_${name}`, printer, ...strict);
}

// The generic ISO parsers: date required, then optional time; the zone follows the hour.
define('strict_date_optional_time', ISO_PRINTER, [
  YEAR, opt(lit('-'), MONTH, opt(lit('-'), DAY)),
  opt(lit('T'), opt(HOUR, opt(lit(':'), MINUTE, opt(lit(':'), SECOND, opt(FRACTION), opt(...COMMA_FRACTION))), opt(ZONE_ID), opt(NO_COLON_OFFSET))),
]);
// The lenient one wants minutes before a fraction or zone.
define('date_optional_time', ISO_PRINTER, [
  ...L_DATE,
  opt(lit('T'), opt(L_HOUR, opt(lit(':'), value(F.MINUTE, 1, 2), opt(lit(':'), L_SECOND), opt(FRACTION), opt(...COMMA_FRACTION), opt(ZONE_ID), opt(NO_COLON_OFFSET)))),
]);
define('iso8601', ISO_PRINTER, [
  YEAR, opt(lit('-'), MONTH, opt(lit('-'), DAY)),
  opt(lit('T'), opt(HOUR, opt(lit(':'), MINUTE, opt(lit(':'), SECOND, opt(FRACTION), opt(...COMMA_FRACTION)))), opt(ZONE_ID), opt(NO_COLON_OFFSET)),
]);
// With a time, seconds are required; the printer keeps up to 9 fraction digits (3 here: millis).
define('strict_date_optional_time_nanos', [...YMD, lit('T'), ...HMS, fraction(3, 9), PRINT_OFFSET], [
  YEAR, opt(lit('-'), MONTH, opt(lit('-'), DAY)),
  opt(lit('T'), ...HMS, opt(FRACTION), opt(...COMMA_FRACTION), opt(ZONE_ID), opt(NO_COLON_OFFSET)),
]);

// basic_*: no separators (yyyyMMdd'T'HHmmss.SSSZ).
define('basic_date', BASIC_YMD);
define('basic_date_time', [...BASIC_YMD, lit('T'), ...BASIC_HMS, PRINT_MILLIS, PRINT_OFFSET], ...zoned(...BASIC_YMD, lit('T'), ...BASIC_HMS, FRACTION));
define('basic_date_time_no_millis', [...BASIC_YMD, lit('T'), ...BASIC_HMS, PRINT_OFFSET], ...zoned(...BASIC_YMD, lit('T'), ...BASIC_HMS));
define('basic_ordinal_date', BASIC_ORDINAL);
define('basic_ordinal_date_time', [...BASIC_ORDINAL, lit('T'), ...BASIC_HMS, PRINT_MILLIS, PRINT_OFFSET], ...zoned(...BASIC_ORDINAL, lit('T'), ...BASIC_HMS, FRACTION));
define('basic_ordinal_date_time_no_millis', [...BASIC_ORDINAL, lit('T'), ...BASIC_HMS, PRINT_OFFSET], ...zoned(...BASIC_ORDINAL, lit('T'), ...BASIC_HMS));
define('basic_time', [...BASIC_HMS, PRINT_MILLIS, PRINT_OFFSET], ...zoned(...BASIC_HMS, FRACTION));
define('basic_time_no_millis', [...BASIC_HMS, PRINT_OFFSET], ...zoned(...BASIC_HMS));
define('basic_t_time', [lit('T'), ...BASIC_HMS, PRINT_MILLIS, PRINT_OFFSET], ...zoned(lit('T'), ...BASIC_HMS, FRACTION));
define('basic_t_time_no_millis', [lit('T'), ...BASIC_HMS, PRINT_OFFSET], ...zoned(lit('T'), ...BASIC_HMS));
const BASIC_WEEK_PRINTER: Element[] = [value(F.WEEK_YEAR, 4), lit('W'), WEEK, value(F.DAY_OF_WEEK, 1, 19, 'normal')];
const LENIENT_BASIC_WEEK: Element[] = [value(F.WEEK_YEAR, 1, 19, 'normal'), lit('W'), value(F.WEEK, 1, 2), value(F.DAY_OF_WEEK, 1, 19, 'normal')];
pair('basic_week_date', BASIC_WEEK_PRINTER, [LENIENT_BASIC_WEEK], [BASIC_WEEK_DATE]);
pair('basic_week_date_time', [...BASIC_WEEK_PRINTER, lit('T'), ...BASIC_HMS, PRINT_MILLIS, offset('+HHmm', 'Z')],
  zoned(...LENIENT_BASIC_WEEK, lit('T'), ...BASIC_HMS, FRACTION), zoned(...BASIC_WEEK_DATE, lit('T'), ...BASIC_HMS, FRACTION));
pair('basic_week_date_time_no_millis', [...BASIC_WEEK_PRINTER, lit('T'), ...BASIC_HMS, offset('+HHmm', 'Z')],
  zoned(...LENIENT_BASIC_WEEK, lit('T'), ...BASIC_HMS), zoned(...BASIC_WEEK_DATE, lit('T'), ...BASIC_HMS));

// Dates and date-times with separators.
pair('date', YMD, [L_DATE]);
pair('date_hour', compilePattern("uuuu-MM-dd'T'HH"), [[...L_DATE, lit('T'), L_HOUR]]);
pair('date_hour_minute', compilePattern("uuuu-MM-dd'T'HH:mm"), [[...L_DATE, lit('T'), ...L_HM]]);
pair('date_hour_minute_second', compilePattern("uuuu-MM-dd'T'HH:mm:ss"), [[...L_DATE, lit('T'), ...L_HMS]]);
pair('date_hour_minute_second_fraction', [...YMD, lit('T'), ...HMS, PRINT_MILLIS],
  [[...L_DATE, lit('T'), ...L_HMS, FRACTION]], [[...YMD, lit('T'), ...HMS, FRACTION]]);
pair('date_hour_minute_second_millis', [...YMD, lit('T'), ...HMS, PRINT_MILLIS],
  [[...L_DATE, lit('T'), ...L_HMS, MILLIS]], [[...YMD, lit('T'), ...HMS, MILLIS]]);
// The lenient date_time wants a fraction whenever seconds are given (DATE_TIME_FORMATTER).
const L_DATE_TIME: Element[] = [...L_DATE, lit('T'), ...L_HM, opt(lit(':'), L_SECOND, FRACTION)];
pair('date_time', ISO_PRINTER, [[...L_DATE_TIME, PRINT_OFFSET], [...L_DATE_TIME, NO_COLON_OFFSET]], zoned(...YMD, lit('T'), ...HMS, opt(FRACTION)));
const L_DATE_TIME_NO_MILLIS: Element[] = [...L_DATE, lit('T'), ...L_HM, opt(lit(':'), L_SECOND)];
pair('date_time_no_millis', [...YMD, lit('T'), ...HMS, ZONE_ID],
  [[...L_DATE_TIME_NO_MILLIS, PRINT_OFFSET], [...L_DATE_TIME_NO_MILLIS, NO_COLON_OFFSET], [...L_DATE_TIME_NO_MILLIS, opt(ZONE_ID)], [...L_DATE_TIME_NO_MILLIS, opt(NO_COLON_OFFSET)]],
  zoned(...YMD, lit('T'), ...HMS));

// Times; without a date they fall on 1970-01-01.
pair('hour', compilePattern('HH'), [[L_HOUR]]);
pair('hour_minute', compilePattern('HH:mm'), [L_HM]);
pair('hour_minute_second', HMS, [L_HMS]);
pair('hour_minute_second_fraction', [...HMS, PRINT_MILLIS], [[...L_HMS, FRACTION]], [[...HMS, FRACTION]]);
pair('hour_minute_second_millis', [...HMS, PRINT_MILLIS], [[...L_HMS, MILLIS]], [[...HMS, MILLIS]]);
pair('time', [...HMS, PRINT_MILLIS, PRINT_OFFSET], zoned(...L_HMS, FRACTION), zoned(...HMS, FRACTION));
pair('time_no_millis', [...HMS, PRINT_OFFSET], zoned(...L_HMS), zoned(...HMS));
pair('t_time', [lit('T'), ...HMS, PRINT_MILLIS, PRINT_OFFSET], zoned(lit('T'), ...L_HMS, FRACTION), zoned(lit('T'), ...HMS, FRACTION));
pair('t_time_no_millis', [lit('T'), ...HMS, PRINT_OFFSET], zoned(lit('T'), ...L_HMS), zoned(lit('T'), ...HMS));

// Ordinal dates: year and day of year.
pair('ordinal_date', [YEAR, lit('-'), DAY_OF_YEAR], [L_ORDINAL]);
pair('ordinal_date_time', [YEAR, lit('-'), DAY_OF_YEAR, lit('T'), ...HMS, PRINT_MILLIS, PRINT_OFFSET],
  zoned(...L_ORDINAL, lit('T'), ...L_HM, opt(lit(':'), L_SECOND, FRACTION)), zoned(YEAR, lit('-'), DAY_OF_YEAR, lit('T'), ...HMS, FRACTION));
pair('ordinal_date_time_no_millis', [YEAR, lit('-'), DAY_OF_YEAR, lit('T'), ...HMS, PRINT_OFFSET],
  zoned(...L_ORDINAL, lit('T'), ...L_HMS), zoned(YEAR, lit('-'), DAY_OF_YEAR, lit('T'), ...HMS));

// ISO week dates: week-based year, week, day of week (Monday = 1).
pair('week_date', WEEK_DATE, [L_WEEK_DATE]);
pair('week_date_time', [...WEEK_DATE, lit('T'), ...HMS, PRINT_MILLIS, PRINT_OFFSET],
  zoned(...L_WEEK_DATE, lit('T'), ...L_HMS, FRACTION), zoned(...WEEK_DATE, lit('T'), ...HMS, FRACTION));
pair('week_date_time_no_millis', [...WEEK_DATE, lit('T'), ...HMS, PRINT_OFFSET],
  zoned(...L_WEEK_DATE, lit('T'), ...L_HMS), zoned(...WEEK_DATE, lit('T'), ...HMS));
pair('weekyear', [WEEK_YEAR], [[value(F.WEEK_YEAR, 1, 19, 'normal')]]);
formats.set('week_year', formats.get('weekyear') as NamedFormat);
pair('weekyear_week', [WEEK_YEAR, lit('-W'), WEEK], [[value(F.WEEK_YEAR, 1, 19, 'normal'), lit('-W'), value(F.WEEK, 1, 19, 'normal')]]);
pair('weekyear_week_day', [WEEK_YEAR, lit('-W'), WEEK, lit('-'), value(F.DAY_OF_WEEK, 1, 19, 'normal')],
  [[value(F.WEEK_YEAR, 1, 19, 'normal'), lit('-W'), value(F.WEEK, 1, 19, 'normal'), lit('-'), value(F.DAY_OF_WEEK, 1, 19, 'normal')]]);

// Years and months.
pair('year', [YEAR], [[value(F.YEAR, 1, 19, 'normal')]]);
pair('year_month', [YEAR, lit('-'), MONTH], [[value(F.YEAR, 1, 19, 'normal'), lit('-'), value(F.MONTH, 1, 19, 'normal')]]);
pair('year_month_day', YMD, [[value(F.YEAR, 1, 19, 'normal'), lit('-'), value(F.MONTH, 1, 19, 'normal'), lit('-'), value(F.DAY, 1, 19, 'normal')]]);

export const NAMED_FORMATS: ReadonlyMap<string, NamedFormat> = formats;
