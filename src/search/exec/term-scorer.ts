/**
 * Postings of one term in one segment as a scorer: BM25 per posting from the freq and the doc's
 * norm, block-skipping `advance` (per-block last doc ids), block-max score bounds for pruning, and
 * positions for phrase matching.
 */
import { BLOCK_SIZE, IMPACTS_PER_BLOCK, NO_NORMS_BYTE, decodeBlockDocs, decodeBlockDocsFrom, decodeBlockFreqs, type PackedPostings, type SegmentField } from '../../index/index.js';
import { bm25Score } from '../bm25.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

const BLOCK_SHIFT = Math.log2(BLOCK_SIZE);

/** A scorer's decoded block (see TermScorer.docs); pooled per search by SegmentSearchContext. */
export interface BlockBuffers {
  readonly docs: Int32Array;
  readonly freqs: Int32Array;
}

export function newBlockBuffers(): BlockBuffers {
  return { docs: new Int32Array(BLOCK_SIZE), freqs: new Int32Array(BLOCK_SIZE) };
}

export class TermScorer extends Scorer {
  /**
   * The loaded block's docs and freqs: posting p (global index, start ≤ p < end) is at
   * [p − blockBase] while blockBase ≤ p < blockEnd. Always Int32Arrays, whatever the segment's
   * encoding, so the scoring loops that read them stay monomorphic. Fields without freqs read 1.
   */
  readonly docs: Int32Array;
  readonly freqs: Int32Array;
  blockBase = 0;
  blockEnd = 0;
  /** The loaded block, −1 before the first. */
  protected loaded = -1;
  /**
   * The block whose freqs `freqs` holds: packed blocks decode their freqs only when asked
   * (loadFreqs, scoreAt, freq), since skipping with `advance` reads docs alone.
   */
  protected freqsBlock = -1;
  /** docs[k] is decoded for k ≥ validFrom (advance decodes a packed block only from its target on). */
  private validFrom = 0;
  readonly norms: Uint8Array | null;
  readonly start: number;
  readonly end: number;
  /** Index of the current posting. */
  i: number;
  protected readonly firstBlock: number;
  private readonly blockLastDoc: Uint32Array;
  protected readonly blockMaxFreq: Uint32Array;
  private readonly blockMinNorm: Uint8Array;
  private readonly impactFreqs: Uint32Array | null;
  private readonly impactNorms: Uint8Array | null;
  private readonly blockPosStart: Uint32Array | null;
  private readonly positions: Uint8Array | Uint16Array | Uint32Array | null;
  /** Where blocks are decoded from: packed (format 3), else the flat sections of older segments. */
  private readonly packed: PackedPostings | null;
  protected readonly flatDocs: Uint32Array | null;
  protected readonly flatFreqs: Uint32Array | null;
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
    /** Owned by this scorer while it lives (allocating them per scorer showed in short queries' latency). */
    block: BlockBuffers = newBlockBuffers(),
  ) {
    super();
    this.tf1 = tf1;
    this.docs = block.docs;
    this.freqs = block.freqs;
    this.packed = field.postings;
    this.flatDocs = field.docs;
    this.flatFreqs = field.freqs;
    this.norms = field.norms;
    this.start = field.postingsStart![ord];
    this.end = field.postingsStart![ord + 1];
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

  /** Makes the block holding posting p (start ≤ p < end) the loaded one. */
  load(p: number): void {
    const b = this.firstBlock + ((p - this.start) >> BLOCK_SHIFT);
    if (b !== this.loaded || p - this.blockBase < this.validFrom) this.loadBlock(b);
  }

  protected loadBlock(b: number): void {
    const first = this.start + ((b - this.firstBlock) << BLOCK_SHIFT);
    const n = Math.min(BLOCK_SIZE, this.end - first);
    this.decodeBlock(b, first, n);
    this.loaded = b;
    this.blockBase = first;
    this.blockEnd = first + n;
    this.validFrom = 0;
  }

  /** Loads block b for `advance(target)` (its last doc ≥ target); returns the index of the first doc ≥ target. */
  private loadBlockFor(b: number, target: number): number {
    const first = this.start + ((b - this.firstBlock) << BLOCK_SHIFT);
    const n = Math.min(BLOCK_SIZE, this.end - first);
    this.loaded = b;
    this.blockBase = first;
    this.blockEnd = first + n;
    if (this.packed !== null) {
      this.freqsBlock = -1;
      return (this.validFrom = decodeBlockDocsFrom(this.packed, b, n, this.blockLastDoc[b], this.docs, target));
    }
    this.decodeBlock(b, first, n);
    this.validFrom = 0;
    let k = 0;
    while (this.docs[k] < target) k++;
    return k;
  }

  /** Fills docs [0, n) with block b, whose first posting is `first` (and freqs, unless packed: see freqsBlock). */
  protected decodeBlock(b: number, first: number, n: number): void {
    if (this.packed !== null) {
      decodeBlockDocs(this.packed, b, n, this.blockLastDoc[b], this.docs);
      return;
    }
    const docs = this.docs;
    const freqs = this.freqs;
    const flatDocs = this.flatDocs!;
    const flatFreqs = this.flatFreqs;
    for (let k = 0; k < n; k++) docs[k] = flatDocs[first + k];
    if (flatFreqs !== null) for (let k = 0; k < n; k++) freqs[k] = flatFreqs[first + k];
    else for (let k = 0; k < n; k++) freqs[k] = 1;
    this.freqsBlock = b;
  }

  /** Makes `freqs` hold the loaded block's freqs. */
  loadFreqs(): void {
    if (this.freqsBlock !== this.loaded) {
      decodeBlockFreqs(this.packed!, this.loaded, this.blockEnd - this.blockBase, this.freqs);
      this.freqsBlock = this.loaded;
    }
  }

  /** Positions the scorer on posting index p (p = end: exhausted). */
  seek(p: number): void {
    this.i = p;
    if (p < this.end) {
      this.load(p);
      this.doc = this.docs[p - this.blockBase];
    } else {
      this.doc = NO_MORE_DOCS;
    }
  }

  nextDoc(): number {
    const i = ++this.i;
    if (i < this.blockEnd && i >= this.blockBase) return (this.doc = this.docs[i - this.blockBase]);
    if (i < this.end) {
      this.load(i);
      return (this.doc = this.docs[i - this.blockBase]);
    }
    this.i = this.end;
    return (this.doc = NO_MORE_DOCS);
  }

  advance(target: number): number {
    const end = this.end;
    let i = this.i + 1;
    if (i >= end) {
      this.i = end;
      return (this.doc = NO_MORE_DOCS);
    }
    if (i < this.blockBase || i >= this.blockEnd || this.blockLastDoc[this.loaded] < target) {
      // Skip whole blocks by their last doc, then load the one that holds the target.
      let b = this.firstBlock + ((i - this.start) >> BLOCK_SHIFT);
      const lastBlock = this.firstBlock + ((end - 1 - this.start) >> BLOCK_SHIFT);
      while (b < lastBlock && this.blockLastDoc[b] < target) b++;
      if (this.blockLastDoc[b] < target) {
        this.i = end;
        return (this.doc = NO_MORE_DOCS);
      }
      if (b !== this.loaded) {
        // A new block: decoded from its end down to the target, which it finds on the way.
        const k = this.loadBlockFor(b, target);
        this.i = this.blockBase + k;
        return (this.doc = this.docs[k]);
      }
    }
    // The loaded block's last doc is ≥ target: the search ends inside it.
    const docs = this.docs;
    const base = this.blockBase;
    let k = i - base;
    const n = this.blockEnd - base;
    // Candidates usually land close ahead: try the next few postings before searching.
    if (k + 4 < n && docs[k + 3] < target) {
      let lo = k + 4;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (docs[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      k = lo;
    } else {
      while (docs[k] < target) k++;
    }
    this.i = base + k;
    return (this.doc = docs[k]);
  }

  freq(): number {
    this.loadFreqs();
    return this.freqs[this.i - this.blockBase];
  }

  score(): number {
    return this.scoreAt(this.i, this.doc);
  }

  /** BM25 of posting p (whose doc is `doc`), which must be in the loaded block. */
  scoreAt(p: number, doc: number): number {
    if (this.freqsBlock !== this.loaded) this.loadFreqs();
    const freq = this.freqs[p - this.blockBase];
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

  /** Index of block b's first posting (b must be one of this term's blocks). */
  firstPostingOfBlock(b: number): number {
    return this.start + ((b - this.firstBlock) << BLOCK_SHIFT);
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
    this.loadFreqs();
    const freqs = this.freqs;
    const k = this.i - this.blockBase;
    let p = this.blockPosStart![this.loaded];
    for (let j = 0; j < k; j++) p += freqs[j];
    return [p, p + freqs[k]];
  }

  get positionsArray(): Uint8Array | Uint16Array | Uint32Array {
    return this.positions!;
  }
}
