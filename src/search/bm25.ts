/**
 * BM25 exactly as Lucene's `BM25Similarity` computes it, in float32 like the JVM:
 *   idf    = (float) ln(1 + (docCount − docFreq + 0.5) / (docFreq + 0.5))
 *   weight = boost × idf
 *   cache[n] = 1 / (k1 × ((1 − b) + b × LENGTH_TABLE[n] / avgdl))      (per encoded norm n)
 *   score  = weight − weight / (1 + freq × cache[norm])
 * `docCount`, `docFreq` and `avgdl = sumTotalTermFreq / docCount` are index-wide (all shards of
 * the request, like ES's dfs_query_then_fetch), so scores do not depend on the shard count.
 */
import { LENGTH_TABLE } from '../index/index.js';

const f = Math.fround;
export const K1 = f(1.2);
export const B = f(0.75);

export function bm25Idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

export function averageFieldLength(sumTotalTermFreq: number, docCount: number): number {
  return docCount > 0 ? f(sumTotalTermFreq / docCount) : 1;
}

/** The 256-entry table of 1 / (k1 × length normalisation), per encoded norm byte. */
export function normInverseCache(avgdl: number): Float64Array {
  const cache = new Float64Array(256);
  const oneMinusB = f(1 - B);
  for (let i = 0; i < 256; i++) {
    cache[i] = f(1 / f(K1 * f(oneMinusB + f(f(B * LENGTH_TABLE[i]) / avgdl))));
  }
  return cache;
}

export function bm25Score(weight: number, freq: number, normInverse: number): number {
  return f(weight - f(weight / f(1 + f(freq * normInverse))));
}
