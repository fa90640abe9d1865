/**
 * Java's values for the script evaluator: long arithmetic past 2^53 (wrapping at 64 bits), the
 * narrowing conversions (d2i, d2l, l2i), String.valueOf of each type (java.time's toString for
 * dates), and the functions of java.lang.Math and ES's ScoreScriptUtils that scripts may call.
 */
import { javaDouble } from '../../common/java-double.js';
import { javaFloatToString } from '../../common/float-json.js';
import type { DatePart, StringMethod, ValueType } from '../../dsl/index.js';

const TWO_63 = 9223372036854775808;
export const SAFE = Number.MAX_SAFE_INTEGER;

/** A long result: exact while safe, else wrapped at 64 bits as Java's long arithmetic does. */
export function wrapLong(v: number, a: number, b: number, op: (x: bigint, y: bigint) => bigint): number {
  if (v >= -SAFE && v <= SAFE) return v === 0 ? 0 : v;
  return Number(BigInt.asIntN(64, op(BigInt(a), BigInt(b))));
}

/** Java's d2l: NaN → 0, saturating at the long range, toward zero. */
export function toLong(v: number): number {
  if (Number.isNaN(v)) return 0;
  if (v >= TWO_63) return TWO_63 - 1;
  if (v <= -TWO_63) return -TWO_63;
  const t = Math.trunc(v);
  return t === 0 ? 0 : t;
}

