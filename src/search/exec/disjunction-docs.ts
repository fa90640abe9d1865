/**
 * Matching without scoring for a pure disjunction: should-only bools (minimum_should_match ≤ 1) and
 * dis_max, nested in any way, over term and feature leaves — the shape of a `match` or
 * `multi_match` query, a learned-sparse query, and a hybrid search's union of its lists. Such a
 * query matches exactly the union of its leaves' postings, so counting its hits (`k` = 0) or
 * listing its matches for aggregations is one pass over each postings array setting bits in a
 * bitset, instead of a heap of scorers advancing doc by doc (Lucene's `Weight#count` shortcut,
 * taken to unions). Measured on a hybrid union of a 3-term match and a 33-token sparse query over
 * 5,000 documents: ~2.2 ms through the disjunction scorer, ~0.1 ms here.
 */
import { forEachTermBlock, hasPostings, isLive, termOrd, type Segment } from '../../index/index.js';
import type { Exec, FeatureExec, TermExec } from '../plan/exec-nodes.js';

type Leaf = TermExec | FeatureExec;

/** The term and feature leaves whose union is exactly what `exec` matches, or null for any other shape. */
export function disjunctionLeaves(exec: Exec): Leaf[] | null {
  const out: Leaf[] = [];
  const walk = (e: Exec): boolean => {
    switch (e.kind) {
      case 'term': case 'feature':
        out.push(e);
        return true;
      case 'match_none':
        return true;
      case 'dis_max':
        return e.clauses.every(walk);
      case 'bool':
        return e.must.length === 0 && e.filter.length === 0 && e.mustNot.length === 0 && e.minimumShouldMatch <= 1 && e.should.length > 0 &&
          e.should.every(walk);
      default:
        return false;
    }
  };
  return walk(exec) ? out : null;
}

/**
 * Sets a bit for every live document of `segment` in any leaf's postings; returns the number of
 * distinct documents set. Stops after the leaf that takes the count past `stopAbove` (the caller
 * then only knows "more than that"), as a counting collector stops at track_total_hits.
 */
export function collectDisjunction(leaves: readonly Leaf[], segment: Segment, live: Uint32Array | null, bits: Uint32Array, stopAbove = Infinity): number {
  let count = 0;
  for (const leaf of leaves) {
    const field = segment.fields.get(leaf.field);
    if (!field || !hasPostings(field)) continue;
    const ord = termOrd(field, leaf.kind === 'term' ? leaf.term : leaf.feature);
    if (ord < 0) continue;
    forEachTermBlock(field, ord, (docs, n) => {
      for (let p = 0; p < n; p++) {
        const doc = docs[p];
        const word = doc >>> 5;
        const mask = 1 << (doc & 31);
        if ((bits[word] & mask) !== 0 || !isLive(live, doc)) continue;
        bits[word] |= mask;
        count++;
      }
    });
    if (count > stopAbove) break;
  }
  return count;
}

/** The set bits of `bits` as sorted doc ids. */
export function bitsToDocs(bits: Uint32Array, count: number): Int32Array {
  const out = new Int32Array(count);
  let n = 0;
  for (let w = 0; w < bits.length && n < count; w++) {
    let word = bits[w];
    while (word !== 0) {
      const low = word & -word;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return out;
}
