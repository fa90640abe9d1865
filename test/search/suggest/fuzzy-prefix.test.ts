/**
 * The fuzzy completion walk (fuzzy-prefix.ts) against its definition, term by term: a term matches
 * when some prefix of it is within the edits of the query (fixed prefix exact), and its boost is the
 * common prefix of the query and the *shortest* such prefix of the term (Lucene's
 * FuzzyCompletionWeight) — for random dictionaries, queries and options, in bytes and code points.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSegment, parseRootMapping, SegmentBuilder, writeSegment, type SegmentField } from '../../../src/index/index.js';
import { boundedEditDistance } from '../../../src/search/plan/fuzzy.js';
import { fuzzyPrefixMatches } from '../../../src/search/suggest/fuzzy-prefix.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

/** A completion field (keyword analysis, so terms are the inputs as given) over these inputs. */
function fieldOf(inputs: string[]): { field: SegmentField; terms: string[] } | null {
  const b = new SegmentBuilder(parseRootMapping({ properties: { s: { type: 'completion', analyzer: 'keyword' } } }), LIMITS);
  inputs.forEach((input, i) => b.add({ id: String(i), source: JSON.stringify({ s: input }), seqNo: i, version: 1, indexOrder: i }));
  const segment = openSegment('s', writeSegment(b.finish()));
  const field = segment.fields.get('s');
  if (!field) return null; // every input was blank
  const terms: string[] = [];
  for (let t = 0; t < field.info.termCount; t++) terms.push(segment.buffer.toString('utf8', field.termBytes!.byteOffset + field.termOffsets![t], field.termBytes!.byteOffset + field.termOffsets![t + 1]));
  return { field, terms };
}

const units = (s: string, unicode: boolean) => (unicode ? Array.from(s, (c) => c.codePointAt(0)!) : [...Buffer.from(s, 'utf8')]);

/** term ordinal → boost, by the definition. */
function expected(terms: string[], query: string, o: { editDistance: number; transpositions: boolean; minLength: number; prefixLength: number; unicodeAware: boolean }): Map<number, number> {
  const q = units(query, o.unicodeAware);
  const out = new Map<number, number>();
  terms.forEach((term, t) => {
    const u = units(term, o.unicodeAware);
    if (q.length <= o.prefixLength || q.length < o.minLength) {
      if (q.every((x, i) => u[i] === x)) out.set(t, q.length);
      return;
    }
    for (let i = 0; i < o.prefixLength; i++) if (u[i] !== q[i]) return;
    for (let len = o.prefixLength; len <= u.length; len++) {
      if (boundedEditDistance(q.slice(o.prefixLength), u.slice(o.prefixLength, len), o.editDistance, o.transpositions) >= 0) {
        let boost = 0;
        while (boost < Math.min(q.length, len) && u[boost] === q[boost]) boost++;
        out.set(t, boost);
        return;
      }
    }
  });
  return out;
}

const ALPHABET = ['a', 'b', 'c', 'é', 'ab', ' ', '\u{1F600}'];
const word = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 7 }).map((parts) => parts.join(''));

describe('fuzzy completion matches', () => {
  it('are the terms with a prefix within the edits, boosted by the shortest one', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 60 }), word,
        fc.record({
          editDistance: fc.integer({ min: 0, max: 2 }), transpositions: fc.boolean(), minLength: fc.integer({ min: 0, max: 4 }),
          prefixLength: fc.integer({ min: 0, max: 2 }), unicodeAware: fc.boolean(),
        }),
        (inputs, query, o) => {
          const built = fieldOf(inputs);
          if (!built) return;
          const { field, terms } = built;
          const got = new Map<number, number>();
          fuzzyPrefixMatches(field, query, o, (from, to, boost) => {
            for (let t = from; t < to; t++) got.set(t, boost);
          });
          expect(got).toEqual(expected(terms, query, o));
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });
});
