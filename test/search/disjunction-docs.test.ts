/**
 * The unscored disjunction path (search/exec/disjunction-docs.ts): for random corpora of text and
 * sparse vectors over several segments with deletes, a pure disjunction — match, sparse_vector,
 * nested should-only bools and dis_max, as a hybrid search's union is — must count exactly the
 * documents a from-scratch union of matches gives (and stop past track_total_hits as the scorer
 * path does), and list the same documents to aggregations. Shapes that are not pure disjunctions
 * keep the scorer path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InProcessIndex } from '../support/engine-harness.js';
import { readId } from '../../src/index/index.js';
import { matchingDocs } from '../../src/search/aggs/doc-lists.js';
import { SearchDeadline, NO_DEADLINE } from '../../src/search/exec/deadline.js';
import { disjunctionLeaves } from '../../src/search/exec/disjunction-docs.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
const MAPPING = { properties: { text: { type: 'text' }, ml: { type: 'sparse_vector' } } };

const doc = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 5 }),
  tokens: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.double({ min: 0.01, max: 5, noNaN: true }), { maxKeys: 3 }),
});
interface Corpus {
  segments: Array<Array<{ words: string[]; tokens: Record<string, number> }>>;
  deletes: number[];
  words: string[];
  tokens: Record<string, number>;
  limit: number;
}
const corpus: fc.Arbitrary<Corpus> = fc.record({
  segments: fc.array(fc.array(doc, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 3 }),
  deletes: fc.array(fc.nat(), { maxLength: 20 }),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  tokens: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'x'), fc.constantFrom(0, 0.5, 2), { minKeys: 1, maxKeys: 3 }),
  limit: fc.constantFrom(0, 3, 10, 10_000),
});

function build(c: Corpus) {
  const index = new InProcessIndex(MAPPING);
  const all: Array<{ id: string; words: string[]; tokens: Record<string, number> }> = [];
  c.segments.forEach((seg, s) => {
    const docs = seg.map((d, i) => ({ id: `${s}-${i}`, words: d.words, tokens: d.tokens }));
    all.push(...docs);
    index.addSegment(docs.map((d) => ({ id: d.id, source: { text: d.words.join(' '), ...(Object.keys(d.tokens).length > 0 ? { ml: d.tokens } : {}) } })));
  });
  const deleted = new Set(c.deletes.map((n) => all[n % all.length].id));
  index.deleteIds([...deleted]);
  return { index, live: all.filter((d) => !deleted.has(d.id)) };
}

describe('pure disjunctions counted and listed as the union of their postings', () => {
  it('equals a from-scratch union, for match, sparse_vector, and nested bool/dis_max unions', () => {
    fc.assert(fc.property(corpus, (c) => {
      const { index, live } = build(c);
      const text = { match: { text: c.words.join(' ') } };
      const sparse = { sparse_vector: { field: 'ml', query_vector: c.tokens } };
      const matchesText = (d: (typeof live)[number]) => d.words.some((w) => c.words.includes(w));
      const matchesSparse = (d: (typeof live)[number]) => Object.keys(c.tokens).some((t) => d.tokens[t] !== undefined);
      const cases: Array<[unknown, (d: (typeof live)[number]) => boolean]> = [
        [text, matchesText],
        [sparse, matchesSparse],
        [{ bool: { should: [text, sparse] } }, (d) => matchesText(d) || matchesSparse(d)],
        [{ dis_max: { queries: [sparse, { bool: { should: [text] } }] } }, (d) => matchesText(d) || matchesSparse(d)],
      ];
      for (const [query, matches] of cases) {
        const exec = index.plan(query);
        expect(disjunctionLeaves(exec)).not.toBeNull();
        const expected = live.filter(matches).map((d) => d.id).sort();
        const counted = index.search(query, { k: 0, trackTotalHitsUpTo: c.limit });
        if (expected.length > c.limit) {
          expect(counted.relation).toBe('gte');
          expect(counted.total).toBe(c.limit);
        } else {
          expect(counted).toEqual({ hits: [], total: expected.length, relation: 'eq' });
        }
        const lists = matchingDocs(exec, index.segments, index.liveDocs, null, new SearchDeadline(NO_DEADLINE));
        const listed = lists.flatMap((docs, s) => [...docs].map((d) => readId(index.segments[s], d)));
        expect(listed.sort()).toEqual(expected);
        lists.forEach((docs) => expect([...docs]).toEqual([...docs].sort((a, b) => a - b)));
      }
    }), { numRuns: 150 });
  });

  it('leaves other shapes to the scorers', () => {
    const index = new InProcessIndex(MAPPING);
    index.addSegment([{ id: '1', source: { text: 'alpha beta' } }]);
    for (const query of [
      { match: { text: { query: 'alpha beta', operator: 'and' } } },
      { bool: { should: [{ match: { text: 'alpha' } }, { match: { text: 'beta' } }], minimum_should_match: 2 } },
      { bool: { must: [{ match: { text: 'alpha' } }] } },
      { match_phrase: { text: 'alpha beta' } },
    ]) expect(disjunctionLeaves(index.plan(query))).toBeNull();
  });
});
