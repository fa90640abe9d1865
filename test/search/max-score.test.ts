/**
 * Rank-safe pruning: for random corpora (several segments, deletes, repeated terms, long and short
 * documents) and random term disjunctions, the block-max MaxScore top-k must equal an exhaustive
 * brute-force BM25 computed independently from the raw documents — same ids, same order, same
 * float32 scores — and the exhaustive DAAT path of the engine must agree as well.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessIndex, type HarnessDoc } from '../support/engine-harness.js';
import { analyzeToTokens, getAnalyzer } from '../../src/analysis/index.js';
import { intToByte4 } from '../../src/index/index.js';
import { averageFieldLength, bm25Idf, bm25Score, normInverseCache } from '../../src/search/index.js';
import { maxScoreTuning } from '../../src/search/exec/max-score.js';

const f = Math.fround;
const VOCAB = Array.from({ length: 60 }, (_, i) => `w${i}`);

/** Zipf-ish word picks so some terms are frequent (long postings, many blocks) and some rare. */
const word = fc.integer({ min: 0, max: 999 }).map((u) => VOCAB[Math.floor(((u / 1000) ** 3) * VOCAB.length)]);
const docText = fc.oneof(
  { weight: 4, arbitrary: fc.array(word, { minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.array(word, { minLength: 30, maxLength: 120 }) },
).map((ws) => ws.join(' '));

interface Corpus {
  segments: string[][];
  deletes: number[];
  queries: string[][];
}

const corpus: fc.Arbitrary<Corpus> = fc.record({
  segments: fc.array(fc.array(docText, { minLength: 1, maxLength: 400 }), { minLength: 1, maxLength: 4 }),
  deletes: fc.array(fc.nat(), { maxLength: 40 }),
  queries: fc.array(fc.array(word, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
});

interface AnalysedDoc {
  readonly id: string;
  readonly order: number;
  readonly tf: Map<string, number>;
  readonly norm: number;
  readonly length: number;
}

/** Term frequencies and encoded length of every written copy of a document. */
function analyse(written: ReadonlyArray<{ id: string; text: string; order: number }>): AnalysedDoc[] {
  const analyzer = getAnalyzer('standard')!;
  return written.map(({ id, text, order }) => {
    const tokens = analyzeToTokens(analyzer, text).map((t) => t.term);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id, order, tf, norm: intToByte4(tokens.length), length: tokens.length };
  });
}

/**
 * BM25 from scratch (Lucene's float32 formula). Statistics come from every written copy — deleted
 * documents count until merged away, as in Lucene — and only the live copy of each id is scored.
 */
function expectedTopK(all: readonly AnalysedDoc[], liveOrder: ReadonlyMap<string, number>, terms: readonly string[], k: number) {
  const docCount = all.filter((d) => d.length > 0).length;
  const sumTtf = all.reduce((s, d) => s + d.length, 0);
  const cache = normInverseCache(averageFieldLength(sumTtf, docCount));
  const weights = terms.map((t) => {
    const df = all.filter((d) => d.tf.has(t)).length;
    return df === 0 ? 0 : f(f(1) * bm25Idf(df, docCount));
  });
  const scored: Array<{ id: string; score: number; order: number }> = [];
  for (const d of all) {
    if (liveOrder.get(d.id) !== d.order) continue;
    let sum = 0;
    let matched = false;
    terms.forEach((t, i) => {
      const tf = d.tf.get(t);
      if (tf) {
        matched = true;
        sum += bm25Score(weights[i], tf, cache[d.norm]);
      }
    });
    if (matched) scored.push({ id: d.id, score: f(sum), order: d.order });
  }
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return { top: scored.slice(0, k).map(({ id, score }) => ({ id, score })), total: scored.length };
}

// Candidates live in a doc-sorted list (sparse windows) or a window accumulator (dense ones); these
// small corpora would mostly pick the list, so each representation is forced in turn. Sparse windows
// that count, or of several distinct terms, are evaluated as a union (union-window.ts); the list
// serves a single or repeated term's sparse windows and dense windows with few candidates left.
// Narrow windows put window edges inside posting blocks and let counting end in one window and not
// the next. A skew ratio of 1 and no probe cost send most windows of several terms that do not
// count to the list with their rarer terms first (max-score.ts's rareTermsFirst), where the
// defaults send few windows of these small corpora there.
describe.each([
  ['sorted candidate lists', Number.POSITIVE_INFINITY, 0, 16, 16],
  ['sorted candidate lists in windows of 16 docs', Number.POSITIVE_INFINITY, 16, 16, 16],
  ['window accumulators', -1, 0, 16, 16],
  ['rarer terms first', Number.POSITIVE_INFINITY, 0, 1, 0],
  ['rarer terms first in windows of 16 docs', Number.POSITIVE_INFINITY, 16, 1, 0],
])('block-max MaxScore with %s', (_name, listPostings, listWindow, skewRatio, probeCost) => {
  const saved = { ...maxScoreTuning };
  beforeAll(() => {
    Object.assign(maxScoreTuning, { listPostings, listWindow, skewRatio, probeCost });
  });
  afterAll(() => {
    Object.assign(maxScoreTuning, saved);
  });

  it('returns exactly the exhaustive top-k for random term disjunctions', () => {
    fc.assert(
      fc.property(corpus, fc.integer({ min: 1, max: 25 }), ({ segments, deletes, queries }, k) => {
        const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
        // Every written copy (for statistics) and the live copy per id (for scoring).
        const written: Array<{ id: string; text: string; order: number }> = [];
        const live = new Map<string, number>();
        let order = 0;
        let nextId = 0;
        for (const texts of segments) {
          const docs: HarnessDoc[] = texts.map((text, i) => {
            // Some ids repeat across segments: an update, which deletes the older copy.
            const id = nextId > 5 && i % 7 === 3 ? `d${(i * 13) % nextId}` : `d${nextId++}`;
            return { id, source: { body: text } };
          });
          const seen = new Set<string>();
          const unique = docs.filter((d) => (seen.has(d.id) ? false : (seen.add(d.id), true)));
          index.addSegment(unique);
          for (const d of unique) {
            written.push({ id: d.id, text: d.source.body as string, order });
            live.set(d.id, order++);
          }
        }
        const ids = [...live.keys()];
        const removed = deletes.map((n) => ids[n % ids.length]);
        index.deleteIds(removed);
        for (const id of removed) live.delete(id);

        const all = analyse(written);
        for (const terms of queries) {
          const query = { match: { body: terms.join(' ') } };
          const expected = expectedTopK(all, live, terms, k);
          const pruned = index.search(query, { k, trackTotalHitsUpTo: -1 });
          expect(pruned.hits).toEqual(expected.top);
          const counted = index.search(query, { k, trackTotalHitsUpTo: 1_000_000 });
          expect(counted.hits).toEqual(expected.top);
          expect(counted.total).toBe(expected.total);
          // Counting to a limit below the total: a segment where one term alone passes what is left
          // to count answers `gte` without counting; the page is the same.
          for (const limit of [0, 3, 12]) {
            const limited = index.search(query, { k, trackTotalHitsUpTo: limit });
            expect(limited.hits).toEqual(expected.top);
            expect([limited.total, limited.relation]).toEqual(expected.total > limit ? [limit, 'gte'] : [expected.total, 'eq']);
          }
          // min_score forces the exhaustive DAAT path: it must agree too.
          const exhaustive = index.search(query, { k, trackTotalHitsUpTo: 1_000_000, minScore: -1 });
          expect(exhaustive.hits).toEqual(expected.top);
          expect(exhaustive.total).toBe(expected.total);
        }
      }),
      { numRuns: 60, seed: 20261121 },
    );
  });

  it('counts a term far more frequent than the others exactly, with and without deletes', () => {
    // One term in 90% of the docs, two rare ones, some docs with two or three of them. Without
    // deletes, a counting window probes the frequent term at the rare terms' docs and counts its own
    // docs by subtraction (union-window.ts); with deletes it decodes them all.
    const texts = Array.from({ length: 2000 }, (_, i) => {
      const words = [`w${i % 50}`];
      if (i % 10 !== 3) words.push(i % 7 === 0 ? 'common common' : 'common');
      if (i % 97 === 0) words.push('rare');
      if (i % 211 === 5) words.push('rarer rarer');
      if (i % 3 === 0) words.push('w1 w2 w3');
      return words.join(' ');
    });
    for (const removed of [[], ['d0', 'd7', 'd300', 'd1552', 'd1945']]) {
      const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
      const written = texts.map((text, i) => ({ id: `d${i}`, text, order: i }));
      index.addSegment(written.slice(0, 1200).map((d) => ({ id: d.id, source: { body: d.text } })));
      index.addSegment(written.slice(1200).map((d) => ({ id: d.id, source: { body: d.text } })));
      index.deleteIds(removed);
      const live = new Map(written.filter((d) => !removed.includes(d.id)).map((d) => [d.id, d.order]));
      const all = analyse(written);
      for (const terms of [['common', 'rare'], ['rare', 'common', 'rarer'], ['rarer', 'common'], ['rare', 'rarer']]) {
        const query = { match: { body: terms.join(' ') } };
        for (const k of [1, 10, 30]) {
          const expected = expectedTopK(all, live, terms, k);
          for (const limit of [1_000_000, 1500, 100]) {
            const counted = index.search(query, { k, trackTotalHitsUpTo: limit });
            expect(counted.hits).toEqual(expected.top);
            expect([counted.total, counted.relation]).toEqual(expected.total > limit ? [limit, 'gte'] : [expected.total, 'eq']);
          }
        }
      }
    }
  });

  it('scores rare terms next to two frequent ones exactly, as a list or as a union', () => {
    // Three rare terms (≤ 20 docs each) and two frequent ones (2,000 and 1,500 docs, 500 shared):
    // with windows narrower than the segment, windows that do not count try MaxScore's list with
    // the rare terms first (max-score.ts's rareTermsFirst), which ends as a list when the rare
    // terms' k-th best score leaves both frequent terms non-essential, else as a union.
    const texts = Array.from({ length: 6_000 }, (_, i) => {
      const words = [`w${i % 40}`, `w${(i * 7) % 53}`];
      if (i % 3 === 0) words.push(i % 9 === 0 ? 'fa fa' : 'fa');
      if (i % 4 === 1) words.push('fb');
      if (i % 401 === 0) words.push('ra');
      if (i % 577 === 3) words.push('rb');
      if (i % 313 === 7) words.push('rc');
      if (i % 11 === 0) words.push('w1 w2 w3 w4 w5 w6');
      return words.join(' ');
    });
    const listWindow = maxScoreTuning.listWindow;
    for (const removed of [[], ['d0', 'd401', 'd1203', 'd3000', 'd5997']]) {
      const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
      const written = texts.map((text, i) => ({ id: `d${i}`, text, order: i }));
      index.addSegment(written.map((d) => ({ id: d.id, source: { body: d.text } })));
      index.deleteIds(removed);
      const live = new Map(written.filter((d) => !removed.includes(d.id)).map((d) => [d.id, d.order]));
      const all = analyse(written);
      for (const terms of [['ra', 'rb', 'rc', 'fa', 'fb'], ['fa', 'ra', 'fb', 'rc']]) {
        for (const window of [listWindow, 1024]) {
          maxScoreTuning.listWindow = window;
          for (const k of [1, 10, 40]) {
            const expected = expectedTopK(all, live, terms, k);
            const result = index.search({ match: { body: terms.join(' ') } }, { k, trackTotalHitsUpTo: -1 });
            expect(result.hits).toEqual(expected.top);
          }
        }
        maxScoreTuning.listWindow = listWindow;
      }
    }
  });

  it('scores every doc with several terms when there are more of them than its lists held before', () => {
    // 2,200 docs with both terms (more than any corpus above gives, so the union window's lists of
    // such docs grow during this search), with and without deletes; k covers them all.
    const texts = Array.from({ length: 13_200 }, (_, i) => [i % 2 === 0 ? 'alpha' : 'w1', i % 3 === 0 ? 'beta' : 'w2', i % 5 === 0 ? 'alpha' : ''].join(' '));
    for (const removed of [[], ['d6', 'd600', 'd6000']]) {
      const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
      const written = texts.map((text, i) => ({ id: `d${i}`, text, order: i }));
      index.addSegment(written.map((d) => ({ id: d.id, source: { body: d.text } })));
      index.deleteIds(removed);
      const live = new Map(written.filter((d) => !removed.includes(d.id)).map((d) => [d.id, d.order]));
      const expected = expectedTopK(analyse(written), live, ['alpha', 'beta'], 2_300);
      const counted = index.search({ match: { body: 'alpha beta' } }, { k: 2_300, trackTotalHitsUpTo: 1_000_000 });
      expect(counted.hits).toEqual(expected.top);
      expect(counted.total).toBe(expected.total);
    }
  });

  it('scores docs with several of three terms, found in one ascending run per term and merged', () => {
    // The third term finds docs with it and one or both of the others after the second term found
    // those with the first two: two runs of listed docs, merged by doc (sortMulti), in lists that
    // grow during the search; counting and not, k covering every doc with more than one term.
    const texts = Array.from({ length: 13_200 }, (_, i) => [i % 2 === 0 ? 'alpha' : 'w1', i % 3 === 0 ? 'beta' : 'w2', i % 7 === 0 ? 'gamma' : 'w3'].join(' '));
    const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
    const written = texts.map((text, i) => ({ id: `d${i}`, text, order: i }));
    index.addSegment(written.map((d) => ({ id: d.id, source: { body: d.text } })));
    const live = new Map(written.map((d) => [d.id, d.order]));
    for (const k of [10, 4_000]) {
      const expected = expectedTopK(analyse(written), live, ['alpha', 'beta', 'gamma'], k);
      for (const limit of [-1, 1_000_000]) {
        const result = index.search({ match: { body: 'alpha beta gamma' } }, { k, trackTotalHitsUpTo: limit });
        expect(result.hits).toEqual(expected.top);
        if (limit > 0) expect(result.total).toBe(expected.total);
      }
    }
  });

  it('keeps results after force merge identical to the multi-segment results', () => {
    const index = new InProcessIndex({ properties: { body: { type: 'text' } } });
    const rnd = fc.sample(fc.array(docText, { minLength: 300, maxLength: 300 }), { numRuns: 3, seed: 7 });
    rnd.forEach((texts, s) => index.addSegment(texts.map((text, i) => ({ id: `s${s}-${i}`, source: { body: text } }))));
    index.deleteIds(['s0-1', 's1-2', 's2-3']);
    const queries = ['w1 w2', 'w0 w5 w9', 'w30 w3', 'w2'].map((q) => ({ match: { body: q } }));
    const before = queries.map((q) => index.search(q, { k: 20 }));
    // Merging drops deleted docs, which changes statistics (as in Lucene): compare ids only where
    // statistics are unaffected — i.e. re-check rank-safety on the merged index instead.
    index.forceMerge();
    expect(index.segments.length).toBe(1);
    queries.forEach((q, i) => {
      const after = index.search(q, { k: 20, trackTotalHitsUpTo: 1_000_000 });
      const exhaustive = index.search(q, { k: 20, trackTotalHitsUpTo: 1_000_000, minScore: -1 });
      expect(after.hits).toEqual(exhaustive.hits);
      expect(after.total).toBe(before[i].total);
    });
  });
});
