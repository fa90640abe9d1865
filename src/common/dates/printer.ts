/**
 * Renders an instant through a list of elements, as DateTimeFormatter.format does for a
 * ZonedDateTime: every field is available, so optional sections always print. ES renders
 * `*_as_string` values and sort values in UTC, where offsets print as their zero text ("Z").
 */
import {
  MILLIS_PER_DAY, MILLIS_PER_HOUR, MILLIS_PER_MINUTE, MILLIS_PER_SECOND,
  civilFromEpochDay, dayOfWeek, epochDay, isoWeekFields,
} from './calendar.js';
import type { Element, FractionElement, OffsetElement, ValueElement } from './elements.js';
import { F, FIELD_COUNT } from './elements.js';
import type { TimeZone } from './time-zone.js';

export function printElements(elements: readonly Element[], epochMillis: number, zone: TimeZone): string {
  return print(elements, instantFields(epochMillis, zone), zone);
}

const fields = new Float64Array(FIELD_COUNT);
const civil = [0, 0, 0];
const week = [0, 0];

/** All fields of the instant as seen in `zone`. */
function instantFields(epochMillis: number, zone: TimeZone): Float64Array {
  const offset = zone.offsetAt(epochMillis);
  const local = epochMillis + offset;
  const day = Math.floor(local / MILLIS_PER_DAY);
  const millisOfDay = local - day * MILLIS_PER_DAY;
  civilFromEpochDay(day, civil);
  const year = civil[0];
  isoWeekFields(day, year, week);
  const hour = Math.floor(millisOfDay / MILLIS_PER_HOUR);
  fields[F.YEAR] = year;
  fields[F.YEAR_OF_ERA] = year > 0 ? year : 1 - year;
  fields[F.ERA] = year > 0 ? 1 : 0;
  fields[F.MONTH] = civil[1];
  fields[F.DAY] = civil[2];
  fields[F.DAY_OF_YEAR] = day - epochDay(year, 1, 1) + 1;
  fields[F.WEEK_YEAR] = week[0];
  fields[F.WEEK] = week[1];
  fields[F.DAY_OF_WEEK] = dayOfWeek(day);
  fields[F.HOUR] = hour;
  fields[F.CLOCK_HOUR_OF_AMPM] = hour % 12 || 12;
  fields[F.HOUR_OF_AMPM] = hour % 12;
  fields[F.CLOCK_HOUR_OF_DAY] = hour || 24;
  fields[F.AMPM] = hour >= 12 ? 1 : 0;
  fields[F.MINUTE] = Math.floor(millisOfDay / MILLIS_PER_MINUTE) % 60;
  fields[F.SECOND] = Math.floor(millisOfDay / MILLIS_PER_SECOND) % 60;
  fields[F.NANO] = (millisOfDay % MILLIS_PER_SECOND) * 1e6;
  fields[F.OFFSET_SECONDS] = offset / MILLIS_PER_SECOND;
  return fields;
}

function print(elements: readonly Element[], f: Float64Array, zone: TimeZone): string {
  let out = '';
  for (const element of elements) {
    switch (element.kind) {
      case 'literal':
        out += element.text;
        break;
      case 'value':
        out += printValue(element, f[element.field]);
        break;
      case 'reducedYear':
        out += pad(Math.abs(f[element.field]) % 100, 2);
        break;
      case 'fraction':
        out += printFraction(element, f[F.NANO]);
        break;
      case 'text':
        out += element.names[f[element.field] - element.first];
        break;
      case 'offset':
        out += printOffset(element, f[F.OFFSET_SECONDS]);
        break;
      case 'zoneId':
        out += zone.id;
        break;
      case 'optional':
        out += print(element.elements, f, zone);
        break;
    }
  }
  return out;
}

function printValue(element: ValueElement, v: number): string {
  const digits = String(Math.abs(v));
  const padded = pad(Math.abs(v), element.min);
  if (v < 0) return `-${padded}`;
  return element.sign === 'exceedsPad' && digits.length > element.min ? `+${padded}` : padded;
}

/** FractionPrinterParser: trailing zeros dropped down to `min` digits, at most `max`. */
function printFraction(element: FractionElement, nanos: number): string {
  const point = element.decimalPoint ? '.' : '';
  if (nanos === 0) return element.min > 0 ? point + '0'.repeat(element.min) : '';
  const nine = pad(nanos, 9);
  let significant = 9;
  while (nine[significant - 1] === '0') significant--;
  return point + nine.slice(0, Math.min(Math.max(significant, element.min), element.max));
}

function printOffset(element: OffsetElement, totalSeconds: number): string {
  if (totalSeconds === 0) return element.noOffsetText;
  const abs = Math.abs(totalSeconds);
  const minutes = Math.floor(abs / 60) % 60;
  const seconds = abs % 60;
  const separator = element.colon ? ':' : '';
  let out = (totalSeconds < 0 ? '-' : '+') + pad(Math.floor(abs / 3600), 2);
  if (element.minutes === 'mandatory' || (element.minutes === 'optional' && minutes + seconds > 0)) {
    out += separator + pad(minutes, 2);
    if (element.seconds === 'mandatory' || (element.seconds === 'optional' && seconds > 0)) out += separator + pad(seconds, 2);
  }
  return out;
}

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}
