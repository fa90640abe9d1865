/**
 * A sparse MaxScore window evaluated as a union in three passes instead of by merging candidate
 * lists (max-score.ts picks it when the window must count its matches, track_total_hits below the
 * total, or the query has several distinct terms — unless rare terms sit next to frequent ones and
 * max-score.ts's rareTermsFirst finds MaxScore's list cheaper for the window).
 *
 * Counting needs every posting of every term in the window visited anyway, so MaxScore's skipping
 * saves no decoding there; what it costs is the merges of sorted candidate lists (a data-dependent
 * branch per posting) and scoring every essential posting. Without counting, the lists' merges
 * still cost more than this union's passes (pass 3 skips blocks by block max as MaxScore does). In a disjunction of a few terms of
 * natural text nearly every matching doc has one term (the 2,000 bench queries: 4,294 postings,
 * 4,278 docs per query on average), so:
 *   1. count: each term's docs are set in a window bitset, decoded straight from the packed gaps;
 *      a doc already set has several terms and is listed with the score of the term that found
 *      it. A tight loop: decode, test a bit, a branch almost never taken. A term with far more
 *      postings than all the others is not decoded but probed at their docs, and its own docs
 *      counted by subtraction (without deletes).
 *   2. docs with several terms get the other terms' scores (each term probed or scanned at them,
 *      as MaxScore's non-essential terms are) and go to the top-k heap first: in such queries they
 *      are the best hits, and they raise the heap's threshold.
 *   3. every other doc has a single term's score: each term, highest score ceiling first, scores
 *      only the blocks whose block-max score can still enter the heap, skipping the docs of pass 2.
 * Scores are the per-term float32 values summed in double and rounded once, as everywhere in
 * MaxScore; the heap takes offers in any order (top-docs.ts breaks ties by doc), so the top k is
 * exactly the exhaustive one. Deleted docs are neither counted nor offered.
 */
import { BLOCK_SIZE } from '../../index/index.js';
import { MAX_LIST_WINDOW } from './candidate-list.js';
import { maxScoreStats } from './max-score-stats.js';
import type { TermScorer } from './term-scorer.js';
import type { TopScoreDocs } from './top-docs.js';

/** Docs of the window seen by any term, as bits over [windowStart, windowStart + MAX_LIST_WINDOW). */
const seenBits = new Uint32Array(MAX_LIST_WINDOW >>> 5);
/** Docs of the window with more than one term (listed in multiDocs). */
const multiBits = new Uint32Array(MAX_LIST_WINDOW >>> 5);
/**
 * Window-relative docs with more than one term, their scores so far (pass 2 sums them), and the
 * term that found each one in pass 1, whose score it already holds.
 */
let multiDocs = new Int32Array(256);
let multiScores = new Float64Array(256);
let multiTerms = new Int32Array(256);
let multiCount = 0;
/** sortMulti's run ends and its second set of arrays. */
let runEnds = new Int32Array(256);
let sortedDocs = new Int32Array(256);
let sortedScores = new Float64Array(256);
let sortedTerms = new Int32Array(256);
/** The highest window-relative doc pass 1 set (bounds the bits to clear). */
let lastSeen = 0;
/** Per term: its first posting in the window, and its first past it. */
let firstPosting = new Int32Array(8);
let nextPosting = new Int32Array(8);
/** Term numbers by descending scoreCeiling (pass 3's order). */
let byCeiling = new Int32Array(8);
/**
 * Per term: its place in pass 1's marking order (a probed term, marked by none, comes after every
 * other), which multiTerms records for each listed doc's finder; and the terms in that order.
 */
let rank = new Int32Array(8);
let byPostings = new Int32Array(8);
/**
 * Scores of listed docs that pass 1 found in a third term (or later) — a doc already listed when
 * that term marked it —, as window-relative doc and score: pass 2 adds them (addExtras), so that a
 * term marked after a doc's finder need not find it again.
 */
let extraDocs = new Int32Array(64);
let extraScores = new Float64Array(64);
let extraCount = 0;

/**
 * Fills byPostings[0, n) with the terms other than `probed` by ascending postings left, and rank[]
 * with their places (probed: n − 1). Pass 2 skips the last one marked, so it is best the largest.
 */
function sortByPostings(order: readonly TermScorer[], n: number, probed: number): void {
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (i === probed) continue;
    const c = order[i].end - order[i].i;
    let j = m++;
    while (j > 0 && order[byPostings[j - 1]].end - order[byPostings[j - 1]].i > c) {
      byPostings[j] = byPostings[j - 1];
      j--;
    }
    byPostings[j] = i;
  }
  for (let j = 0; j < m; j++) rank[byPostings[j]] = j;
  if (probed >= 0) rank[probed] = n - 1;
}

