/**
 * Java's Double.toString, which ES uses wherever it prints a double as text: aggregation keys
 * ("10.0-20.0", percentiles' "50.0") and messages ("Found [-1.0]"); and Double.parseDouble, which
 * it reads numbers from text with.
 */
import { NumberFormatError } from '../errors/index.js';

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

const JAVA_DOUBLE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

/**
 * Java's Double.parseDouble (decimal forms, NaN and Infinity; not hex), failing with its
 * NumberFormatException, which quotes the text trimmed, as FloatingDecimal.readJavaFormatString does.
 */
export function javaParseDouble(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') throw new NumberFormatError(null);
  if (!JAVA_DOUBLE.test(trimmed)) throw new NumberFormatError(trimmed);
  return Number(trimmed.replace(/[fFdD]$/, ''));
}
