/**
 * Rank-safe top-k for disjunctions of terms: MaxScore evaluated term-at-a-time in windows of doc
 * ids, the way Lucene's MaxScoreBulkScorer does it (Turtle & Flood's MaxScore; Moffat & Zobel's
 * "continue" strategy), with exact hit counting folded into the same pass.
 *
 * In each window every term is bounded by the best block max score among its posting blocks that
 * overlap the window. Sorted by bound, terms split into "non-essential" ones — together they
 * cannot lift a document above the current k-th best score — and "essential" ones. Then:
 *   - a window whose total bound cannot compete is skipped (once counting is done);
 *   - essential terms, best bound first, add their scores to the window's candidates; between two
 *     terms the candidates' partial scores may prove a higher bar for this window (kth-score.ts),
 *     which moves the remaining lower-bound terms to the non-essential side — so in a query of a
 *     rare and a frequent term, the frequent one is usually only probed, never scanned;
 *   - candidates whose partial score plus every non-essential bound cannot compete are dropped
 *     (kept as seen, for counting);
 *   - non-essential terms add only to surviving candidates — a document that no essential term
 *     contains cannot compete — probed with skipping `advance` when candidates are few, scanned
 *     otherwise; while counting they also record the documents they alone contain (the last one
 *     just counts its docs not matched, see the sparse path);
 *   - survivors go to the top-k heap, which raises the threshold for the next windows.
 * Dense windows keep candidates in a doc-indexed accumulator (window-accumulator.ts), sparse ones
 * in a doc-sorted merged list (candidate-list.ts).
 * Per-term scores are Lucene's float32 values, summed in double and rounded once, so the top k and
 * its scores are exactly those of exhaustive evaluation (tests check it against brute force).
 */
import { MAX_LIST_WINDOW, addTerm, dropBelow, listBar, mergeTerm, offerList } from './candidate-list.js';
import type { SearchDeadline } from './deadline.js';
import { maxScoreStats } from './max-score-stats.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';
import { unionWindow } from './union-window.js';
import {
  ACCUMULATOR_WINDOW, accumulate, accumulatorBar, addToCandidates, candidatesToList, countLive, dropCandidates, offerCandidates,
} from './window-accumulator.js';

export { maxScoreStats };

/**
 * Docs per window, the granularity of bounds and of the essential/non-essential split. Dense
 * queries use ACCUMULATOR_WINDOW. Sparse ones (at most `listPostings` postings per that many docs)
 * get wider windows, up to MAX_WINDOW, of about WINDOW_POSTINGS postings each: with a few hundred
 * postings per 16k docs the fixed cost of a window dominated, and in one wide window the rare
 * terms, scored first, raise the bar enough to leave the frequent ones non-essential.
 */
const MIN_WINDOW = ACCUMULATOR_WINDOW;
const MAX_WINDOW = MAX_LIST_WINDOW;
const WINDOW_POSTINGS = 8192;
/**
 * Up to this many postings per MIN_WINDOW docs, candidates are kept in the sorted list (sequential
 * merges); above, in the accumulator (measured: the list wins up to ~4k, then merging costs more
 * than the accumulator's random access). Mutable only so tests can force either representation.
 */
export const maxScoreTuning = {
  listPostings: 4096,
  /**
   * Sparse windows of this many docs instead of windowSize's (0). Tests set a few docs, so that
   * their small segments span several windows (window edges inside posting blocks, counting that
   * ends in one window and not the next).
   */
  listWindow: 0,
};
/**
 * Dense windows with at most this many candidates left move them to the sorted list, which probes
 * the non-essential terms; more are scored by scanning the non-essential postings linearly.
 */
const PROBE_CANDIDATES = 512;

/** Per-call scratch: window bounds, ascending, and their prefix sums. */
/** The lead loop's running score, summed through addScoreAt (term-scorer.ts says why). */
const sum = new Float64Array(1);
let bounds = new Float64Array(8);
let prefix = new Float64Array(8);

/** Highest block max score of `s` over blocks overlapping [s.doc, windowEnd). */
function windowBound(s: TermScorer, windowEnd: number): number {
  if (s.doc >= windowEnd) return 0;
  let b = s.blockOf(s.i);
  const last = s.blockOf(s.end - 1);
  let max = s.blockMaxScore(b);
  while (b < last && s.lastDocOfBlock(b) < windowEnd - 1) {
    b++;
    const m = s.blockMaxScore(b);
    if (m > max) max = m;
  }
  return max;
}

/** Whether two of the first n scorers read the same postings (a term repeated in the query). */
function repeatsTerm(scorers: readonly TermScorer[], n: number): boolean {
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (scorers[i].readsSamePostings(scorers[j])) return true;
  return false;
}

