/**
 * Parses text against a list of elements into field slots, with java.time's strict-parsing rules
 * (DateTimeFormatter in its default, parseStrict, mode): exact digit counts, sign styles, an
 * optional section is undone as a whole when it does not match, and a field parsed twice must
 * agree. The text must be consumed entirely (JavaDateFormatter rejects trailing text).
 */
import type { Element, FractionElement, OffsetElement, TextElement, ValueElement } from './elements.js';
import { F, FIELD_COUNT, offset } from './elements.js';
import { findTimeZone } from './time-zone.js';

/** Reusable parse state; parsing is synchronous and never re-entered, so one instance serves all. */
export class ParseState {
  readonly fields = new Float64Array(FIELD_COUNT);
  /** A region zone id read from the text ("Europe/Paris"); offsets go to F.OFFSET_SECONDS. */
  zoneId: string | undefined = undefined;
  // Fields set so far, in order, so that a failed optional section can unset what it parsed.
  private readonly setLog = new Int8Array(FIELD_COUNT + 1);
  private logSize = 0;

  reset(): void {
    this.fields.fill(NaN);
    this.zoneId = undefined;
    this.logSize = 0;
  }

  set(field: number, v: number): boolean {
    const current = this.fields[field];
    if (current === current) return current === v; // parsed twice: java.time's "Conflict found" unless equal
    this.fields[field] = v;
    this.setLog[this.logSize++] = field;
    return true;
  }

  setZoneId(id: string): void {
    if (this.zoneId === undefined) this.setLog[this.logSize++] = FIELD_COUNT;
    this.zoneId = id;
  }

  /** A mark to `undo` to. */
  mark(): number {
    return this.logSize;
  }

  undo(mark: number): void {
    while (this.logSize > mark) {
      const field = this.setLog[--this.logSize];
      if (field === FIELD_COUNT) this.zoneId = undefined;
      else this.fields[field] = NaN;
    }
  }
}

/** Parses `elements` from `pos`; the position after them, or -1. */
export function parseElements(elements: readonly Element[], text: string, pos: number, state: ParseState): number {
  for (let i = 0; i < elements.length && pos >= 0; i++) {
    const element = elements[i];
    switch (element.kind) {
      case 'literal':
        pos = text.startsWith(element.text, pos) ? pos + element.text.length : -1;
        break;
      case 'value':
        pos = parseValue(element, text, pos, state);
        break;
      case 'reducedYear': {
        const v = twoDigits(text, pos);
        pos = v >= 0 && state.set(element.field, 2000 + v) ? pos + 2 : -1;
        break;
      }
      case 'fraction':
        pos = parseFraction(element, text, pos, state);
        break;
      case 'text':
        pos = parseText(element, text, pos, state);
        break;
      case 'offset':
        pos = parseOffset(element, text, pos, state);
        break;
      case 'zoneId':
        pos = parseZoneId(text, pos, state);
        break;
      case 'optional': {
        const mark = state.mark();
        const end = parseElements(element.elements, text, pos, state);
        if (end < 0) state.undo(mark);
        else pos = end;
        break;
      }
    }
  }
  return pos;
}

/** NumberPrinterParser.parse in strict mode. */
function parseValue(element: ValueElement, text: string, pos: number, state: ParseState): number {
  const len = text.length;
  if (pos >= len) return -1;
  let sign = 0;
  const c = text.charCodeAt(pos);
  if (c === PLUS || c === MINUS) {
    if (element.sign === 'notNegative' || (element.sign === 'normal' && c === PLUS)) return -1;
    sign = c === PLUS ? 1 : -1;
    pos++;
  }
  const limit = Math.min(len, pos + element.max + element.subsequentWidth);
  let end = pos;
  while (end < limit && isDigit(text.charCodeAt(end))) end++;
  let width = end - pos;
  // Leave the digits of the fixed-width values that follow (adjacent value parsing).
  if (element.subsequentWidth > 0) width = Math.max(element.min, width - element.subsequentWidth);
  if (width < element.min || pos + width > end || width > 15) return -1;
  let v = 0;
  for (let i = pos; i < pos + width; i++) v = v * 10 + text.charCodeAt(i) - ZERO;
  if (sign < 0) {
    if (v === 0) return -1; // strict parsing rejects "-0"
    v = -v;
  } else if (element.sign === 'exceedsPad' && (sign > 0) !== (width > element.min)) {
    return -1; // "+" exactly when the pad width is exceeded: "+12024" and "2024", not "12024" or "+2024"
  }
  return state.set(element.field, v) ? pos + width : -1;
}

const SCALE = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1];

function parseFraction(element: FractionElement, text: string, pos: number, state: ParseState): number {
  const len = text.length;
  if (element.decimalPoint) {
    if (pos >= len || text.charCodeAt(pos) !== DOT) return element.min > 0 ? -1 : pos;
    pos++;
  }
  const limit = Math.min(len, pos + element.max);
  let end = pos;
  let digits = 0;
  while (end < limit && isDigit(text.charCodeAt(end))) digits = digits * 10 + text.charCodeAt(end++) - ZERO;
  const count = end - pos;
  if (count < element.min) return -1;
  return state.set(F.NANO, digits * SCALE[count]) ? end : -1;
}