/** Fills byCeiling[0, n) (insertion sort: n is small). */
function sortByCeiling(order: readonly TermScorer[], n: number): void {
  for (let i = 0; i < n; i++) {
    const c = order[i].scoreCeiling();
    let j = i;
    while (j > 0 && order[byCeiling[j - 1]].scoreCeiling() < c) {
      byCeiling[j] = byCeiling[j - 1];
      j--;
    }
    byCeiling[j] = i;
  }
}

/** A single term's score, through addScoreAt (term-scorer.ts says why). */
const one = new Float64Array(1);

/**
 * Postings per doc with several terms above which a term is probed at those docs rather than
 * scanned (as candidate-list.ts's SCAN_RATIO).
 */
const SCAN_RATIO = 16;

/**
 * Counts, scores and offers the window [windowStart, windowEnd) of the n terms `order` and returns
 * the live docs it matched. The terms end positioned at their first posting past the window.
 */
export function unionWindow(
  order: readonly TermScorer[], n: number, windowStart: number, windowEnd: number, live: Uint32Array | null, top: TopScoreDocs, base: number,
): number {
  if (firstPosting.length < n) {
    firstPosting = new Int32Array(n);
    nextPosting = new Int32Array(n);
    byCeiling = new Int32Array(n);
    rank = new Int32Array(n);
    byPostings = new Int32Array(n);
  }
  multiCount = 0;
  extraCount = 0;
  lastSeen = 0;
  const probed = probedTerm(order, n, live);
  sortByPostings(order, n, probed);
  let counted = 0;
  for (let i = 0; i < n; i++) firstPosting[i] = order[i].i;
  for (let j = 0, m = probed < 0 ? n : n - 1; j < m; j++) {
    const i = byPostings[j];
    counted += markTerm(order[i], j, windowStart, windowEnd, live);
    nextPosting[i] = order[i].i;
  }
  if (probed >= 0) {
    // The docs of the other terms it has join the listed ones; its own it adds by subtraction.
    const s = order[probed];
    for (let i = 0; i < n; i++) if (i !== probed) listProbed(order[i], firstPosting[i], nextPosting[i], s, rank[probed], firstPosting[probed], windowStart);
    s.positionBefore(firstPosting[probed]);
    s.advance(windowEnd);
    nextPosting[probed] = s.i;
  }
  seenBits.fill(0, 0, (lastSeen >>> 5) + 1);
  const probedListed = multiCount > 0 ? scoreMulti(order, n, probed, windowStart, live, top, base) : 0;
  if (probed >= 0) counted += nextPosting[probed] - firstPosting[probed] - probedListed;
  if (top.capacity > 0) {
    // Each term's single-term docs, best ceiling first (its blocks' bounds decide which to read).
    sortByCeiling(order, n);
    for (let j = 0; j < n; j++) {
      const i = byCeiling[j];
      if (Math.fround(order[i].scoreCeiling()) < top.minCompetitive) break;
      scoreSingles(order[i], firstPosting[i], nextPosting[i], windowStart, live, top, base);
    }
  }
  for (let a = 0; a < multiCount; a++) {
    const l = multiDocs[a];
    multiBits[l >>> 5] = 0;
  }
  for (let i = 0; i < n; i++) order[i].seek(nextPosting[i]);
  return counted;
}

/**
 * The term whose postings far outnumber all the others' together (and only without deletes: its
 * docs are then counted by subtraction), or −1. Pass 1 skips it: it is probed at the others' docs
 * with skipping `advance` instead of decoded whole, as MaxScore probes a frequent term.
 */
function probedTerm(order: readonly TermScorer[], n: number, live: Uint32Array | null): number {
  if (live !== null || n < 2) return -1;
  let most = 0;
  let all = 0;
  for (let i = 0; i < n; i++) {
    const postings = order[i].end - order[i].i;
    all += postings;
    if (postings > order[most].end - order[most].i) most = i;
  }
  const postings = order[most].end - order[most].i;
  return postings > SCAN_RATIO * (all - postings) ? most : -1;
}

/**
 * Lists the docs of `s`'s postings [from, to) not listed yet that `probed` (from its posting
 * `probedFrom` on) also has. Every doc of `s` is set in seenBits, so only probed docs become listed.
 */
