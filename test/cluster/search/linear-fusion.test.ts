/**
 * The linear retriever's normalizers and weighted sum against hand-computed values (ES
 * MinMaxScoreNormalizer, L2ScoreNormalizer, LinearRetrieverBuilder.combineInnerRetrieverResults; the
 * linear retriever YAML tests: weights 2 and 1.5 over raw scores, minmax and l2_norm lists).
 */
import { describe, expect, it } from 'vitest';
import { linearCombination, normalizeScores } from '../../../src/cluster/search/linear-fusion.js';

const f = Math.fround;
const list = (keys: number[], scores: number[]) => ({ keys, scores: scores.map(f) });

describe('score normalizers', () => {
  it('minmax maps the list to [0, 1]: (s − min) / (max − min) in float32', () => {
    expect(Array.from(normalizeScores([f(10), f(4), f(2)], 'minmax'))).toEqual([1, f(f(4 - 2) / f(8)), 0]);
    expect(Array.from(normalizeScores([f(3.5), f(1.25)], 'minmax'))).toEqual([1, 0]);
  });

  it('minmax of a list whose scores are all equal gives every document that score (ES: score = min)', () => {
    expect(Array.from(normalizeScores([f(7), f(7)], 'minmax'))).toEqual([7, 7]);
    expect(Array.from(normalizeScores([f(0.4)], 'minmax'))).toEqual([f(0.4)]);
  });

  it('l2_norm divides by the Euclidean norm of the list: 3, 4 → 0.6, 0.8', () => {
    expect(Array.from(normalizeScores([3, 4], 'l2_norm'))).toEqual([f(0.6), f(0.8)]);
  });

  it('l2_norm leaves an all-zero list unchanged (norm below epsilon), and none leaves every list unchanged', () => {
    const zeros = [0, 0];
    expect(normalizeScores(zeros, 'l2_norm')).toBe(zeros);
    const raw = [f(9.5), f(1)];
    expect(normalizeScores(raw, 'none')).toBe(raw);
  });

  it('leaves a list without a valid score (all NaN) unchanged', () => {
    const nan = [NaN, NaN];
    expect(normalizeScores(nan, 'minmax')).toBe(nan);
    expect(normalizeScores(nan, 'l2_norm')).toBe(nan);
  });
});

describe('linear combination', () => {
  it('sums weight × score over the lists containing a document (YAML test: 2·5 + 1.5·… per doc)', () => {
    // List 1 (weight 2): doc 1 → 5, doc 2 → 4. List 2 (weight 1.5): doc 2 → 10, doc 3 → 1.
    const out = linearCombination([list([1, 2], [5, 4]), list([2, 3], [10, 1])], [2, 1.5], ['none', 'none'], 10, null);
    expect(out).toEqual([
      { key: 2, score: f(f(2 * 4) + f(1.5 * 10)) }, // 23
      { key: 1, score: 10 },
      { key: 3, score: 1.5 },
    ]);
  });

  it('normalizes each list on its own before weighting', () => {
    // minmax: list 1 → 1, 0.5, 0; l2: list 2 (3, 4) → 0.6, 0.8.
    const out = linearCombination([list([1, 2, 3], [10, 6, 2]), list([3, 4], [3, 4])], [1, 1], ['minmax', 'l2_norm'], 10, null);
    expect(out.map((d) => [d.key, d.score])).toEqual([[1, 1], [4, f(0.8)], [3, f(0.6)], [2, 0.5]]);
  });

  it('breaks ties by key ascending, cuts to the window, then drops scores below min_score (inclusive bound)', () => {
    const lists = [list([5, 3, 9, 1], [2, 2, 1, 0.5])];
    expect(linearCombination(lists, [1], ['none'], 10, null).map((d) => d.key)).toEqual([3, 5, 9, 1]);
    expect(linearCombination(lists, [1], ['none'], 3, null).map((d) => d.key)).toEqual([3, 5, 9]);
    // min_score applies after the window: the window of 2 holds 3 and 5 (score 2, kept at min_score 2).
    expect(linearCombination(lists, [1], ['none'], 2, 2).map((d) => d.key)).toEqual([3, 5]);
    expect(linearCombination(lists, [1], ['none'], 10, 1).map((d) => d.key)).toEqual([3, 5, 9]);
  });

  it('gives a document absent from a list nothing from it, and weight 0 silences a list', () => {
    const out = linearCombination([list([1], [4]), list([2], [100])], [1, 0], ['none', 'none'], 10, null);
    expect(out).toEqual([{ key: 1, score: 4 }, { key: 2, score: 0 }]);
  });
});
