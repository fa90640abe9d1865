/**
 * Postings of one feature of a sparse_vector / rank_features field, scored as Lucene's linear
 * FeatureQuery: float32(weight × stored weight), the stored weight decoded from the postings freq
 * (index/segment/feature-weights.ts). Everything else — iteration, block skipping, block bounds from
 * the per-block max freq (the encoding is monotone) — is the term scorer's, so MaxScore and the
 * compound scorers run learned-sparse queries exactly as they run BM25 term disjunctions.
 */
import { decodeFeatureWeight, type SegmentField } from '../../index/index.js';
import { TermScorer } from './term-scorer.js';

/** Feature postings have no norms: the BM25 tables the base class keeps stay unused. */
const NO_TABLE = new Float64Array(256);

export class FeatureScorer extends TermScorer {
  constructor(field: SegmentField, ord: number, weight: number) {
    super(field, ord, weight, NO_TABLE, NO_TABLE);
  }

  override scoreAt(p: number): number {
    return Math.fround(this.weight * decodeFeatureWeight(this.freqs![p]));
  }

  /** Adds every posting's score to `acc[doc]` (feature-taat.ts); returns the postings added. */
  accumulate(acc: Float64Array): number {
    const docs = this.docs;
    const freqs = this.freqs!;
    const weight = this.weight;
    for (let p = this.start; p < this.end; p++) acc[docs[p]] += Math.fround(weight * decodeFeatureWeight(freqs[p]));
    return this.end - this.start;
  }

  override blockMaxScore(b: number): number {
    return Math.fround(this.weight * decodeFeatureWeight(this.blockMaxFreq[b]));
  }
}