function listProbed(s: TermScorer, from: number, to: number, probed: TermScorer, probedTerm: number, probedFrom: number, windowStart: number): void {
  const docs = s.docs;
  const bits = multiBits;
  probed.positionBefore(probedFrom);
  let p = from;
  while (p < to) {
    s.load(p);
    const first = s.blockBase;
    const n = Math.min(s.blockEnd, to) - first;
    for (let k = p - first; k < n; k++) {
      const doc = docs[k];
      const l = doc - windowStart;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) continue;
      if (probed.doc < doc) probed.advance(doc);
      if (probed.doc === doc) {
        bits[l >>> 5] |= 1 << (l & 31);
        // addMulti first: growing the lists replaces multiScores.
        const a = addMulti(l, probedTerm);
        probed.addScoreAt(multiScores, a, probed.i, doc);
      }
    }
    p = first + n;
  }
}

/**
 * Pass 1 for one term: sets its docs below windowEnd in seenBits, lists those already set (and not
 * listed yet) in multiDocs, and returns how many live docs it set first. Leaves the term at its
 * first posting past the window.
 */
function markTerm(s: TermScorer, term: number, windowStart: number, windowEnd: number, live: Uint32Array | null): number {
  const end = s.end;
  let p = s.i;
  let added = 0;
  while (p < end) {
    const b = s.blockOf(p);
    const lastDoc = s.lastDocOfBlock(b);
    if (live !== null || lastDoc >= windowEnd) {
      // Deletes (each new doc's liveness counts) or the window's last block: doc by doc.
      const from = p;
      p = markPostings(s, term, p, windowStart, windowEnd, live);
      added += addedPostings;
      if (p === from || p < Math.min(end, s.firstPostingOfBlock(b + 1))) break;
      continue;
    }
    const dupCount = s.markBlock(p, seenBits, windowStart, dups, dupScores);
    const next = Math.min(end, s.firstPostingOfBlock(b + 1));
    added += next - p - dupCount;
    // markBlock finds them from the block's last doc down: listed in doc order, a run (sortMulti).
    for (let j = dupCount - 1; j >= 0; j--) {
      const l = dups[j];
      // Listed already: this term is a third one there, its score an extra.
      if ((multiBits[l >>> 5] & (1 << (l & 31))) !== 0) {
        addExtra(l, dupScores[j]);
        continue;
      }
      multiBits[l >>> 5] |= 1 << (l & 31);
      const a = addMulti(l, term); // first: growing the lists replaces multiScores
      multiScores[a] = dupScores[j];
    }
    if (lastDoc - windowStart > lastSeen) lastSeen = lastDoc - windowStart;
    p = next;
  }
  s.seek(p);
  return added;
}

/** Docs already set, of one block, and their scores (markBlock). */
const dups = new Int32Array(BLOCK_SIZE);
const dupScores = new Float64Array(BLOCK_SIZE);
/** What markPostings added (its second result). */
let addedPostings = 0;

/**
 * markTerm doc by doc, for the postings of p's block from p on that are below windowEnd: sets them
 * in seenBits, lists the docs set before, counts in addedPostings the live docs it set first, and
 * returns the posting where it stopped.
 */
function markPostings(s: TermScorer, term: number, p: number, windowStart: number, windowEnd: number, live: Uint32Array | null): number {
  s.load(p);
  const docs = s.docs;
  const seen = seenBits;
  const first = s.blockBase;
  const n = s.blockEnd - first;
  let added = 0;
  let k = p - first;
  for (; k < n; k++) {
    const doc = docs[k];
    if (doc >= windowEnd) break;
    const l = doc - windowStart;
    const w = seen[l >>> 5];
    const bit = 1 << (l & 31);
    if ((w & bit) === 0) {
      seen[l >>> 5] = w | bit;
      if (live === null || (live[doc >>> 5] & (1 << (doc & 31))) !== 0) added++;
    } else if ((multiBits[l >>> 5] & bit) === 0) {
      multiBits[l >>> 5] |= bit;
      const a = addMulti(l, term); // first: growing the lists replaces multiScores
      s.addScoreAt(multiScores, a, first + k, doc);
    } else {
      const e = addExtra(l, 0); // first: growing the extras replaces extraScores
      s.addScoreAt(extraScores, e, first + k, doc);
    }
    if (l > lastSeen) lastSeen = l;
  }
  addedPostings = added;
  return first + k;
}

/** Records `score` of a third term at listed doc l; returns its entry. */
function addExtra(l: number, score: number): number {
  if (extraCount === extraDocs.length) {
    const docs = new Int32Array(extraCount * 2);
    docs.set(extraDocs);
    extraDocs = docs;
    const scores = new Float64Array(extraCount * 2);
    scores.set(extraScores);
    extraScores = scores;
  }
  extraDocs[extraCount] = l;
  extraScores[extraCount] = score;
  return extraCount++;
}