/** The window width for `postings` postings in a segment of `maxDoc` docs (see MIN_WINDOW). */
function windowSize(postings: number, maxDoc: number): number {
  if (maxScoreTuning.listWindow > 0) return maxScoreTuning.listWindow;
  let window = MIN_WINDOW;
  while (window < MAX_WINDOW && window < maxDoc && postings * window < WINDOW_POSTINGS * maxDoc) window *= 2;
  return window;
}

/**
 * One essential term, no counting: its postings in the window are the candidates, in doc order;
 * non-essential terms are probed (galloping advance), best bound first, only while the candidate
 * can still beat the threshold. No accumulator is needed.
 */
function essentialOnly(
  order: TermScorer[], prefix: Float64Array, essential: number, windowEnd: number, live: Uint32Array | null,
  top: TopScoreDocs, base: number, threshold: number,
): number {
  const lead = order[essential];
  const docs = lead.docs;
  const freqs = lead.freqs;
  const norms = lead.norms;
  const tf1 = lead.tf1;
  const end = lead.end;
  let p = lead.i;
  let scored = 0;
  // Block by block: the lead's loaded block holds postings [blockBase, blockEnd).
  const others = essential > 0 ? prefix[essential - 1] : 0;
  blocks: while (p < end) {
    // A block wholly inside the window whose best score plus every other term's bound cannot beat
    // the threshold is passed over undecoded (block-max pruning within the window).
    const b = lead.blockOf(p);
    if (lead.lastDocOfBlock(b) < windowEnd && lead.blockMaxScore(b) + others <= threshold) {
      p = Math.min(end, lead.firstPostingOfBlock(b + 1));
      continue;
    }
    lead.load(p);
    lead.loadFreqs();
    const first = lead.blockBase;
    const n = lead.blockEnd - first;
    for (let k = p - first; k < n; k++) {
      const doc = docs[k];
      if (doc >= windowEnd) {
        p = first + k;
        break blocks;
      }
      if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      let score: number;
      if (freqs[k] === 1 && norms !== null && (score = tf1[norms[doc]]) === score) {
        // freq 1 with this norm already in the table: the common case
      } else {
        sum[0] = 0;
        lead.addScoreAt(sum, 0, first + k, doc);
        score = sum[0];
      }
      scored++;
      for (let i = essential - 1; i >= 0; i--) {
        if (score + prefix[i] <= threshold) break;
        const s = order[i];
        if (s.doc < doc) s.advance(doc);
        if (s.doc === doc) {
          sum[0] = score;
          s.addScoreAt(sum, 0, s.i, doc);
          score = sum[0];
          scored++;
        }
      }
      // Docs come in increasing order, later than everything already offered: ties lose.
      const final = Math.fround(score);
      if (final > threshold && top.offer(final, base + doc)) threshold = top.minCompetitive;
    }
    p = first + n;
  }
  lead.seek(p);
  maxScoreStats.postingsScored += scored;
  return threshold;
}

/**
 * Collects the top k of a term disjunction over a segment of `maxDoc` docs into `top` and counts
 * matching live docs up to `countLimit` (−1: don't count). Returns the count (exact when
 * ≤ countLimit), or −1. The deadline is checked before each window; once it has passed, the windows
 * done so far are what `top` and the count hold (the caller reads `deadline.timedOut`).
 */
