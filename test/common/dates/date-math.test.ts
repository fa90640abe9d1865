import { describe, expect, it } from 'vitest';
import { DEFAULT_DATE_FORMAT, DateParseError, parseDateFormat, parseDateMath } from '../../../src/common/dates/index.js';

const iso = (millis: number): string => new Date(millis).toISOString();
const NOW = Date.parse('2024-03-15T10:30:45.123Z'); // a Friday
const format = parseDateFormat(DEFAULT_DATE_FORMAT);
const math = (text: string, roundUp = false, timeZone?: string): string => iso(parseDateMath(text, NOW, format, roundUp, timeZone));

describe('date math arithmetic', () => {
  it.each([
    ['now', '2024-03-15T10:30:45.123Z'],
    ['now+1y', '2025-03-15T10:30:45.123Z'],
    ['now-1M', '2024-02-15T10:30:45.123Z'],
    ['now+2w', '2024-03-29T10:30:45.123Z'],
    ['now-1d', '2024-03-14T10:30:45.123Z'],
    ['now+1h', '2024-03-15T11:30:45.123Z'],
    ['now+1H', '2024-03-15T11:30:45.123Z'],
    ['now-15m', '2024-03-15T10:15:45.123Z'],
    ['now+30s', '2024-03-15T10:31:15.123Z'],
    ['now+d', '2024-03-16T10:30:45.123Z'],
    ['now-1d+12h-30m', '2024-03-14T22:00:45.123Z'],
    ['2024-01-31||+1M', '2024-02-29T00:00:00.000Z'],
    ['2024-02-29||+1y', '2025-02-28T00:00:00.000Z'],
    ['2024-03-15T10:00:00+01:00||+1d', '2024-03-16T09:00:00.000Z'],
    ['1710498645123||-1d', '2024-03-14T10:30:45.123Z'],
    ['2024-03-15||', '2024-03-15T00:00:00.000Z'],
  ])('%s is %s', (text, expected) => {
    expect(math(text)).toBe(expected);
  });
});

