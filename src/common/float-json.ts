/**
 * Scores are float32 (as in Lucene); ES prints them as Java prints a float: the shortest decimal
 * that reads back as the same float (1.3862942, not 1.3862942457199097).
 *
 * `toPrecision` costs ~1–2 µs per call on V8, and a page has a dozen scores, so digits are found
 * with float arithmetic: for p = 1…9 significant digits, round x·10^(p−1−e) to an integer m and
 * accept the first m·10^(e+1−p) that reads back as x in float32.
 */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

export function float32ToJson(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return '0';
  if (shortestDigits(x)) return decimalString(shortM, shortScale, scaled(shortM, shortScale));
  return slowFloat32ToJson(x);
}

/**
 * Writes `float32ToJson(x)` as ASCII bytes into `out` at `at` (room for 24 bytes is the caller's);
 * returns where it ends. The digits go straight from the integer to bytes: no string per score
 * (a search worker prints one per hit into the page buffer).
 */
export function writeFloat32Json(x: number, out: Uint8Array, at: number): number {
  if (Number.isFinite(x) && x !== 0 && shortestDigits(x)) {
    let m = shortM < 0 ? -shortM : shortM;
    let scale = shortScale;
    // As decimalString: a rounding up to the next power of ten leaves trailing zeros, JS prints none.
    while (m >= 10 && m % 10 === 0) {
      m /= 10;
      scale--;
    }
    let len = 1;
    while (len < 22 && m >= POW10[len]) len++;
    const point = len - scale;
    if (point <= 21 && point > -6) {
      if (shortM < 0) out[at++] = 45; // -
      if (point <= 0) {
        out[at++] = 48; // 0
        out[at++] = 46; // .
        for (let z = point; z < 0; z++) out[at++] = 48;
      }
      // Digits from the last; the point after `point` of them when it falls inside.
      const dot = point > 0 && point < len ? 1 : 0;
      let i = at + len + dot - 1;
      for (let d = len - 1; d >= 0; d--) {
        if (dot === 1 && d === point - 1) out[i--] = 46;
        const q = Math.floor(m / 10);
        out[i--] = 48 + (m - q * 10);
        m = q;
      }
      at += len + dot;
      for (let z = len; z < point; z++) out[at++] = 48;
      return at;
    }
  }
  const s = float32ToJson(x);
  for (let i = 0; i < s.length; i++) out[at++] = s.charCodeAt(i);
  return at;
}

/** The shortest digits shortestDigits found: the float is shortM · 10^−shortScale. */
let shortM = 0;
let shortScale = 0;

/**
 * For a finite nonzero x, finds the fewest significant digits (up to 9) that read back as x by
 * float arithmetic and leaves them in shortM / shortScale; false when x's exponent is outside the
 * range that arithmetic is exact for (then slowFloat32ToJson prints it).
 */
function shortestDigits(x: number): boolean {
  const e = decimalExponent(Math.abs(x));
  // Fewest digits that read back as x: "reads back" is monotone in the digit count p (a rounding
  // to p digits that reads back stays within x's float32 interval at p + 1 digits too), and nearly
  // every score needs 7–9 digits, so the walk starts at 8 and goes down, or up to 9: two roundings
  // for most scores, where a binary search over 1…9 took four. (A page prints a dozen scores, a
  // model's output hundreds of weights per document.)
  if (e - 8 >= -22 && e <= 22) {
    let p = 8;
    let m = roundTo(x, e, p);
    if (readsBack(x, m, p - 1 - e)) {
      while (p > 1) {
        const fewer = roundTo(x, e, p - 1);
        if (!readsBack(x, fewer, p - 2 - e)) break;
        m = fewer;
        p--;
      }
      shortM = m;
      shortScale = p - 1 - e;
      return true;
    }
    p = 9;
    m = roundTo(x, e, p);
    if (readsBack(x, m, p - 1 - e)) {
      shortM = m;
      shortScale = p - 1 - e;
      return true;
    }
  }
  return false;
}

function slowFloat32ToJson(x: number): string {
  for (let p = 1; p <= 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return String(Number(s));
  }
  return String(x);
}

/**
 * ⌊log10 a⌋ for a float32 a > 0: by comparisons for scores' usual range [0.001, 10⁹) (Math.log10
 * costs as much as the rest of the digit search), by the logarithm elsewhere.
 */
function decimalExponent(a: number): number {
  if (a >= 1) {
    if (a < 1e9) {
      let e = 0;
      while (a >= POW10[e + 1]) e++;
      return e;
    }
  } else if (a >= 0.001) {
    return a >= 0.1 ? -1 : a >= 0.01 ? -2 : -3;
  }
  return Math.floor(Math.log10(a));
}

/** x rounded to p significant digits, as an integer (x's decimal exponent is e). */
function roundTo(x: number, e: number, p: number): number {
  const k = p - 1 - e;
  return k >= 0 ? Math.round(x * POW10[k]) : Math.round(x / POW10[-k]);
}

/** m · 10^−k as a double. */
function scaled(m: number, k: number): number {
  return k >= 0 ? m / POW10[k] : m * POW10[-k];
}

/** Whether m · 10^−k reads back as the float32 x. */
function readsBack(x: number, m: number, k: number): boolean {
  return Math.fround(scaled(m, k)) === x;
}

/**
 * `String(value)` for value = m / 10^scale (m an integer of at most 10 digits), written from m's
 * own digits: an integer prints through V8's small-integer path, where a double goes through the
 * shortest-digits search again (~4× the cost; a page prints a dozen scores). A decimal of at most
 * 10 significant digits is exactly what JS prints for the double nearest to it, in plain notation
 * while the point position (digits before it) is within −5…21; outside that, `value` is printed.
 */
function decimalString(m: number, scale: number, value: number): string {
  const sign = m < 0 ? '-' : '';
  let s = String(m < 0 ? -m : m);
  let len = s.length;
  // A rounding up to the next power of ten (9.99… → 10) leaves trailing zeros: JS prints none.
  while (len > 1 && s.charCodeAt(len - 1) === 48 /* 0 */) {
    len--;
    scale--;
  }
  if (len !== s.length) s = s.slice(0, len);
  const point = len - scale; // digits before the decimal point
  if (point > 21 || point <= -6) return String(value);
  if (scale <= 0) return sign + s + '0'.repeat(-scale);
  if (point > 0) return `${sign}${s.slice(0, point)}.${s.slice(point)}`;
  return `${sign}0.${'0'.repeat(-point)}${s}`;
}

/**
 * Java's `Float.toString` (what ES error messages print for float values): "1.0", "-0.5",
 * "0.0", "NaN", "Infinity"; outside [10⁻³, 10⁷) computerized scientific notation, "1.0E-5".
 */
export function javaFloatToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const f = Math.fround(x);
  const a = Math.abs(f);
  const shortest = float32ToJson(f);
  if (a >= 1e-3 && a < 1e7) {
    // In this range JS prints plain decimals too.
    return shortest.includes('.') ? shortest : `${shortest}.0`;
  }
  // Scientific: the same shortest digits, one before the point.
  const [mantissa, exp] = Number(shortest).toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${Number(exp)}`;
}