export function maxScoreTopK(
  scorers: TermScorer[], live: Uint32Array | null, top: TopScoreDocs, base: number, maxDoc: number, countLimit = -1,
  deadline: SearchDeadline | null = null,
): number {
  const n = scorers.length;
  let postings = 0;
  for (let i = 0; i < n; i++) postings += scorers[i].cost();
  const sparse = postings * Math.min(1, MIN_WINDOW / maxDoc) <= maxScoreTuning.listPostings;
  const window = sparse ? windowSize(postings, maxDoc) : MIN_WINDOW;
  if (bounds.length < n) {
    bounds = new Float64Array(n);
    prefix = new Float64Array(n);
  }
  // Sparse windows are evaluated as unions (union-window.ts) when they must count, and whenever
  // the query has several distinct terms: MaxScore's sorted candidate lists cost more per posting
  // than the union's passes, which prune by block max too (the 2,000 engine-bm25 queries with
  // track_total_hits false: −28% time in all). A single term keeps `essentialOnly`, which skips
  // whole blocks below the threshold undecoded; a repeated term (`match` keeps both clauses, as
  // Lucene does) makes every one of its docs a doc of several terms, the union's costly case.
  const distinctTerms = n > 1 && !repeatsTerm(scorers, n);
  if (sparse && (countLimit >= 0 || distinctTerms) && window >= maxDoc) {
    // One window holds every doc: the union reads each term from its first posting and needs no
    // term positioned on a doc first (seeking would decode a sub-block of each).
    if (deadline !== null && deadline.expired()) return countLimit >= 0 ? 0 : -1;
    for (let i = 0; i < n; i++) scorers[i].positionOnStart();
    const matched = unionWindow(scorers, n, 0, window, live, top, base);
    return countLimit >= 0 ? matched : -1;
  }
  const order = scorers.slice();
  for (let i = 0; i < n; i++) scorers[i].seek(scorers[i].start);
  let threshold = top.capacity === 0 ? Infinity : top.minCompetitive;
  let counted = 0;
  let counting = countLimit >= 0;

  for (;;) {
    let windowStart = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) if (scorers[i].doc < windowStart) windowStart = scorers[i].doc;
    if (windowStart === NO_MORE_DOCS) break;
    if (deadline !== null && deadline.expired()) break;
    const windowEnd = windowStart + window;
    if (sparse && (counting || distinctTerms)) {
      // A union pass needs no window bounds; while counting it visits every posting anyway.
      const matched = unionWindow(scorers, n, windowStart, windowEnd, live, top, base);
      if (counting) {
        counted += matched;
        if (counted > countLimit) counting = false;
      }
      threshold = top.capacity === 0 ? Infinity : top.minCompetitive;
      continue;
    }

    // Bounds, ascending (insertion sort: n is small).
    for (let i = 0; i < n; i++) {
      const s = scorers[i];
      const b = windowBound(s, windowEnd);
      let j = i;
      while (j > 0 && bounds[j - 1] > b) {
        bounds[j] = bounds[j - 1];
        order[j] = order[j - 1];
        j--;
      }
      bounds[j] = b;
      order[j] = s;
    }
    // Non-essential: the longest prefix (by ascending bound) whose bounds sum to ≤ threshold.
    let essential = 0;
    let nonEssentialBound = 0;
    while (essential < n && nonEssentialBound + bounds[essential] <= threshold) {
      nonEssentialBound += bounds[essential];
      prefix[essential] = nonEssentialBound;
      essential++;
    }
    if (!counting) {
      if (essential === n) {
        for (let i = 0; i < n; i++) if (scorers[i].doc < windowEnd) scorers[i].advance(windowEnd);
        continue;
      }
      if (essential === n - 1) {
        threshold = essentialOnly(order, prefix, essential, windowEnd, live, top, base, threshold);
        for (let i = 0; i < n; i++) if (order[i].doc < windowEnd) order[i].advance(windowEnd);
        continue;
      }
    }
    // Essential terms, best bound first; between terms, a higher bar for this window may move the
    // remaining ones to the non-essential side. `count`: window docs seen (dense) or listed (sparse).
    let count = 0;
    let bar = threshold;
    let processedBound = 0;
    for (let i = n - 1; i >= essential; i--) {
      // The k-th best partial score is at most processedBound (or already the heap threshold).
      // Each refinement selects over every candidate, so with many terms (learned-sparse queries
      // have ~30) it runs after 1, 2, 4, 8, … processed terms only: a few selections per window.
      const processed = n - 1 - i;
      if (processed > 0 && (processed & (processed - 1)) === 0 && top.capacity > 0 && count + top.size >= top.capacity && nonEssentialBound + bounds[essential] <= processedBound) {
        const refined = sparse ? listBar(top, count, live) : accumulatorBar(top, count, windowStart, live);
        if (refined > bar) {
          bar = refined;
          while (essential <= i && nonEssentialBound + bounds[essential] <= bar) {
            nonEssentialBound += bounds[essential];
            prefix[essential] = nonEssentialBound;
            essential++;
          }
          if (essential > i) break;
        }
      }
      count = sparse ? mergeTerm(order[i], windowEnd, count) : accumulate(order[i], windowStart, windowEnd, count);
      processedBound += bounds[i];
    }

    if (!sparse) {
      if (essential > 0) count = dropCandidates(count, nonEssentialBound, bar, counting);
      if (essential > 0 && !counting && count <= PROBE_CANDIDATES) {
        candidatesToList(count, windowStart); // and on as a sparse window
      } else {
        for (let i = essential - 1; i >= 0; i--) count = addToCandidates(order[i], windowStart, windowEnd, count, counting);
        if (counting) {
          counted += countLive(count, windowStart, live);
          if (counted > countLimit) counting = false;
        }
        threshold = offerCandidates(count, windowStart, live, top, base, threshold, bar);
        for (let i = 0; i < n; i++) if (order[i].doc < windowEnd) order[i].advance(windowEnd);
        continue;
      }
    }
    // Here the window is not counting: sparse windows that count are unions (above), and a dense
    // one moves to the list only when it is not counting. Non-essential terms, best bound first,
    // each to the candidates that can still compete.
    for (let i = essential - 1; i >= 0; i--) {
      dropBelow(count, prefix[i], bar);
      addTerm(order[i], windowStart, windowEnd, count);
    }
    threshold = offerList(count, live, top, base, threshold, bar);
    for (let i = 0; i < n; i++) if (order[i].doc < windowEnd) order[i].advance(windowEnd);
  }
  return countLimit >= 0 ? counted : -1;
}
