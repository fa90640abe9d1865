/**
 * Postings of one feature of a sparse_vector / rank_features field, scored as Lucene's linear
 * FeatureQuery: float32(weight × stored weight), the stored weight decoded from the postings freq
 * (index/segment/feature-weights.ts). Everything else — iteration, block skipping, block bounds from
 * the per-block max freq (the encoding is monotone) — is the term scorer's, so MaxScore and the
 * compound scorers run learned-sparse queries exactly as they run BM25 term disjunctions.
 *
 * Postings packed in blocks (segment format 2, index/segment/feature-postings.ts) are decoded
 * block by block into the term scorer's block arrays; the term-at-a-time path (`accumulate`) never
 * moves the scorer and decodes into a small scratch of its own.
 */
import { BLOCK_SIZE, accumulateLinear, decodeFeatureBlock, decodeFeatureWeight, type FeaturePostings, type SegmentField } from '../../index/index.js';
import type { FeatureFunction } from '../plan/exec-nodes.js';
import { TermScorer, type BlockBuffers } from './term-scorer.js';

/** Feature postings have no norms: the BM25 tables the base class keeps stay unused. */
const NO_TABLE = new Float64Array(256);
/** One block's docs and encoded weights, reused by every `accumulate` (one thread runs one at a time). */
const blockDocs = new Int32Array(BLOCK_SIZE);
const blockFreqs = new Int32Array(BLOCK_SIZE);

export class FeatureScorer extends TermScorer {
  /** sigmoid's pivot^a, computed once as Lucene's SigmoidFunction does (NaN for other functions). */
  private readonly pivotPa: number;
  private readonly packedFeatures: FeaturePostings | null;

  constructor(field: SegmentField, ord: number, weight: number, readonly fn: FeatureFunction | null = null, block?: BlockBuffers) {
    super(field, ord, weight, NO_TABLE, NO_TABLE, block);
    this.pivotPa = fn?.kind === 'sigmoid' ? Math.pow(fn.pivot, fn.exponent) : NaN;
    this.packedFeatures = field.features;
  }

  protected override decodeBlock(b: number, first: number, n: number): void {
    if (this.packedFeatures === null) return super.decodeBlock(b, first, n);
    decodeFeatureBlock(this.packedFeatures, b, n, this.docs, this.freqs, 0);
    this.freqsBlock = b;
  }

  /** Feature postings are not term postings: marked through the loaded block. */
  override markBlock(p: number, bits: Uint32Array, offset: number, dups: Int32Array, dupScores: Float64Array): number {
    return this.markLoaded(p, bits, offset, dups, dupScores);
  }

  /** The same for the union's pass 2. */
  override findBlock(p: number, to: number, bits: Uint32Array, offset: number, hits: Int32Array, hitAt: Int32Array): number {
    return this.findLoaded(p, to, bits, offset, hits, hitAt);
  }

  override addScoreOfHit(out: Float64Array, i: number, p: number, doc: number): void {
    this.addScoreAt(out, i, p, doc);
  }

  /** Feature functions are not bounded by the weight: the best block's score. */
  override scoreCeiling(): number {
    return this.maxScore();
  }

  override scoreAt(p: number): number {
    // Feature blocks decode docs and weights together (freqsBlock is always the loaded block).
    return this.scoreFreq(this.freqs[p - this.blockBase]);
  }

  /**
   * Lucene FeatureField's SimScorers, with Java's float and double steps: linear w·S; saturation
   * w·(1 − k/(S + k)) in float; log (float)(w·ln(a + S)) with a + S in float; sigmoid
   * (float)(w·(1 − k^a/(S^a + k^a))) in double. All are non-decreasing in S, so a block's max code
   * bounds its scores.
   */
  private scoreFreq(freq: number): number {
    const s = decodeFeatureWeight(freq);
    const fn = this.fn;
    if (fn === null) return Math.fround(this.weight * s);
    const f = Math.fround;
    switch (fn.kind) {
      case 'saturation': return f(this.weight * f(1 - f(fn.pivot / f(s + fn.pivot))));
      case 'log': return f(this.weight * Math.log(f(fn.scalingFactor + s)));
      case 'sigmoid': return f(this.weight * (1 - this.pivotPa / (Math.pow(s, fn.exponent) + this.pivotPa)));
    }
  }

  /** Adds every posting's score to `acc[doc]` (feature-taat.ts); returns the postings added. */
  accumulate(acc: Float64Array): number {
    if (this.packedFeatures !== null) return this.accumulatePacked(acc, this.packedFeatures);
    // Format 1: flat sections.
    const docs = this.flatDocs!;
    const freqs = this.flatFreqs!;
    if (this.fn !== null) {
      for (let p = this.start; p < this.end; p++) acc[docs[p]] += this.scoreFreq(freqs[p]);
    } else {
      const weight = this.weight;
      for (let p = this.start; p < this.end; p++) acc[docs[p]] += Math.fround(weight * decodeFeatureWeight(freqs[p]));
    }
    return this.end - this.start;
  }

  private accumulatePacked(acc: Float64Array, packed: FeaturePostings): number {
    const n = this.end - this.start;
    if (this.fn === null) {
      accumulateLinear(packed, this.firstBlock, n, this.weight, acc);
      return n;
    }
    const docs = blockDocs;
    const freqs = blockFreqs;
    for (let b = this.firstBlock, at = 0; at < n; b++, at += BLOCK_SIZE) {
      const count = Math.min(BLOCK_SIZE, n - at);
      decodeFeatureBlock(packed, b, count, docs, freqs, 0);
      for (let i = 0; i < count; i++) acc[docs[i]] += this.scoreFreq(freqs[i]);
    }
    return n;
  }

  override blockMaxScore(b: number): number {
    return this.scoreFreq(this.blockMaxFreq![b]);
  }
}
