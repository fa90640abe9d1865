/**
 * Postings of one feature of a sparse_vector / rank_features field, scored as Lucene's linear
 * FeatureQuery: float32(weight × stored weight), the stored weight decoded from the postings freq
 * (index/segment/feature-weights.ts). Everything else — iteration, block skipping, block bounds from
 * the per-block max freq (the encoding is monotone) — is the term scorer's, so MaxScore and the
 * compound scorers run learned-sparse queries exactly as they run BM25 term disjunctions.
 */
import { FEATURE_SCALE, decodeFeatureWeight, type SegmentField } from '../../index/index.js';
import type { FeatureFunction } from '../plan/exec-nodes.js';
import { TermScorer } from './term-scorer.js';

/** float32(weight × (256 + m)) for the token being accumulated (one thread runs one at a time). */
const MANTISSA_PRODUCTS = new Float64Array(256);

/** Feature postings have no norms: the BM25 tables the base class keeps stay unused. */
const NO_TABLE = new Float64Array(256);

export class FeatureScorer extends TermScorer {
  constructor(field: SegmentField, ord: number, weight: number, readonly fn: FeatureFunction | null = null) {
    super(field, ord, weight, NO_TABLE, NO_TABLE);
  }

  override scoreAt(p: number): number {
    return this.scoreFreq(this.freqs![p]);
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
      case 'sigmoid': {
        const pivotPa = Math.pow(fn.pivot, fn.exponent);
        return f(this.weight * (1 - pivotPa / (Math.pow(s, fn.exponent) + pivotPa)));
      }
    }
  }

  /**
   * Adds every posting's score to `acc[doc]` (feature-taat.ts); returns the postings added.
   * A stored weight is (256 + mantissa) · 2^(e − 135), and scaling by a power of two commutes with
   * float32 rounding while both values are normal, so float32(weight × stored) =
   * float32(weight × (256 + mantissa)) · 2^(e − 135): one 256-entry table per token replaces the
   * per-posting multiply and rounding — the very same scores, 1.31× → 0.90× of the exhaustive
   * reference on ELSER-like postings (bench/sparse-search.ts). Exponents whose product would leave
   * float32's normal range take the rounding path.
   */
  accumulate(acc: Float64Array): number {
    const docs = this.docs;
    const freqs = this.freqs!;
    if (this.fn !== null) {
      for (let p = this.start; p < this.end; p++) acc[docs[p]] += this.scoreFreq(freqs[p]);
      return this.end - this.start;
    }
    const weight = this.weight;
    const products = MANTISSA_PRODUCTS;
    for (let m = 0; m < 256; m++) products[m] = Math.fround(weight * (256 + m));
    const scale = FEATURE_SCALE;
    const [lo, hi] = exactExponents(weight);
    for (let p = this.start; p < this.end; p++) {
      const f = freqs[p];
      const e = f >>> 8;
      acc[docs[p]] += e >= lo && e <= hi ? products[f & 255] * scale[e] : Math.fround(weight * decodeFeatureWeight(f));
    }
    return this.end - this.start;
  }

  override blockMaxScore(b: number): number {
    return this.scoreFreq(this.blockMaxFreq[b]);
  }
}

const MIN_NORMAL = 2 ** -126;
const MAX_EXACT = 2 ** 127;

/**
 * The biased exponents e for which weight × (256 + m) and weight × (256 + m) · 2^(e − 135) are
 * float32-normal for every mantissa m (so rounding either gives the same scaled result), as [lo, hi];
 * [1, 0] (none) when the weight itself is out of range.
 */
export function exactExponents(weight: number): [number, number] {
  if (!(weight * 256 >= MIN_NORMAL && weight * 512 <= MAX_EXACT)) return [1, 0];
  let lo = 1;
  while (lo <= 254 && weight * 256 * 2 ** (lo - 135) < MIN_NORMAL) lo++;
  let hi = 254;
  while (hi >= lo && weight * 512 * 2 ** (hi - 135) > MAX_EXACT) hi--;
  return [lo, hi];
}
