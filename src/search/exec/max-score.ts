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
import { MAX_LIST_WINDOW, addTerm, countAbove, dropBelow, listBar, mergeTerm, offerList } from './candidate-list.js';
import { BLOCK_SIZE } from '../../index/index.js';
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
  /**
   * A sparse window whose rarest terms have at most 1/skewRatio of the others' postings tries
   * MaxScore's list on them first (rareTermsFirst). Tests set 1 to send most windows there.
   */
  skewRatio: 16,
  /**
   * rareTermsFirst's cost model, in postings marked by the union's pass 1: probing a frequent term
   * at a candidate (a sub-block decoded and searched) and a doc with two frequent terms in the
   * union (listed, sorted, probed or scanned by the other, offered in pass 2) each cost about
   * this many. Tests set 0, so that every skewed window that gets its bar is a list.
   */
  probeCost: 16,
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

/**
 * Inserts scorer `s` with sort key `key` into `keys`/`order`, whose positions [from, i) are sorted
 * ascending, keeping [from, i] sorted (insertion sort: queries have few terms).
 */
function insertSorted(keys: Float64Array, order: TermScorer[], from: number, i: number, key: number, s: TermScorer): void {
  let j = i;
  while (j > from && keys[j - 1] > key) {
    keys[j] = keys[j - 1];
    order[j] = order[j - 1];
    j--;
  }
  keys[j] = key;
  order[j] = s;
}

/**
 * Postings of `s` from its current one (on a doc ≥ the window's start) below windowEnd, estimated
 * from block bounds without decoding: whole blocks below windowEnd, and of the block that spans
 * it the share of its doc range below windowEnd.
 */
function postingsBefore(s: TermScorer, windowEnd: number): number {
  if (s.doc >= windowEnd) return 0;
  const first = s.blockOf(s.i);
  let lo = first;
  let hi = s.blockOf(s.end - 1);
  if (s.lastDocOfBlock(hi) < windowEnd) return s.end - s.i;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.lastDocOfBlock(mid) < windowEnd) lo = mid + 1;
    else hi = mid;
  }
  const from = Math.max(s.i, s.firstPostingOfBlock(lo));
  const fromDoc = lo === first ? s.doc : s.lastDocOfBlock(lo - 1) + 1;
  const to = Math.min(s.end, s.firstPostingOfBlock(lo) + BLOCK_SIZE);
  return from - s.i + ((to - from) * (windowEnd - fromDoc)) / (s.lastDocOfBlock(lo) - fromDoc + 1);
}

/** Per-call scratch of rareTermsFirst: postings in the window by position in `order`, and positions to go back to. */
let postingsIn = new Float64Array(8);
let savedPosting = new Int32Array(8);

/** rareTerms' second result: the rare terms' postings together. */
let rarePostings = 0;

/**
 * Sorts the n terms into `order` by their (estimated) postings below windowEnd (or all their
 * postings: `whole`), ascending, and returns how many of the rarest have together at most
 * 1/skewRatio of the postings of the rest, setting rarePostings; 0 when the window is not skewed
 * that way or when the union handles it as well: a single frequent term without deletes is probed
 * by the union already (union-window.ts's probedTerm), and fewer than k rare postings, with the
 * heap's hits, give MaxScore no bar.
 */
function rareTerms(scorers: readonly TermScorer[], order: TermScorer[], n: number, windowEnd: number, whole: boolean, live: Uint32Array | null, top: TopScoreDocs): number {
  if (postingsIn.length < n) {
    postingsIn = new Float64Array(n);
    savedPosting = new Int32Array(n);
  }
  let all = 0;
  for (let i = 0; i < n; i++) {
    const s = scorers[i];
    const p = whole ? s.cost() : postingsBefore(s, windowEnd);
    all += p;
    insertSorted(postingsIn, order, 0, i, p, s);
  }
  let rare = 0;
  rarePostings = 0;
  while (rare < n - 1 && (rarePostings + postingsIn[rare]) * maxScoreTuning.skewRatio <= all - rarePostings - postingsIn[rare]) {
    rarePostings += postingsIn[rare];
    rare++;
  }
  if (rare === n - 1 && live === null) return 0;
  if (rarePostings + top.size < top.capacity) return 0;
  return rare;
}

/**
 * Whether MaxScore's bar can pass `frequentBound`. The bar is the k-th best score among the heap's
 * hits and the candidates; a doc of one rare term scores at most that term's bound (bounds[i] for
 * the i-th of the `rare` in `order`; docs with several rare terms are few), so unless k hits or
 * rare postings can score above it, the bar will not get there and the merge would be wasted (the
 * 6–9-term bench queries: 22 of 1,915 merges left every frequent term non-essential without this
 * test).
 */
function barMayPass(rare: number, frequentBound: number, top: TopScoreDocs): boolean {
  if (top.minCompetitive >= frequentBound) return true;
  let above = 0;
  for (let i = 0; i < top.size; i++) if (top.scores[i] > frequentBound) above++;
  for (let i = 0; i < rare; i++) if (bounds[i] > frequentBound) above += postingsIn[i];
  return above >= top.capacity;
}

