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

/** Keyed by avgdl alone for the default k1 and b (nearly every field), else by all three. */
const normCaches = new Map<number | string, Float64Array>();

/**
 * The 256-entry table of 1 / (k1 × length normalisation) for a field's avgdl (memoised); k1 and b
 * are a field's BM25 similarity settings (`index.similarity.<name>`), float32 as Lucene keeps them.
 */
export function normInverseCache(avgdl: number, k1: number = K1, b: number = B): Float64Array {
  const key = k1 === K1 && b === B ? avgdl : `${avgdl}|${k1}|${b}`;
  let cache = normCaches.get(key);
  if (cache) return cache;
  if (normCaches.size > 256) normCaches.clear();
  cache = computeNormInverseCache(avgdl, k1, b);
  normCaches.set(key, cache);
  return cache;
}

function computeNormInverseCache(avgdl: number, k1: number, b: number): Float64Array {
  const cache = new Float64Array(256);
  const oneMinusB = Math.fround(1 - b);
  for (let i = 0; i < 256; i++) {
    cache[i] = Math.fround(1 / Math.fround(k1 * Math.fround(oneMinusB + Math.fround(Math.fround(b * LENGTH_TABLE[i]) / avgdl))));
  }
  return cache;
}

export function bm25Score(weight: number, freq: number, normInverse: number): number {
  return Math.fround(weight - Math.fround(weight / Math.fround(1 + Math.fround(freq * normInverse))));
}
