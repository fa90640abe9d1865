/**
 * forEachAcceptedTerm (Lucene's Terms.intersect): the terms of a segment's dictionary an automaton
 * accepts are exactly those a brute-force walk accepts, though the walk resumes shared prefixes,
 * skips dead prefixes and takes match-all runs whole; and it stops when asked to (the deadline).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegexp, compileWildcard, matches, type Dfa } from '../../src/common/pattern/index.js';
import { forEachAcceptedTerm, openSegment, parseRootMapping, SegmentBuilder, termAt, writeSegment, type Segment } from '../../src/index/index.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { k: { type: 'keyword' } } });

function build(values: readonly string[]): Segment {
  const b = new SegmentBuilder(MAPPING, LIMITS);
  values.forEach((k, i) => b.add({ id: String(i), source: JSON.stringify({ k }), seqNo: i, version: 1, indexOrder: i }));
  return openSegment('s', writeSegment(b.finish()));
}

function accepted(segment: Segment, dfa: Dfa, stop = () => false): string[] {
  const field = segment.fields.get('k')!;
  const out: string[] = [];
  forEachAcceptedTerm(field, dfa, stop, (from, to) => {
    for (let t = from; t < to; t++) out.push(termAt(segment, field, t));
  });
  return out;
}

function bruteForce(segment: Segment, dfa: Dfa): string[] {
  const field = segment.fields.get('k')!;
  const out: string[] = [];
  for (let t = 0; t < field.info.termCount; t++) if (matches(dfa, termAt(segment, field, t))) out.push(termAt(segment, field, t));
  return out;
}

// Built from whole code points: a regex class without the `u` flag would hand out lone surrogate
// halves of 😀, which no client can index (they are not valid UTF-8) and the reference then disagrees.
const termArb = fc.array(fc.constantFrom('a', 'b', 'é', '😀'), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
const patternArb = fc.oneof(
  fc.stringMatching(/^[abé*?]{0,6}$/).map((p) => compileWildcard(p)),
  fc.constantFrom('a.*', '.*b', 'ab?é*', '(a|b)+é', '[^a].*', '😀.', 'a{2,}.*b', '.*').map((p) => compileRegexp(p)),
);

describe('forEachAcceptedTerm', () => {
  it('visits exactly the terms the automaton accepts, in order (random dictionaries and patterns)', () => {
    fc.assert(
      fc.property(fc.array(termArb, { minLength: 1, maxLength: 60 }), fc.array(patternArb, { minLength: 1, maxLength: 5 }), (terms, dfas) => {
        const segment = build(terms);
        for (const dfa of dfas) expect(accepted(segment, dfa)).toEqual(bruteForce(segment, dfa));
      }),
      { numRuns: 100 },
    );
  });

  it('takes a match-all suffix as one run and skips dead prefixes', () => {
    const terms = ['apple', 'apricot', 'banana', 'band', 'bandana', 'can', 'cane'];
    const segment = build(terms);
    const runs: Array<[number, number]> = [];
    forEachAcceptedTerm(segment.fields.get('k')!, compileWildcard('ban*'), () => false, (from, to) => runs.push([from, to]));
    expect(runs).toEqual([[2, 5]]);
    expect(accepted(segment, compileRegexp('.*an.'))).toEqual(['banana', 'band', 'bandana', 'cane']);
    expect(accepted(segment, compileRegexp('c.*|ap.*'))).toEqual(['apple', 'apricot', 'can', 'cane']);
  });

  it('stops when asked (the search deadline)', () => {
    const segment = build(Array.from({ length: 50 }, (_, i) => `t${i}`));
    let polls = 0;
    // Terms in order: t0 t1 t10 t11 t12 …; the fifth poll stops the walk.
    expect(accepted(segment, compileRegexp('t.*1'), () => ++polls > 4)).toEqual(['t1', 't11']);
    expect(accepted(segment, compileRegexp('t.*1'))).toEqual(['t1', 't11', 't21', 't31', 't41']);
  });
});
