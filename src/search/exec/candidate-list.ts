/**
 * MaxScore's candidates for sparse windows: a doc-sorted list of (doc, partial score) built by
 * merging the essential terms' postings into it, best bound first. Sparse windows are wide (up
 * to MAX_WINDOW docs in max-score.ts) and hold few postings, so a window-sized accumulator would
 * be hit at random, a cache miss per posting; merging reads and writes only sequentially, and the
 * list comes out in doc order, ready for probing the non-essential terms with `advance`. The list
 * never counts (a sparse window that counts is a union, union-window.ts): a candidate that can no
 * longer compete gets score 0 and is skipped from then on.
 */
import { maxScoreStats } from './max-score-stats.js';
import { selectScore, selectedBar, startSelection } from './kth-score.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

let listDocs = new Int32Array(1024);
let listScores = new Float64Array(1024);
let outDocs = new Int32Array(1024);
let outScores = new Float64Array(1024);

function ensureOut(capacity: number): void {
  if (outDocs.length >= capacity) return;
  const n = Math.max(capacity, outDocs.length * 2);
  outDocs = new Int32Array(n);
  outScores = new Float64Array(n);
}

function swapLists(): void {
  const d = listDocs;
  listDocs = outDocs;
  outDocs = d;
  const s = listScores;
  listScores = outScores;
  outScores = s;
}

/**
 * Merges the postings of essential term `s` below windowEnd into the list of `size` entries: docs
 * only `s` has become candidates, and candidates still competing get its score. Returns the new
 * size.
 */
export function mergeTerm(s: TermScorer, windowEnd: number, size: number): number {
  const docs = s.docs;
  const freqs = s.freqs;
  const norms = s.norms;
  const tf1 = s.tf1;
  const end = s.end;
  ensureOut(size + Math.max(0, Math.min(end - s.i, windowEnd - s.doc)));
  const inDocs = listDocs;
  const inScores = listScores;
  const od = outDocs;
  const os = outScores;
  let p = s.i;
  let a = 0;
  let o = 0;
  let scored = 0;
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
      while (a < size && inDocs[a] < doc) {
        od[o] = inDocs[a];
        os[o++] = inScores[a++];
      }
      if (a < size && inDocs[a] === doc) {
        const before = inScores[a++];
        od[o] = doc;
        if (before > 0) {
          os[o] = before;
          s.addScoreAt(os, o++, first + k, doc);
          scored++;
        } else {
          os[o++] = before;
        }
      } else {
        od[o] = doc;
        let score: number;
        if (freqs[k] === 1 && norms !== null && (score = tf1[norms[doc]]) === score) {
          // freq 1 with this norm already in the table: the common case
          os[o++] = score;
        } else {
          os[o] = 0;
          s.addScoreAt(os, o++, first + k, doc);
        }
        scored++;
      }
    }
    p = first + n;
  }
  while (a < size) {
    od[o] = inDocs[a];
    os[o++] = inScores[a++];
  }
  maxScoreStats.postingsScored += scored;
  s.seek(p);
  swapLists();
  return o;
}

/** The pruning bar from the heap and the list's live candidates (kth-score.ts). */
export function listBar(top: TopScoreDocs, size: number, live: Uint32Array | null): number {
  startSelection(top);
  for (let a = 0; a < size; a++) {
    const v = listScores[a];
    if (v <= 0) continue;
    const doc = listDocs[a];
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    selectScore(v);
  }
  return selectedBar();
}

/** Copies window-accumulator candidates (already in doc order) into the list. */
export function fillList(locals: Int32Array, count: number, windowStart: number, partials: Float64Array): void {
  if (listDocs.length < count) {
    listDocs = new Int32Array(count);
    listScores = new Float64Array(count);
  }
  for (let c = 0; c < count; c++) {
    const l = locals[c];
    listDocs[c] = windowStart + l;
    listScores[c] = partials[l];
  }
}

