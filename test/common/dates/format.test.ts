import { describe, expect, it } from 'vitest';
import { DEFAULT_DATE_FORMAT, DateFormatError, DateParseError, parseDateFormat } from '../../../src/common/dates/index.js';

const ms = (iso: string): number => Date.parse(iso);
const iso = (millis: number): string => new Date(millis).toISOString();

describe('custom patterns', () => {
  it.each([
    ['yyyy/MM/dd HH:mm:ss Z', '2024/03/15 10:30:45 +0100', '2024-03-15T09:30:45.000Z'],
    ['yyyy/MM/dd HH:mm:ss', '2024/03/15 10:30:45', '2024-03-15T10:30:45.000Z'],
    ['dd/MM/yyyy', '15/03/2024', '2024-03-15T00:00:00.000Z'],
    ['d/M/yyyy', '5/3/2024', '2024-03-05T00:00:00.000Z'],
    ['yyyy-MM-dd HH:mm:ss', '2024-03-15 10:30:45', '2024-03-15T10:30:45.000Z'],
    ['uuuu-MM-dd HH:mm:ss.SSS', '2024-03-15 10:30:45.120', '2024-03-15T10:30:45.120Z'],
    ['MMM d, yyyy', 'Mar 5, 2024', '2024-03-05T00:00:00.000Z'],
    ['MMMM d, yyyy', 'September 30, 2024', '2024-09-30T00:00:00.000Z'],
    ['EEE, dd MMM yyyy HH:mm:ss Z', 'Fri, 15 Mar 2024 10:30:45 +0000', '2024-03-15T10:30:45.000Z'],
    ['EEEE d MMMM uuuu', 'Friday 15 March 2024', '2024-03-15T00:00:00.000Z'],
    ['yyyy-MM-dd hh:mm a', '2024-03-15 02:30 PM', '2024-03-15T14:30:00.000Z'],
    ['yyyy-MM-dd hh:mm a', '2024-03-15 12:00 AM', '2024-03-15T00:00:00.000Z'],
    ['yyyy-MM-dd hh:mm a', '2024-03-15 12:00 PM', '2024-03-15T12:00:00.000Z'],
    ['yyyy-MM-dd kk:mm', '2024-03-15 24:00', '2024-03-15T00:00:00.000Z'],
    ['yyyyMMddHHmmss', '20240315103045', '2024-03-15T10:30:45.000Z'],
    ['yyyyMMdd', '+120240315', '+012024-03-15T00:00:00.000Z'],
    ['yyyyMMdd', '20240315', '2024-03-15T00:00:00.000Z'],
    ['HHmmssSSS', '103045123', '1970-01-01T10:30:45.123Z'],
    ['yyyy-MM-dd[ HH:mm[:ss]]', '2024-03-15', '2024-03-15T00:00:00.000Z'],
    ['yyyy-MM-dd[ HH:mm[:ss]]', '2024-03-15 10:30', '2024-03-15T10:30:00.000Z'],
    ['yyyy-MM-dd[ HH:mm[:ss]]', '2024-03-15 10:30:45', '2024-03-15T10:30:45.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45.123Z'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2024-03-15T10:30:45.123+05:30', '2024-03-15T05:00:45.123Z'],
    ["yyyy-MM-dd'T'HH:mm:ssX", '2024-03-15T10:30:45+01', '2024-03-15T09:30:45.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ssxx", '2024-03-15T10:30:45+0000', '2024-03-15T10:30:45.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ssZZZZZ", '2024-03-15T10:30:45-08:00', '2024-03-15T18:30:45.000Z'],
    ['yyyy-MM-dd HH:mm ZZZZ', '2024-03-15 10:30 GMT+01:00', '2024-03-15T09:30:00.000Z'],
    ['yyyy-MM-dd HH:mm VV', '2024-03-15 10:30 Europe/Paris', '2024-03-15T09:30:00.000Z'],
    ['yyyy-MM-dd HH:mm z', '2024-03-15 10:30 UTC', '2024-03-15T10:30:00.000Z'],
    ['yy-MM-dd', '24-03-15', '2024-03-15T00:00:00.000Z'],
    ["'day' D 'of' yyyy", 'day 75 of 2024', '2024-03-15T00:00:00.000Z'],
    ["yyyy-MM-dd'T'HH''mm", "2024-03-15T10'30", '2024-03-15T10:30:00.000Z'],
    ['yyyy-MM-dd G', '0001-01-01 BC', '0000-01-01T00:00:00.000Z'],
    ['YYYY-ww-e', '2024-11-5', '2024-03-15T00:00:00.000Z'],
    ['MM-dd', '03-15', '1970-03-15T00:00:00.000Z'],
    ['HH:mm', '10:30', '1970-01-01T10:30:00.000Z'],
  ])('%s parses %s', (pattern, input, expected) => {
    expect(iso(parseDateFormat(pattern).parse(input))).toBe(expected);
  });

  it.each([
    ['dd/MM/yyyy', '15/3/2024'], // MM wants two digits
    ['yyyy-MM-dd', '2024-03-15 '], // trailing text
    ['yyyy-MM-dd', '2024/03/15'],
    ['yyyy', '0000'], // year-of-era starts at 1
    ['yyyy', '12024'], // more than 4 digits need a '+'
    ['yyyyMMdd', '120240315'],
    ['HH:mm:ss.SSS', '10:30:45.12'],
    ['EEE, dd MMM yyyy', 'Thu, 15 Mar 2024'], // 2024-03-15 is a Friday
    ['MMM d, yyyy', 'mar 5, 2024'], // text is case sensitive
    ['HH:mm a', '13:00 AM'],
    ["yyyy-MM-dd'T'HH:mm:ssxx", '2024-03-15T10:30:45Z'],
    ['dd', '15'], // a day alone is no instant
  ])('%s rejects %s', (pattern, input) => {
    expect(() => parseDateFormat(pattern).parse(input)).toThrow(DateParseError);
  });

  it.each([
    ['yyyy/MM/dd HH:mm:ss Z', '2024/03/15 10:30:45 +0000'],
    ['MMM d, yyyy', 'Mar 15, 2024'],
    ['EEEE, MMMM dd, yy', 'Friday, March 15, 24'],
    ['yyyy-MM-dd hh:mm:ss a', '2024-03-15 10:30:45 AM'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2024-03-15T10:30:45.123Z'],
    ["yyyy-MM-dd'T'HH:mm:ssxxx", '2024-03-15T10:30:45+00:00'],
    ['yyyy-MM-dd[ HH:mm]', '2024-03-15 10:30'],
    ['D', '75'],
    ['uuuu G', '2024 AD'],
    ['HH:mm:ss.SSSSSS', '10:30:45.123000'],
  ])('%s renders %s', (pattern, expected) => {
    expect(parseDateFormat(pattern).format(ms('2024-03-15T10:30:45.123Z'))).toBe(expected);
  });

  it('renders in a given time zone', () => {
    const format = parseDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSXXX||epoch_millis");
    expect(format.format(ms('2024-03-15T10:30:45.123Z'), 'Europe/Paris')).toBe('2024-03-15T11:30:45.123+01:00');
    expect(format.format(ms('2024-07-15T10:30:45.123Z'), 'Europe/Paris')).toBe('2024-07-15T12:30:45.123+02:00');
    expect(parseDateFormat('strict_date_optional_time').format(0, '-05:30')).toBe('1969-12-31T18:30:00.000-05:30');
  });
});

describe('format specifications', () => {
  it('tries alternatives in order and renders with the first', () => {
    const format = parseDateFormat('yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis');
    expect(format.parse('2024/03/15 10:30:45')).toBe(ms('2024-03-15T10:30:45Z'));
    expect(format.parse('2024/03/15')).toBe(ms('2024-03-15T00:00:00Z'));
    expect(format.parse('1710498645000')).toBe(1710498645000);
    expect(format.format(ms('2024-03-15T00:00:00Z'))).toBe('2024/03/15 00:00:00');
    expect(format.alternatives.map((a) => a.pattern)).toEqual(['yyyy/MM/dd HH:mm:ss', 'yyyy/MM/dd', 'epoch_millis']);
  });

  it('exposes each alternative, which answers undefined for text in another format', () => {
    const [date, epoch] = parseDateFormat(DEFAULT_DATE_FORMAT).alternatives;
    expect(date.parse('2024-03-15')).toBe(ms('2024-03-15T00:00:00Z'));
    expect(date.parse('1710498645000')).toBeUndefined();
    expect(epoch.parse('2024-03-15')).toBeUndefined();
    expect(date.parse('2024-03-15', '+02:00', true)).toBe(ms('2024-03-15T21:59:59.999Z'));
  });

  it('accepts the 7.x "8" prefix and spaces around alternatives', () => {
    expect(parseDateFormat('8yyyy-MM-dd').parse('2024-03-15')).toBe(ms('2024-03-15T00:00:00Z'));
    expect(parseDateFormat('yyyy-MM-dd || epoch_millis').parse('1000')).toBe(1000);
  });

  it('returns the same compiled format for the same specification', () => {
    expect(parseDateFormat('yyyy-MM-dd')).toBe(parseDateFormat('yyyy-MM-dd'));
  });

  it.each([
    ['yyyy-jj', 'Invalid format: [yyyy-jj]: Unknown pattern letter: j'],
    ['strict_date||yyyy-MM-dd b', 'Invalid format: [yyyy-MM-dd b]: Unknown pattern letter: b'],
    ['ddd', 'Invalid format: [ddd]: Too many pattern letters: d'],
    ['MMMMMM', 'Invalid format: [MMMMMM]: Too many pattern letters: M'],
    ["yyyy'T", "Invalid format: [yyyy'T]: Pattern ends with an incomplete string literal: yyyy'T"],
    ['yyyy]', 'Invalid format: [yyyy]]: Pattern invalid as it contains ] without previous ['],
    ['yyyy#', "Invalid format: [yyyy#]: Pattern includes reserved character: '#'"],
    ['yyyy-MM-dd V', 'Invalid format: [yyyy-MM-dd V]: Pattern letter count must be 2: V'],
    ['yyyy QQ', 'Invalid format: [yyyy QQ]: Unsupported pattern letter: Q'],
    ['', 'No date pattern provided'],
    ['yyyy||||epoch_millis', 'Cannot have empty element in multi date format pattern: yyyy||||epoch_millis'],
    ['strict_date_optional_time||', 'Cannot have empty element in multi date format pattern: strict_date_optional_time||'],
  ])('rejects the specification %j', (spec, message) => {
    expect(() => parseDateFormat(spec)).toThrow(DateFormatError);
    expect(() => parseDateFormat(spec)).toThrow(message);
  });

  it('reports unparseable values with ES message', () => {
    expect(() => parseDateFormat(DEFAULT_DATE_FORMAT).parse('not a date')).toThrow(
      'failed to parse date field [not a date] with format [strict_date_optional_time||epoch_millis]',
    );
    expect(() => parseDateFormat('yyyy/MM/dd').parse('2024-02-30')).toThrow('failed to parse date field [2024-02-30] with format [yyyy/MM/dd]');
    expect(() => parseDateFormat(DEFAULT_DATE_FORMAT).parse('')).toThrow('cannot parse empty datetime');
  });
});

describe('epoch formats', () => {
  const millis = parseDateFormat('epoch_millis');
  const seconds = parseDateFormat('epoch_second');

  it.each([
    ['1710498645123', 1710498645123],
    ['0', 0],
    ['-1000', -1000],
    ['1.5', 1],
    ['-1.5', -2],
    ['123.', 123],
    ['-0', 0],
  ])('epoch_millis reads %s', (input, expected) => {
    expect(millis.parse(input)).toBe(expected);
  });

  it.each([
    ['1710498645', 1710498645000],
    ['1710498645.123', 1710498645123],
    ['1.5', 1500],
    ['-1.5', -1500],
    ['1.0001', 1000],
    ['-1.0001', -1001],
    ['1.123456789', 1123],
  ])('epoch_second reads %s', (input, expected) => {
    expect(seconds.parse(input)).toBe(expected);
  });

  it.each(['1e3', '+1', '1.2.3', ' 1', '1.1234567', '12345678901234567890', '99999999999999999', '-', '.5'])(
    'epoch_millis rejects %s',
    (input) => {
      expect(() => millis.parse(input)).toThrow(DateParseError);
    },
  );

  it('rejects an epoch_second fraction past nanoseconds', () => {
    expect(() => seconds.parse('1.1234567891')).toThrow(DateParseError);
  });

  it('renders the number, with a fraction only when there is one', () => {
    expect(millis.format(1710498645123)).toBe('1710498645123');
    expect(millis.format(-5)).toBe('-5');
    expect(seconds.format(1710498645000)).toBe('1710498645');
    expect(seconds.format(1710498645120)).toBe('1710498645.12');
    expect(seconds.format(-1500)).toBe('-1.5');
  });

  it('is not confused with years by the default format', () => {
    const format = parseDateFormat(DEFAULT_DATE_FORMAT);
    expect(format.parse('1710498645123')).toBe(1710498645123);
    expect(format.parse('2024')).toBe(ms('2024-01-01T00:00:00Z'));
    expect(format.parse('-1')).toBe(-1);
  });
});
