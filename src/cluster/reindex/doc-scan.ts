/**
 * Reading the documents of source indices for reindex, update_by_query and delete_by_query (ES's
 * scroll with `sort: _doc`, here over a point-in-time capture of every shard's snapshot): the
 * documents a query matches are found by one query-phase task per shard (sorted by doc, so in
 * write order within a shard) and read in batches straight from the coordinator-owned segments.
 * Without a query every live document matches and no worker round trip is needed. Segments are
 * immutable and the capture holds their buffers, so later refreshes, merges and the scan's own
 * writes never change what it reads. Slices split the documents by a hash of `_id`.
 */
import { isLive, readId, readSource, type Segment } from '../../index/index.js';
import { SegmentStatsSource, NO_DEADLINE, planQuery, HIT_STRIDE } from '../../search/index.js';
import type { QueryNode } from '../../dsl/index.js';
import type { SparseInference } from '../../ml/index.js';
import { awaitSearchActive, type IndexService } from '../indices/index-service.js';
import { resolveQueryInference } from '../search/query-inference.js';
import type { SearchPool } from '../search-pool.js';
import type { ShardSnapshot } from '../indices/shard-state.js';

/** One source document as the scan read it. */
export interface ScannedDoc {
  readonly index: IndexService;
  readonly id: string;
  /** The stored `_source` JSON (null when the index stores none). */
  readonly source: string | null;
  readonly seqNo: number;
  readonly version: number;
  readonly primaryTerm: number;
}

interface ShardHits {
  readonly index: IndexService;
  readonly primaryTerm: number;
  readonly segments: readonly Segment[];
  /** [segment ordinal, doc] pairs in scan order. */
  readonly docs: Int32Array;
}

/** The slice an `_id` belongs to (stable across runs: a 32-bit FNV-1a of its UTF-16 units). */
export function sliceOf(id: string, slices: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % slices;
}

/** Every live doc of a snapshot, in segment then doc order. */
function allLive(snapshot: ShardSnapshot): Int32Array {
  let n = 0;
  for (const s of snapshot.segments) n += s.liveCount;
  const out = new Int32Array(n * 2);
  let o = 0;
  snapshot.segments.forEach((s, ord) => {
    for (let doc = 0; doc < s.reader.maxDoc; doc++) {
      if (!isLive(s.liveDocs, doc)) continue;
      out[o++] = ord;
      out[o++] = doc;
    }
  });
  return out;
}

/** A point-in-time capture of the matching documents of `indices` (the scroll's search phase). */
export class DocScan {
  private constructor(private readonly shards: readonly ShardHits[]) {}

  /**
   * `queryFor` gives each index its own query (the filters of the filtered aliases it was named
   * through); by default every index runs `query`.
   */
  static async open(
    indices: readonly IndexService[], query: QueryNode | null, pool: SearchPool, inference: SparseInference | null,
    queryFor: (index: IndexService, query: QueryNode | null) => QueryNode | null = (_, q) => q,
  ): Promise<DocScan> {
    const resolved = await resolveQueryInference(query, inference);
    const queries = new Map(indices.map((index) => [index, queryFor(index, resolved)]));
    const matchesAll = (index: IndexService) => {
      const q = queries.get(index)!;
      return q === null || q.kind === 'match_all';
    };
    const owed = awaitSearchActive(indices);
    if (owed !== null) await owed;
    // Snapshots are captured and the shard tasks posted in one tick (the pool then keeps their buffers).
    const targets = indices.flatMap((index) => index.shards.map((shard) => ({ index, shard, snapshot: shard.snapshot })));
    if (indices.every(matchesAll)) {
      return new DocScan(targets.map((t) => ({ index: t.index, primaryTerm: t.shard.primaryTerm, segments: t.snapshot.segments.map((s) => s.reader), docs: allLive(t.snapshot) })));
    }
    const stats = new SegmentStatsSource(targets.flatMap((t) => t.snapshot.segments.map((s) => s.reader)));
    const now = Date.now();
    const plans = new Map(indices.filter((i) => !matchesAll(i)).map((index) => [index, planQuery({
      mapping: index.resolvedMapping, defaultFields: index.resolvedSettings.defaultFields, maxRegexLength: index.resolvedSettings.maxRegexLength, stats, now, index: { name: index.name, uuid: index.uuid },
    }, queries.get(index)!)]));
    const results = await Promise.all(targets.map((t) => {
      if (!plans.has(t.index)) return null;
      let live = 0;
      for (const s of t.snapshot.segments) live += s.liveCount;
      if (live === 0) return null;
      return pool.search(t.snapshot.segments.map((s) => ({ segment: s.id, liveDocs: s.liveDocsId })), {
        query: plans.get(t.index)!, k: live, trackTotalHitsUpTo: -1, minScore: null, sort: [{ kind: 'doc', desc: false }],
        trackScores: false, searchAfter: null, terminateAfter: 0, deadline: NO_DEADLINE,
      });
    }));
    return new DocScan(targets.map((t, i) => {
      if (!plans.has(t.index)) return { index: t.index, primaryTerm: t.shard.primaryTerm, segments: t.snapshot.segments.map((s) => s.reader), docs: allLive(t.snapshot) };
      const r = results[i];
      const n = r ? r.hits.length / HIT_STRIDE : 0;
      const docs = new Int32Array(n * 2);
      for (let h = 0; h < n; h++) {
        docs[h * 2] = r!.hits[h * HIT_STRIDE + 1];
        docs[h * 2 + 1] = r!.hits[h * HIT_STRIDE + 2];
      }
      return { index: t.index, primaryTerm: t.shard.primaryTerm, segments: t.snapshot.segments.map((s) => s.reader), docs };
    }));
  }

  /** How many documents slice `slice` of `slices` holds (the task's `total`). */
  count(slice: number, slices: number): number {
    if (slices === 1) return this.shards.reduce((n, s) => n + s.docs.length / 2, 0);
    let n = 0;
    for (const _ of this.docs(slice, slices)) n++;
    return n;
  }

  /** The documents of one slice, in scan order, read lazily. */
  *docs(slice: number, slices: number): Generator<ScannedDoc> {
    for (const s of this.shards) {
      for (let i = 0; i < s.docs.length; i += 2) {
        const segment = s.segments[s.docs[i]];
        const doc = s.docs[i + 1];
        const id = readId(segment, doc);
        if (slices > 1 && sliceOf(id, slices) !== slice) continue;
        yield { index: s.index, id, source: readSource(segment, doc), seqNo: segment.seqNo.get(doc), version: segment.version.get(doc), primaryTerm: s.primaryTerm };
      }
    }
  }
}