/** Java's d2i (NaN → 0, saturating) and l2i (the low 32 bits). */
export function toInt(v: number, from: ValueType): number {
  if (from === 'long' || from === 'int') return Math.abs(v) <= SAFE ? v | 0 : Number(BigInt.asIntN(32, BigInt(v)));
  if (Number.isNaN(v)) return 0;
  if (v >= 2147483647) return 2147483647;
  if (v <= -2147483648) return -2147483648;
  return Math.trunc(v) | 0;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** java.time's toString of a UTC instant: the time's seconds and fraction only when not zero (ZonedDateTime) or always seconds (Instant). */
function javaTime(millis: number, instant: boolean): string {
  const d = new Date(millis);
  const year = d.getUTCFullYear();
  const date = `${year > 9999 ? '+' : year < 0 ? '-' : ''}${pad(Math.abs(year), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const ms = d.getUTCMilliseconds();
  let time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}`;
  if (instant || d.getUTCSeconds() !== 0 || ms !== 0) time += `:${pad(d.getUTCSeconds(), 2)}`;
  if (ms !== 0) time += `.${pad(ms, 3)}`;
  return `${date}T${time}Z`;
}

/** Java's String.valueOf of a value of type `t`, as `+` with a String renders it. */
export function javaString(v: unknown, t: ValueType): string {
  if (v === null) return 'null';
  switch (t) {
    case 'double': return javaDouble(v as number);
    case 'float': return javaFloatToString(v as number);
    case 'date': return javaTime(v as number, false);
    case 'instant': return javaTime(v as number, true);
    default: return String(v);
  }
}

export const MATH: Record<string, (...a: number[]) => number> = {
  log: Math.log, log10: Math.log10, sqrt: Math.sqrt, exp: Math.exp, abs: Math.abs, floor: Math.floor, ceil: Math.ceil,
  signum: (x) => (Number.isNaN(x) || x === 0 ? x : Math.sign(x)), sin: Math.sin, cos: Math.cos, tan: Math.tan, atan: Math.atan,
  asin: Math.asin, acos: Math.acos, cbrt: Math.cbrt, log1p: Math.log1p, expm1: Math.expm1, sinh: Math.sinh, cosh: Math.cosh,
  tanh: Math.tanh, toRadians: (x) => (x / 180) * Math.PI, toDegrees: (x) => (x * 180) / Math.PI,
  rint: (x) => {
    if (!Number.isFinite(x)) return x;
    const f = Math.floor(x);
    const d = x - f;
    return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
  },
  // Math.round(double): to the nearest long, ties up; NaN is 0.
  round: (x) => (Number.isNaN(x) ? 0 : toLong(Math.round(x))),
  pow: Math.pow, min: Math.min, max: Math.max, atan2: Math.atan2, hypot: Math.hypot,
  // Lucene expressions' functions (JavascriptCompiler.DEFAULT_FUNCTIONS, MathUtil's hyperbolic inverses).
  'js:abs': Math.abs, 'js:acos': Math.acos, 'js:asin': Math.asin, 'js:atan': Math.atan, 'js:atan2': Math.atan2, 'js:ceil': Math.ceil,
  'js:cos': Math.cos, 'js:cosh': Math.cosh, 'js:exp': Math.exp, 'js:floor': Math.floor, 'js:ln': Math.log, 'js:log10': Math.log10,
  'js:logn': (base, x) => Math.log(x) / Math.log(base), 'js:max': Math.max, 'js:min': Math.min, 'js:pow': Math.pow, 'js:sin': Math.sin,
  'js:sinh': Math.sinh, 'js:sqrt': Math.sqrt, 'js:tan': Math.tan, 'js:tanh': Math.tanh,
  'js:acosh': (a) => Math.log(Math.sqrt(a * a - 1.0) + a),
  'js:asinh': (a) => (Object.is(a, -0) || a < 0 ? -1 : 1) * Math.log(Math.sqrt(a * a + 1.0) + Math.abs(a)),
  'js:atanh': (a) => {
    const sign = Object.is(a, -0) || a < 0 ? -1 : 1;
    const x = Math.abs(a);
    return sign * (x < 1.0 ? 0.5 * Math.log((1.0 + x) / (1.0 - x)) : x === 1.0 ? Infinity : NaN);
  },
  // ScoreScriptUtils.
  saturation: (v, k) => v / (k + v),
  sigmoid: (v, k, a) => Math.pow(v, a) / (Math.pow(k, a) + Math.pow(v, a)),
  decayNumericLinear: (origin, scale, offset, decay, v) => {
    const scaling = scale / (1.0 - decay);
    const distance = Math.max(0.0, Math.abs(v - origin) - offset);
    return Math.max(0.0, (scaling - distance) / scaling);
  },
  decayNumericExp: (origin, scale, offset, decay, v) => Math.exp((Math.log(decay) / scale) * Math.max(0.0, Math.abs(v - origin) - offset)),
  decayNumericGauss: (origin, scale, offset, decay, v) => {
    const scaling = (0.5 * Math.pow(scale, 2.0)) / Math.log(decay);
    return Math.exp((0.5 * Math.pow(Math.max(0.0, Math.abs(v - origin) - offset), 2.0)) / scaling);
  },
};

/** java.lang.String's methods (lengths in UTF-16 units, as Java counts them; case mapping of the root locale). */
export function stringMethod(s: string, fn: StringMethod, arg: unknown): number | boolean | string {
  switch (fn) {
    case 'length': return s.length;
    case 'isEmpty': return s.length === 0;
    case 'equals': return s === arg;
    case 'contains': return s.includes(arg as string);
    case 'startsWith': return s.startsWith(arg as string);
    case 'endsWith': return s.endsWith(arg as string);
    case 'toLowerCase': return s.toLowerCase();
    case 'toUpperCase': return s.toUpperCase();
    case 'trim': return javaTrim(s);
  }
}

/**
 * String.trim: every char up to U+0020 off either end. Scanned, not a regex: `[…]+$` retries from
 * each char of an inner run of spaces, quadratic in the run (~1 s for 50k), and the string may be a
 * client's param or doc value.
 */
function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** A field of the UTC ZonedDateTime at `millis`. */
export function datePart(millis: number, part: DatePart): number {
  const d = new Date(millis);
  switch (part) {
    case 'getYear': return d.getUTCFullYear();
    case 'getMonthValue': return d.getUTCMonth() + 1;
    case 'getDayOfMonth': return d.getUTCDate();
    case 'getDayOfYear': return Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
    case 'getHour': return d.getUTCHours();
    case 'getMinute': return d.getUTCMinutes();
    case 'getSecond': return d.getUTCSeconds();
  }
}
