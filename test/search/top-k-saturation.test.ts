/**
 * Early termination of the generic top-k loop (shard-search.ts): once the page is full and its
 * worst hit reaches the segment's score ceiling, later docs are only counted. For random corpora
 * (several segments, deletes) and queries of every scorer shape — constant-score filters, match_all,
 * prefixes, bools with filters, dis_max with tie breakers, phrases — the page and the total must be
 * exactly what an unbounded collection gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InProcessIndex } from '../support/engine-harness.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'alphabet', 'betamax'];
const TAGS = ['x', 'y', 'z'];

interface Corpus {
  segments: Array<Array<{ words: string[]; tag: string }>>;
  deletes: number[];
  k: number;
  limit: number;
  query: number;
  word: string;
  other: string;
  tag: string;
  tie: number;
}
const corpus: fc.Arbitrary<Corpus> = fc.record({
  segments: fc.array(fc.array(fc.record({ words: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }), tag: fc.constantFrom(...TAGS) }), { minLength: 1, maxLength: 50 }), { minLength: 1, maxLength: 3 }),
  deletes: fc.array(fc.nat(), { maxLength: 10 }),
  k: fc.integer({ min: 1, max: 6 }),
  limit: fc.constantFrom(-1, 0, 2, 10, 10_000),
  query: fc.nat(),
  word: fc.constantFrom(...WORDS),
  other: fc.constantFrom(...WORDS),
  tag: fc.constantFrom(...TAGS),
  tie: fc.constantFrom(0, 0.3, 1),
});

function queryOf(c: Corpus): unknown {
  const shapes = [
    { match_all: {} },
    { constant_score: { filter: { term: { tag: c.tag } }, boost: 2 } },
    { prefix: { text: c.word.slice(0, 2) } },
    { bool: { filter: { term: { tag: c.tag } } } },
    { bool: { must: { match: { text: c.word } }, filter: { term: { tag: c.tag } } } },
    { bool: { must: { constant_score: { filter: { term: { tag: c.tag } } } }, should: { match: { text: c.other } } } },
    { dis_max: { queries: [{ match: { text: c.word } }, { constant_score: { filter: { term: { tag: c.tag } }, boost: 0.5 } }], tie_breaker: c.tie } },
    { match_phrase: { text: `${c.word} ${c.other}` } },
    { bool: { should: [{ prefix: { text: c.word.slice(0, 1) } }, { term: { tag: c.tag } }], must_not: { term: { text: c.other } } } },
  ];
  return shapes[c.query % shapes.length];
}

describe('top-k early termination', () => {
  it('gives the page and total an unbounded collection gives', () => {
    fc.assert(fc.property(corpus, (c) => {
      const index = new InProcessIndex({ properties: { text: { type: 'text' }, tag: { type: 'keyword' } } });
      const ids: string[] = [];
      c.segments.forEach((seg, s) => {
        index.addSegment(seg.map((d, i) => ({ id: `${s}-${i}`, source: { text: d.words.join(' '), tag: d.tag } })));
        seg.forEach((_, i) => ids.push(`${s}-${i}`));
      });
      index.deleteIds(c.deletes.map((n) => ids[n % ids.length]));
      const query = queryOf(c);
      const all = index.search(query, { k: 100_000, trackTotalHitsUpTo: 1_000_000 });
      const got = index.search(query, { k: c.k, trackTotalHitsUpTo: c.limit });
      expect(got.hits).toEqual(all.hits.slice(0, c.k));
      if (c.limit < 0) expect(got.total).toBe(-1);
      else if (all.total > c.limit) expect([got.total, got.relation]).toEqual([c.limit, 'gte']);
      else expect([got.total, got.relation]).toEqual([all.total, 'eq']);
    }), { numRuns: 400 });
  });
});
