/** Binary searches over ascending arrays of numbers. */

/**
 * The last position whose value is ≤ `value` in an ascending array whose first value is ≤ `value`
 * (which of a run of starts — segment doc bases, a term's first entry — a position falls in).
 */
export function lastAtMost(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sorted[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
