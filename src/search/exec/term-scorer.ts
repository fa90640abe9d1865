/**
 * Postings of one term in one segment as a scorer: BM25 per posting from the freq and the doc's
 * norm, block-skipping `advance` (per-block last doc ids), block-max score bounds for pruning, and
 * positions for phrase matching.
 */
import { BLOCK_SIZE, NO_NORMS_BYTE, type SegmentField } from '../../index/index.js';
import { bm25Score } from '../bm25.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

const BLOCK_SHIFT = Math.log2(BLOCK_SIZE);

export class TermScorer extends Scorer {
  readonly docs: Uint32Array;
  readonly freqs: Uint32Array | null;
  readonly norms: Uint8Array | null;
  readonly start: number;
  readonly end: number;
  /** Index of the current posting. */
  i: number;
  private readonly firstBlock: number;
  private readonly blockLastDoc: Uint32Array;
  private readonly blockMaxFreq: Uint32Array;
  private readonly blockMinNorm: Uint8Array;
  private readonly blockPosStart: Uint32Array | null;
  private readonly positions: Uint32Array | null;
  private cachedMaxScore = -1;

  constructor(
    field: SegmentField,
    ord: number,
    readonly weight: number,
    /** normInverse per encoded norm (bm25.normInverseCache). */
    readonly cache: Float64Array,
  ) {
    super();
    this.docs = field.docs!;
    this.freqs = field.freqs;
    this.norms = field.norms;
    this.start = field.postingsStart![ord];
    this.end = field.postingsStart![ord + 1];
    this.i = this.start - 1;
    this.firstBlock = field.blockStart![ord];
    this.blockLastDoc = field.blockLastDoc!;
    this.blockMaxFreq = field.blockMaxFreq!;
    this.blockMinNorm = field.blockMinNorm!;
    this.blockPosStart = field.blockPosStart;
    this.positions = field.positions;
  }

  nextDoc(): number {
    if (++this.i < this.end) return (this.doc = this.docs[this.i]);
    this.i = this.end;
    return (this.doc = NO_MORE_DOCS);
  }

  advance(target: number): number {
    const docs = this.docs;
    let i = this.i + 1;
    if (i >= this.end) {
      this.i = this.end;
      return (this.doc = NO_MORE_DOCS);
    }
    if (docs[i] < target) {
      // Skip whole blocks by their last doc, then binary-search inside the block.
      let b = this.firstBlock + ((i - this.start) >> BLOCK_SHIFT);
      const lastBlock = this.firstBlock + ((this.end - 1 - this.start) >> BLOCK_SHIFT);
      while (b < lastBlock && this.blockLastDoc[b] < target) b++;
      let lo = Math.max(i, this.start + ((b - this.firstBlock) << BLOCK_SHIFT));
      let hi = Math.min(this.end, this.start + ((b - this.firstBlock + 1) << BLOCK_SHIFT));
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (docs[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    if (i >= this.end) {
      this.i = this.end;
      return (this.doc = NO_MORE_DOCS);
    }
    this.i = i;
    return (this.doc = docs[i]);
  }

  freq(): number {
    return this.freqs === null ? 1 : this.freqs[this.i];
  }

  score(): number {
    const freq = this.freqs === null ? 1 : this.freqs[this.i];
    const norm = this.norms === null ? NO_NORMS_BYTE : this.norms[this.doc];
    return bm25Score(this.weight, freq, this.cache[norm]);
  }

  /** Block of the current posting (or of posting index `i`). */
  blockOf(i: number): number {
    return this.firstBlock + ((i - this.start) >> BLOCK_SHIFT);
  }

  lastDocOfBlock(b: number): number {
    return this.blockLastDoc[b];
  }

  /** Upper bound of scores within block b (max freq with the shortest length in the block). */
  blockMaxScore(b: number): number {
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
