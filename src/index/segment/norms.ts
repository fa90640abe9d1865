/**
 * Field-length norms exactly as Lucene encodes them (`SmallFloat.intToByte4` / `byte4ToInt`,
 * used by `BM25Similarity.computeNorm`): lengths 0–23 are exact, longer ones keep 4 significant
 * bits. Scores then match Lucene's, which BM25 rank parity with ES depends on.
 */

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i); // i < 2^31 here
  if (numBits < 4) return i; // subnormal
  const shift = numBits - 4;
  let encoded = (i >>> shift) & 0x07; // the most significant bit is implicit
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4; // 24

/** Encodes a field length (number of tokens) into Lucene's one-byte norm. */
export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

export function byte4ToInt(b: number): number {
  if (b < NUM_FREE_VALUES) return b;
  return Math.min(NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES), 0x7fffffff);
}

/** `BM25Similarity.LENGTH_TABLE`: decoded length per norm byte (as float32 values). */
export const LENGTH_TABLE: Float64Array = (() => {
  const t = new Float64Array(256);
  for (let i = 0; i < 256; i++) t[i] = Math.fround(byte4ToInt(i));
  return t;
})();

/** Lucene scores fields without norms as if every document had this encoded length. */
export const NO_NORMS_BYTE = 1;
