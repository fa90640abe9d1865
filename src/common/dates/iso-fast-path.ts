/**
 * A hand-written parser for the everyday shapes of `strict_date_optional_time` (the default
 * format), after ES's Iso8601Parser: fixed positions, char codes, no allocation.
 * yyyy, yyyy-MM, yyyy-MM-dd, then 'T' and HH, HH:mm, HH:mm:ss, HH:mm:ss.S to 9 digits ('.' or ','),
 * then Z or ±HH, ±HHmm, ±HH:mm, ±HH:mm:ss. It returns NaN for anything else, valid or not, and
 * the caller falls back to the element parser, which stays the reference; so this only has to be
 * right for what it accepts (negative or 5+ digit years and zone names take the slow path).
 */
import { MILLIS_PER_HOUR, MILLIS_PER_MINUTE, MILLIS_PER_SECOND, MILLIS_PER_DAY, daysInMonth, epochDay } from './calendar.js';
import { twoDigits } from './parser.js';
import type { TimeZone } from './time-zone.js';
import { localToUtc } from './time-zone.js';

const DASH = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const DOT = 0x2e;
const COMMA = 0x2c;
const T = 0x54;
const Z = 0x5a;
const ZERO = 0x30;

/** Epoch millis, or NaN: "not handled here". `roundUp` fills missing parts with 23:59:59.999. */
export function parseIsoFast(s: string, zone: TimeZone, roundUp: boolean): number {
  const len = s.length;
  const hi = twoDigits(s, 0);
  const lo = twoDigits(s, 2);
  if (hi < 0 || lo < 0) return NaN;
  const year = hi * 100 + lo;
  let month = 1;
  let day = 1;
  let hour = roundUp ? 23 : 0;
  let minute = roundUp ? 59 : 0;
  let second = minute;
  let millis = roundUp ? 999 : 0;
  let offset = NaN; // ms, when the text has a zone
  fields: {
    if (len === 4) break fields;
    if (s.charCodeAt(4) !== DASH) return NaN;
    month = twoDigits(s, 5);
    if (month < 1 || month > 12) return NaN;
    if (len === 7) break fields;
    if (s.charCodeAt(7) !== DASH) return NaN;
    day = twoDigits(s, 8);
    if (day < 1 || day > daysInMonth(year, month)) return NaN;
    if (len === 10) break fields;
    if (s.charCodeAt(10) !== T) return NaN;
    if (len === 11) break fields; // "2024-01-01T" is valid: everything after the T is optional
    hour = twoDigits(s, 11);
    if (hour < 0 || hour > 23) return NaN;
    let pos = 13;
    if (pos < len && s.charCodeAt(pos) === COLON) {
      minute = twoDigits(s, 14);
      if (minute < 0 || minute > 59) return NaN;
      pos = 16;
      if (pos < len && s.charCodeAt(pos) === COLON) {
        second = twoDigits(s, 17);
        if (second < 0 || second > 59) return NaN;
        pos = 19;
        const separator = s.charCodeAt(pos);
        if (separator === DOT || separator === COMMA) {
          // 1-9 digits; keep milliseconds, truncate the rest.
          const start = ++pos;
          millis = 0;
          for (let d = s.charCodeAt(pos) - ZERO; d >= 0 && d <= 9 && pos - start < 9; d = s.charCodeAt(++pos) - ZERO) {
            if (pos - start < 3) millis = millis * 10 + d;
          }
          if (pos === start) return NaN;
          if (pos - start < 3) millis *= pos - start === 1 ? 100 : 10;
        }
      }
    }
    if (pos === len) break fields;
    offset = parseOffset(s, pos);
    if (offset !== offset) return NaN;
  }
  const local = epochDay(year, month, day) * MILLIS_PER_DAY + hour * MILLIS_PER_HOUR + minute * MILLIS_PER_MINUTE
    + second * MILLIS_PER_SECOND + millis;
  return offset === offset ? local - offset : localToUtc(zone, local);
}

/** "Z" or ±HH, ±HHmm, ±HH:mm, ±HHmmss, ±HH:mm:ss running to the end, in ms; NaN otherwise. */
function parseOffset(s: string, pos: number): number {
  const len = s.length;
  const sign = s.charCodeAt(pos);
  if (sign === Z) return pos + 1 === len ? 0 : NaN;
  if (sign !== PLUS && sign !== DASH) return NaN;
  const hours = twoDigits(s, pos + 1);
  let minutes = 0;
  let seconds = 0;
  let p = pos + 3;
  if (p < len) {
    const colon = s.charCodeAt(p) === COLON;
    if (colon) p++;
    minutes = twoDigits(s, p);
    p += 2;
    if (p < len) {
      if ((s.charCodeAt(p) === COLON) !== colon) return NaN;
      if (colon) p++;
      seconds = twoDigits(s, p);
      p += 2;
    }
  }
  const total = hours * 3600 + minutes * 60 + seconds;
  if (p !== len || hours < 0 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || total > 18 * 3600) return NaN;
  return (sign === DASH ? -total : total) * MILLIS_PER_SECOND;
}