/** Adds the extras to their listed docs (sorted: binary search, as docs with three terms are few). */
function addExtras(count: number): void {
  const docs = multiDocs;
  for (let e = 0; e < extraCount; e++) {
    const l = extraDocs[e];
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < l) lo = mid + 1;
      else hi = mid;
    }
    multiScores[lo] += extraScores[e];
  }
}

/** Lists doc l, found by `term`, with score 0; returns its entry. */
function addMulti(l: number, term: number): number {
  if (multiCount === multiDocs.length) growMulti();
  multiDocs[multiCount] = l;
  multiScores[multiCount] = 0;
  multiTerms[multiCount] = term;
  return multiCount++;
}

function growMulti(): void {
  const n = multiCount * 2;
  const docs = new Int32Array(n);
  docs.set(multiDocs);
  multiDocs = docs;
  const scores = new Float64Array(n);
  scores.set(multiScores);
  multiScores = scores;
  const terms = new Int32Array(n);
  terms.set(multiTerms);
  multiTerms = terms;
  runEnds = new Int32Array(n);
  sortedDocs = new Int32Array(n);
  sortedScores = new Float64Array(n);
  sortedTerms = new Int32Array(n);
}

/**
 * Sorts the listed docs (with their scores and finders) by doc: probing and scanning go forward.
 * As found they come in ascending runs, one per term (pass 1 takes each block's repeats in doc
 * order, listProbed and markPostings go forward), so the list is merged run by run, bottom-up,
 * rather than sorted: a query of two terms finds all of them with its second term, already in
 * order, and three terms need one merge. Docs are distinct, so the order is the same as a sort's.
 */
function sortMulti(count: number): void {
  let runs = 0;
  for (let a = 1; a < count; a++) if (multiDocs[a] < multiDocs[a - 1]) runEnds[runs++] = a;
  if (runs === 0) return;
  runEnds[runs++] = count;
  while (runs > 1) {
    let from = 0;
    let out = 0;
    for (let r = 0; r < runs; r += 2) {
      const mid = runEnds[r];
      const end = r + 1 < runs ? runEnds[r + 1] : mid;
      mergeRuns(from, mid, end);
      runEnds[out++] = end;
      from = end;
    }
    runs = out;
    const d = multiDocs;
    multiDocs = sortedDocs;
    sortedDocs = d;
    const s = multiScores;
    multiScores = sortedScores;
    sortedScores = s;
    const t = multiTerms;
    multiTerms = sortedTerms;
    sortedTerms = t;
  }
}

/** Merges the listed runs [from, mid) and [mid, end) into sorted*[from, end). */
function mergeRuns(from: number, mid: number, end: number): void {
  const docs = multiDocs;
  let a = from;
  let b = mid;
  for (let x = from; x < end; x++) {
    const take = b >= end || (a < mid && docs[a] < docs[b]) ? a++ : b++;
    sortedDocs[x] = docs[take];
    sortedScores[x] = multiScores[take];
    sortedTerms[x] = multiTerms[take];
  }
}

/**
 * Pass 2: the exact scores of the docs with several terms, offered to the heap. Returns how many of
 * them term `probed` has (0 for −1).
 *
 * A listed doc has its finder's score and its extras' (the terms marked after the finder); of the
 * terms marked before the finder exactly one has it — the one that set its bit —, so a marked term
 * adds its score only where it was marked before the finder (rank < multiTerms), and the last term
 * marked never does: it is skipped when no term is probed (a probed term's finds are docs of one
 * marked term, which may be the last). A probed term marks nothing: it adds its score wherever it
 * is not the finder.
 */
function scoreMulti(order: readonly TermScorer[], n: number, probed: number, windowStart: number, live: Uint32Array | null, top: TopScoreDocs, base: number): number {
  const count = multiCount;
  sortMulti(count);
  if (extraCount > 0) addExtras(count);
  let probedListed = 0;
  for (let i = 0; i < n; i++) {
    const r = rank[i];
    if (probed < 0 && r === n - 1) continue;
    // Listed docs found by terms of rank [skipFrom, r] already have this term's score.
    const skipFrom = i === probed ? r : 0;
    const found = nextPosting[i] - firstPosting[i] > SCAN_RATIO * count
      ? probeMulti(order[i], r, skipFrom, firstPosting[i], windowStart, count)
      : scanMulti(order[i], r, skipFrom, firstPosting[i], nextPosting[i], windowStart);
    if (i === probed) probedListed = found;
  }
  for (let a = 0; a < count; a++) {
    const doc = windowStart + multiDocs[a];
    if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    top.offer(Math.fround(multiScores[a]), base + doc);
  }
  return probedListed;
}

