/**
 * Top-k by score for one shard: a min-heap whose root is the current k-th best hit. Ties are broken
 * by write order (earlier wins). Hits may be offered in any order; a hit scoring exactly the root's
 * score enters only if it was written earlier. `minCompetitive` is therefore a safe pruning bound
 * for docs written after everything offered so far (equal scores lose to earlier docs).
 */

export class TopScoreDocs {
  private static spare: TopScoreDocs | null = null;

  /**
   * An empty heap of this capacity, reusing the previous one when the capacity matches: V8
   * allocates typed arrays over 64 bytes off-heap at ~1 µs each, which showed in per-query
   * profiles. The heap is only valid until the next `reuse` on this thread.
   */
  static reuse(capacity: number): TopScoreDocs {
    let top = TopScoreDocs.spare;
    if (top === null || top.capacity !== capacity) TopScoreDocs.spare = top = new TopScoreDocs(capacity);
    top.size = 0;
    return top;
  }

  readonly scores: Float64Array;
  /** Shard-local order key: segment base + doc id, increasing in write order. */
  readonly orders: Float64Array;
  size = 0;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.orders = new Float64Array(capacity);
  }

  get full(): boolean {
    return this.size === this.capacity;
  }

  /** Scores at or below this cannot enter (−Infinity until the heap is full). */
  get minCompetitive(): number {
    return this.size === this.capacity && this.capacity > 0 ? this.scores[0] : -Infinity;
  }

  /** Worse = lower score, or equal score and later. */
  private worse(i: number, j: number): boolean {
    const a = this.scores[i];
    const b = this.scores[j];
    return a < b || (a === b && this.orders[i] > this.orders[j]);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
    const o = this.orders[i];
    this.orders[i] = this.orders[j];
    this.orders[j] = o;
  }

  /** Offers a hit; returns true when it entered the heap. */
  offer(score: number, order: number): boolean {
    if (this.capacity === 0) return false;
    if (this.size < this.capacity) {
      let i = this.size++;
      this.scores[i] = score;
      this.orders[i] = order;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return true;
    }
    if (score < this.scores[0] || (score === this.scores[0] && order > this.orders[0])) return false;
    this.scores[0] = score;
    this.orders[0] = order;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) return true;
      this.swap(i, m);
      i = m;
    }
  }

  /**
   * Heap-sorts in place: afterwards scores[0, size) and orders[0, size) are best first, and the
   * heap can no longer take offers.
   */
  sortBestFirst(): number {
    for (let end = this.size - 1; end > 0; end--) {
      this.swap(0, end);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < end && this.worse(l, m)) m = l;
        if (r < end && this.worse(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return this.size;
  }
}
