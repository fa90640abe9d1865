/**
 * ES `time_zone` values, resolved as java.time's `ZoneId.of` does: "Z", offsets ("+01:00", "-0530",
 * "+1"), "UTC"/"GMT"/"UT" optionally followed by an offset, and region ids ("Europe/Paris").
 * Region offsets come from `Intl.DateTimeFormat` (the same tz database the JDK ships), cached per
 * hour. `localToUtc` maps a wall-clock time to an instant the way `ZonedDateTime.ofLocal` does.
 */
import { MILLIS_PER_DAY, MILLIS_PER_HOUR } from './calendar.js';
import { DateParseError } from './errors.js';

export interface TimeZone {
  /** As java.time names it: "Z", "+01:00", "UTC", "Europe/Paris". */
  readonly id: string;
  /** The offset in ms when it never changes, NaN for region zones. */
  readonly fixedOffsetMillis: number;
  /** Offset from UTC in ms in force at the instant `utcMillis`. */
  offsetAt(utcMillis: number): number;
}

export const UTC: TimeZone = fixedZone('Z', 0);

const MAX_OFFSET_SECONDS = 18 * 3600; // ZoneOffset's range
const zones = new Map<string, TimeZone | string>(); // id -> zone, or the error message

/** The zone named by an ES `time_zone` parameter; throws DateParseError with java.time's message. */
export function parseTimeZone(id: string): TimeZone {
  const zone = lookup(id);
  if (typeof zone === 'string') throw new DateParseError(zone);
  return zone;
}

/** Like parseTimeZone, but undefined for an unknown or malformed id (zone ids inside date text). */
export function findTimeZone(id: string): TimeZone | undefined {
  const zone = lookup(id);
  return typeof zone === 'string' ? undefined : zone;
}

function lookup(id: string): TimeZone | string {
  let zone = zones.get(id);
  if (zone === undefined) {
    zone = resolve(id);
    if (zones.size >= 1024) zones.clear(); // ids come from requests: keep the cache bounded
    zones.set(id, zone);
  }
  return zone;
}

function resolve(id: string): TimeZone | string {
  if (id === 'Z') return UTC;
  const first = id.charCodeAt(0);
  if (first === PLUS || first === MINUS) {
    const seconds = parseOffsetId(id, 0);
    if (seconds === undefined) return `Invalid ID for ZoneOffset, invalid format: ${id}`;
    return seconds !== seconds ? OFFSET_RANGE : fixedZone(offsetId(seconds), seconds * 1000);
  }
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (!id.startsWith(prefix)) continue;
    if (id.length === prefix.length) return fixedZone(id, 0);
    const seconds = parseOffsetId(id, prefix.length);
    if (seconds === undefined) break; // e.g. "UTCX": let the region lookup report it
    return seconds !== seconds ? OFFSET_RANGE : fixedZone(id, seconds * 1000);
  }
  if (!/^[A-Za-z][A-Za-z0-9~/._+-]+$/.test(id)) return `Invalid ID for region-based ZoneId, invalid format: ${id}`;
  return regionZone(id) ?? `Unknown time-zone ID: ${id}`;
}

const OFFSET_RANGE = 'Zone offset not in valid range: -18:00 to +18:00';

/**
 * ZoneOffset.of syntax from `start`: ±h, ±hh, ±hh:mm, ±hhmm, ±hh:mm:ss, ±hhmmss. Seconds, NaN when
 * out of range, undefined when malformed.
 */
function parseOffsetId(id: string, start: number): number | undefined {
  const sign = id.charCodeAt(start);
  if (sign !== PLUS && sign !== MINUS) return undefined;
  const p = start + 1;
  let hours: number;
  let minutes = 0;
  let seconds = 0;
  switch (id.length - p) {
    case 1:
      hours = digit(id, p);
      break;
    case 2:
      hours = twoDigits(id, p);
      break;
    case 4:
      hours = twoDigits(id, p);
      minutes = twoDigits(id, p + 2);
      break;
    case 5:
      hours = twoDigits(id, p);
      minutes = id.charCodeAt(p + 2) === COLON ? twoDigits(id, p + 3) : -1;
      break;
    case 6:
      hours = twoDigits(id, p);
      minutes = twoDigits(id, p + 2);
      seconds = twoDigits(id, p + 4);
      break;
    case 8:
      hours = twoDigits(id, p);
      minutes = id.charCodeAt(p + 2) === COLON ? twoDigits(id, p + 3) : -1;
      seconds = id.charCodeAt(p + 5) === COLON ? twoDigits(id, p + 6) : -1;
      break;
    default:
      return undefined;
  }
  if (hours < 0 || minutes < 0 || seconds < 0) return undefined;
  const total = hours * 3600 + minutes * 60 + seconds;
  if (minutes > 59 || seconds > 59 || total > MAX_OFFSET_SECONDS) return NaN;
  return sign === MINUS ? -total : total;
}

