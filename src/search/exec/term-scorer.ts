/**
 * Postings of one term in one segment as a scorer: BM25 per posting from the freq and the doc's
 * norm, block-skipping `advance` (per-block last doc ids), block-max score bounds for pruning, and
 * positions for phrase matching.
 */
import {
  BLOCK_SIZE, IMPACTS_PER_BLOCK, NO_NORMS_BYTE, decodeBlockDocs, decodeBlockDocsTail, decodeBlockFreqs, decodeSubBlockFor, findBlockDocs, freqAt, markBlockDocs, type PackedPostings,
  type SegmentField,
} from '../../index/index.js';
import { bm25Score } from '../bm25.js';
import { NO_MORE_DOCS, Scorer } from './scorer.js';

const BLOCK_SHIFT = Math.log2(BLOCK_SIZE);
/** markBlock's scratch: the postings in the block of the docs already set. */
const dupAt = new Int32Array(BLOCK_SIZE);

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
   * The block whose freqs `freqs` holds: packed blocks decode their freqs only when a scan asks
   * (loadFreqs, freq); scoreAt reads a single freq in place otherwise, since skipping with
   * `advance` reads docs alone and scores a few of them.
   */
  protected freqsBlock = -1;
  /**
   * Postings [validFrom, validTo) of the loaded block have their docs decoded: all of it once
   * loaded, a sub-block's part when `advance` or `seek` decoded only what they needed (packed).
   */
  private validFrom = 0;
  private validTo = 0;
  readonly norms: Uint8Array | null;
  readonly start: number;
  readonly end: number;
  /** Index of the current posting. */
  i: number;
  protected readonly firstBlock: number;
  private readonly blockLastDoc: Uint32Array;
  /** Block bounds where there are no impacts (null with them, format 6). */
  protected readonly blockMaxFreq: Uint8Array | Uint16Array | Uint32Array | null;
  private readonly blockMinNorm: Uint8Array | null;
  private readonly impactFreqs: Uint8Array | Uint16Array | Uint32Array | null;
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
    this.blockMaxFreq = field.blockMaxFreq;
    this.blockMinNorm = field.blockMinNorm;
    this.impactFreqs = field.norms !== null ? field.blockImpactFreqs : null;
    this.impactNorms = field.blockImpactNorms;
    this.blockPosStart = field.blockPosStart;
    this.positions = field.positions;
  }

  /** Makes the block holding posting p (start ≤ p < end) the loaded one, decoded from p to its end. */
  load(p: number): void {
    const b = this.firstBlock + ((p - this.start) >> BLOCK_SHIFT);
    if (b !== this.loaded) this.loadBlock(b);
    else if (p < this.validFrom || this.validTo < this.blockEnd) this.loadTail(p);
  }

  protected loadBlock(b: number): void {
    const first = this.start + ((b - this.firstBlock) << BLOCK_SHIFT);
    const n = Math.min(BLOCK_SIZE, this.end - first);
    this.decodeBlock(b, first, n);
    this.loaded = b;
    this.blockBase = first;
    this.blockEnd = first + n;
    this.validFrom = first;
    this.validTo = first + n;
  }

  /** The loaded (packed) block's docs from posting p to its end, where they are not decoded yet. */
  private loadTail(p: number): void {
    const b = this.loaded;
    const base = this.blockBase;
    // What is decoded, [validFrom, validTo), is a sub-block's part: decode from the block's end down to it, or to p.
    const from = p < this.validFrom || p > this.validTo ? p : this.validTo;
    decodeBlockDocsTail(this.packed!, b, this.blockEnd - base, this.blockLastDoc[b], this.docs, from - base);
    if (from === p) this.validFrom = p;
    this.validTo = this.blockEnd;
  }

  /** Makes block b the loaded one without decoding anything (packed). */
  private enterBlock(b: number): void {
    const first = this.start + ((b - this.firstBlock) << BLOCK_SHIFT);
    this.loaded = b;
    this.blockBase = first;
    this.blockEnd = Math.min(first + BLOCK_SIZE, this.end);
    this.freqsBlock = -1;
  }

  /**
   * Decodes, in the loaded packed block, the sub-block holding the first doc ≥ target at a posting
   * ≥ p (the block's last doc must be ≥ target): returns that posting.
   */
  private decodeFor(p: number, target: number): number {
    const b = this.loaded;
    const base = this.blockBase;
    const r = decodeSubBlockFor(this.packed!, b, this.blockEnd - base, this.blockLastDoc[b], this.docs, p - base, target);
    this.validFrom = base + (r & 0xff);
    this.validTo = base + (r >>> 8);
    return this.validFrom;
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

  /**
   * Positions the scorer on posting index p (p = end: exhausted). A packed block is decoded only
   * from p to its sub-block's end: scans that follow call load, and a skipping advance may never
   * need the rest.
   */
  seek(p: number): void {
    this.i = p;
    if (p >= this.end) {
      this.doc = NO_MORE_DOCS;
      return;
    }
    if (p < this.validFrom || p >= this.validTo) {
      const b = this.firstBlock + ((p - this.start) >> BLOCK_SHIFT);
      if (this.packed === null) {
        if (b !== this.loaded) this.loadBlock(b);
      } else {
        if (b !== this.loaded) this.enterBlock(b);
        this.decodeFor(p, 0);
      }
    }
    this.doc = this.docs[p - this.blockBase];
  }

  /**
   * Positions the scorer just before posting p without decoding anything: the next `advance`
   * finds the first doc ≥ its target at a posting ≥ p (`doc` is −1 until then). For probing a
   * term again from p (union-window.ts), where `seek` would decode a sub-block only to leave it.
   */
  positionBefore(p: number): void {
    this.i = p - 1;
    this.doc = -1;
  }

  /**
   * Positions the scorer on its first posting without decoding it (`doc` is −1 until it moves): for
   * union-window.ts, which reads the postings from `i` on and needs no doc.
   */
  positionOnStart(): void {
    this.i = this.start;
    this.doc = -1;
  }

  nextDoc(): number {
    const i = ++this.i;
    if (i < this.validTo && i >= this.validFrom) return (this.doc = this.docs[i - this.blockBase]);
    if (i < this.end) {
      // Past what is decoded: the next sub-block of a packed block, else the next block.
      if (this.packed !== null && i === this.validTo && i < this.blockEnd) this.decodeFor(i, 0);
      else this.load(i);
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
        if (this.packed !== null) {
          // A new packed block: only the sub-block holding the target is decoded, down to the target.
          this.enterBlock(b);
          const p = this.decodeFor(Math.max(i, this.blockBase), target);
          this.i = p;
          return (this.doc = this.docs[p - this.blockBase]);
        }
        this.loadBlock(b);
      }
      // Past the block of posting i (i may even lie before the loaded block after positionBefore).
      i = Math.max(i, this.blockBase);
    }
    // The loaded block's last doc is ≥ target: the search ends inside it, in the decoded part
    // unless that ends below the target (a packed block's later sub-block).
    const docs = this.docs;
    const base = this.blockBase;
    if (i < this.validFrom || i >= this.validTo || docs[this.validTo - 1 - base] < target) {
      const p = this.decodeFor(i, target);
      this.i = p;
      return (this.doc = docs[p - base]);
    }
    let k = i - base;
    const n = this.validTo - base;
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
    const freq = this.freqsBlock === this.loaded ? this.freqs[p - this.blockBase] : freqAt(this.packed!, this.loaded, this.blockEnd - this.blockBase, p - this.blockBase);
    const norm = this.norms === null ? NO_NORMS_BYTE : this.norms[doc];
    if (freq === 1) {
      let v = this.tf1[norm];
      if (v !== v) v = this.tf1[norm] = bm25Score(this.weight, 1, this.cache[norm]);
      return v;
    }
    return bm25Score(this.weight, freq, this.cache[norm]);
  }

  /**
   * Adds the BM25 of posting p (doc `doc`, in the loaded block) to out[i]. The scan loops call
   * this rather than scoreAt: a double returned from a call V8 does not inline is boxed, one heap
   * number per posting, and whether scoreAt is inlined into a large loop varies from process to
   * process. Through a store into a Float64Array no double crosses the call.
   */
  addScoreAt(out: Float64Array, i: number, p: number, doc: number): void {
    out[i] += this.scoreAt(p, doc);
  }

  /**
   * Union counting (union-window.ts): sets bit `doc − offset` in `bits` for postings p … to the end
   * of p's block, decoded straight into the bits (the loaded block stays as it was); docs whose bit
   * was already set go to dups[0 …], as doc − offset, and their scores to dupScores[0 …]. Returns
   * how many. `dups` and `dupScores` must hold BLOCK_SIZE.
   */
  markBlock(p: number, bits: Uint32Array, offset: number, dups: Int32Array, dupScores: Float64Array): number {
    if (this.packed === null) return this.markLoaded(p, bits, offset, dups, dupScores);
    const b = this.blockOf(p);
    const first = this.firstPostingOfBlock(b);
    const n = Math.min(BLOCK_SIZE, this.end - first);
    const d = markBlockDocs(this.packed, b, n, this.blockLastDoc[b], p - first, bits, offset, dups, dupAt);
    // Docs with several terms are few: each freq is read in place.
    for (let j = 0; j < d; j++) {
      dupScores[j] = 0;
      this.addScoreInBlock(dupScores, j, b, n, dupAt[j], dups[j] + offset);
    }
    return d;
  }

  /** markBlock through the loaded block (formats without packed term postings). */
  protected markLoaded(p: number, bits: Uint32Array, offset: number, dups: Int32Array, dupScores: Float64Array): number {
    this.load(p);
    const docs = this.docs;
    let d = 0;
    for (let k = p - this.blockBase, n = this.blockEnd - this.blockBase; k < n; k++) {
      const l = docs[k] - offset;
      const w = bits[l >>> 5];
      if ((w & (1 << (l & 31))) === 0) bits[l >>> 5] = w | (1 << (l & 31));
      else {
        dupScores[d] = 0;
        this.addScoreAt(dupScores, d, this.blockBase + k, docs[k]);
        dups[d++] = l;
      }
    }
    return d;
  }

  /**
   * Pass 2 of the union (union-window.ts): the docs of postings [p, to) — within one block — whose
   * bit `doc − offset` is set in `bits` go to hits[0 …] (as doc − offset, in descending order) and
   * their postings to hitAt[0 …]; returns how many. Tested straight from the packed gaps (the
   * loaded block stays as it was), so the block is not decoded again after markBlock. `hits` and
   * `hitAt` must hold BLOCK_SIZE.
   */
  findBlock(p: number, to: number, bits: Uint32Array, offset: number, hits: Int32Array, hitAt: Int32Array): number {
    if (this.packed === null) return this.findLoaded(p, to, bits, offset, hits, hitAt);
    const b = this.blockOf(p);
    const first = this.firstPostingOfBlock(b);
    const d = findBlockDocs(this.packed, b, Math.min(BLOCK_SIZE, this.end - first), this.blockLastDoc[b], p - first, to - first, bits, offset, hits, hitAt);
    for (let j = 0; j < d; j++) hitAt[j] += first;
    return d;
  }

  /** findBlock through the loaded block (formats without packed term postings). */
  protected findLoaded(p: number, to: number, bits: Uint32Array, offset: number, hits: Int32Array, hitAt: Int32Array): number {
    this.load(p);
    const docs = this.docs;
    const base = this.blockBase;
    let d = 0;
    for (let q = to - 1; q >= p; q--) {
      const l = docs[q - base] - offset;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
        hitAt[d] = q;
        hits[d++] = l;
      }
    }
    return d;
  }

  /**
   * Adds the BM25 of posting p (doc `doc`), one the last findBlock found, to out[i]: its freq read
   * in place, as markBlock reads the freqs of its dups.
   */
  addScoreOfHit(out: Float64Array, i: number, p: number, doc: number): void {
    if (this.packed === null) {
      this.addScoreAt(out, i, p, doc); // findLoaded loaded p's block
      return;
    }
    const b = this.blockOf(p);
    const first = this.firstPostingOfBlock(b);
    this.addScoreInBlock(out, i, b, Math.min(BLOCK_SIZE, this.end - first), p - first, doc);
  }

  /**
   * Adds the BM25 of the k-th posting of packed block b (n postings; doc `doc`) to out[i], its freq
   * read in place: nothing is decoded or loaded (markBlock's dups, findBlock's hits). Through a
   * store, as addScoreAt, so no double crosses the call.
   */
  private addScoreInBlock(out: Float64Array, i: number, b: number, n: number, k: number, doc: number): void {
    const freq = freqAt(this.packed!, b, n, k);
    const norm = this.norms === null ? NO_NORMS_BYTE : this.norms[doc];
    out[i] += bm25Score(this.weight, freq, this.cache[norm]);
  }

  /**
   * A bound on every score of this term: BM25 approaches the weight as freq grows and never passes
   * it (cheaper than maxScore, which reads every block's impacts).
   */
  scoreCeiling(): number {
    return this.weight;
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
    return bm25Score(this.weight, this.blockMaxFreq![b], this.cache[this.norms === null ? NO_NORMS_BYTE : this.blockMinNorm![b]]);
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

  /** Whether `other` reads the same postings: the same term of the same field and segment. */
  readsSamePostings(other: TermScorer): boolean {
    return other.blockLastDoc === this.blockLastDoc && other.start === this.start;
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