describe('date math rounding', () => {
  it.each([
    ['2024-03-15||/y', '2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z'],
    ['2024-03-15||/M', '2024-03-01T00:00:00.000Z', '2024-03-31T23:59:59.999Z'],
    ['2024-02-10||/M', '2024-02-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
    ['now/w', '2024-03-11T00:00:00.000Z', '2024-03-17T23:59:59.999Z'],
    ['now/d', '2024-03-15T00:00:00.000Z', '2024-03-15T23:59:59.999Z'],
    ['now/h', '2024-03-15T10:00:00.000Z', '2024-03-15T10:59:59.999Z'],
    ['now/H', '2024-03-15T10:00:00.000Z', '2024-03-15T10:59:59.999Z'],
    ['now/m', '2024-03-15T10:30:00.000Z', '2024-03-15T10:30:59.999Z'],
    ['now/s', '2024-03-15T10:30:45.000Z', '2024-03-15T10:30:45.999Z'],
    ['now-1d/d', '2024-03-14T00:00:00.000Z', '2024-03-14T23:59:59.999Z'],
    ['now-1M/M', '2024-02-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
    ['now/d+1h', '2024-03-15T01:00:00.000Z', '2024-03-16T00:59:59.999Z'],
  ])('%s rounds down (gte, lt) to %s and up (gt, lte) to %s', (text, down, up) => {
    expect(math(text, false)).toBe(down);
    expect(math(text, true)).toBe(up);
  });

  it('fills the missing parts of a rounded-up bare date with ES defaults', () => {
    expect(math('2024-03-15', true)).toBe('2024-03-15T23:59:59.999Z');
    expect(math('2024-03-15T10:30', true)).toBe('2024-03-15T10:30:59.999Z');
    expect(math('2024-03-15T10:30:45', true)).toBe('2024-03-15T10:30:45.999Z');
    expect(math('2024-03-15T10:30:45.1', true)).toBe('2024-03-15T10:30:45.100Z');
    // Month and day default to 01 even when rounding up (range query docs, "missing date components").
    expect(math('2024-03', true)).toBe('2024-03-01T23:59:59.999Z');
    expect(math('2024', true)).toBe('2024-01-01T23:59:59.999Z');
    expect(iso(parseDateMath('15/03/2024', NOW, parseDateFormat('dd/MM/yyyy'), true))).toBe('2024-03-15T23:59:59.999Z');
    // Not when the date comes with math, and not for now.
    expect(math('2024-03-15||', true)).toBe('2024-03-15T00:00:00.000Z');
    expect(math('now', true)).toBe('2024-03-15T10:30:45.123Z');
    expect(math('2024-03-15', false)).toBe('2024-03-15T00:00:00.000Z');
  });
});

describe('date math in a time zone', () => {
  it('rounds on the wall clock of the zone', () => {
    expect(math('now/d', false, '+01:00')).toBe('2024-03-14T23:00:00.000Z');
    expect(math('now/d', true, '+01:00')).toBe('2024-03-15T22:59:59.999Z');
    expect(math('now/h', false, '+05:30')).toBe('2024-03-15T10:30:00.000Z');
    expect(math('now/M', false, 'America/New_York')).toBe('2024-03-01T05:00:00.000Z');
    expect(math('2024-03-15', false, '-05:00')).toBe('2024-03-15T05:00:00.000Z');
  });

  it('adds days on the wall clock and hours on the timeline across a DST change', () => {
    // Europe/Paris moves from +01:00 to +02:00 on 2024-03-31 at 01:00 UTC.
    expect(math('2024-03-30T12:00:00Z||+1d', false, 'Europe/Paris')).toBe('2024-03-31T11:00:00.000Z');
    expect(math('2024-03-30T12:00:00Z||+24h', false, 'Europe/Paris')).toBe('2024-03-31T12:00:00.000Z');
    expect(math('2024-03-31T12:00:00Z||/d', false, 'Europe/Paris')).toBe('2024-03-30T23:00:00.000Z');
    // That day has 23 hours: up to the next local midnight, 22:00 UTC, less a millisecond.
    expect(math('2024-03-31T12:00:00Z||/d', true, 'Europe/Paris')).toBe('2024-03-31T21:59:59.999Z');
    expect(math('2024-10-27T12:00:00Z||/d', true, 'Europe/Paris')).toBe('2024-10-27T22:59:59.999Z');
  });
});

describe('date math errors', () => {
  it.each([
    ['now-1x', 'unit [x] not supported for date math [-1x]'],
    ['now/2d', 'rounding `/` can only be used on single unit types [/2d]'],
    ['now+', 'truncated date math [+]'],
    ['now+1', 'truncated date math [+1]'],
    ['now*1d', 'operator not supported for date math [*1d]'],
    ['nowish', 'operator not supported for date math [ish]'],
    ['now/', 'truncated date math [/]'],
    ['2024-03-15||1d', 'operator not supported for date math [1d]'],
    ['', 'cannot parse empty datetime'],
    ['||+1d', 'cannot parse empty datetime'],
    [
      'yesterday',
      'failed to parse date field [yesterday] with format [strict_date_optional_time||epoch_millis]: '
        + '[failed to parse date field [yesterday] with format [strict_date_optional_time||epoch_millis]]',
    ],
    [
      '2024-02-30||+1d',
      'failed to parse date field [2024-02-30] with format [strict_date_optional_time||epoch_millis]: '
        + '[failed to parse date field [2024-02-30] with format [strict_date_optional_time||epoch_millis]]',
    ],
  ])('%j fails with %s', (text, message) => {
    expect(() => parseDateMath(text, NOW, format, false)).toThrow(DateParseError);
    expect(() => parseDateMath(text, NOW, format, false)).toThrow(message);
  });
});
