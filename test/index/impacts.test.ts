/**
 * Block impacts bound every posting's BM25 score in the block, for any collection statistics, and
 * equal the block's best score while its Pareto front fits the slots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMPACTS_PER_BLOCK, intToByte4 } from '../../src/index/index.js';
import { writeBlockImpacts } from '../../src/index/segment/impacts.js';
import { bm25Score, normInverseCache } from '../../src/search/index.js';

const posting = fc.record({ freq: fc.integer({ min: 1, max: 12 }), length: fc.integer({ min: 1, max: 400 }) });

describe('block impacts', () => {
  it('bound every posting of the block and reach its best score when the front fits', () => {
    fc.assert(
      fc.property(fc.array(posting, { minLength: 1, maxLength: 128 }), fc.double({ min: 1, max: 300, noNaN: true }), fc.double({ min: 0.1, max: 20, noNaN: true }), (postings, avgdl, weight) => {
        const docs = Uint32Array.from(postings.map((_, i) => i));
        const freqs = Uint32Array.from(postings.map((p) => p.freq));
        const norms = Uint8Array.from(postings.map((p) => intToByte4(p.length)));
        const outFreqs = new Uint32Array(2 * IMPACTS_PER_BLOCK);
        const outNorms = new Uint8Array(2 * IMPACTS_PER_BLOCK);
        writeBlockImpacts(docs, freqs, norms, 0, postings.length, 1, outFreqs, outNorms);
        expect(Array.from(outFreqs.subarray(0, IMPACTS_PER_BLOCK))).toEqual([0, 0, 0, 0]); // block 0 untouched
        const cache = normInverseCache(Math.fround(avgdl));
        const w = Math.fround(weight);
        let bound = 0;
        for (let i = IMPACTS_PER_BLOCK; i < 2 * IMPACTS_PER_BLOCK && outFreqs[i] > 0; i++) bound = Math.max(bound, bm25Score(w, outFreqs[i], cache[outNorms[i]]));
        let best = 0;
        for (let i = 0; i < postings.length; i++) best = Math.max(best, bm25Score(w, freqs[i], cache[norms[i]]));
        expect(bound).toBeGreaterThanOrEqual(best);
        if (outFreqs[2 * IMPACTS_PER_BLOCK - 1] === 0) expect(bound).toBe(best);
      }),
      { numRuns: 500, seed: 42 },
    );
  });
});
