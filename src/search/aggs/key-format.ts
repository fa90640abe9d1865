/**
 * How ES prints aggregation keys and values (DocValueFormat): RAW numbers as Java's
 * Double.toString in string keys ("10.0-20.0"), dates with the field's format, booleans as
 * "true"/"false".
 */
import { compiledFormat } from '../../index/index.js';
import type { ValuesSource } from './exec-aggs.js';

/** Java's Double.toString: "10.0", "0.5", "1.0E7", "1.0E-4". */
export function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(n);
    return s.includes('.') ? s : `${s}.0`;
  }
  // Scientific: mantissa with at least one decimal, exponent without '+'.
  const [mantissa, exp] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exp.replace('+', '')}`;
}

/** `key_as_string` / `value_as_string` for formatted types, else null (RAW formats print nothing). */
export function formatAsString(source: ValuesSource, value: number): string | null {
  if (source.type === 'date') return compiledFormat(source.format!).format(value);
  if (source.type === 'boolean') return value !== 0 ? 'true' : 'false';
  return null;
}

/** Code-point order of keyword keys (Lucene BytesRef order), numeric order of numbers. */
export function compareKeys(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  const n = Math.min(sa.length, sb.length);
  for (let i = 0; i < n; i++) {
    const ca = sa.codePointAt(i)!;
    const cb = sb.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return sa.length - sb.length;
}
