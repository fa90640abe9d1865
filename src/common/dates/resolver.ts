/**
 * Parsed fields -> epoch milliseconds, as java.time's STRICT resolver followed by ES's
 * DateFormatters.from: invalid values (month 13, February 30th, hour 24, a day of week that does
 * not match the date) are rejected; missing parts default to the start of the period: a month
 * without a year is in 1970, a time without a date is on 1970-01-01. With `roundUp` (the `lte`/`gt`
 * side of a range) missing time parts take ES's round-up defaults instead: 23:59:59.999.
 */
import {
  MILLIS_PER_DAY, MILLIS_PER_HOUR, MILLIS_PER_MINUTE, MILLIS_PER_SECOND,
  dayOfWeek, daysInMonth, epochDay, isLeapYear, isoWeekOneStart, isoWeeksInYear,
} from './calendar.js';
import { F } from './elements.js';
import type { ParseState } from './parser.js';
import type { TimeZone } from './time-zone.js';
import { findTimeZone, localToUtc } from './time-zone.js';

/** Epoch millis for the parsed fields, NaN if they do not make a valid instant. */
export function resolveFields(state: ParseState, zone: TimeZone, roundUp: boolean): number {
  const f = state.fields;
  let day = resolveEpochDay(f);
  if (day !== day) return NaN;
  if (day === NO_DATE) {
    if (!hasHour(f)) return NaN; // nothing that makes an instant ("cannot be converted to zoned date time")
    day = 0;
  }
  const timeOfDay = resolveMillisOfDay(f, roundUp);
  if (timeOfDay !== timeOfDay) return NaN;
  const local = day * MILLIS_PER_DAY + timeOfDay;
  // A zone in the text wins over the `time_zone` parameter.
  const offsetSeconds = f[F.OFFSET_SECONDS];
  let utc: number;
  if (offsetSeconds === offsetSeconds) utc = local - offsetSeconds * MILLIS_PER_SECOND;
  else if (state.zoneId !== undefined) utc = localToUtc(findTimeZone(state.zoneId) as TimeZone, local);
  else utc = localToUtc(zone, local);
  return Number.isSafeInteger(utc) ? utc : NaN;
}

const NO_DATE = Infinity;

/** Epoch day of the parsed date, NO_DATE when no date field was parsed, NaN when invalid. */
function resolveEpochDay(f: Float64Array): number {
  let year = f[F.YEAR];
  const yearOfEra = f[F.YEAR_OF_ERA];
  if (yearOfEra === yearOfEra) {
    if (yearOfEra < 1) return NaN;
    const fromEra = f[F.ERA] === 0 ? 1 - yearOfEra : yearOfEra; // 1 BC is year 0
    if (year === year && year !== fromEra) return NaN;
    year = fromEra;
  }
  const month = f[F.MONTH];
  let day: number;
  if (year === year || month === month) {
    if (year !== year) year = 1970;
    if (month === month) {
      const dayOfMonth = f[F.DAY] === f[F.DAY] ? f[F.DAY] : 1;
      if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month)) return NaN;
      day = epochDay(year, month, dayOfMonth);
    } else {
      const dayOfYear = f[F.DAY_OF_YEAR] === f[F.DAY_OF_YEAR] ? f[F.DAY_OF_YEAR] : 1;
      if (dayOfYear < 1 || dayOfYear > (isLeapYear(year) ? 366 : 365)) return NaN;
      day = epochDay(year, 1, 1) + dayOfYear - 1;
    }
    const dow = f[F.DAY_OF_WEEK];
    return dow === dow && dow !== dayOfWeek(day) ? NaN : day;
  }
  const weekYear = f[F.WEEK_YEAR];
  if (weekYear !== weekYear) return NO_DATE;
  const week = f[F.WEEK] === f[F.WEEK] ? f[F.WEEK] : 1;
  const dow = f[F.DAY_OF_WEEK] === f[F.DAY_OF_WEEK] ? f[F.DAY_OF_WEEK] : 1;
  if (week < 1 || week > isoWeeksInYear(weekYear) || dow < 1 || dow > 7) return NaN;
  return isoWeekOneStart(weekYear) + (week - 1) * 7 + dow - 1;
}

function hasHour(f: Float64Array): boolean {
  const hours = [f[F.HOUR], f[F.CLOCK_HOUR_OF_AMPM], f[F.HOUR_OF_AMPM], f[F.CLOCK_HOUR_OF_DAY]];
  return hours.some((hour) => hour === hour);
}

/** Milliseconds into the day, NaN when a field is out of range. */
function resolveMillisOfDay(f: Float64Array, roundUp: boolean): number {
  let hour = f[F.HOUR];
  const ampm = f[F.AMPM];
  if (hour === hour) {
    if (ampm === ampm && ampm !== (hour >= 12 ? 1 : 0)) return NaN;
  } else {
    // 'h'/'K' without an 'a' read as AM (java.time would leave the hour unresolved and ES drop it).
    const pm = ampm === 1 ? 12 : 0;
    const k = f[F.CLOCK_HOUR_OF_DAY];
    const h = f[F.CLOCK_HOUR_OF_AMPM];
    const kk = f[F.HOUR_OF_AMPM];
    if (k === k) hour = k >= 1 && k <= 24 ? k % 24 : NaN;
    else if (h === h) hour = h >= 1 && h <= 12 ? (h % 12) + pm : NaN;
    else if (kk === kk) hour = kk >= 0 && kk <= 11 ? kk + pm : NaN;
    else hour = roundUp ? 23 : 0;
  }
  const minute = orDefault(f[F.MINUTE], roundUp ? 59 : 0);
  const second = orDefault(f[F.SECOND], roundUp ? 59 : 0);
  const nano = f[F.NANO];
  const millis = nano === nano ? Math.floor(nano / 1e6) : roundUp ? 999 : 0;
  if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && millis >= 0 && millis <= 999)) {
    return NaN;
  }
  return hour * MILLIS_PER_HOUR + minute * MILLIS_PER_MINUTE + second * MILLIS_PER_SECOND + millis;
}

function orDefault(v: number, fallback: number): number {
  return v === v ? v : fallback;
}
