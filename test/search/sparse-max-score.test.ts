/**
 * Rank safety for learned-sparse queries: for random corpora of sparse vectors (several segments,
 * deletes and updates, Zipf-like token popularity, weights spread over orders of magnitude) and
 * random query vectors, the block-max MaxScore top-k must equal a sparse dot product computed from
 * scratch — document weights truncated as Lucene's FeatureField stores them (float bits &
 * 0xFFFF8000), per-token products in float32, summed and rounded once — with the same ids, order and
 * scores; the exhaustive path of the engine must agree, and ES's token pruning must keep exactly the
 * tokens its rule keeps.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessIndex, type HarnessDoc } from '../support/engine-harness.js';
import { maxScoreTuning } from '../../src/search/exec/max-score.js';
import { featureAccumulationTuning } from '../../src/search/exec/feature-taat.js';

const f = Math.fround;
const VOCAB = Array.from({ length: 80 }, (_, i) => (i % 9 === 0 ? `t.${i}` : `t${i}`));
const token = fc.integer({ min: 0, max: 999 }).map((u) => VOCAB[Math.floor(((u / 1000) ** 3) * VOCAB.length)]);
const weight = fc.oneof(
  fc.double({ min: 0.01, max: 3, noNaN: true }),
  fc.double({ min: 1e-3, max: 50, noNaN: true }),
  fc.constantFrom(1, 0.5, 2),
).map((w) => f(w));
const vector = (min: number, max: number) => fc.dictionary(token, weight, { minKeys: min, maxKeys: max });

interface Corpus {
  segments: Array<Array<Record<string, number>>>;
  deletes: number[];
  queries: Array<Record<string, number>>;
}
const corpus: fc.Arbitrary<Corpus> = fc.record({
  segments: fc.array(fc.array(vector(1, 30), { minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 4 }),
  deletes: fc.array(fc.nat(), { maxLength: 30 }),
  queries: fc.array(vector(1, 12), { minLength: 1, maxLength: 6 }),
});

/** Lucene FeatureField: the float's top 17 bits (sign, exponent, 8 mantissa bits). */
function stored(w: number): number {
  const a = new Float32Array([w]);
  new Uint32Array(a.buffer)[0] &= 0xffff8000;
  return a[0];
}

interface Written { readonly id: string; readonly vec: Record<string, number>; readonly order: number }

function expectedTopK(written: readonly Written[], live: ReadonlyMap<string, number>, query: Record<string, number>, k: number) {
  const scored: Array<{ id: string; score: number; order: number }> = [];
  for (const d of written) {
    if (live.get(d.id) !== d.order) continue;
    let sum = 0;
    let matched = false;
    for (const [t, wq] of Object.entries(query)) {
      const wd = d.vec[t];
      if (wd === undefined) continue;
      matched = true;
      sum += f(f(wq) * stored(wd));
    }
    if (matched) scored.push({ id: d.id, score: f(sum), order: d.order });
  }
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return { top: scored.slice(0, k).map(({ id, score }) => ({ id, score })), total: scored.length };
}

/** ES SparseVectorQueryBuilder#shouldKeepToken with statistics over every written copy. */
function keptTokens(written: readonly Written[], segmentsTerms: number[], query: Record<string, number>, ratio: number, weightShare: number) {
  const docCount = written.length;
  const sumDocFreq = written.reduce((s, d) => s + Object.keys(d.vec).length, 0);
  const avg = f(f(sumDocFreq / docCount) / Math.max(...segmentsTerms));
  const best = Math.max(...Object.values(query));
  const out: Record<string, number> = {};
  for (const [t, w] of Object.entries(query)) {
    const df = written.filter((d) => d.vec[t] !== undefined).length;
    if (df > 0 && (f(df / docCount) < f(ratio * avg) || w > f(weightShare * best))) out[t] = w;
  }
  return out;
}

