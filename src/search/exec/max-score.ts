/**
 * Rank-safe top-k for disjunctions of terms: block-max MaxScore (Turtle & Flood's MaxScore over
 * windows bounded by posting blocks, like Lucene's MaxScoreBulkScorer).
 *
 * Docs are visited in windows [min current doc, the nearest end of any term's current block]; in a
 * window each term's contribution is bounded by its block's max score. Terms are split into
 * "non-essential" (their bounds together cannot beat the current k-th score) and "essential"; only
 * docs found in essential lists are candidates, non-essential lists are probed only while the
 * candidate could still become competitive, and a window whose total bound cannot compete is
 * skipped outright. Scores are exactly those of exhaustive evaluation (float32 per term, summed in
 * double, rounded once), so the top k is identical — the tests check this against the exhaustive path.
 */
import { isLive } from '../../index/index.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

const f = Math.fround;

/** Postings touched counter, for benchmarks' "postings per query" figure. */
export const maxScoreStats = { postingsScored: 0 };

export function maxScoreTopK(scorers: TermScorer[], live: Uint32Array | null, top: TopScoreDocs, base: number): void {
  const n = scorers.length;
  const order = scorers.slice();
  const bounds = new Float64Array(n);
  const prefix = new Float64Array(n); // prefix[i] = Σ bounds[0..i] in ascending-bound order
  for (const s of scorers) s.nextDoc();
  let threshold = top.minCompetitive;
  let scored = 0;

  for (;;) {
    let windowMin = NO_MORE_DOCS;
    let windowMax = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) {
      const s = scorers[i];
      if (s.doc === NO_MORE_DOCS) continue;
      if (s.doc < windowMin) windowMin = s.doc;
      const last = s.lastDocOfBlock(s.blockOf(s.i));
      if (last < windowMax) windowMax = last;
    }
    if (windowMin === NO_MORE_DOCS) break;

    // Window bounds, ordered ascending (insertion sort: n is small).
    for (let i = 0; i < n; i++) {
      const s = scorers[i];
      const b = s.doc <= windowMax ? s.blockMaxScore(s.blockOf(s.i)) : 0;
      let j = i;
      while (j > 0 && bounds[j - 1] > b) {
        bounds[j] = bounds[j - 1];
        order[j] = order[j - 1];
        j--;
      }
      bounds[j] = b;
      order[j] = s;
    }
    let sum = 0;
    for (let i = 0; i < n; i++) prefix[i] = sum += bounds[i];

    if (sum <= threshold) {
      // Nothing in this window can compete: skip past it.
      for (let i = 0; i < n; i++) if (scorers[i].doc <= windowMax) scorers[i].advance(windowMax + 1);
      continue;
    }
    let essential = 0;
    while (essential < n && prefix[essential] <= threshold) essential++;

    for (;;) {
      let doc = NO_MORE_DOCS;
      for (let i = essential; i < n; i++) if (order[i].doc < doc) doc = order[i].doc;
      if (doc > windowMax) break;
      if (!isLive(live, doc)) {
        for (let i = essential; i < n; i++) if (order[i].doc === doc) order[i].nextDoc();
        continue;
      }
      let score = 0;
      for (let i = essential; i < n; i++) {
        const s = order[i];
        if (s.doc === doc) {
          score += s.score();
          scored++;
          s.nextDoc();
        }
      }
      // Probe non-essential lists, most valuable first, while the doc can still compete.
      for (let i = essential - 1; i >= 0; i--) {
        if (score + prefix[i] <= threshold) break;
        const s = order[i];
        if (s.doc < doc) s.advance(doc);
        if (s.doc === doc) {
          score += s.score();
          scored++;
        }
      }
      const final = f(score);
      if (final > threshold && top.offer(final, base + doc)) {
        const next = top.minCompetitive;
        if (next > threshold) {
          threshold = next;
          while (essential < n && prefix[essential] <= threshold) essential++;
        }
      }
    }
  }
  maxScoreStats.postingsScored += scored;
}

let countBits = new Uint32Array(1024);

/** Number of live docs in the union of the terms' postings (exact, one pass over each list). */
export function countTermUnion(scorers: TermScorer[], live: Uint32Array | null, maxDoc: number): number {
  if (scorers.length === 1 && live === null) return scorers[0].cost();
  const words = (maxDoc + 31) >>> 5;
  if (countBits.length < words) countBits = new Uint32Array(words);
  const bits = countBits;
  let count = 0;
  for (const s of scorers) {
    const docs = s.docs;
    for (let i = s.start; i < s.end; i++) {
      const d = docs[i];
      const w = d >>> 5;
      const m = 1 << (d & 31);
      if ((bits[w] & m) === 0) {
        bits[w] |= m;
        if (live === null || (live[w] & m) !== 0) count++;
      }
    }
  }
  bits.fill(0, 0, words);
  return count;
}
