/**
 * Postings of one term in one segment as a scorer: BM25 per posting from the freq and the doc's
 * norm, block-skipping `advance` (per-block last doc ids), block-max score bounds for pruning, and
 * positions for phrase matching.
 */
import { BLOCK_SIZE, IMPACTS_PER_BLOCK, NO_NORMS_BYTE, type SegmentField } from '../../index/index.js';
import { bm25Score } from '../bm25.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

const BLOCK_SHIFT = Math.log2(BLOCK_SIZE);

/** A term's postings given as arrays whose [start, end) are the term's (instead of the field's sections). */
export interface PostingsRange {
  readonly docs: Uint32Array;
  readonly freqs: Uint32Array | null;
  readonly start: number;
  readonly end: number;
}

export class TermScorer extends Scorer {
  /** Not readonly: FeatureScorer fills them when it first moves (packed feature postings). */
  docs: Uint32Array;
  freqs: Uint32Array | null;
  readonly norms: Uint8Array | null;
  readonly start: number;
  readonly end: number;
  /** Index of the current posting. */
  i: number;
  private readonly firstBlock: number;
  private readonly blockLastDoc: Uint32Array;
  protected readonly blockMaxFreq: Uint32Array;
  private readonly blockMinNorm: Uint8Array;
  private readonly impactFreqs: Uint32Array | null;
  private readonly impactNorms: Uint8Array | null;
  private readonly blockPosStart: Uint32Array | null;
  private readonly positions: Uint32Array | null;
  protected cachedMaxScore = -1;
  /**
   * Score for freq = 1 by encoded norm, filled lazily (NaN = not yet computed). Nearly every posting
   * of short text has freq 1 and a document collection has only a few dozen distinct norms, so
   * this replaces most divisions with a table read — with the very same float32 result.
   */
  readonly tf1: Float64Array;

  constructor(
    field: SegmentField,
    ord: number,
    readonly weight: number,
    /** normInverse per encoded norm (bm25.normInverseCache). */
    readonly cache: Float64Array,
    /** A 256-entry table filled with NaN, owned by this scorer while it lives (see tf1 above). */
    tf1: Float64Array,
    range: PostingsRange | null = null,
  ) {
    super();
    this.tf1 = tf1;
    this.docs = range !== null ? range.docs : field.docs!;
    this.freqs = range !== null ? range.freqs : field.freqs;
    this.norms = field.norms;
    this.start = range !== null ? range.start : field.postingsStart![ord];
    this.end = range !== null ? range.end : field.postingsStart![ord + 1];
    this.i = this.start - 1;
    this.firstBlock = field.blockStart![ord];
    this.blockLastDoc = field.blockLastDoc!;
    this.blockMaxFreq = field.blockMaxFreq!;
    this.blockMinNorm = field.blockMinNorm!;
    this.impactFreqs = field.norms !== null ? field.blockImpactFreqs : null;
    this.impactNorms = field.blockImpactNorms;
    this.blockPosStart = field.blockPosStart;
    this.positions = field.positions;
  }

  /** Positions the scorer on posting index p (p = end: exhausted). */
  seek(p: number): void {
    this.i = p;
    this.doc = p < this.end ? this.docs[p] : NO_MORE_DOCS;
  }

  nextDoc(): number {
    if (++this.i < this.end) return (this.doc = this.docs[this.i]);
    this.i = this.end;
    return (this.doc = NO_MORE_DOCS);
  }

  advance(target: number): number {
    const docs = this.docs;
    const end = this.end;
    let i = this.i + 1;
    // Candidates usually land close ahead: try the next few postings before searching.
    const near = Math.min(end, i + 4);
    while (i < near && docs[i] < target) i++;
    if (i < near) {
      this.i = i;
      return (this.doc = docs[i]);
    }
    if (i >= end) {
      this.i = end;
      return (this.doc = NO_MORE_DOCS);
    }
    // Skip whole blocks by their last doc, then binary-search inside the block.
    let b = this.firstBlock + ((i - this.start) >> BLOCK_SHIFT);
    const lastBlock = this.firstBlock + ((end - 1 - this.start) >> BLOCK_SHIFT);
    while (b < lastBlock && this.blockLastDoc[b] < target) b++;
    let lo = Math.max(i, this.start + ((b - this.firstBlock) << BLOCK_SHIFT));
    let hi = Math.min(end, this.start + ((b - this.firstBlock + 1) << BLOCK_SHIFT));
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= end) {
      this.i = end;
      return (this.doc = NO_MORE_DOCS);
    }
    this.i = lo;
    return (this.doc = docs[lo]);
  }

  freq(): number {
    return this.freqs === null ? 1 : this.freqs[this.i];
  }

  score(): number {
    return this.scoreAt(this.i, this.doc);
  }

  /** BM25 of posting p (whose doc is `doc`). */
  scoreAt(p: number, doc: number): number {
    const freq = this.freqs === null ? 1 : this.freqs[p];
    const norm = this.norms === null ? NO_NORMS_BYTE : this.norms[doc];
    if (freq === 1) {
      let v = this.tf1[norm];
      if (v !== v) v = this.tf1[norm] = bm25Score(this.weight, 1, this.cache[norm]);
      return v;
    }
    return bm25Score(this.weight, freq, this.cache[norm]);
  }

  /** Block of the current posting (or of posting index `i`). */
  blockOf(i: number): number {
    return this.firstBlock + ((i - this.start) >> BLOCK_SHIFT);
  }

  lastDocOfBlock(b: number): number {
    return this.blockLastDoc[b];
  }

  /**
   * Upper bound of scores within block b: the best of its impacts, or in segments without them the
   * max freq with the shortest length in the block. bm25Score is monotone in freq and length.
   */
  blockMaxScore(b: number): number {
    const freqs = this.impactFreqs;
    if (freqs !== null) {
      const norms = this.impactNorms!;
      let max = 0;
      for (let i = b * IMPACTS_PER_BLOCK, end = i + IMPACTS_PER_BLOCK; i < end; i++) {
        const f = freqs[i];
        if (f === 0) break;
        const s = bm25Score(this.weight, f, this.cache[norms[i]]);
        if (s > max) max = s;
      }
      return max;
    }
    return bm25Score(this.weight, this.blockMaxFreq[b], this.cache[this.norms === null ? NO_NORMS_BYTE : this.blockMinNorm[b]]);
  }

  maxScore(): number {
    if (this.cachedMaxScore < 0) {
      let max = 0;
      if (this.end > this.start) {
        const last = this.blockOf(this.end - 1);
        for (let b = this.firstBlock; b <= last; b++) max = Math.max(max, this.blockMaxScore(b));
      }
      this.cachedMaxScore = max;
    }
    return this.cachedMaxScore;
  }

  cost(): number {
    return this.end - this.start;
  }

  /** Positions of the current posting: [from, to) into `positionsArray`. */
  positionRange(): [number, number] {
    const b = this.blockOf(this.i);
    let p = this.blockPosStart![b];
    for (let k = this.start + ((b - this.firstBlock) << BLOCK_SHIFT); k < this.i; k++) p += this.freqs![k];
    return [p, p + this.freqs![this.i]];
  }

  get positionsArray(): Uint32Array {
    return this.positions!;
  }
}
