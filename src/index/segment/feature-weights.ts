/**
 * Feature weights as postings frequencies, exactly as Lucene's `FeatureField` stores them: the
 * float32 bits shifted right by 15 (sign 0, 8 exponent bits, the top 8 mantissa bits), so a weight
 * keeps 9 significant bits, truncated toward zero (relative error < 2⁻⁸), and decodes as
 * `freq << 15`. The encoding is monotone in the weight, so a block's max freq is its max weight and
 * the block-max machinery of text postings bounds feature scores unchanged.
 */

/** Smallest positive normal float32 (Java `Float.MIN_NORMAL`): lower weights are rejected. */
export const MIN_NORMAL_FLOAT32 = 1.1754943508222875e-38;
const MAX_FLOAT32 = 3.4028234663852886e38;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The postings frequency storing `weight` (a positive normal float32). */
export function encodeFeatureWeight(weight: number): number {
  f32[0] = weight;
  return u32[0] >>> 15;
}

/**
 * 2^(e − 150) for each biased exponent e: a frequency decodes as (256 + mantissa8) · 2^(e − 135),
 * i.e. (256 + (freq & 255)) × FEATURE_SCALE[freq >>> 8], one multiply and a 2 KB table instead of
 * a typed-array bit cast in hot loops.
 */
const FEATURE_SCALE = new Float64Array(256);
for (let e = 1; e < 255; e++) FEATURE_SCALE[e] = 2 ** (e - 127 - 8);

/** The (float32) weight a postings frequency stores. */
export function decodeFeatureWeight(freq: number): number {
  return (256 + (freq & 255)) * FEATURE_SCALE[freq >>> 8];
}

/** The weight as stored: what ES keeps of `weight` (`bits & 0xFFFF8000`). */
export function quantizeFeatureWeight(weight: number): number {
  return decodeFeatureWeight(encodeFeatureWeight(weight));
}

export function isStorableFeatureWeight(weight: number): boolean {
  return weight >= MIN_NORMAL_FLOAT32 && weight <= MAX_FLOAT32;
}
