/**
 * epoch_millis and epoch_second, after ES's EpochTime: an optional '-', 1-19 digits, then an
 * optional '.' with up to 6 (millis) or 9 (seconds) fraction digits; a bare trailing '.' is
 * accepted. No '+', no exponent. Sub-millisecond parts are floored, as Instant.toEpochMilli does
 * (so "-1.5" millis is -2). NaN when the text is not such a number or leaves the safe range.
 */
import { MILLIS_PER_SECOND } from './calendar.js';

const ZERO = 0x30;
const MINUS = 0x2d;
const DOT = 0x2e;

export function parseEpoch(text: string, seconds: boolean): number {
  const len = text.length;
  const negative = text.charCodeAt(0) === MINUS;
  let i = negative ? 1 : 0;
  const start = i;
  let whole = 0;
  for (let d = text.charCodeAt(i) - ZERO; d >= 0 && d <= 9; d = text.charCodeAt(++i) - ZERO) whole = whole * 10 + d;
  if (i === start || i - start > 19) return NaN;
  let fraction = 0; // in billionths of the unit
  if (i < len) {
    if (text.charCodeAt(i++) !== DOT) return NaN;
    const fractionStart = i;
    let scale = 1e8;
    for (let d = text.charCodeAt(i) - ZERO; d >= 0 && d <= 9; d = text.charCodeAt(++i) - ZERO, scale /= 10) fraction += d * scale;
    if (i < len || i - fractionStart > (seconds ? 9 : 6)) return NaN;
  }
  let millis = seconds ? whole * MILLIS_PER_SECOND + Math.floor(fraction / 1e6) : whole;
  const belowMillis = seconds ? fraction % 1e6 : fraction;
  if (negative) millis = -millis - (belowMillis > 0 ? 1 : 0);
  return Number.isSafeInteger(millis) ? millis + 0 : NaN; // + 0 turns "-0" into 0
}

/** epoch_millis prints the integer; epoch_second prints seconds with the fraction when there is one. */
export function formatEpoch(epochMillis: number, seconds: boolean): string {
  if (!seconds) return String(epochMillis);
  const abs = Math.abs(epochMillis);
  const millis = abs % MILLIS_PER_SECOND;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0').replace(/0+$/, '')}`;
  return (epochMillis < 0 ? '-' : '') + Math.floor(abs / MILLIS_PER_SECOND) + fraction;
}
