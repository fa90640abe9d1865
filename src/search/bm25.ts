/**
 * BM25 exactly as Lucene's `BM25Similarity` computes it, in float32 like the JVM:
 *   idf    = (float) ln(1 + (docCount − docFreq + 0.5) / (docFreq + 0.5))
 *   weight = boost × idf
 *   cache[n] = 1 / (k1 × ((1 − b) + b × LENGTH_TABLE[n] / avgdl))      (per encoded norm n)
 *   score  = weight − weight / (1 + freq × cache[norm])
 * `docCount`, `docFreq` and `avgdl = sumTotalTermFreq / docCount` are index-wide (all shards of
 * the request, like ES's dfs_query_then_fetch), so scores do not depend on the shard count.
 *
 * Hot code calls `Math.fround` directly: on Node 20's V8 an alias (`const f = Math.fround`) is not
 * inlined and costs about 3× more per call.
 */
import { LENGTH_TABLE } from '../index/index.js';

export const K1 = Math.fround(1.2);
export const B = Math.fround(0.75);

export function bm25Idf(docFreq: number, docCount: number): number {
  return Math.fround(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

export function averageFieldLength(sumTotalTermFreq: number, docCount: number): number {
  return docCount > 0 ? Math.fround(sumTotalTermFreq / docCount) : 1;
}

const normCaches = new Map<number, Float64Array>();

/** The 256-entry table of 1 / (k1 × length normalisation) for a field's avgdl (memoised). */
export function normInverseCache(avgdl: number): Float64Array {
  let cache = normCaches.get(avgdl);
  if (cache) return cache;
  if (normCaches.size > 256) normCaches.clear();
  cache = computeNormInverseCache(avgdl);
  normCaches.set(avgdl, cache);
  return cache;
}

function computeNormInverseCache(avgdl: number): Float64Array {
  const cache = new Float64Array(256);
  const oneMinusB = Math.fround(1 - B);
  for (let i = 0; i < 256; i++) {
    cache[i] = Math.fround(1 / Math.fround(K1 * Math.fround(oneMinusB + Math.fround(Math.fround(B * LENGTH_TABLE[i]) / avgdl))));
  }
  return cache;
}

export function bm25Score(weight: number, freq: number, normInverse: number): number {
  return Math.fround(weight - Math.fround(weight / Math.fround(1 + Math.fround(freq * normInverse))));
}
