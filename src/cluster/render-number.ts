/**
 * Scores are float32 (as in Lucene); ES prints them as Java prints a float: the shortest decimal
 * that reads back as the same float (1.3862942, not 1.3862942457199097).
 */
export function float32ToJson(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  for (let p = 1; p <= 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return String(Number(s));
  }
  return String(x);
}