/**
 * Adds the scores of `s` (term of rank `term`) at the listed docs whose finder's rank is not in
 * [skipFrom, term], skipping to each with `advance`; returns how many listed docs it found or
 * scored (for a probed term: how many it has).
 */
function probeMulti(s: TermScorer, term: number, skipFrom: number, from: number, windowStart: number, count: number): number {
  s.positionBefore(from);
  const docs = multiDocs;
  const terms = multiTerms;
  let found = 0;
  let scored = 0;
  for (let a = 0; a < count; a++) {
    const t = terms[a];
    if (t <= term && t >= skipFrom) {
      if (t === term) found++;
      continue;
    }
    const doc = windowStart + docs[a];
    if (s.doc < doc) s.advance(doc);
    if (s.doc === doc) {
      s.addScoreAt(multiScores, a, s.i, doc);
      scored++;
    }
  }
  maxScoreStats.postingsScored += scored;
  return found + scored;
}

/**
 * Adds the scores of `s`'s (term of rank `term`'s) postings [from, to) that are listed docs whose
 * finder's rank is not in [skipFrom, term], testing multiBits block by block straight from the
 * packed gaps (findBlock: pass 1 decoded these blocks already, and decoding them again cost as much
 * as the test); returns how many listed docs it found or scored (for a probed term: how many it has).
 */
function scanMulti(s: TermScorer, term: number, skipFrom: number, from: number, to: number, windowStart: number): number {
  const listed = multiDocs;
  const terms = multiTerms;
  let found = 0;
  let p = from;
  let a = 0;
  let scored = 0;
  while (p < to) {
    const next = Math.min(to, s.firstPostingOfBlock(s.blockOf(p) + 1));
    // Hits come from the block's last doc down: taken in doc order, as the listed docs are.
    for (let j = s.findBlock(p, next, multiBits, windowStart, hits, hitAt) - 1; j >= 0; j--) {
      const l = hits[j];
      while (listed[a] < l) a++;
      const t = terms[a];
      if (t <= term && t >= skipFrom) {
        if (t === term) found++;
        continue;
      }
      s.addScoreOfHit(multiScores, a, hitAt[j], windowStart + l);
      scored++;
    }
    p = next;
  }
  maxScoreStats.postingsScored += scored;
  return found + scored;
}

/** scanMulti's hits in one block (findBlock). */
const hits = new Int32Array(BLOCK_SIZE);
const hitAt = new Int32Array(BLOCK_SIZE);

/**
 * Pass 3 for one term: offers its postings [from, to) that are docs of this term alone, block by
 * block, skipping blocks whose block-max score cannot enter the heap.
 */
function scoreSingles(s: TermScorer, from: number, to: number, windowStart: number, live: Uint32Array | null, top: TopScoreDocs, base: number): void {
  const docs = s.docs;
  const freqs = s.freqs;
  const norms = s.norms;
  const tf1 = s.tf1;
  const bits = multiBits;
  let threshold = top.minCompetitive;
  let p = from;
  let scored = 0;
  while (p < to) {
    const b = s.blockOf(p);
    const blockEnd = Math.min(to, s.firstPostingOfBlock(b + 1));
    // Equal scores may still enter (an earlier doc wins a tie), so only a lower bound skips; until
    // the heap is full nothing does, and the bound is not computed.
    if (threshold !== -Infinity && Math.fround(s.blockMaxScore(b)) < threshold) {
      p = blockEnd;
      continue;
    }
    s.load(p);
    s.loadFreqs();
    const first = s.blockBase;
    const n = blockEnd - first;
    for (let k = p - first; k < n; k++) {
      const doc = docs[k];
      const l = doc - windowStart;
      if ((bits[l >>> 5] & (1 << (l & 31))) !== 0) continue;
      let score: number;
      if (freqs[k] === 1 && norms !== null && (score = tf1[norms[doc]]) === score) {
        // freq 1 with this norm already in the table: the common case
      } else {
        one[0] = 0;
        s.addScoreAt(one, 0, first + k, doc);
        score = one[0];
      }
      scored++;
      if (score < threshold) continue;
      if (live !== null && (live[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      if (top.offer(score, base + doc)) threshold = top.minCompetitive;
    }
    p = blockEnd;
  }
  maxScoreStats.postingsScored += scored;
}
