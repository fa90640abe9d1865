/**
 * The query rescorer (ES QueryRescorer over Lucene's QueryRescorer), in two halves.
 *
 * Scoring (in the worker, where the segments are): `rescoreQueryScores` scores each rescorer's
 * planned query on a fixed list of hits — per segment, the hits' docs ascending, one scorer
 * `advance()`d to each (Lucene's QueryRescorer walks the window by doc id the same way). A doc the
 * query does not match scores NaN. The plan was made with the search's index-wide statistics, so
 * these scores do not depend on sharding either.
 *
 * Combining (pure; the worker for a single-shard search, else the coordinator): `rescoreOrder`
 * applies the rescorers in order, each to the first `window_size` hits of the previous order. In
 * the window a matching doc scores `score_mode(query_weight × score, rescore_query_weight ×
 * rescore score)` and any other `query_weight × score`; hits after the window score `query_weight
 * × score` too (ES's QueryRescorer.combine) and the whole list is sorted again (score descending,
 * ties as the search breaks them). Arithmetic is float32, as in ES.
 *
 * Why the result does not depend on the number of shards: ES rescores each shard's own top hits,
 * so a window of 10 over 8 shards rescores up to 80 documents. Here every shard returns its top
 * n = max(from + size, largest window) hits by the first-pass score with each rescorer's score for
 * all of them; the coordinator merges them by the first-pass score (every hit of the global top n
 * is in its shard's top n), keeps the global top n and combines as above. That is exactly what one
 * shard holding every document computes, in one round trip. Rescore scores are computed for all n
 * hits rather than only the window because a later rescorer's window (after an earlier one
 * reordered the list, possibly with a zero or negative query_weight) can reach any of them; that is
 * n × rescorers float32s per shard, which the request's bound on rescorers (dsl/rescore.ts) keeps small.
 */
import { isLive } from '../index/index.js';
import type { RescoreMode } from '../dsl/index.js';
import type { Exec } from './plan/exec-nodes.js';
import { SegmentSearchContext, buildScorer } from './exec/build-scorer.js';
import type { SearchDeadline } from './exec/deadline.js';
import { NO_MORE_DOCS } from './exec/scorer.js';
import type { ShardView } from './exec/shard-view.js';
import type { Explanation } from './explain.js';

/** One rescorer as a shard runs it: its query planned like the search's. */
export interface ExecRescore {
  readonly query: Exec;
  readonly windowSize: number;
  readonly queryWeight: number;
  readonly rescoreQueryWeight: number;
  readonly scoreMode: RescoreMode;
}

/** The number of first-pass hits a rescored search collects per shard (ES's QueryPhase: max of from + size and every window). */
export function rescoreTopN(k: number, rescore: readonly { readonly windowSize: number }[]): number {
  let n = k;
  for (const r of rescore) if (r.windowSize > n) n = r.windowSize;
  return n;
}

/**
 * Each rescorer's score of each hit: [hit × rescorers + rescorer], NaN where its query does not
 * match. `hits` are (segment ordinal, doc) pairs read at `segmentAt`/`docAt` for hit i.
 */
export function rescoreQueryScores(
  rescore: readonly ExecRescore[], count: number, segmentAt: (i: number) => number, docAt: (i: number) => number,
  shard: ShardView, deadline: SearchDeadline,
): Float32Array {
  const width = rescore.length;
  // Scores are float32: half the bytes of doubles crossing back to the coordinator.
  const out = new Float32Array(count * width).fill(NaN);
  // Hit positions by segment, then by doc: each scorer only moves forward.
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => segmentAt(a) - segmentAt(b) || docAt(a) - docAt(b));
  for (let start = 0; start < count;) {
    const s = segmentAt(order[start]);
    let end = start;
    while (end < count && segmentAt(order[end]) === s) end++;
    const segment = shard.segments[s];
    // Past the deadline (ES `timeout`) the rest stay unscored: those hits keep query_weight × score.
    for (let r = 0; r < width && !deadline.expired(); r++) {
      const ctx = new SegmentSearchContext(segment, deadline);
      const scorer = buildScorer(rescore[r].query, ctx);
      if (scorer !== null) {
        for (let p = start; p < end; p++) {
          const hit = order[p];
          const doc = docAt(hit);
          if (!isLive(shard.liveDocs[s], doc)) continue;
          if (scorer.doc < doc) scorer.advance(doc);
          if (scorer.doc === NO_MORE_DOCS) break;
          if (scorer.doc === doc) out[hit * width + r] = scorer.score();
        }
      }
      ctx.release();
    }
    start = end;
  }
  return out;
}

