/**
 * How ES prints aggregation keys and values (DocValueFormat): RAW numbers as Java's
 * Double.toString in string keys ("10.0-20.0"), dates with the field's format, booleans as
 * "true"/"false".
 */
import { compiledFormat } from '../../index/index.js';
import type { ValuesSource } from './exec-aggs.js';

export { javaDouble } from '../../common/java-double.js';

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
