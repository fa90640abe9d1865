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
  const e = Math.floor(Math.log10(Math.abs(x)));
  // Fewest digits that read back as x, by binary search over 1…9: a rounding to p digits that
  // reads back stays within x's float32 interval at p + 1 digits too, so "reads back" is monotone
  // in p. (Model outputs print hundreds of weights per document: the linear scan was the cost.)
  if (e - 8 >= -22 && e <= 22) {
    let lo = 1;
    let hi = 9;
    // The number, printed once at the end: printing every candidate that reads back cost as much
    // as the search itself (a page prints a dozen scores).
    let best = NaN;
    while (lo <= hi) {
      const p = (lo + hi) >>> 1;
      const k = p - 1 - e; // scale exponent
      const y = k >= 0 ? Math.round(x * POW10[k]) / POW10[k] : Math.round(x / POW10[-k]) * POW10[-k];
      if (Math.fround(y) === x) {
        best = y;
        hi = p - 1;
      } else {
        lo = p + 1;
      }
    }
    if (!Number.isNaN(best)) return String(best);
  }
  for (let p = 1; p <= 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return String(Number(s));
  }
  return String(x);
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
