/**
 * Rank-safe top-k for disjunctions of terms: MaxScore evaluated term-at-a-time in windows of doc
 * ids, the way Lucene's MaxScoreBulkScorer does it (Turtle & Flood's MaxScore; Moffat & Zobel's
 * "continue" strategy), with exact hit counting folded into the same pass.
 *
 * In each window every term is bounded by the best block max score among its posting blocks that
 * overlap the window. Sorted by bound, terms split into "non-essential" ones — together they
 * cannot lift a document above the current k-th best score — and "essential" ones. Then:
 *   - a window whose total bound cannot compete is skipped (once counting is done);
 *   - essential terms accumulate their scores into a window-local array (tight typed-array loops);
 *   - candidates whose partial score plus every non-essential bound cannot compete are dropped
 *     (marked as seen, for counting);
 *   - non-essential terms add only to surviving candidates — a document that no essential term
 *     contains cannot compete — and, while counting, mark the documents they alone contain;
 *   - survivors go to the top-k heap, which raises the threshold for the next windows.
 * Per-term scores are Lucene's float32 values, summed in double and rounded once, so the top k and
 * its scores are exactly those of exhaustive evaluation (tests check it against brute force).
 */
import type { SearchDeadline } from './deadline.js';
import { NO_MORE_DOCS } from './scorer.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

/**
 * Docs per window: the granularity of bounds and of the essential/non-essential split. 16k keeps
 * the accumulator (8 bytes/doc) in L2 with little per-window overhead; measured best of 4k–64k.
 */
const WINDOW = 16384;
/** Partial scores per window doc: > 0 candidate, 0 untouched, SEEN counted but not a candidate. */
const acc = new Float64Array(WINDOW);
const SEEN = -1;
/** Candidates (partial score > 0) as a bitset: the non-essential scan tests membership in L1. */
const candidateBits = new Uint32Array(WINDOW >>> 5);
let touched = new Int32Array(4096);

/** Postings scored, for benchmarks' "postings per query" figure. */
export const maxScoreStats = { postingsScored: 0 };

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

function pushTouched(count: number, local: number): number {
  if (count === touched.length) {
    const grown = new Int32Array(touched.length * 2);
    grown.set(touched);
    touched = grown;
  }
  touched[count] = local;
  return count + 1;
}

/** Essential term: adds its scores for docs in [windowStart, windowEnd), recording new docs. */
function accumulate(s: TermScorer, windowStart: number, windowEnd: number, count: number): number {
  const docs = s.docs;
  const freqs = s.freqs;
  const norms = s.norms;
  const tf1 = s.tf1;
  const end = s.end;
  const a = acc;
  const bits = candidateBits;
  let p = s.i;
  for (; p < end; p++) {
    const doc = docs[p];
    if (doc >= windowEnd) break;
    const l = doc - windowStart;
    const before = a[l];
    if (before === 0) {
      count = pushTouched(count, l);
      bits[l >>> 5] |= 1 << (l & 31);
    }
    let score: number;
    if ((freqs === null || freqs[p] === 1) && norms !== null && (score = tf1[norms[doc]]) === score) {
      // the common case: freq 1, table already filled for this norm
    } else {
      score = s.scoreAt(p, doc);
    }
    a[l] = before + score;
  }
  maxScoreStats.postingsScored += p - s.i;
  s.seek(p);
  return count;
}

/**
 * Non-essential term: adds its scores to candidates only. While counting, documents seen for the
 * first time are marked SEEN and recorded (their count is taken from the touched list later).
 */
function addToCandidates(s: TermScorer, windowStart: number, windowEnd: number, count: number, counting: boolean): number {
  const docs = s.docs;
  const end = s.end;
  const a = acc;
  const bits = candidateBits;
  let p = s.i;
  let scored = 0;
  for (; p < end; p++) {
    const doc = docs[p];
    if (doc >= windowEnd) break;
    const l = doc - windowStart;
    if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
      const before = a[l];
      if (before > 0) {
        a[l] = before + s.scoreAt(p, doc);
        scored++;
      }
    } else if (counting) {
      a[l] = SEEN;
      bits[l >>> 5] |= 1 << (l & 31);
      count = pushTouched(count, l);
    }
  }
  maxScoreStats.postingsScored += scored;
  s.seek(p);
  return count;
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
  for (; p < end; p++) {
    const doc = docs[p];
    if (doc >= windowEnd) break;
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    let score: number;
    if ((freqs === null || freqs[p] === 1) && norms !== null && (score = tf1[norms[doc]]) === score) {
      // freq 1 with this norm already in the table: the common case
    } else {
      score = lead.scoreAt(p, doc);
    }
    scored++;
    for (let i = essential - 1; i >= 0; i--) {
      if (score + prefix[i] <= threshold) break;
      const s = order[i];
      if (s.doc < doc) s.advance(doc);
      if (s.doc === doc) {
        score += s.scoreAt(s.i, doc);
        scored++;
      }
    }
    // Docs come in increasing order, later than everything already offered: ties lose.
    const final = Math.fround(score);
    if (final > threshold && top.offer(final, base + doc)) threshold = top.minCompetitive;
  }
  lead.seek(p);
  maxScoreStats.postingsScored += scored;
  return threshold;
}