function parseText(element: TextElement, text: string, pos: number, state: ParseState): number {
  // Longest name first, as java.time's text lookup does ("May" vs a hypothetical "Ma").
  let best = -1;
  for (let i = 0; i < element.names.length; i++) {
    const name = element.names[i];
    if ((best < 0 || name.length > element.names[best].length) && text.startsWith(name, pos)) best = i;
  }
  return best >= 0 && state.set(element.field, element.first + best) ? pos + element.names[best].length : -1;
}

/** OffsetIdPrinterParser.parse in strict mode. */
function parseOffset(element: OffsetElement, text: string, pos: number, state: ParseState): number {
  const len = text.length;
  const none = element.noOffsetText;
  if (none.length === 0) {
    if (pos === len) return state.set(F.OFFSET_SECONDS, 0) ? pos : -1;
  } else {
    if (pos === len) return -1;
    if (text.startsWith(none, pos)) return state.set(F.OFFSET_SECONDS, 0) ? pos + none.length : -1;
  }
  const sign = text.charCodeAt(pos);
  const hours = sign === PLUS || sign === MINUS ? twoDigits(text, pos + 1) : -1;
  if (hours >= 0) {
    let p = pos + 3;
    let minutes = 0;
    let seconds = 0;
    let ok = true;
    const step = element.colon ? 3 : 2;
    if (element.minutes !== 'none') {
      const m = offsetPart(text, p, element.colon);
      if (m >= 0) {
        minutes = m;
        p += step;
        if (element.seconds !== 'none') {
          const s = offsetPart(text, p, element.colon);
          if (s >= 0) {
            seconds = s;
            p += step;
          } else ok = element.seconds === 'optional';
        }
      } else ok = element.minutes === 'optional';
    }
    if (ok) {
      const total = hours * 3600 + minutes * 60 + seconds;
      if (hours > 23 || minutes > 59 || seconds > 59 || total > 18 * 3600) return -1; // ZoneOffset's range
      return state.set(F.OFFSET_SECONDS, sign === MINUS ? -total : total) ? p : -1;
    }
  }
  return none.length === 0 && state.set(F.OFFSET_SECONDS, 0) ? pos : -1;
}

/** Two digits at `pos`, after a ':' when `colon`; -1 if absent. */
function offsetPart(text: string, pos: number, colon: boolean): number {
  if (colon && text.charCodeAt(pos++) !== COLON) return -1;
  return twoDigits(text, pos);
}

// ZoneIdPrinterParser reads a signed offset as "+HH:MM:ss" (INSTANCE_ID_Z), and after a
// UTC/GMT/UT prefix the same with "0" for zero (INSTANCE_ID_ZERO).
const OFFSET_ID = offset('+HH:MM:ss', 'Z');
const PREFIXED_OFFSET_ID = offset('+HH:MM:ss', '0');
const ZONE_PREFIXES = ['UTC', 'GMT', 'UT'];

/** ZoneIdPrinterParser.parse: an offset, "UTC"/"GMT"/"UT" with an optional offset, a region id, or "Z". */
function parseZoneId(text: string, pos: number, state: ParseState): number {
  const len = text.length;
  if (pos >= len) return -1;
  const c = text.charCodeAt(pos);
  if (c === PLUS || c === MINUS) return parseOffset(OFFSET_ID, text, pos, state);
  for (const prefix of ZONE_PREFIXES) {
    if (!text.startsWith(prefix, pos)) continue;
    const end = pos + prefix.length;
    const next = text.charCodeAt(end);
    if (next === PLUS || next === MINUS) {
      const afterOffset = parseOffset(PREFIXED_OFFSET_ID, text, end, state);
      if (afterOffset >= 0) return afterOffset;
    }
    return state.set(F.OFFSET_SECONDS, 0) ? end : -1;
  }
  let end = pos;
  while (end < len && isZoneIdChar(text.charCodeAt(end))) end++;
  if (end - pos >= 2 && isLetter(c)) {
    const id = text.slice(pos, end);
    if (findTimeZone(id) !== undefined) {
      state.setZoneId(id);
      return end;
    }
  }
  return c === Z && state.set(F.OFFSET_SECONDS, 0) ? pos + 1 : -1;
}

const ZERO = 0x30;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const COLON = 0x3a;
const Z = 0x5a;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= 0x39;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Characters of a region id: letters, digits, "~/._+-" (ZoneRegion's syntax). */
function isZoneIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 0x7e || c === 0x2f || c === DOT || c === 0x5f || c === PLUS || c === MINUS;
}

export function twoDigits(text: string, pos: number): number {
  const a = text.charCodeAt(pos) - ZERO;
  const b = text.charCodeAt(pos + 1) - ZERO;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
