/**
 * Reciprocal rank fusion against hand-computed fixtures (ES reference: "Reciprocal rank fusion",
 * and the rrf retriever YAML test: rank 3 in one list and rank 1 in the other with rank_constant 10
 * scores 1/13 + 1/11).
 */
import { describe, expect, it } from 'vitest';
import { NO_RANK, reciprocalRankFusion } from '../../../src/cluster/search/rrf.js';

const list = (keys: number[], scores?: number[]) => ({ keys, scores: scores ?? keys.map((_, i) => 100 - i) });
const f32sum = (...xs: number[]) => xs.reduce((s, x) => Math.fround(s + Math.fround(x)), 0);

describe('reciprocal rank fusion', () => {
  it('scores a document by the sum of 1/(k + rank) over the lists containing it', () => {
    // Lexical: A B C D; semantic: C A E. k = 60.
    const [A, B, C, D, E] = [1, 2, 3, 4, 5];
    const fused = reciprocalRankFusion([list([A, B, C, D]), list([C, A, E])], 60);
    const byKey = Object.fromEntries(fused.map((d) => [d.key, d.score]));
    expect(byKey[A]).toBe(f32sum(1 / 61, 1 / 62));
    expect(byKey[C]).toBe(f32sum(1 / 63, 1 / 61));
    expect(byKey[B]).toBe(f32sum(1 / 62));
    expect(byKey[E]).toBe(f32sum(1 / 63));
    expect(byKey[D]).toBe(f32sum(1 / 64));
    // A: 0.032522 > C: 0.032266 > B = E: 0.016129 / 0.015873 … > D.
    expect(fused.map((d) => d.key)).toEqual([A, C, B, E, D]);
  });

  it('gives rank 3 in one list and rank 1 in the other 1/13 + 1/11 with rank_constant 10 (ES YAML test)', () => {
    const fused = reciprocalRankFusion([list([7, 8, 9]), list([9, 7])], 10);
    const nine = fused.find((d) => d.key === 9)!;
    expect(nine.score).toBeCloseTo(0.1678, 4);
    expect(nine.score).toBe(f32sum(1 / 13, 1 / 11));
    expect(Array.from(nine.positions)).toEqual([2, 0]);
  });

  it('breaks score ties by presence in the earlier list, then by its original score there, then by key', () => {
    // X only in list 0 at rank 1, Y only in list 1 at rank 1: same RRF score; list 0 wins.
    const X = 10;
    const Y = 5;
    expect(reciprocalRankFusion([list([X]), list([Y])], 60).map((d) => d.key)).toEqual([X, Y]);
    // Two lists where P and Q swap places: equal sums; P has the higher score in list 0.
    const P = 20;
    const Q = 3;
    const swapped = reciprocalRankFusion([list([P, Q], [2.5, 2.5]), list([Q, P], [9, 8])], 60);
    // Equal scores in list 0 → list 1 decides: Q scored 9 there.
    expect(swapped.map((d) => d.key)).toEqual([Q, P]);
    const lowerKey = reciprocalRankFusion([list([P, Q], [1, 1]), list([Q, P], [1, 1])], 60);
    expect(lowerKey.map((d) => d.key)).toEqual([Q, P]);
  });

  it('records positions and original scores per list, NO_RANK where a document is absent', () => {
    const [only] = reciprocalRankFusion([list([1], [3.5]), list([])], 1);
    expect(only.score).toBe(Math.fround(1 / 2));
    expect(Array.from(only.positions)).toEqual([0, NO_RANK]);
    expect(Array.from(only.scores)).toEqual([3.5, 0]);
  });

  it('is empty for empty lists and keeps every document of every list', () => {
    expect(reciprocalRankFusion([list([]), list([])], 60)).toEqual([]);
    const fused = reciprocalRankFusion([list([1, 2, 3]), list([4, 5, 6]), list([7])], 60);
    expect(fused.map((d) => d.key).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Rank 1 of three lists, ties broken by list order.
    expect(fused.slice(0, 3).map((d) => d.key)).toEqual([1, 4, 7]);
  });
});
