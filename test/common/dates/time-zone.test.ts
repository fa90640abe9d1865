import { describe, expect, it } from 'vitest';
import { DateParseError, UTC, parseDateFormat, parseTimeZone } from '../../../src/common/dates/index.js';
import { localToUtc } from '../../../src/common/dates/time-zone.js';

const ms = (iso: string): number => Date.parse(iso);
const iso = (millis: number): string => new Date(millis).toISOString();
const HOUR = 3_600_000;

describe('time zone parameters', () => {
  it.each([
    ['Z', 'Z', 0],
    ['+01:00', '+01:00', HOUR],
    ['+0100', '+01:00', HOUR],
    ['+01', '+01:00', HOUR],
    ['+1', '+01:00', HOUR],
    ['-05:30', '-05:30', -5.5 * HOUR],
    ['-0530', '-05:30', -5.5 * HOUR],
    ['+01:00:30', '+01:00:30', HOUR + 30_000],
    ['+18:00', '+18:00', 18 * HOUR],
    ['UTC', 'UTC', 0],
    ['GMT', 'GMT', 0],
    ['UTC+01:00', 'UTC+01:00', HOUR],
    ['GMT-2', 'GMT-2', -2 * HOUR],
  ])('reads the fixed offset %s', (id, normalized, offset) => {
    const zone = parseTimeZone(id);
    expect(zone.id).toBe(normalized);
    expect(zone.offsetAt(ms('2024-07-01T00:00:00Z'))).toBe(offset);
  });

  it('reads region ids with their daylight saving time', () => {
    const paris = parseTimeZone('Europe/Paris');
    expect(paris.offsetAt(ms('2024-01-15T12:00:00Z'))).toBe(HOUR);
    expect(paris.offsetAt(ms('2024-07-15T12:00:00Z'))).toBe(2 * HOUR);
    // The switch happens at 01:00 UTC.
    expect(paris.offsetAt(ms('2024-03-31T00:59:59.999Z'))).toBe(HOUR);
    expect(paris.offsetAt(ms('2024-03-31T01:00:00Z'))).toBe(2 * HOUR);
    expect(parseTimeZone('America/New_York').offsetAt(ms('2024-01-15T12:00:00Z'))).toBe(-5 * HOUR);
    expect(parseTimeZone('Asia/Kolkata').offsetAt(0)).toBe(5.5 * HOUR);
  });

  it.each([
    ['Mars/Olympus', 'Unknown time-zone ID: Mars/Olympus'],
    ['europe/paris', 'Unknown time-zone ID: europe/paris'],
    ['+25:00', 'Zone offset not in valid range: -18:00 to +18:00'],
    ['+1:00', 'Invalid ID for ZoneOffset, invalid format: +1:00'],
    ['1:00', 'Invalid ID for region-based ZoneId, invalid format: 1:00'],
  ])('rejects %s with java.time message', (id, message) => {
    expect(() => parseTimeZone(id)).toThrow(DateParseError);
    expect(() => parseTimeZone(id)).toThrow(message);
  });
});

describe('wall-clock times in a zone', () => {
  const paris = parseTimeZone('Europe/Paris');

  it('keeps the earlier offset in the autumn overlap, as ZonedDateTime.ofLocal does', () => {
    // 02:30 happens twice on 2024-10-27: first in CEST (+02:00), then in CET.
    expect(iso(localToUtc(paris, ms('2024-10-27T02:30:00Z')))).toBe('2024-10-27T00:30:00.000Z');
    expect(iso(localToUtc(paris, ms('2024-10-27T02:30:00Z'), HOUR))).toBe('2024-10-27T01:30:00.000Z');
  });

  it('moves a time in the spring gap forward by the gap', () => {
    // 02:30 does not exist on 2024-03-31; java.time reads it as 03:30 CEST.
    expect(iso(localToUtc(paris, ms('2024-03-31T02:30:00Z')))).toBe('2024-03-31T01:30:00.000Z');
  });

  it('uses the offset in force on either side of a change', () => {
    expect(iso(localToUtc(paris, ms('2024-03-30T23:00:00Z')))).toBe('2024-03-30T22:00:00.000Z');
    expect(iso(localToUtc(paris, ms('2024-03-31T10:00:00Z')))).toBe('2024-03-31T08:00:00.000Z');
    expect(localToUtc(UTC, 42)).toBe(42);
  });
});

describe('parsing with a time zone', () => {
  const format = parseDateFormat('strict_date_optional_time||epoch_millis');

  it('reads text without a zone in the time zone', () => {
    expect(iso(format.parse('2024-03-15T10:30:45', '+01:00'))).toBe('2024-03-15T09:30:45.000Z');
    expect(iso(format.parse('2024-03-15', '-0530'))).toBe('2024-03-15T05:30:00.000Z');
    expect(iso(format.parse('2024-03-15T10:30:45', 'UTC'))).toBe('2024-03-15T10:30:45.000Z');
    expect(iso(parseDateFormat('yyyy-MM-dd HH:mm').parse('2024-03-15 10:30', 'America/New_York'))).toBe('2024-03-15T14:30:00.000Z');
  });

  it('follows daylight saving time in an IANA zone', () => {
    expect(iso(format.parse('2024-03-30T12:00:00', 'Europe/Paris'))).toBe('2024-03-30T11:00:00.000Z');
    expect(iso(format.parse('2024-03-31T12:00:00', 'Europe/Paris'))).toBe('2024-03-31T10:00:00.000Z');
    expect(iso(format.parse('2024-03-31T02:30:00', 'Europe/Paris'))).toBe('2024-03-31T01:30:00.000Z');
    expect(iso(format.parse('2024-10-27T02:30:00', 'Europe/Paris'))).toBe('2024-10-27T00:30:00.000Z');
  });

  it('lets a zone in the text win over the time zone', () => {
    expect(iso(format.parse('2024-03-15T10:30:45Z', 'Europe/Paris'))).toBe('2024-03-15T10:30:45.000Z');
    expect(iso(format.parse('2024-03-15T10:30:45+02:00', '-05:00'))).toBe('2024-03-15T08:30:45.000Z');
    expect(iso(format.parse('2024-07-15T10:30:45Europe/Paris', 'UTC'))).toBe('2024-07-15T08:30:45.000Z');
  });

  it('does not apply a time zone to epoch values', () => {
    expect(format.parse('1710498645000', 'Europe/Paris')).toBe(1710498645000);
  });

  it('reports an invalid time zone', () => {
    expect(() => format.parse('2024-03-15', 'Nowhere/Land')).toThrow('Unknown time-zone ID: Nowhere/Land');
  });
});
