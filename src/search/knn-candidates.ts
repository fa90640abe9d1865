/**
 * One shard's part of the kNN pre-phase (ES DfsPhase.executeKnnVectorQuery, exact here): the top k
 * live documents the plan (a `knn_exact` node, maybe under an alias filter) matches, best first by
 * score, ties by index-wide write order — the order the coordinator merges every shard's lists in,
 * so the global top k is the same however the documents are sharded.
 */
import { isLive } from '../index/index.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import type { SearchDeadline } from './exec/deadline.js';
import { NO_MORE_DOCS } from './exec/scorer.js';
import type { ShardView } from './exec/shard-view.js';
import type { Exec } from './plan/exec-nodes.js';

/** The candidates, best first: each one's score, segment ordinal, doc and index-wide order. */
export interface KnnCandidates {
  readonly count: number;
  hit(i: number, into: Float64Array, at: number): void;
}

/**
 * A bounded heap of (score, order) keeping the k best: the root is the worst kept (lowest score,
 * then highest order), so a candidate is compared once against it.
 */
class TopKnn {
  readonly scores: Float64Array;
  readonly orders: Float64Array;
  readonly segs: Int32Array;
  readonly docs: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.orders = new Float64Array(k);
    this.segs = new Int32Array(k);
    this.docs = new Int32Array(k);
  }

  /** a is worse than b. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa < sb || (sa === sb && this.orders[a] > this.orders[b]);
  }

  /** Whether (score, order) would enter. */
  competitive(score: number, order: number): boolean {
    if (this.size < this.k) return true;
    const s = this.scores[0];
    return score > s || (score === s && order < this.orders[0]);
  }

  offer(score: number, order: number, seg: number, doc: number): void {
    const filling = this.size < this.k;
    const at = filling ? this.size++ : 0;
    this.scores[at] = score;
    this.orders[at] = order;
    this.segs[at] = seg;
    this.docs[at] = doc;
    if (filling) this.up(at);
    else this.down(at);
  }

  private swap(a: number, b: number): void {
    let t = this.scores[a]; this.scores[a] = this.scores[b]; this.scores[b] = t;
    t = this.orders[a]; this.orders[a] = this.orders[b]; this.orders[b] = t;
    let u = this.segs[a]; this.segs[a] = this.segs[b]; this.segs[b] = u;
    u = this.docs[a]; this.docs[a] = this.docs[b]; this.docs[b] = u;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < this.size && this.worse(l, w)) w = l;
      if (r < this.size && this.worse(r, w)) w = r;
      if (w === i) return;
      this.swap(i, w);
      i = w;
    }
  }

  /** Kept entries' positions, best first. */
  ranked(): number[] {
    const idx = Array.from({ length: this.size }, (_, i) => i);
    return idx.sort((a, b) => this.scores[b] - this.scores[a] || this.orders[a] - this.orders[b]);
  }
}

/**
 * The shard's top `k` of `query` (a `knn_exact` plan) by score, ties by index-wide write order,
 * among docs [maxDoc × part / parts, maxDoc × (part + 1) / parts) of each segment.
 */
export function searchKnnCandidates(
  query: Exec, k: number, slice: { readonly part: number; readonly parts: number }, shard: ShardView, deadline: SearchDeadline,
): KnnCandidates {
  const top = new TopKnn(Math.max(k, 0));
  for (let s = 0; s < shard.segments.length && k > 0 && !deadline.expired(); s++) {
    const segment = shard.segments[s];
    const live = shard.liveDocs[s];
    const ctx = new SegmentSearchContext(segment, deadline);
    const scorer = buildScorer(query, ctx);
    const from = Math.floor((segment.maxDoc * slice.part) / slice.parts);
    const to = Math.floor((segment.maxDoc * (slice.part + 1)) / slice.parts);
    if (scorer !== null && from < to) {
      for (let doc = scorer.advance(from); doc < to; doc = scorer.nextDoc()) {
        if (deadline.expiredEvery()) break;
        if (!isLive(live, doc)) continue;
        const score = scorer.score();
        const order = segment.indexOrder.get(doc);
        if (top.competitive(score, order)) top.offer(score, order, s, doc);
      }
    }
    ctx.release();
  }
  const ranked = top.ranked();
  return {
    count: ranked.length,
    hit(i, into, at) {
      const p = ranked[i];
      into[at] = top.scores[p];
      into[at + 1] = top.segs[p];
      into[at + 2] = top.docs[p];
      into[at + 3] = top.orders[p];
    },
  };
}
