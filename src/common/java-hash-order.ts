/**
 * The order in which Java's `HashMap<String, …>` iterates its keys, for responses whose member order
 * ES takes from one (MatchedQueriesPhase's map of named queries, hence `matched_queries`): by
 * bucket — the key's String.hashCode spread (h ^ h >>> 16), masked by the table size — and within
 * a bucket in insertion order. The table starts at 16 buckets and doubles whenever the entries pass
 * three quarters of it. Not modelled: the tree bins and early resizes of a bucket of 8 or more
 * colliding keys, which ordinary names never reach.
 */
import { javaStringHash } from './java-hash.js';

/** Distinct `keys`, in insertion order → the order a HashMap filled with them in that order iterates them. */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  let buckets = 16;
  while (keys.length > buckets * 0.75) buckets *= 2;
  const bucket = (k: string): number => {
    const h = javaStringHash(k);
    return (h ^ (h >>> 16)) & (buckets - 1);
  };
  const keyed = keys.map((key, at) => ({ key, at, bucket: bucket(key) }));
  keyed.sort((a, b) => a.bucket - b.bucket || a.at - b.at);
  return keyed.map((k) => k.key);
}
