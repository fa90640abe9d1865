/**
 * The documents an aggregation collects from, per segment of a shard: sorted doc ids (Int32Array
 * per segment). The top level gets every live document the query matches (not only the top k,
 * and before `post_filter`); bucket aggregations hand each bucket its own lists to sub-aggregations.
 */
import { isLive, type Segment } from '../../index/index.js';
import type { Exec } from '../plan/exec-nodes.js';
import { SegmentSearchContext, buildScorer } from '../exec/build-scorer.js';
import type { SearchDeadline } from '../exec/deadline.js';
import { NO_MORE_DOCS } from '../exec/scorer.js';
import { bitsToDocs, collectDisjunction, disjunctionLeaves } from '../exec/disjunction-docs.js';

export type DocLists = readonly Int32Array[];

/**
 * Every live doc of each segment matching `query` (and scoring at least `minScore`, as ES applies it
 * before aggregating); with `terminateAfter` > 0 only the first that many of the shard, as ES's
 * terminate_after stops the one collector that feeds both hits and aggregations. With `scores`,
 * each segment's scores are pushed there too, one per listed doc (top_hits reads them): memory in
 * proportion to the matches, not to the segments' sizes.
 */
export function matchingDocs(
  query: Exec, segments: readonly Segment[], liveDocs: ReadonlyArray<Uint32Array | null>, minScore: number | null, deadline: SearchDeadline,
  terminateAfter = 0, scores: Float64Array[] | null = null,
): Int32Array[] {
  const out: Int32Array[] = [];
  let remaining = terminateAfter > 0 ? terminateAfter : Infinity;
  // A pure disjunction (match, learned-sparse, a hybrid union) is the union of its postings, unscored.
  const unionLeaves = minScore === null && terminateAfter === 0 && scores === null ? disjunctionLeaves(query) : null;
  for (let s = 0; s < segments.length; s++) {
    const segment = segments[s];
    const live = liveDocs[s];
    if (deadline.expired() || remaining === 0) {
      out.push(new Int32Array(0));
      scores?.push(new Float64Array(0));
      continue;
    }
    if (unionLeaves !== null) {
      const bits = new Uint32Array((segment.maxDoc + 31) >>> 5);
      out.push(bitsToDocs(bits, collectDisjunction(unionLeaves, segment, live, bits)));
      continue;
    }
    const ctx = new SegmentSearchContext(segment, deadline, live);
    const scorer = buildScorer(query, ctx);
    let docs = new Int32Array(64);
    let docScores = scores === null ? null : new Float64Array(64);
    let n = 0;
    if (scorer) {
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        if (deadline.expiredEvery()) break;
        if (!isLive(live, doc)) continue;
        const score = minScore !== null || docScores !== null ? scorer.score() : 0;
        if (minScore !== null && score < minScore) continue;
        if (n === docs.length) {
          const grown = new Int32Array(n * 2);
          grown.set(docs);
          docs = grown;
          if (docScores !== null) {
            const grownScores = new Float64Array(n * 2);
            grownScores.set(docScores);
            docScores = grownScores;
          }
        }
        if (docScores !== null) docScores[n] = score;
        docs[n++] = doc;
        if (--remaining === 0) break;
      }
    }
    ctx.release();
    out.push(docs.subarray(0, n));
    if (docScores !== null) scores!.push(docScores.subarray(0, n));
  }
  return out;
}

/**
 * Every live doc of each segment (a `global` aggregation's bucket: ES runs it as a match_all over
 * the shard, apart from the query, so neither `min_score` nor `terminate_after` narrows it).
 */
export function allLiveDocs(segments: readonly Segment[], liveDocs: ReadonlyArray<Uint32Array | null>, deadline: SearchDeadline): Int32Array[] {
  return segments.map((segment, s) => {
    const live = liveDocs[s];
    if (deadline.expired()) return new Int32Array(0);
    const docs = new Int32Array(segment.maxDoc);
    let n = 0;
    for (let doc = 0; doc < segment.maxDoc; doc++) if (isLive(live, doc)) docs[n++] = doc;
    return n === docs.length ? docs : docs.slice(0, n);
  });
}

/** One byte per doc of `segment`: 1 where `query` matches (filter buckets intersect their parent's docs with it). */
export function queryMatches(query: Exec, segment: Segment): Uint8Array {
  const bits = new Uint8Array(segment.maxDoc);
  const ctx = new SegmentSearchContext(segment);
  const scorer = buildScorer(query, ctx);
  if (scorer) for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) bits[doc] = 1;
  ctx.release();
  return bits;
}

/** Per-bucket doc lists while collecting: one growable list per segment. */
export class BucketDocs {
  private readonly lists: number[][];
  constructor(segmentCount: number) {
    this.lists = Array.from({ length: segmentCount }, () => []);
  }
  add(segment: number, doc: number): void {
    this.lists[segment].push(doc);
  }
  toDocLists(): DocLists {
    return this.lists.map((l) => Int32Array.from(l));
  }
}

/**
 * The buckets of a keyed bucket aggregation while collecting (terms, histogram): bucket number by
 * key, in first-seen order, with doc counts and — when there are sub-aggregations — each bucket's
 * docs.
 */
export class KeyedBucketCollector<K extends string | number> {
  private readonly index = new Map<K, number>();
  readonly keys: K[] = [];
  readonly counts: number[] = [];
  readonly bucketDocs: BucketDocs[] = [];

  constructor(private readonly segmentCount: number, private readonly withSubs: boolean) {}

  /** The bucket of `key`, created empty on first sight. */
  bucketOf(key: K): number {
    let b = this.index.get(key);
    if (b === undefined) {
      b = this.keys.length;
      this.index.set(key, b);
      this.keys.push(key);
      this.counts.push(0);
      if (this.withSubs) this.bucketDocs.push(new BucketDocs(this.segmentCount));
    }
    return b;
  }

  /** Counts `doc` of segment `s` in bucket `b` (and lists it for the sub-aggregations). */
  addDoc(b: number, s: number, doc: number): void {
    this.counts[b]++;
    if (this.withSubs) this.bucketDocs[b].add(s, doc);
  }
}