/** QueryRescoreMode.combine, in float32. */
function combine(mode: RescoreMode, primary: number, secondary: number): number {
  switch (mode) {
    case 'total': return Math.fround(primary + secondary);
    case 'multiply': return Math.fround(primary * secondary);
    case 'avg': return Math.fround(Math.fround(primary + secondary) / 2);
    case 'max': return Math.max(primary, secondary);
    case 'min': return Math.min(primary, secondary);
  }
}

/**
 * A rescored list: `order[p]` is the position (in the first-pass list) of the p-th hit, scoring
 * `scores[order[p]]`; `inWindow[i × rescorers + r]` is 1 when hit i was in rescorer r's window.
 */
export interface RescoredOrder {
  readonly order: Int32Array;
  readonly scores: Float64Array;
  readonly inWindow: Uint8Array;
}

/**
 * Applies the rescorers to a first-pass list, best first. `firstPass[i]`: hit i's score;
 * `rescoreScores`: as `rescoreQueryScores` returns them, by first-pass position; `tie(a, b)`:
 * how the search orders equal scores (by first-pass position).
 */
export function rescoreOrder(
  rescore: readonly Pick<ExecRescore, 'windowSize' | 'queryWeight' | 'rescoreQueryWeight' | 'scoreMode'>[],
  firstPass: ArrayLike<number>, rescoreScores: ArrayLike<number>, tie: (a: number, b: number) => number,
): RescoredOrder {
  const n = firstPass.length;
  const width = rescore.length;
  const scores = Float64Array.from(firstPass);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const inWindow = new Uint8Array(n * width);
  for (let r = 0; r < width; r++) {
    const { windowSize, queryWeight, rescoreQueryWeight, scoreMode } = rescore[r];
    for (let p = 0; p < n; p++) {
      const hit = order[p];
      const primary = Math.fround(scores[hit] * queryWeight);
      if (p < windowSize) inWindow[hit * width + r] = 1;
      const secondary = p < windowSize ? rescoreScores[hit * width + r] : NaN;
      scores[hit] = Number.isNaN(secondary) ? primary : combine(scoreMode, primary, Math.fround(secondary * rescoreQueryWeight));
    }
    order.sort((a, b) => scores[b] - scores[a] || tie(a, b));
  }
  return { order, scores, inWindow };
}

/** QueryRescoreMode.toString, as explanations name it. */
const MODE_NAMES: Record<RescoreMode, string> = { total: 'sum', multiply: 'product', avg: 'avg', max: 'max', min: 'min' };

/**
 * ES QueryRescorer.explain, rescorer after rescorer: the previous explanation times
 * `primaryWeight`, combined with the rescore query's explanation times `secondaryWeight` where the
 * hit was in the window and the rescore query matches it. Its value is the hit's rescored score.
 */
export function explainRescored(
  first: { readonly matched: boolean; readonly explanation: Explanation }, rescore: readonly ExecRescore[],
  inWindow: ArrayLike<number> | undefined, explainQuery: (query: Exec) => { readonly matched: boolean; readonly explanation: Explanation },
): Explanation {
  let source = first;
  rescore.forEach((r, i) => {
    const prim: Explanation = source.matched
      ? { value: Math.fround(source.explanation.value * r.queryWeight), description: 'product of:', details: [source.explanation, { value: r.queryWeight, description: 'primaryWeight', details: [] }] }
      : { value: 0, description: 'First pass did not match', details: [source.explanation] };
    const second = inWindow !== undefined && inWindow[i] === 1 ? explainQuery(r.query) : null;
    if (second === null || !second.matched) {
      source = { matched: source.matched, explanation: prim };
      return;
    }
    const sec: Explanation = {
      value: Math.fround(second.explanation.value * r.rescoreQueryWeight), description: 'product of:',
      details: [second.explanation, { value: r.rescoreQueryWeight, description: 'secondaryWeight', details: [] }],
    };
    source = { matched: true, explanation: { value: combine(r.scoreMode, prim.value, sec.value), description: `${MODE_NAMES[r.scoreMode]} of:`, details: [prim, sec] } };
  });
  return source.explanation;
}