/** Live docs among the window docs in touched[0, count). */
function countLive(count: number, windowStart: number, live: Uint32Array | null): number {
  if (live === null) return count;
  let n = 0;
  for (let c = 0; c < count; c++) {
    const doc = windowStart + touched[c];
    if ((live[doc >>> 5] & (1 << (doc & 31))) !== 0) n++;
  }
  return n;
}

/**
 * Collects the top k of a term disjunction into `top` and counts matching live docs up to
 * `countLimit` (−1: don't count). Returns the count (exact when ≤ countLimit), or −1.
 * The deadline is checked before each window; once it has passed, the windows done so far are
 * what `top` and the count hold (the caller reads `deadline.timedOut`).
 */
export function maxScoreTopK(
  scorers: TermScorer[], live: Uint32Array | null, top: TopScoreDocs, base: number, countLimit = -1, deadline: SearchDeadline | null = null,
): number {
  const n = scorers.length;
  const order = scorers.slice();
  const bounds = new Float64Array(n);
  const prefix = new Float64Array(n); // prefix[i] = Σ bounds[0..i] over the non-essential terms
  for (let i = 0; i < n; i++) scorers[i].seek(scorers[i].start);
  let threshold = top.capacity === 0 ? Infinity : top.minCompetitive;
  let counted = 0;
  let counting = countLimit >= 0;

  for (;;) {
    let windowStart = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) if (scorers[i].doc < windowStart) windowStart = scorers[i].doc;
    if (windowStart === NO_MORE_DOCS) break;
    if (deadline !== null && deadline.expired()) break;
    const windowEnd = windowStart + WINDOW;

    // Bounds, ascending (insertion sort: n is small).
    let total = 0;
    for (let i = 0; i < n; i++) {
      const s = scorers[i];
      const b = windowBound(s, windowEnd);
      total += b;
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
    let count = 0;
    for (let i = n - 1; i >= essential; i--) count = accumulate(order[i], windowStart, windowEnd, count);
    if (essential > 0) {
      if (!counting) {
        // Drop candidates that cannot compete even with every non-essential term added.
        let kept = 0;
        for (let c = 0; c < count; c++) {
          const l = touched[c];
          if (acc[l] + nonEssentialBound > threshold) touched[kept++] = l;
          else {
            acc[l] = 0;
            candidateBits[l >>> 5] &= ~(1 << (l & 31));
          }
        }
        count = kept;
        if (count > 0) for (let i = essential - 1; i >= 0; i--) addToCandidates(order[i], windowStart, windowEnd, 0, false);
      } else {
        for (let c = 0; c < count; c++) {
          const l = touched[c];
          if (acc[l] + nonEssentialBound <= threshold) acc[l] = SEEN;
        }
        for (let i = essential - 1; i >= 0; i--) count = addToCandidates(order[i], windowStart, windowEnd, count, true);
      }
    }
    if (counting) {
      counted += countLive(count, windowStart, live);
      if (counted > countLimit) counting = false;
    }
    for (let c = 0; c < count; c++) {
      const l = touched[c];
      const partial = acc[l];
      acc[l] = 0;
      candidateBits[l >>> 5] = 0;
      if (partial <= 0) continue;
      const score = Math.fround(partial);
      // Candidates arrive out of doc order here, so an equal score may still win on write order:
      // only a strictly lower score is rejected without asking the heap.
      if (score < threshold) continue;
      const doc = windowStart + l;
      if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      if (top.offer(score, base + doc)) threshold = top.minCompetitive;
    }
    for (let i = 0; i < n; i++) if (order[i].doc < windowEnd) order[i].advance(windowEnd);
  }
  return countLimit >= 0 ? counted : -1;
}
