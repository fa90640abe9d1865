/**
 * One shard's part of the kNN pre-phase (ES DfsPhase.executeKnnVectorQuery, exact here): the top k
 * live documents the plan (a `knn_exact` node, maybe under an alias filter) matches, by score, ties
 * by write order — in the shard-local order key every top-k search uses (TopScoreDocs), and across
 * shards and scan parts by index-wide write order as the coordinator merges them, so the global top
 * k is the same however the documents are sharded.
 */
import { isLive } from '../index/index.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import type { SearchDeadline } from './exec/deadline.js';
import type { ShardView } from './exec/shard-view.js';
import { TopScoreDocs } from './exec/top-docs.js';
import type { Exec } from './plan/exec-nodes.js';

/**
 * The shard's top `k` of `query` (a `knn_exact` plan) by score, ties by write order (base + doc),
 * among docs [maxDoc × part / parts, maxDoc × (part + 1) / parts) of each segment.
 */
export function searchKnnCandidates(
  query: Exec, k: number, slice: { readonly part: number; readonly parts: number }, shard: ShardView, deadline: SearchDeadline,
): { readonly top: TopScoreDocs; readonly bases: readonly number[] } {
  const top = TopScoreDocs.reuse(Math.max(k, 0));
  const bases: number[] = [];
  let base = 0;
  for (let s = 0; s < shard.segments.length && k > 0 && !deadline.expired(); s++) {
    const segment = shard.segments[s];
    const live = shard.liveDocs[s];
    bases.push(base);
    const ctx = new SegmentSearchContext(segment, deadline);
    const scorer = buildScorer(query, ctx);
    const from = Math.floor((segment.maxDoc * slice.part) / slice.parts);
    const to = Math.floor((segment.maxDoc * (slice.part + 1)) / slice.parts);
    if (scorer !== null && from < to) {
      for (let doc = scorer.advance(from); doc < to; doc = scorer.nextDoc()) {
        if (deadline.expiredEvery()) break;
        if (isLive(live, doc)) top.offer(scorer.score(), base + doc);
      }
    }
    ctx.release();
    base += segment.maxDoc;
  }
  return { top, bases };
}
