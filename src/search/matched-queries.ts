/**
 * ES's MatchedQueriesPhase (a fetch sub-phase): for each hit of a page, the request's named clauses
 * that match it, each with its score — the clause's own score as a query of its own (its boost
 * included, a clause in filter context scored too), as ES creates one Weight per named query and
 * asks its scorer. The coordinator plans each named clause once per index (`NamedExec`); here each
 * segment's hits are visited in doc order with one scorer per clause, advanced forward only, so a
 * page costs at most hits × named clauses advances, whatever the segment sizes.
 */
import { float32ToJson } from '../common/float-json.js';
import type { Segment } from '../index/index.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import type { Scorer } from './exec/scorer.js';
import type { Exec } from './plan/exec-nodes.js';

/** One named clause planned for one index, in the order hits report names. */
export interface NamedExec {
  readonly name: string;
  readonly exec: Exec;
}

/** A hit to match: its segment and doc. */
export interface MatchedQueriesHit {
  readonly segment: Segment;
  readonly doc: number;
}

/**
 * Each hit's `matched_queries` value as JSON — the names in `named` order, or with `includeScore`
 * an object of name → score (ES's `include_named_queries_score`) — or undefined when no named
 * clause matches it (ES then renders no member).
 */
export function matchedQueries(named: readonly NamedExec[], hits: readonly MatchedQueriesHit[], includeScore: boolean): Array<string | undefined> {
  const out = new Array<string | undefined>(hits.length).fill(undefined);
  if (named.length === 0 || hits.length === 0) return out;
  // Hits by segment (in order of first appearance), then by doc, so each scorer only moves forward.
  const segmentRank = new Map<Segment, number>();
  for (const h of hits) if (!segmentRank.has(h.segment)) segmentRank.set(h.segment, segmentRank.size);
  const order = hits.map((_, i) => i).sort((a, b) => segmentRank.get(hits[a].segment)! - segmentRank.get(hits[b].segment)! || hits[a].doc - hits[b].doc);
  const scores = new Float64Array(named.length);
  let at = 0;
  while (at < order.length) {
    const segment = hits[order[at]].segment;
    const ctx = new SegmentSearchContext(segment);
    try {
      const scorers: Array<Scorer | null> = named.map((n) => buildScorer(n.exec, ctx));
      for (; at < order.length && hits[order[at]].segment === segment; at++) {
        const i = order[at];
        out[i] = matchesOf(named, scorers, hits[i].doc, scores, includeScore);
      }
    } finally {
      ctx.release();
    }
  }
  return out;
}

/** The rendered matches of one doc (scorers positioned before it or on it). */
function matchesOf(named: readonly NamedExec[], scorers: ReadonlyArray<Scorer | null>, doc: number, scores: Float64Array, includeScore: boolean): string | undefined {
  let any = false;
  for (let j = 0; j < scorers.length; j++) {
    const s = scorers[j];
    scores[j] = NaN;
    if (s === null) continue;
    if (s.doc < doc) s.advance(doc);
    if (s.doc !== doc) continue;
    scores[j] = includeScore ? s.score() : 0;
    any = true;
  }
  if (!any) return undefined;
  const members: string[] = [];
  for (let j = 0; j < scorers.length; j++) {
    if (Number.isNaN(scores[j])) continue;
    members.push(includeScore ? `${JSON.stringify(named[j].name)}:${float32ToJson(Math.fround(scores[j]))}` : JSON.stringify(named[j].name));
  }
  return includeScore ? `{${members.join(',')}}` : `[${members.join(',')}]`;
}
