/**
 * Proleptic Gregorian calendar arithmetic on epoch days (days since 1970-01-01), the calendar of
 * java.time's IsoChronology. Integer math only, no `Date`: years beyond `Date`'s range work as long
 * as the epoch milliseconds stay safe integers.
 */

export const MILLIS_PER_SECOND = 1000;
export const MILLIS_PER_MINUTE = 60_000;
export const MILLIS_PER_HOUR = 3_600_000;
export const MILLIS_PER_DAY = 86_400_000;

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month];
}

/** Days from 1970-01-01 to year-month-day (Howard Hinnant's `days_from_civil`). */
export function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of `epochDay`: writes year, month, day into `out[0..2]` (no allocation). */
export function civilFromEpochDay(days: number, out: number[]): void {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  out[1] = month;
  out[2] = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
}

/** ISO day of week, Monday = 1 ... Sunday = 7 (1970-01-01 was a Thursday). */
export function dayOfWeek(epochDay: number): number {
  return ((((epochDay + 3) % 7) + 7) % 7) + 1;
}

/** Epoch day of the Monday that starts ISO week 1 of `weekYear`: the week holding January 4th. */
export function isoWeekOneStart(weekYear: number): number {
  const jan4 = epochDay(weekYear, 1, 4);
  return jan4 - dayOfWeek(jan4) + 1;
}

/** 52 or 53. */
export function isoWeeksInYear(weekYear: number): number {
  return (isoWeekOneStart(weekYear + 1) - isoWeekOneStart(weekYear)) / 7;
}

/** ISO week-based year and week of `day` (whose calendar year is `year`), into `out[0..1]`. */
export function isoWeekFields(day: number, year: number, out: number[]): void {
  let weekYear = year;
  let start = isoWeekOneStart(year);
  if (day < start) {
    weekYear--;
    start = isoWeekOneStart(weekYear);
  } else {
    const next = isoWeekOneStart(year + 1);
    if (day >= next) {
      weekYear++;
      start = next;
    }
  }
  out[0] = weekYear;
  out[1] = Math.floor((day - start) / 7) + 1;
}