/** rareTerms' frequent terms' postings and the docs two of them are expected to share (probesPay). */
let frequentPostings = 0;
let shared = 0;

/**
 * Whether the list, if it gets its bar, is cheaper than the union for the `rare` terms rareTerms
 * found among n in a window of windowDocs docs, with every rare posting a candidate: unless its
 * probes of the frequent terms at the candidates cost more than what the union spends on those
 * terms — decoding their postings, and pass 2 over the docs two of them share (expected from
 * their postings as if independent; zehio's two 9k-doc terms share ~420, where the union lost
 * most). rareTermsFirst checks it again with the candidates the bar leaves.
 */
function probesPay(rare: number, n: number, windowDocs: number): boolean {
  frequentPostings = 0;
  shared = 0;
  for (let i = rare; i < n; i++) {
    shared += (frequentPostings * postingsIn[i]) / windowDocs;
    frequentPostings += postingsIn[i];
  }
  return maxScoreTuning.probeCost * (rarePostings * (n - rare) - shared) <= frequentPostings;
}

/**
 * A sparse window (not counting) where a few rare terms sit next to frequent ones, e.g. two words
 * of ~9k docs and five of ≤ 68 (`engine-i19y`): the union would decode every frequent posting,
 * where MaxScore merges the rare terms' postings into its candidate list and, once their k-th best
 * score is above the frequent terms' bounds summed, only probes the frequent terms at the
 * candidates that can still compete. So the rare terms are merged first and that bar computed
 * (kth-score.ts); if it leaves every frequent term non-essential the window ends as a list (exact,
 * as MaxScore), else the rare terms go back to their positions and the window is a union — the
 * merge wasted is at most 1/skewRatio of the window's postings. Returns whether the window is done.
 */
function rareTermsFirst(
  scorers: readonly TermScorer[], order: TermScorer[], n: number, windowStart: number, windowEnd: number, maxDoc: number,
  live: Uint32Array | null, top: TopScoreDocs, base: number,
): boolean {
  const rare = rareTerms(scorers, order, n, windowEnd, false, live, top);
  if (rare === 0) return false;
  if (!probesPay(rare, n, Math.min(windowEnd, maxDoc) - windowStart)) return false;
  for (let i = 0; i < rare; i++) bounds[i] = windowBound(order[i], windowEnd);
  // The frequent terms' bounds summed are at least those of the blocks they are in: most windows
  // fail the test below with that already, before the frequent terms' other blocks are read.
  let frequentFloor = 0;
  for (let i = rare; i < n; i++) {
    const s = order[i];
    if (s.doc < windowEnd) frequentFloor += s.blockMaxScore(s.blockOf(s.i));
  }
  if (!barMayPass(rare, frequentFloor, top)) return false;
  // The frequent terms by window bound, ascending (MaxScore's non-essential order), and their
  // bounds summed in that order, as the list path sums them.
  for (let i = rare; i < n; i++) {
    const s = order[i];
    insertSorted(bounds, order, rare, i, windowBound(s, windowEnd), s);
  }
  let headroom = 0;
  for (let i = rare; i < n; i++) prefix[i] = headroom += bounds[i];
  const frequentBound = prefix[n - 1];
  const threshold = top.minCompetitive;
  if (!barMayPass(rare, frequentBound, top)) return false;
  let count = 0;
  for (let i = 0; i < rare; i++) {
    savedPosting[i] = order[i].i;
    count = mergeTerm(order[i], windowEnd, count);
  }
  let bar = threshold;
  const refined = listBar(top, count, live);
  if (refined > bar) bar = refined;
  if (frequentBound > bar || maxScoreTuning.probeCost * (countAbove(count, frequentBound, bar) * (n - rare) - shared) > frequentPostings) {
    for (let i = 0; i < rare; i++) order[i].seek(savedPosting[i]);
    return false;
  }
  for (let i = n - 1; i >= rare; i--) {
    dropBelow(count, prefix[i], bar);
    addTerm(order[i], windowStart, windowEnd, count);
  }
  offerList(count, live, top, base, threshold, bar);
  for (let i = 0; i < n; i++) if (order[i].doc < windowEnd) order[i].advance(windowEnd);
  return true;
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
  // Lucene does) makes every one of its docs a doc of several terms, the union's costly case. Rare
  // terms next to frequent ones may make a window a list again (rareTermsFirst, below).
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
  // A skewed query's windows that do not count may be lists (rareTermsFirst), when its terms'
  // postings in the whole segment pass the same tests. Not when one window holds every doc (above):
  // there the tests found no window of the 2,000 bench queries worth a list, and leaving the
  // one-window union cost them more than the tests (2–4% of the skewed ones' time).
  let skewed = false;
  if (sparse && distinctTerms && top.capacity > 0) {
    const rare = rareTerms(scorers, order, n, 0, true, live, top);
    skewed = rare > 0 && probesPay(rare, n, maxDoc);
  }
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
      if (skewed && !counting && rareTermsFirst(scorers, order, n, windowStart, windowEnd, maxDoc, live, top, base)) {
        threshold = top.minCompetitive;
        continue;
      }
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
      insertSorted(bounds, order, 0, i, windowBound(s, windowEnd), s);
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
