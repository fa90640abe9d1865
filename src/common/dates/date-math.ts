/**
 * ES date math (JavaDateMathParser; "date math" in the API conventions docs): `now` or
 * `<date>||`, then operations `+1d`, `-2h`, `/M`. Units: y M w d h H m s. Adding works on the
 * wall clock in `timeZone` for y M w d (so +1d across a DST change is 23 or 25 hours) and on the
 * timeline for h m s, as ZonedDateTime does; rounding floors to the unit in `timeZone`.
 *
 * `roundUp` is the range-query side: `gt` and `lte` round up to the unit's last millisecond
 * (2024-03-15||/M -> 2024-03-31T23:59:59.999Z) and fill a bare date's missing parts with ES's
 * round-up defaults (lte "2024-03-15" -> 2024-03-15T23:59:59.999Z); `gte` and `lt` round down.
 */
import {
  MILLIS_PER_DAY, MILLIS_PER_HOUR, MILLIS_PER_MINUTE, MILLIS_PER_SECOND,
  civilFromEpochDay, dayOfWeek, daysInMonth, epochDay,
} from './calendar.js';
import { DateParseError, dateTextPreview } from './errors.js';
import type { CompiledDateFormat } from './format.js';
import type { TimeZone } from './time-zone.js';
import { UTC, localToUtc, parseTimeZone } from './time-zone.js';

/** Evaluates `text` to epoch ms; `now` is passed in so callers (and tests) control the clock. */
export function parseDateMath(text: string, now: number, format: CompiledDateFormat, roundUp: boolean, timeZone?: string): number {
  let time: number;
  let math: string;
  if (text.startsWith('now')) {
    time = now;
    math = text.slice(3);
  } else {
    const index = text.indexOf('||');
    if (index === -1) return parseDateTime(text, format, timeZone, roundUp);
    time = parseDateTime(text.slice(0, index), format, timeZone, false);
    math = text.slice(index + 2);
  }
  return applyMath(math, time, roundUp, timeZone === undefined ? UTC : parseTimeZone(timeZone));
}

function parseDateTime(value: string, format: CompiledDateFormat, timeZone: string | undefined, roundUp: boolean): number {
  if (value.length === 0) throw new DateParseError('cannot parse empty datetime');
  try {
    return format.parse(value, timeZone, roundUp);
  } catch (e) {
    if (!(e instanceof DateParseError)) throw e;
    throw new DateParseError(`failed to parse date field [${dateTextPreview(value)}] with format [${format.spec}]: [${e.message}]`);
  }
}

function applyMath(math: string, time: number, roundUp: boolean, zone: TimeZone): number {
  let t = time;
  let i = 0;
  while (i < math.length) {
    const op = math[i++];
    if (op !== '/' && op !== '+' && op !== '-') throw new DateParseError(`operator not supported for date math [${math}]`);
    if (i >= math.length) throw new DateParseError(`truncated date math [${math}]`);
    let amount = 1;
    if (isDigit(math, i)) {
      const from = i;
      while (i < math.length && isDigit(math, i)) i++;
      if (i >= math.length) throw new DateParseError(`truncated date math [${math}]`);
      amount = Number(math.slice(from, i));
    }
    const unit = math[i++];
    if (op === '/') {
      if (amount !== 1) throw new DateParseError(`rounding \`/\` can only be used on single unit types [${math}]`);
      t = round(t, unit, zone, math);
      // Up: the start of the next unit, less a millisecond.
      if (roundUp) t = add(t, unit, 1, zone, math) - 1;
    } else {
      t = add(t, unit, op === '-' ? -amount : amount, zone, math);
    }
  }
  return t;
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

const civil = [0, 0, 0];

/** The start of `unit` holding `t`, on the wall clock of `zone` (weeks start on Monday). */
function round(t: number, unit: string, zone: TimeZone, math: string): number {
  const offset = zone.offsetAt(t);
  const local = t + offset;
  const day = Math.floor(local / MILLIS_PER_DAY);
  let start: number;
  switch (unit) {
    case 'y':
    case 'M':
      civilFromEpochDay(day, civil);
      start = epochDay(civil[0], unit === 'y' ? 1 : civil[1], 1) * MILLIS_PER_DAY;
      break;
    case 'w':
      start = (day - dayOfWeek(day) + 1) * MILLIS_PER_DAY;
      break;
    case 'd':
      start = day * MILLIS_PER_DAY;
      break;
    case 'h':
    case 'H':
      start = Math.floor(local / MILLIS_PER_HOUR) * MILLIS_PER_HOUR;
      break;
    case 'm':
      start = Math.floor(local / MILLIS_PER_MINUTE) * MILLIS_PER_MINUTE;
      break;
    case 's':
      start = Math.floor(local / MILLIS_PER_SECOND) * MILLIS_PER_SECOND;
      break;
    default:
      throw unsupportedUnit(unit, math);
  }
  return localToUtc(zone, start, offset);
}

function add(t: number, unit: string, amount: number, zone: TimeZone, math: string): number {
  switch (unit) {
    case 'y':
      return addMonths(t, amount * 12, zone);
    case 'M':
      return addMonths(t, amount, zone);
    case 'w':
      return addDays(t, amount * 7, zone);
    case 'd':
      return addDays(t, amount, zone);
    case 'h':
    case 'H':
      return t + amount * MILLIS_PER_HOUR;
    case 'm':
      return t + amount * MILLIS_PER_MINUTE;
    case 's':
      return t + amount * MILLIS_PER_SECOND;
    default:
      throw unsupportedUnit(unit, math);
  }
}

/**
 * The calendar units of a `date_histogram`'s `calendar_interval`, as date-math units: `y` year,
 * `q` quarter, `M` month, `w` week (from Monday), `d` day, `h` hour, `m` minute, `s` second.
 */
export type CalendarUnit = 'y' | 'q' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

/** The start of the calendar unit holding `t`, on the wall clock of `zone` (ES Rounding). */
export function roundToCalendarUnit(t: number, unit: CalendarUnit, zone: TimeZone): number {
  if (unit !== 'q') return round(t, unit, zone, unit);
  const month = round(t, 'M', zone, 'M');
  civilFromEpochDay(Math.floor((month + zone.offsetAt(month)) / MILLIS_PER_DAY), civil);
  return addMonths(month, -((civil[1] - 1) % 3), zone);
}

/** `t` moved by `amount` calendar units on the wall clock of `zone` (a month or a day in local time). */
export function addCalendarUnits(t: number, unit: CalendarUnit, amount: number, zone: TimeZone): number {
  return unit === 'q' ? addMonths(t, amount * 3, zone) : add(t, unit, amount, zone, unit);
}

function unsupportedUnit(unit: string, math: string): DateParseError {
  return new DateParseError(`unit [${unit}] not supported for date math [${math}]`);
}

/** Calendar months on the wall clock; the day is clamped to the month's end (Jan 31 + 1M = Feb 29). */
function addMonths(t: number, months: number, zone: TimeZone): number {
  const offset = zone.offsetAt(t);
  const local = t + offset;
  const day = Math.floor(local / MILLIS_PER_DAY);
  civilFromEpochDay(day, civil);
  const index = civil[0] * 12 + civil[1] - 1 + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const newDay = epochDay(year, month, Math.min(civil[2], daysInMonth(year, month)));
  return localToUtc(zone, newDay * MILLIS_PER_DAY + (local - day * MILLIS_PER_DAY), offset);
}

function addDays(t: number, days: number, zone: TimeZone): number {
  const offset = zone.offsetAt(t);
  return localToUtc(zone, t + offset + days * MILLIS_PER_DAY, offset);
}