/** The widest window the list serves (bounds the bitset below). */
export const MAX_LIST_WINDOW = 1 << 18;
/** Listed docs of the window as bits. */
const listBits = new Uint32Array(MAX_LIST_WINDOW >>> 5);

/**
 * Postings per listed doc above which a term is probed at the listed docs rather than scanned
 * (measured: 16 beats 4 and 64 once the scan tests bits).
 */
const SCAN_RATIO = 16;

/**
 * Adds the scores of non-essential term `s` in [windowStart, windowEnd) to the list's candidates
 * (score > 0): by probing it at the listed docs with skipping `advance` when its postings far
 * outnumber them (a frequent term with rare ones), else by scanning its postings against the
 * listed docs' bits.
 */
export function addTerm(s: TermScorer, windowStart: number, windowEnd: number, size: number): void {
  let scored = 0;
  if (s.end - s.i > SCAN_RATIO * size) {
    for (let a = 0; a < size && s.doc < windowEnd; a++) {
      if (listScores[a] <= 0) continue;
      const doc = listDocs[a];
      if (s.doc < doc) s.advance(doc);
      if (s.doc !== doc) continue;
      s.addScoreAt(listScores, a, s.i, doc);
      scored++;
    }
    if (s.doc < windowEnd) s.advance(windowEnd);
  } else {
    // Listed docs as bits over the window: the scan tests each posting in L1 with a predictable
    // branch, and only a match walks the list (forward, as both are in doc order).
    const bits = listBits;
    for (let a = 0; a < size; a++) {
      if (listScores[a] <= 0) continue;
      const l = listDocs[a] - windowStart;
      bits[l >>> 5] |= 1 << (l & 31);
    }
    const docs = s.docs;
    const end = s.end;
    let p = s.i;
    let a = 0;
    blocks: while (p < end) {
      s.load(p);
      const blockFirst = s.blockBase;
      const n = s.blockEnd - blockFirst;
      for (let k = p - blockFirst; k < n; k++) {
        const doc = docs[k];
        if (doc >= windowEnd) {
          p = blockFirst + k;
          break blocks;
        }
        const l = doc - windowStart;
        if ((bits[l >>> 5] & (1 << (l & 31))) === 0) continue;
        while (listDocs[a] < doc) a++;
        s.addScoreAt(listScores, a, blockFirst + k, doc);
        scored++;
      }
      p = blockFirst + n;
    }
    for (let a = 0; a < size; a++) bits[(listDocs[a] - windowStart) >>> 5] = 0;
    s.seek(p);
  }
  maxScoreStats.postingsScored += scored;
}

/**
 * Offers the listed candidates to the heap in doc order — later than everything in it, so ties
 * lose — and returns the heap threshold.
 */
export function offerList(size: number, live: Uint32Array | null, top: TopScoreDocs, base: number, threshold: number, bar: number): number {
  if (threshold > bar) bar = threshold;
  for (let a = 0; a < size; a++) {
    const score = listScores[a];
    if (score <= 0) continue;
    const final = Math.fround(score);
    if (final <= bar) continue;
    const doc = listDocs[a];
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    if (top.offer(final, base + doc)) {
      threshold = top.minCompetitive;
      if (threshold > bar) bar = threshold;
    }
  }
  return threshold;
}

/** Candidates that cannot beat the bar even with `headroom` added stop being candidates (score 0). */
export function dropBelow(size: number, headroom: number, bar: number): void {
  for (let a = 0; a < size; a++) {
    const v = listScores[a];
    if (v > 0 && v + headroom <= bar) listScores[a] = 0;
  }
}

/** How many candidates dropBelow(size, headroom, bar) would keep. */
export function countAbove(size: number, headroom: number, bar: number): number {
  let kept = 0;
  for (let a = 0; a < size; a++) {
    const v = listScores[a];
    if (v > 0 && v + headroom > bar) kept++;
  }
  return kept;
}
