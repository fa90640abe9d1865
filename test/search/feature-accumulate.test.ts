/**
 * FeatureScorer.accumulate (the term-at-a-time path) must add exactly float32(w × stored) — the
 * score scoreAt, MaxScore and ES give — for every stored weight and query weight, at any magnitude.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InProcessIndex } from '../support/engine-harness.js';
import { termOrd } from '../../src/index/index.js';
import { FeatureScorer } from '../../src/search/exec/feature-scorer.js';

const f32 = Math.fround;
const positiveFloat32 = fc.float({ min: f32(1.2e-38), max: f32(3.4e38), noNaN: true, noDefaultInfinity: true }).filter((w) => w > 0);
const weight = fc.oneof(positiveFloat32, fc.double({ min: 1e-3, max: 10, noNaN: true }), fc.constantFrom(1, 0.5, 1e-40, 1e-30, 1e30, 2 ** -133, 2 ** 120));

describe('FeatureScorer.accumulate', () => {
  it('adds exactly the rounded products scoreAt gives, at any magnitude', () => {
    fc.assert(fc.property(fc.array(positiveFloat32, { minLength: 1, maxLength: 40 }), weight, (stored, w) => {
      const index = new InProcessIndex({ properties: { v: { type: 'rank_features' } } });
      index.addSegment(stored.map((x, i) => ({ id: String(i), source: { v: { t: x } } })));
      const field = index.segments[0].fields.get('v')!;
      const scorer = new FeatureScorer(field, termOrd(field, 't'), w);
      const acc = new Float64Array(stored.length);
      expect(scorer.accumulate(acc)).toBe(stored.length);
      const expected = new Float64Array(stored.length);
      scorer.seek(scorer.start); // the postings as the iterating paths see them (decoded when packed)
      for (let p = scorer.start; p < scorer.end; p++) expected[scorer.docs[p]] = scorer.scoreAt(p);
      expect([...acc]).toEqual([...expected]);
    }), { numRuns: 300 });
  });

});
