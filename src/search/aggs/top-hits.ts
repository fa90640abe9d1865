/**
 * `top_hits` (ES TopHitsAggregator / InternalTopHits) in three steps. Collect: a shard keeps each
 * bucket's best `from + size` documents (a bounded heap per bucket, so a bucket of a million docs
 * costs `from + size` entries) as references — segment, doc, score, sort values — never their
 * `_source`. Reduce: the coordinator merges the shards' lists as the search merges its top hits
 * (by score or sort values, then index position, then index-wide write order: the same hits
 * whatever the sharding) and keeps [from, from + size). Render: only the buckets the response
 * shows are fetched, from the coordinator-owned segments (`TopHitsFetch`), so the `_source` read
 * is bounded by `search.max_buckets` × `index.max_inner_result_window`.
 */
import { float32ToJson } from '../../common/float-json.js';
import { JsonText } from '../../common/json-text.js';
import type { Segment } from '../../index/index.js';
import { compareSortValues, SortValueReader, TopFieldDocs, type ExecSort, type FieldHit, type SortValue } from '../exec/field-sort.js';
import { TOP_HIT_STRIDE, type ExecTopHits, type TopHitsPartial } from './exec-aggs.js';
import type { DocLists } from './doc-lists.js';

/**
 * The query's scores of the shard's matching docs: per segment, `scores[s][i]` is the score of
 * `docs[s][i]` (the aggregation's top-level lists); null when no aggregation needs scores.
 */
export type DocScores = { readonly docs: DocLists; readonly scores: readonly Float64Array[] } | null;

/**
 * The score of each doc of `list` (ascending, a subset of the matching docs `all`, whose scores
 * are `allScores`): the same arrays at the top level, else a galloping search from the last find.
 */
export function scoresOf(list: Int32Array, all: Int32Array, allScores: Float64Array): Float64Array {
  if (list === all) return allScores;
  const out = new Float64Array(list.length);
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const doc = list[i];
    let step = 1;
    let hi = from;
    while (hi < all.length && all[hi] < doc) {
      from = hi + 1;
      hi += step;
      step *= 2;
    }
    let lo = from;
    hi = Math.min(hi, all.length - 1);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    out[i] = allScores[lo];
    from = lo + 1;
  }
  return out;
}

const BY_SCORE: readonly ExecSort[] = [{ kind: 'score', desc: true }];

/** A candidate while collecting: where it is, beside what it sorts by. */
interface BucketHit extends FieldHit {
  readonly segment: number;
  readonly doc: number;
}

export function collectTopHits(agg: ExecTopHits, segments: readonly Segment[], docs: DocLists, scores: DocScores): TopHitsPartial {
  const keys = agg.sort ?? BY_SCORE;
  const top = new TopFieldDocs(keys, agg.from + agg.size);
  let total = 0;
  let maxScore = NaN;
  const tracked = agg.tracksScores && scores !== null;
  // TopHitsAggregator reports a max score when sorting by score (the best collected hit's), or by
  // fields with track_scores (a max over every doc).
  const reportsMax = tracked && (agg.sort === null || agg.fetch.trackScores);
  for (let s = 0; s < segments.length; s++) {
    const list = docs[s];
    if (list.length === 0) continue;
    total += list.length;
    const segment = segments[s];
    const segmentScores = tracked ? scoresOf(list, scores.docs[s], scores.scores[s]) : null;
    const reader = new SortValueReader(keys, segment);
    for (let i = 0; i < list.length; i++) {
      const doc = list[i];
      const score = segmentScores !== null ? segmentScores[i] : NaN;
      if (reportsMax && !(score <= maxScore)) maxScore = score;
      // Ties go to the earlier write, index-wide, as among the search's hits.
      const hit: BucketHit = { values: reader.read(doc, score), score, order: segment.indexOrder.get(doc), segment: s, doc };
      top.offer(hit);
    }
  }
  const ranked = top.sorted() as BucketHit[];
  const hits = new Float64Array(ranked.length * TOP_HIT_STRIDE);
  ranked.forEach((h, i) => hits.set([h.score, h.segment, h.doc, h.order], i * TOP_HIT_STRIDE));
  return { kind: 'top_hits', total, maxScore, hits, sortValues: agg.sort === null ? null : ranked.map((h) => h.values), target: -1, indexPos: -1 };
}

/** A hit of the reduced list: the shard it came from and where it is there. */
export interface ReducedTopHit {
  readonly target: number;
  readonly segment: number;
  readonly doc: number;
  readonly score: number;
  readonly sortValues: readonly SortValue[] | null;
}

export interface ReducedTopHits {
  readonly total: number;
  readonly maxScore: number;
  readonly hits: readonly ReducedTopHit[];
}

interface Candidate extends ReducedTopHit {
  readonly indexPos: number;
  readonly indexOrder: number;
}

/** InternalTopHits.reduce: totals added, the shards' lists merged, [from, from + size) kept. */
export function reduceTopHits(agg: ExecTopHits, parts: readonly TopHitsPartial[]): ReducedTopHits {
  let total = 0;
  let maxScore = NaN;
  const all: Candidate[] = [];
  for (const p of parts) {
    total += p.total;
    if (!Number.isNaN(p.maxScore) && !(p.maxScore <= maxScore)) maxScore = p.maxScore;
    for (let i = 0; i * TOP_HIT_STRIDE < p.hits.length; i++) {
      const o = i * TOP_HIT_STRIDE;
      all.push({
        target: p.target, indexPos: p.indexPos, score: p.hits[o], segment: p.hits[o + 1], doc: p.hits[o + 2], indexOrder: p.hits[o + 3],
        sortValues: p.sortValues === null ? null : p.sortValues[i],
      });
    }
  }
  const keys = agg.sort;
  all.sort((a, b) => (keys === null ? b.score - a.score : compareSortValues(keys, a.sortValues!, b.sortValues!)) || a.indexPos - b.indexPos || a.indexOrder - b.indexOrder);
  return { total, maxScore, hits: all.slice(agg.from, agg.from + agg.size) };
}

/** Renders a reduced hit as the search renders its hits, from the coordinator's copy of the shard. */
export interface TopHitsFetch {
  hit(agg: ExecTopHits, hit: ReducedTopHit): string;
}

/** InternalTopHits.doXContentBody: the `hits` of a search response. */
export function renderTopHits(agg: ExecTopHits, reduced: ReducedTopHits, fetch: TopHitsFetch | null): Record<string, unknown> {
  if (reduced.hits.length > 0 && fetch === null) throw new Error('top_hits rendered without a fetch');
  return {
    hits: {
      total: { value: reduced.total, relation: 'eq' },
      max_score: Number.isNaN(reduced.maxScore) ? null : new JsonText(float32ToJson(reduced.maxScore)),
      hits: reduced.hits.map((h) => new JsonText(fetch!.hit(agg, h))),
    },
  };
}
