import { describe, expect, it } from 'vitest';
import { DateParseError, parseDateFormat } from '../../../src/common/dates/index.js';

const ms = (iso: string): number => Date.parse(iso);
// 2024-03-15 is a Friday, day 75 of the year, in ISO week 2024-W11.
const INSTANT = ms('2024-03-15T10:30:45.123Z');

// [format, input, the instant it means, how the format renders INSTANT]
const CASES: [string, string, string, string][] = [
  ['strict_date_optional_time', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123Z'],
  ['date_optional_time', '2024-3-5T1:2:3.4Z', '2024-03-05T01:02:03.400Z', '2024-03-15T10:30:45.123Z'],
  ['strict_date_optional_time_nanos', '2024-03-15T10:30:45.123456789Z', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123Z'],
  ['iso8601', '2024-03-15T10:30:45.123+01:00', '2024-03-15T09:30:45.123Z', '2024-03-15T10:30:45.123Z'],
  ['basic_date', '20240315', '2024-03-15T00:00:00.000Z', '20240315'],
  ['basic_date_time', '20240315T103045.123Z', '2024-03-15T10:30:45.123Z', '20240315T103045.123Z'],
  ['basic_date_time_no_millis', '20240315T103045+0100', '2024-03-15T09:30:45.000Z', '20240315T103045Z'],
  ['basic_ordinal_date', '2024075', '2024-03-15T00:00:00.000Z', '2024075'],
  ['basic_ordinal_date_time', '2024075T103045.123Z', '2024-03-15T10:30:45.123Z', '2024075T103045.123Z'],
  ['basic_ordinal_date_time_no_millis', '2024075T103045Z', '2024-03-15T10:30:45.000Z', '2024075T103045Z'],
  ['basic_time', '103045.123Z', '1970-01-01T10:30:45.123Z', '103045.123Z'],
  ['basic_time_no_millis', '103045Z', '1970-01-01T10:30:45.000Z', '103045Z'],
  ['basic_t_time', 'T103045.123Z', '1970-01-01T10:30:45.123Z', 'T103045.123Z'],
  ['basic_t_time_no_millis', 'T103045Z', '1970-01-01T10:30:45.000Z', 'T103045Z'],
  ['basic_week_date', '2024W115', '2024-03-15T00:00:00.000Z', '2024W115'],
  ['strict_basic_week_date', '2024W115', '2024-03-15T00:00:00.000Z', '2024W115'],
  ['basic_week_date_time', '2024W115T103045.123Z', '2024-03-15T10:30:45.123Z', '2024W115T103045.123Z'],
  ['strict_basic_week_date_time', '2024W115T103045.123Z', '2024-03-15T10:30:45.123Z', '2024W115T103045.123Z'],
  ['basic_week_date_time_no_millis', '2024W115T103045Z', '2024-03-15T10:30:45.000Z', '2024W115T103045Z'],
  ['strict_basic_week_date_time_no_millis', '2024W115T103045Z', '2024-03-15T10:30:45.000Z', '2024W115T103045Z'],
  ['date', '2024-3-5', '2024-03-05T00:00:00.000Z', '2024-03-15'],
  ['strict_date', '2024-03-15', '2024-03-15T00:00:00.000Z', '2024-03-15'],
  ['date_hour', '2024-3-15T9', '2024-03-15T09:00:00.000Z', '2024-03-15T10'],
  ['strict_date_hour', '2024-03-15T10', '2024-03-15T10:00:00.000Z', '2024-03-15T10'],
  ['date_hour_minute', '2024-03-15T10:5', '2024-03-15T10:05:00.000Z', '2024-03-15T10:30'],
  ['strict_date_hour_minute', '2024-03-15T10:30', '2024-03-15T10:30:00.000Z', '2024-03-15T10:30'],
  ['date_hour_minute_second', '2024-03-15T10:30:5', '2024-03-15T10:30:05.000Z', '2024-03-15T10:30:45'],
  ['strict_date_hour_minute_second', '2024-03-15T10:30:45', '2024-03-15T10:30:45.000Z', '2024-03-15T10:30:45'],
  ['date_hour_minute_second_fraction', '2024-03-15T10:30:45.123456', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123'],
  ['strict_date_hour_minute_second_fraction', '2024-03-15T10:30:45.1', '2024-03-15T10:30:45.100Z', '2024-03-15T10:30:45.123'],
  ['date_hour_minute_second_millis', '2024-03-15T10:30:45.12', '2024-03-15T10:30:45.120Z', '2024-03-15T10:30:45.123'],
  ['strict_date_hour_minute_second_millis', '2024-03-15T10:30:45.123', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123'],
  ['date_time', '2024-3-15T10:30:45.1+01:00', '2024-03-15T09:30:45.100Z', '2024-03-15T10:30:45.123Z'],
  ['strict_date_time', '2024-03-15T10:30:45.123+0100', '2024-03-15T09:30:45.123Z', '2024-03-15T10:30:45.123Z'],
  ['date_time_no_millis', '2024-03-15T10:30', '2024-03-15T10:30:00.000Z', '2024-03-15T10:30:45Z'],
  ['strict_date_time_no_millis', '2024-03-15T10:30:45Z', '2024-03-15T10:30:45.000Z', '2024-03-15T10:30:45Z'],
  ['hour', '9', '1970-01-01T09:00:00.000Z', '10'],
  ['strict_hour', '10', '1970-01-01T10:00:00.000Z', '10'],
  ['hour_minute', '9:5', '1970-01-01T09:05:00.000Z', '10:30'],
  ['strict_hour_minute', '10:30', '1970-01-01T10:30:00.000Z', '10:30'],
  ['hour_minute_second', '10:30:45', '1970-01-01T10:30:45.000Z', '10:30:45'],
  ['strict_hour_minute_second', '10:30:45', '1970-01-01T10:30:45.000Z', '10:30:45'],
  ['hour_minute_second_fraction', '10:30:45.5', '1970-01-01T10:30:45.500Z', '10:30:45.123'],
  ['strict_hour_minute_second_fraction', '10:30:45.123', '1970-01-01T10:30:45.123Z', '10:30:45.123'],
  ['hour_minute_second_millis', '10:30:45.1', '1970-01-01T10:30:45.100Z', '10:30:45.123'],
  ['strict_hour_minute_second_millis', '10:30:45.123', '1970-01-01T10:30:45.123Z', '10:30:45.123'],
  ['ordinal_date', '2024-75', '2024-03-15T00:00:00.000Z', '2024-075'],
  ['strict_ordinal_date', '2024-075', '2024-03-15T00:00:00.000Z', '2024-075'],
  ['ordinal_date_time', '2024-075T10:30:45.123Z', '2024-03-15T10:30:45.123Z', '2024-075T10:30:45.123Z'],
  ['strict_ordinal_date_time', '2024-075T10:30:45.123Z', '2024-03-15T10:30:45.123Z', '2024-075T10:30:45.123Z'],
  ['ordinal_date_time_no_millis', '2024-075T10:30:45Z', '2024-03-15T10:30:45.000Z', '2024-075T10:30:45Z'],
  ['strict_ordinal_date_time_no_millis', '2024-075T10:30:45Z', '2024-03-15T10:30:45.000Z', '2024-075T10:30:45Z'],
  ['time', '10:30:45.123Z', '1970-01-01T10:30:45.123Z', '10:30:45.123Z'],
  ['strict_time', '10:30:45.123+01:00', '1970-01-01T09:30:45.123Z', '10:30:45.123Z'],
  ['time_no_millis', '10:30:45Z', '1970-01-01T10:30:45.000Z', '10:30:45Z'],
  ['strict_time_no_millis', '10:30:45Z', '1970-01-01T10:30:45.000Z', '10:30:45Z'],
  ['t_time', 'T10:30:45.123Z', '1970-01-01T10:30:45.123Z', 'T10:30:45.123Z'],
  ['strict_t_time', 'T10:30:45.123Z', '1970-01-01T10:30:45.123Z', 'T10:30:45.123Z'],
  ['t_time_no_millis', 'T10:30:45Z', '1970-01-01T10:30:45.000Z', 'T10:30:45Z'],
  ['strict_t_time_no_millis', 'T10:30:45Z', '1970-01-01T10:30:45.000Z', 'T10:30:45Z'],
  ['week_date', '2024-W1-1', '2024-01-01T00:00:00.000Z', '2024-W11-5'],
  ['strict_week_date', '2024-W11-5', '2024-03-15T00:00:00.000Z', '2024-W11-5'],
  ['week_date_time', '2024-W11-5T10:30:45.123Z', '2024-03-15T10:30:45.123Z', '2024-W11-5T10:30:45.123Z'],
  ['strict_week_date_time', '2024-W11-5T10:30:45.123Z', '2024-03-15T10:30:45.123Z', '2024-W11-5T10:30:45.123Z'],
  ['week_date_time_no_millis', '2024-W11-5T10:30:45Z', '2024-03-15T10:30:45.000Z', '2024-W11-5T10:30:45Z'],
  ['strict_week_date_time_no_millis', '2024-W11-5T10:30:45Z', '2024-03-15T10:30:45.000Z', '2024-W11-5T10:30:45Z'],
  ['weekyear', '2021', '2021-01-04T00:00:00.000Z', '2024'],
  ['week_year', '2021', '2021-01-04T00:00:00.000Z', '2024'],
  ['strict_weekyear', '2021', '2021-01-04T00:00:00.000Z', '2024'],
  ['weekyear_week', '2024-W11', '2024-03-11T00:00:00.000Z', '2024-W11'],
  ['strict_weekyear_week', '2024-W11', '2024-03-11T00:00:00.000Z', '2024-W11'],
  ['weekyear_week_day', '2024-W11-5', '2024-03-15T00:00:00.000Z', '2024-W11-5'],
  ['strict_weekyear_week_day', '2024-W11-5', '2024-03-15T00:00:00.000Z', '2024-W11-5'],
  ['year', '2024', '2024-01-01T00:00:00.000Z', '2024'],
  ['strict_year', '2024', '2024-01-01T00:00:00.000Z', '2024'],
  ['year_month', '2024-3', '2024-03-01T00:00:00.000Z', '2024-03'],
  ['strict_year_month', '2024-03', '2024-03-01T00:00:00.000Z', '2024-03'],
  ['year_month_day', '2024-3-5', '2024-03-05T00:00:00.000Z', '2024-03-15'],
  ['strict_year_month_day', '2024-03-15', '2024-03-15T00:00:00.000Z', '2024-03-15'],
  ['epoch_millis', '1710498645123', '2024-03-15T10:30:45.123Z', '1710498645123'],
  ['epoch_second', '1710498645.123', '2024-03-15T10:30:45.123Z', '1710498645.123'],
];

describe('built-in formats', () => {
  it.each(CASES)('%s parses %s', (name, input, expected) => {
    expect(new Date(parseDateFormat(name).parse(input)).toISOString()).toBe(expected);
  });

  it.each(CASES)('%s renders an instant as ES does', (name, _input, _expected, rendered) => {
    expect(parseDateFormat(name).format(INSTANT)).toBe(rendered);
  });

  it('covers every strict_ companion of the lenient formats', () => {
    const names = new Set(CASES.map(([name]) => name));
    for (const name of names) {
      if (name.startsWith('strict_') || name.startsWith('epoch_') || name === 'iso8601' || name === 'week_year') continue;
      if (name.startsWith('basic_') && !name.startsWith('basic_week')) continue; // basic_* have no strict_ twin
      expect(names.has(`strict_${name}`), name).toBe(true);
    }
  });
});

describe('strict_date_optional_time, the default date format', () => {
  const iso = parseDateFormat('strict_date_optional_time');
  it.each([
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['2024-03', '2024-03-01T00:00:00.000Z'],
    ['2024-03-15', '2024-03-15T00:00:00.000Z'],
    ['2024-03-15T', '2024-03-15T00:00:00.000Z'],
    ['2024-03-15T10', '2024-03-15T10:00:00.000Z'],
    ['2024-03-15T10Z', '2024-03-15T10:00:00.000Z'],
    ['2024-03-15T10:30', '2024-03-15T10:30:00.000Z'],
    ['2024-03-15T10:30:45', '2024-03-15T10:30:45.000Z'],
    ['2024-03-15T10:30:45.1', '2024-03-15T10:30:45.100Z'],
    ['2024-03-15T10:30:45.123456789', '2024-03-15T10:30:45.123Z'],
    ['2024-03-15T10:30:45,5', '2024-03-15T10:30:45.500Z'],
    ['2024-03-15T10:30:45+01:00', '2024-03-15T09:30:45.000Z'],
    ['2024-03-15T10:30:45+0100', '2024-03-15T09:30:45.000Z'],
    ['2024-03-15T10:30:45+01', '2024-03-15T09:30:45.000Z'],
    ['2024-03-15T10:30:45-05:30', '2024-03-15T16:00:45.000Z'],
    ['2024-03-15T10:30:45.5Europe/Paris', '2024-03-15T09:30:45.500Z'],
    ['2024-03-15T10:30UTC', '2024-03-15T10:30:00.000Z'],
    ['+12024-01-01', '+012024-01-01T00:00:00.000Z'],
    ['-0001-01-01', '-000001-01-01T00:00:00.000Z'],
  ])('reads %s', (input, expected) => {
    expect(new Date(iso.parse(input)).toISOString()).toBe(expected);
  });

  it.each([
    '24-03-15', '2024-3-15', '2024-03-5', '2024-03-15 10:30', '2024-03-15T1', '2024-03-15TZ', '12024-01-01',
    '+2024-01-01', '2024-03-15T10:30:45.', '2024-03-15T10:30:45.1234567891', '2024-03-15T10:30:45+1',
    '2024-03-15T10:30:45+19:00', '2024-03-15T10:30:45Mars/Olympus', '2024-03-15x',
  ])('rejects %s', (input) => {
    expect(() => iso.parse(input)).toThrow(DateParseError);
  });

  it('renders years past 9999 and before year 1 as java.time does', () => {
    expect(iso.format(ms('+012024-01-01T00:00:00Z'))).toBe('+12024-01-01T00:00:00.000Z');
    expect(iso.format(ms('-000001-01-01T00:00:00Z'))).toBe('-0001-01-01T00:00:00.000Z');
    expect(iso.format(ms('0000-06-01T00:00:00Z'))).toBe('0000-06-01T00:00:00.000Z');
  });
});

describe('strict and lenient variants', () => {
  it.each([
    ['strict_date', '2024-3-5'],
    ['strict_year_month_day', '2024-3-15'],
    ['strict_date_hour_minute_second', '2024-03-15T1:30:45'],
    ['strict_hour_minute', '9:30'],
    ['strict_ordinal_date', '2024-75'],
    ['strict_week_date', '2024-W1-1'],
    ['strict_date_hour_minute_second_millis', '2024-03-15T10:30:45.1234'],
    ['date_hour_minute_second_millis', '2024-03-15T10:30:45.1234'],
    ['strict_date_time', '2024-03-15T10:30:45.123'],
    ['date_time', '2024-03-15T10:30:45Z'],
  ])('%s rejects %s', (name, input) => {
    expect(() => parseDateFormat(name).parse(input)).toThrow(DateParseError);
  });

  it('lets the lenient date_optional_time read a bare number as a year', () => {
    expect(new Date(parseDateFormat('date_optional_time||epoch_millis').parse('20240')).toISOString()).toBe('+020240-01-01T00:00:00.000Z');
    expect(parseDateFormat('strict_date_optional_time||epoch_millis').parse('20240')).toBe(20240);
  });
});

describe('invalid dates are rejected as java.time resolves strictly', () => {
  it.each([
    ['strict_date_optional_time', '2024-02-30'],
    ['strict_date_optional_time', '2023-02-29'],
    ['strict_date_optional_time', '2024-13-01'],
    ['strict_date_optional_time', '2024-00-10'],
    ['strict_date_optional_time', '2024-01-00'],
    ['strict_date_optional_time', '2024-01-01T24:00'],
    ['strict_date_optional_time', '2024-01-01T25:00'],
    ['strict_date_optional_time', '2024-01-01T10:60'],
    ['strict_date_optional_time', '2024-01-01T10:00:60'],
    ['date_optional_time', '2024-2-30'],
    ['strict_ordinal_date', '2023-366'],
    ['strict_ordinal_date', '2024-000'],
    ['strict_week_date', '2024-W53-1'],
    ['strict_week_date', '2024-W11-8'],
    ['yyyy-MM-dd', '2024-04-31'],
    ['HH:mm', '25:00'],
  ])('%s rejects %s', (name, input) => {
    expect(() => parseDateFormat(name).parse(input)).toThrow(DateParseError);
  });

  it('accepts the leap days that exist', () => {
    expect(parseDateFormat('strict_date').parse('2024-02-29')).toBe(ms('2024-02-29T00:00:00Z'));
    expect(parseDateFormat('strict_date').parse('2000-02-29')).toBe(ms('2000-02-29T00:00:00Z'));
    expect(() => parseDateFormat('strict_date').parse('1900-02-29')).toThrow(DateParseError);
    expect(parseDateFormat('strict_ordinal_date').parse('2024-366')).toBe(ms('2024-12-31T00:00:00Z'));
    expect(parseDateFormat('strict_week_date').parse('2020-W53-7')).toBe(ms('2021-01-03T00:00:00Z'));
  });
});
