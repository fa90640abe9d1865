/**
 * ES CompensatedSum: Kahan summation, so that sums of many doubles stay as exact as ES's (and the
 * same whatever order the shards' partial sums come in, as far as doubles allow).
 */
export class CompensatedSum {
  value = 0;
  private delta = 0;

  add(v: number): void {
    const corrected = v - this.delta;
    const next = this.value + corrected;
    this.delta = next - this.value - corrected;
    this.value = next;
  }
}
