/**
 * The best `capacity` completion entries of a shard in selection order (exec-suggest.ts): score
 * descending, then analyzed form ascending, then write order — a bounded heap whose worst entry is
 * the bar. Entries are offered segment by segment in ascending entry order, which within a segment
 * is (form, doc) order, so an entry that only ties the bar's score loses to it when both come from
 * the same segment; across segments the forms' bytes are compared. Whole blocks of entries whose
 * maximum weight cannot reach the bar are skipped (COMPLETION_BLOCK_SIZE), so a prefix matching
 * many inputs costs about one block per winner.
 */
import { lastAtMost } from '../../common/sorted-search.js';
import { COMPLETION_BLOCK_SIZE, isLive, type LiveDocs, type Segment, type SegmentField } from '../../index/index.js';

/** Lucene CompletionScorer.score: the weight alone without a boost, the boost alone for weight 0, else their float product. */
export function completionScore(weight: number, boost: number): number {
  if (boost === 0) return Math.fround(weight);
  if (weight === 0) return boost;
  return Math.fround(Math.fround(weight) * boost);
}

export interface ShardField {
  readonly segment: Segment;
  readonly field: SegmentField;
  readonly live: LiveDocs;
}

/** Term ordinal of an entry: the last term whose entries start at or before it (every term has entries). */
export function termOfEntry(start: Uint32Array, entry: number): number {
  return lastAtMost(start, entry);
}

export class TopEntries {
  readonly scores: Float64Array;
  readonly segs: Int32Array;
  readonly entries: Int32Array;
  /** Heap of slot numbers, worst first. */
  private readonly heap: Int32Array;
  size = 0;
  /** An entry ever fell off (or was refused): the heap does not hold every match. */
  overflowed = false;
  /** The worst entry's score and segment once the heap is full: the bar most entries fail at once. */
  private barScore = -Infinity;
  private barSeg = -1;

  constructor(readonly capacity: number, private readonly fields: ReadonlyArray<ShardField | null>) {
    this.scores = new Float64Array(capacity);
    this.segs = new Int32Array(capacity);
    this.entries = new Int32Array(capacity);
    this.heap = new Int32Array(capacity);
  }

  /** Negative when entry a precedes entry b in selection order. */
  compare(sa: number, ea: number, scoreA: number, sb: number, eb: number, scoreB: number): number {
    if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
    if (sa === sb) return ea - eb;
    const fa = this.fields[sa]!;
    const fb = this.fields[sb]!;
    const ca = fa.field.completion!;
    const cb = fb.field.completion!;
    const c = compareTerms(fa.field, termOfEntry(ca.entryStart, ea), fb.field, termOfEntry(cb.entryStart, eb));
    if (c !== 0) return c;
    return fa.segment.indexOrder.get(ca.docs[ea]) - fb.segment.indexOrder.get(cb.docs[eb]);
  }

  private worse(slotA: number, slotB: number): boolean {
    return this.compare(this.segs[slotA], this.entries[slotA], this.scores[slotA], this.segs[slotB], this.entries[slotB], this.scores[slotB]) > 0;
  }

  private siftUp(i: number): void {
    const h = this.heap;
    const slot = h[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(slot, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = slot;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const slot = h[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.worse(h[child + 1], h[child])) child++;
      if (!this.worse(h[child], slot)) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = slot;
  }

  offer(score: number, seg: number, entry: number): void {
    if (this.size < this.capacity) {
      const slot = this.size++;
      this.scores[slot] = score;
      this.segs[slot] = seg;
      this.entries[slot] = entry;
      this.heap[slot] = slot;
      this.siftUp(slot);
    } else {
      this.overflowed = true;
      const worst = this.heap[0];
      if (this.compare(seg, entry, score, this.segs[worst], this.entries[worst], this.scores[worst]) >= 0) return;
      this.scores[worst] = score;
      this.segs[worst] = seg;
      this.entries[worst] = entry;
      this.siftDown(0);
    }
    if (this.size === this.capacity) {
      this.barScore = this.scores[this.heap[0]];
      this.barSeg = this.segs[this.heap[0]];
    }
  }

  /** Whether an entry of `seg` scoring `score` certainly fails the bar. Entries of the bar's own
   *  segment come after it in form order (they are offered in entry order), so a tie fails too. */
  private fails(score: number, seg: number): boolean {
    return this.size === this.capacity && (score < this.barScore || (score === this.barScore && seg === this.barSeg));
  }

  /**
   * Offers the live entries [from, to) of segment `seg`, every one scored with `boost`, skipping
   * blocks whose best score cannot beat the bar.
   */
  scan(seg: number, from: number, to: number, boost: number): void {
    const f = this.fields[seg]!;
    const live = f.live;
    const { weights, docs, blockMaxWeight } = f.field.completion!;
    for (let b = Math.floor(from / COMPLETION_BLOCK_SIZE); b * COMPLETION_BLOCK_SIZE < to; b++) {
      if (this.fails(completionScore(blockMaxWeight[b], boost), seg)) {
        this.overflowed = true;
        continue;
      }
      const end = Math.min(to, (b + 1) * COMPLETION_BLOCK_SIZE);
      for (let i = Math.max(from, b * COMPLETION_BLOCK_SIZE); i < end; i++) {
        const score = completionScore(weights[i], boost);
        if (this.fails(score, seg)) {
          this.overflowed = true;
        } else if (live === null || isLive(live, docs[i])) {
          this.offer(score, seg, i);
        }
      }
    }
  }

  /** Slots best first. */
  sorted(): number[] {
    const slots = Array.from({ length: this.size }, (_, i) => i);
    return slots.sort((a, b) => this.compare(this.segs[a], this.entries[a], this.scores[a], this.segs[b], this.entries[b], this.scores[b]));
  }
}

/** Byte order of two terms of (possibly) different segments. */
function compareTerms(fa: SegmentField, ta: number, fb: SegmentField, tb: number): number {
  const ba = fa.termBytes!;
  const bb = fb.termBytes!;
  let ia = fa.termOffsets![ta];
  const ea = fa.termOffsets![ta + 1];
  let ib = fb.termOffsets![tb];
  const eb = fb.termOffsets![tb + 1];
  for (; ia < ea && ib < eb; ia++, ib++) if (ba[ia] !== bb[ib]) return ba[ia] - bb[ib];
  return (ea - ia) - (eb - ib);
}
