/**
 * The merged term dictionary (index/segment/term-union.ts): the k-way union of sorted dictionaries
 * in code-point order, each source term mapped to its merged ordinal, and each merged term's sources
 * listed in part order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, encodeStrings } from '../../src/index/segment/bytes.js';
import { selectStrings, unionTerms } from '../../src/index/segment/term-union.js';

const decode = (t: { bytes: Uint8Array; offsets: Uint32Array }, count: number) =>
  Array.from({ length: count }, (_, i) => Buffer.from(t.bytes.subarray(t.offsets[i], t.offsets[i + 1])).toString('utf8'));

function dictionary(terms: readonly string[]) {
  const sorted = [...new Set(terms)].sort(compareCodePoints);
  return { sorted, dict: { ...encodeStrings(sorted), count: sorted.length } };
}

describe('unionTerms', () => {
  it('unions sorted dictionaries in code-point order and maps every old ordinal (random dictionaries)', () => {
    const termArb = fc.array(fc.constantFrom('a', 'b', 'é', '\ue000', '😀', 'z'), { maxLength: 4 }).map((c) => c.join(''));
    fc.assert(
      fc.property(fc.array(fc.array(termArb, { maxLength: 20 }), { minLength: 1, maxLength: 12 }), (lists) => {
        const parts = lists.map(dictionary);
        const union = unionTerms(parts.map((p) => p.dict));
        const expected = [...new Set(lists.flat())].sort(compareCodePoints);
        expect(decode(union.terms, union.termCount)).toEqual(expected);
        parts.forEach((p, i) => p.sorted.forEach((term, old) => expect(expected[union.ordMaps[i][old]]).toBe(term)));
        for (let t = 0; t < union.termCount; t++) {
          const holders = Array.from(union.entryPart.subarray(union.entryStart[t], union.entryStart[t + 1]));
          expect(holders).toEqual(parts.flatMap((p, i) => (p.sorted.includes(expected[t]) ? [i] : [])));
          for (let e = union.entryStart[t]; e < union.entryStart[t + 1]; e++) {
            expect(parts[union.entryPart[e]].sorted[union.entryOldOrd[e]]).toBe(expected[t]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('selects a subset of a table', () => {
    const table = encodeStrings(['a', 'bé', 'c', '😀']);
    const picked = selectStrings(table, [1, 3]);
    expect(decode(picked, 2)).toEqual(['bé', '😀']);
  });
});
