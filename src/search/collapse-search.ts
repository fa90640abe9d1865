/**
 * A shard's query phase with `collapse`: every match is scored (or its sort values read), counted
 * for `hits.total` as without collapsing (ES counts documents, not groups), and offered to the
 * collapsing collector, which keeps the best hit of the top from + size groups. No MaxScore or
 * early termination: a group's best hit may come after a page of other groups' hits is full.
 */
import { isLive } from '../index/index.js';
import type { Exec } from './plan/exec-nodes.js';
import type { ShardView } from './exec/shard-view.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import type { SearchDeadline } from './exec/deadline.js';
import { compareSortValues, SortValueReader, type ExecSort, type SortValue } from './exec/field-sort.js';
import { CollapseValueReader, CollapsingTopDocs, type ExecCollapse, type GroupHit, type HitOrder } from './exec/collapsing-top-docs.js';
import { NO_MORE_DOCS } from './exec/scorer.js';

/** What a collapsed query phase reads of the shard request. */
export interface CollapseShardSearch {
  readonly query: Exec;
  readonly k: number;
  readonly trackTotalHitsUpTo: number;
  readonly minScore: number | null;
  readonly sort: readonly ExecSort[] | null;
  readonly trackScores: boolean;
  readonly searchAfter: readonly SortValue[] | null;
  readonly terminateAfter: number;
}

export interface CollapsedTopDocs {
  /** Matching documents counted (up to the limit + 1 when counting; 0 when not). */
  readonly total: number;
  readonly maxScore: number;
  /** The top groups' best hits, best first. */
  readonly groups: readonly GroupHit[];
  /** Each segment's first shard-local order (segment base). */
  readonly bases: readonly number[];
  readonly terminated: boolean;
}

const byScore: HitOrder = (a, b) => b.score - a.score || a.order - b.order;

function bySort(keys: readonly ExecSort[]): HitOrder {
  return (a, b) => compareSortValues(keys, a.values!, b.values!) || a.order - b.order;
}

export function collapsedTopDocs(req: CollapseShardSearch, collapse: ExecCollapse, shard: ShardView, deadline: SearchDeadline): CollapsedTopDocs {
  const keys = req.sort;
  const top = new CollapsingTopDocs(keys === null ? byScore : bySort(keys), req.k);
  const needScore = keys === null || req.trackScores || req.minScore !== null || keys.some((k) => k.kind === 'score');
  const counting = req.trackTotalHitsUpTo >= 0;
  let total = 0;
  let maxScore = NaN;
  let terminated = false;
  const bases: number[] = [];
  let base = 0;
  for (let s = 0; s < shard.segments.length && !terminated && !deadline.expired(); s++) {
    const segment = shard.segments[s];
    const live = shard.liveDocs[s];
    bases.push(base);
    const ctx = new SegmentSearchContext(segment, deadline);
    const scorer = buildScorer(req.query, ctx);
    if (scorer) {
      const sortReader = keys === null ? null : new SortValueReader(keys, segment);
      const collapseReader = new CollapseValueReader(collapse, segment);
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        if (deadline.expiredEvery()) break;
        if (!isLive(live, doc)) continue;
        const score = needScore ? scorer.score() : NaN;
        if (req.minScore !== null && score < req.minScore) continue;
        const values = sortReader === null ? null : sortReader.read(doc, score);
        if (values !== null && req.searchAfter && compareSortValues(keys!, values, req.searchAfter) <= 0) continue;
        total++;
        if (needScore && !(score <= maxScore)) maxScore = score;
        // Read for every match, competitive or not: a multi-valued document fails the search
        // whichever shard it is on, so the answer does not depend on the number of shards.
        top.offer(collapseReader.read(doc), score, values, base + doc);
        if (req.terminateAfter > 0 && total >= req.terminateAfter) {
          terminated = true;
          break;
        }
      }
    }
    ctx.release();
    base += segment.maxDoc;
  }
  const tracksMax = keys === null || req.trackScores || keys.some((k) => k.kind === 'score');
  return { total: counting ? total : 0, maxScore: tracksMax ? maxScore : NaN, groups: top.sorted(), bases, terminated };
}