function build(segments: Corpus['segments'], deletes: number[]) {
  const index = new InProcessIndex({ properties: { v: { type: 'sparse_vector' } } });
  const written: Written[] = [];
  const live = new Map<string, number>();
  const segmentTerms: number[] = [];
  let order = 0;
  let nextId = 0;
  for (const vecs of segments) {
    const docs: HarnessDoc[] = vecs.map((vec, i) => ({ id: nextId > 5 && i % 7 === 3 ? `d${(i * 13) % nextId}` : `d${nextId++}`, source: { v: vec } }));
    const seen = new Set<string>();
    const unique = docs.filter((d) => (seen.has(d.id) ? false : (seen.add(d.id), true)));
    index.addSegment(unique);
    segmentTerms.push(new Set(unique.flatMap((d) => Object.keys(d.source.v as object))).size);
    for (const d of unique) {
      written.push({ id: d.id, vec: d.source.v as Record<string, number>, order });
      live.set(d.id, order++);
    }
  }
  const ids = [...live.keys()];
  const removed = deletes.map((n) => ids[n % ids.length]);
  index.deleteIds(removed);
  for (const id of removed) live.delete(id);
  return { index, written, live, segmentTerms };
}

describe.each([
  ['MaxScore with sorted candidate lists', Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 0],
  ['MaxScore with sorted candidate lists in windows of 16 docs', Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 16],
  ['MaxScore with window accumulators', -1, Number.POSITIVE_INFINITY, 0],
  ['term-at-a-time accumulation', Number.POSITIVE_INFINITY, 1, 0],
])('sparse top-k by %s', (_name, listPostings, minTerms, listWindow) => {
  const saved = { ...maxScoreTuning };
  const savedAccumulation = { ...featureAccumulationTuning };
  beforeAll(() => {
    Object.assign(maxScoreTuning, { listPostings, listWindow });
    Object.assign(featureAccumulationTuning, { minTerms, minPostingsPerDoc: 0 });
  });
  afterAll(() => {
    Object.assign(maxScoreTuning, saved);
    Object.assign(featureAccumulationTuning, savedAccumulation);
  });

  it('returns exactly the exhaustive top-k of the sparse dot product', () => {
    fc.assert(
      fc.property(corpus, fc.integer({ min: 1, max: 25 }), fc.constantFrom(1, 0.5, 3), ({ segments, deletes, queries }, k, boost) => {
        const { index, written, live } = build(segments, deletes);
        for (const qv of queries) {
          const query = { sparse_vector: { field: 'v', query_vector: qv, boost } };
          const boosted = Object.fromEntries(Object.entries(qv).map(([t, w]) => [t, f(f(boost) * w)]));
          const expected = expectedTopK(written, live, boosted, k);
          expect(index.search(query, { k, trackTotalHitsUpTo: -1 }).hits).toEqual(expected.top);
          const counted = index.search(query, { k, trackTotalHitsUpTo: 1_000_000 });
          expect(counted.hits).toEqual(expected.top);
          expect(counted.total).toBe(expected.total);
          // min_score forces the exhaustive document-at-a-time path.
          const exhaustive = index.search(query, { k, trackTotalHitsUpTo: 1_000_000, minScore: -1 });
          expect(exhaustive.hits).toEqual(expected.top);
        }
      }),
      { numRuns: 50, seed: 20261122 },
    );
  });
});

describe('token pruning', () => {
  it('keeps exactly the tokens of ES\'s rule (index-wide statistics) and scores them rank-safely', () => {
    fc.assert(
      fc.property(corpus, fc.double({ min: 1, max: 10, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), ({ segments, deletes, queries }, ratio, share) => {
        const { index, written, live, segmentTerms } = build(segments, deletes);
        const r = f(ratio);
        const s = f(share);
        for (const qv of queries) {
          const kept = keptTokens(written, segmentTerms, qv, r, s);
          const expected = expectedTopK(written, live, kept, 10);
          const pruned = index.search({ sparse_vector: { field: 'v', query_vector: qv, prune: true, pruning_config: { tokens_freq_ratio_threshold: r, tokens_weight_threshold: s } } }, { k: 10 });
          expect(pruned.hits).toEqual(expected.top);
        }
      }),
      { numRuns: 30, seed: 7 },
    );
  });
});