/** ZoneOffset.getId(): "Z", "+01:00", "-05:30", "+01:00:30". */
function offsetId(seconds: number): string {
  if (seconds === 0) return 'Z';
  const abs = Math.abs(seconds);
  const hms = `${pad2(Math.floor(abs / 3600))}:${pad2(Math.floor(abs / 60) % 60)}`;
  return (seconds < 0 ? '-' : '+') + hms + (abs % 60 === 0 ? '' : `:${pad2(abs % 60)}`);
}

function fixedZone(id: string, offsetMillis: number): TimeZone {
  return { id, fixedOffsetMillis: offsetMillis, offsetAt: () => offsetMillis };
}

function regionZone(id: string): TimeZone | undefined {
  let intl: Intl.DateTimeFormat;
  try {
    intl = new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'longOffset', year: 'numeric' });
  } catch {
    return undefined;
  }
  // Intl ignores case; ZoneId.of does not ("europe/paris" is unknown to ES). Aliases resolve to
  // another name ("EST" -> "America/Panama") and are fine.
  const resolved = intl.resolvedOptions().timeZone;
  if (resolved !== id && resolved.toLowerCase() === id.toLowerCase()) return undefined;
  // Offsets per UTC hour; an hour holding a transition is never cached.
  const byHour = new Map<number, number>();
  return {
    id,
    fixedOffsetMillis: NaN,
    offsetAt(utcMillis: number): number {
      const hour = Math.floor(utcMillis / MILLIS_PER_HOUR);
      let offset = byHour.get(hour);
      if (offset === undefined) {
        offset = intlOffset(intl, hour * MILLIS_PER_HOUR);
        if (offset !== intlOffset(intl, hour * MILLIS_PER_HOUR + MILLIS_PER_HOUR - 1)) return intlOffset(intl, utcMillis);
        if (byHour.size >= 4096) byHour.clear();
        byHour.set(hour, offset);
      }
      return offset;
    },
  };
}

const MAX_DATE_MILLIS = 8.64e15; // Date's range; offsets beyond it are taken at its edge

/** Reads "GMT", "GMT+01:00" or "GMT-00:09:21" out of Intl's `longOffset` rendering. */
function intlOffset(intl: Intl.DateTimeFormat, utcMillis: number): number {
  const text = intl.format(Math.max(-MAX_DATE_MILLIS, Math.min(MAX_DATE_MILLIS, utcMillis)));
  const at = text.indexOf('GMT') + 3;
  if (at >= text.length) return 0;
  const sign = text.charCodeAt(at) === 0x2b ? 1 : -1; // '+', else '-' or U+2212
  const hours = twoDigits(text, at + 1);
  const minutes = twoDigits(text, at + 4);
  const seconds = text.length > at + 6 ? twoDigits(text, at + 7) : 0;
  return sign * ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/**
 * The instant at which `zone`'s wall clock reads `localMillis` (local time as if it were UTC),
 * following `ZonedDateTime.ofLocal`: keep `preferredOffset` when it is valid (date math keeps the
 * offset it started with), otherwise the earlier offset in an overlap, and in a gap move the time
 * forward by the gap's length, which both amount to using the offset in force before the transition.
 */
export function localToUtc(zone: TimeZone, localMillis: number, preferredOffset = NaN): number {
  const fixed = zone.fixedOffsetMillis;
  if (fixed === fixed) return localMillis - fixed;
  if (preferredOffset === preferredOffset && zone.offsetAt(localMillis - preferredOffset) === preferredOffset) {
    return localMillis - preferredOffset;
  }
  // Offsets are under 24h, so these instants lie before and after any transition near localMillis.
  const before = zone.offsetAt(localMillis - MILLIS_PER_DAY);
  const after = zone.offsetAt(localMillis + MILLIS_PER_DAY);
  if (before === after) return localMillis - before;
  const beforeValid = zone.offsetAt(localMillis - before) === before;
  const afterValid = zone.offsetAt(localMillis - after) === after;
  return beforeValid || !afterValid ? localMillis - before : localMillis - after;
}

const PLUS = 0x2b;
const MINUS = 0x2d;
const COLON = 0x3a;

function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

function twoDigits(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
