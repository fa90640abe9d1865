/**
 * The collapsing collector (search/exec/collapsing-top-docs.ts) against a from-scratch answer: for
 * random hits offered in any order, the top k groups are those whose best hits rank first, each
 * group with its best hit, whatever the capacity.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollapsingTopDocs, type GroupHit, type HitOrder } from '../../../src/search/exec/collapsing-top-docs.js';

const byScore: HitOrder = (a, b) => b.score - a.score || a.order - b.order;

function bruteForce(hits: ReadonlyArray<{ key: string | null; score: number; order: number }>, k: number) {
  const best = new Map<string | null, GroupHit>();
  for (const h of hits) {
    const hit = { ...h, values: null, pos: -1 };
    const b = best.get(h.key);
    if (b === undefined || byScore(hit, b) < 0) best.set(h.key, hit);
  }
  return [...best.values()].sort(byScore).slice(0, k);
}

describe('CollapsingTopDocs', () => {
  it('keeps the best hit of each of the top k groups', () => {
    const hit = fc.record({ key: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { freq: 6 }), score: fc.integer({ min: 0, max: 5 }) });
    fc.assert(fc.property(fc.array(hit, { maxLength: 60 }), fc.integer({ min: 0, max: 9 }), (raw, k) => {
      // Orders are unique, offered in a shuffled order (segments' docs come in order; shards' merged lists do not).
      const hits = raw.map((h, order) => ({ ...h, order })).reverse();
      const top = new CollapsingTopDocs(byScore, k);
      for (const h of hits) top.offer(h.key, h.score, null, h.order);
      const strip = (g: GroupHit) => [g.key, g.score, g.order];
      expect(top.sorted().map(strip)).toEqual(bruteForce(hits, k).map(strip));
    }), { numRuns: 300 });
  });
});
