/**
 * MaxScore's candidates for dense windows: partial scores in a window-local array indexed by doc
 * (tight typed-array loops, the array stays in L2 at MIN_WINDOW docs), the docs seen in first-seen
 * order, and a bitset of candidates so non-essential scans test membership in L1.
 */
import { fillList } from './candidate-list.js';
import { selectScore, selectedBar, startSelection } from './kth-score.js';
import { maxScoreStats } from './max-score-stats.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

/**
 * Docs per dense window. 16k keeps the accumulator (8 bytes/doc) in L2 with little per-window
 * overhead; measured best of 4k–64k.
 */
export const ACCUMULATOR_WINDOW = 16384;
/** Partial scores per window doc: > 0 candidate, 0 untouched, SEEN counted but not a candidate. */
const acc = new Float64Array(ACCUMULATOR_WINDOW);
const SEEN = -1;
const candidateBits = new Uint32Array(ACCUMULATOR_WINDOW >>> 5);
/** Window docs seen so far, in first-seen order; as long as the window, so pushes need no check. */
const touched = new Int32Array(ACCUMULATOR_WINDOW);

/** Essential term: adds its scores for docs in [windowStart, windowEnd), recording new docs. */
export function accumulate(s: TermScorer, windowStart: number, windowEnd: number, count: number): number {
  const docs = s.docs;
  const freqs = s.freqs;
  const norms = s.norms;
  const tf1 = s.tf1;
  const end = s.end;
  const a = acc;
  const bits = candidateBits;
  const seen = touched;
  let p = s.i;
  // Block by block: the loaded block holds postings [blockBase, blockEnd).
  blocks: while (p < end) {
    s.load(p);
    s.loadFreqs();
    const first = s.blockBase;
    const n = s.blockEnd - first;
    for (let k = p - first; k < n; k++) {
      const doc = docs[k];
      if (doc >= windowEnd) {
        p = first + k;
        break blocks;
      }
      const l = doc - windowStart;
      const before = a[l];
      if (before === 0) {
        seen[count++] = l;
        bits[l >>> 5] |= 1 << (l & 31);
      }
      let score: number;
      if (freqs[k] === 1 && norms !== null && (score = tf1[norms[doc]]) === score) {
        // the common case: freq 1, table already filled for this norm
        a[l] = before + score;
      } else {
        s.addScoreAt(a, l, first + k, doc);
      }
    }
    p = first + n;
  }
  maxScoreStats.postingsScored += p - s.i;
  s.seek(p);
  return count;
}

/**
 * Non-essential term: adds its scores to candidates only. While counting, documents seen for the
 * first time are marked SEEN and recorded (their count is taken from the touched list later).
 */
export function addToCandidates(s: TermScorer, windowStart: number, windowEnd: number, count: number, counting: boolean): number {
  const docs = s.docs;
  const end = s.end;
  const a = acc;
  const bits = candidateBits;
  let p = s.i;
  let scored = 0;
  blocks: while (p < end) {
    s.load(p);
    const first = s.blockBase;
    const n = s.blockEnd - first;
    for (let k = p - first; k < n; k++) {
      const doc = docs[k];
      if (doc >= windowEnd) {
        p = first + k;
        break blocks;
      }
      const l = doc - windowStart;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) {
        const before = a[l];
        if (before > 0) {
          s.addScoreAt(a, l, first + k, doc);
          scored++;
        }
      } else if (counting) {
        a[l] = SEEN;
        bits[l >>> 5] |= 1 << (l & 31);
        touched[count++] = l;
      }
    }
    p = first + n;
  }
  maxScoreStats.postingsScored += scored;
  s.seek(p);
  return count;
}

/** The pruning bar from the heap and the window's live candidates (kth-score.ts). */
export function accumulatorBar(top: TopScoreDocs, count: number, windowStart: number, live: Uint32Array | null): number {
  startSelection(top);
  for (let c = 0; c < count; c++) {
    const l = touched[c];
    const v = acc[l];
    if (v <= 0) continue;
    const doc = windowStart + l;
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    selectScore(v);
  }
  return selectedBar();
}

/**
 * Candidates that cannot beat the bar even with `headroom` added: dropped (returns the remaining
 * count), or while counting kept as SEEN.
 */
export function dropCandidates(count: number, headroom: number, bar: number, counting: boolean): number {
  if (counting) {
    for (let c = 0; c < count; c++) {
      const l = touched[c];
      if (acc[l] + headroom <= bar) acc[l] = SEEN;
    }
    return count;
  }
  let kept = 0;
  for (let c = 0; c < count; c++) {
    const l = touched[c];
    if (acc[l] + headroom > bar) touched[kept++] = l;
    else {
      acc[l] = 0;
      candidateBits[l >>> 5] &= ~(1 << (l & 31));
    }
  }
  return kept;
}

/** Moves the (few) candidates into the doc-sorted candidate list and resets the window. */
export function candidatesToList(count: number, windowStart: number): void {
  const cands = touched.subarray(0, count);
  cands.sort();
  fillList(cands, count, windowStart, acc);
  for (let c = 0; c < count; c++) {
    const l = touched[c];
    acc[l] = 0;
    candidateBits[l >>> 5] = 0;
  }
}

/** Live docs among the window docs in touched[0, count). */
export function countLive(count: number, windowStart: number, live: Uint32Array | null): number {
  if (live === null) return count;
  let n = 0;
  for (let c = 0; c < count; c++) {
    const doc = windowStart + touched[c];
    if ((live[doc >>> 5] & (1 << (doc & 31))) !== 0) n++;
  }
  return n;
}

/** Offers the window's candidates (any order) to the heap and resets the window; returns the heap threshold. */
export function offerCandidates(
  count: number, windowStart: number, live: Uint32Array | null, top: TopScoreDocs, base: number, threshold: number, bar: number,
): number {
  for (let c = 0; c < count; c++) {
    const l = touched[c];
    const partial = acc[l];
    acc[l] = 0;
    candidateBits[l >>> 5] = 0;
    if (partial <= 0) continue;
    const score = Math.fround(partial);
    // Candidates arrive out of doc order here, so an equal score may still win on write order:
    // only a strictly lower score is rejected without asking the heap.
    if (score < threshold || score <= bar) continue;
    const doc = windowStart + l;
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    if (top.offer(score, base + doc)) threshold = top.minCompetitive;
  }
  return threshold;
}
