import { describe, expect, it } from 'vitest';
import { generateBm25Corpus } from '../../src/cli/corpus/corpus.js';
import { buildRefTaat } from '../../bench/lib/ref-taat.js';

const DOCS = [
  { id: 'a', text: 'the quick brown fox' },
  { id: 'b', text: 'the lazy dog' },
  { id: 'c', text: 'quick quick fox jumps over the lazy dog again and again' },
  { id: 'd', text: 'brown dog' },
  { id: 'e', text: 'nothing relevant here at all' },
];

/** BM25 straight from the formula of performance.md §3.2, in float64, every document scored. */
function expected(docs: typeof DOCS, query: string, k: number, k1 = 1.2, b = 0.75) {
  const tokenized = docs.map((d) => d.text.split(/\s+/).filter(Boolean));
  const avgdl = tokenized.reduce((n, t) => n + t.length, 0) / docs.length;
  const terms = query.split(/\s+/).filter(Boolean);
  const df = terms.map((term) => tokenized.filter((t) => t.includes(term)).length);
  return tokenized
    .map((tokens, i) => {
      let score = 0;
      terms.forEach((term, j) => {
        const tf = tokens.filter((t) => t === term).length;
        if (tf === 0) return;
        const idf = Math.log(1 + (docs.length - df[j] + 0.5) / (df[j] + 0.5));
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * tokens.length) / avgdl));
      });
      return { i, id: docs[i].id, score };
    })
    .filter((h) => h.score > 0)
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .slice(0, k);
}

describe('ref-taat', () => {
  it('scores every document exactly as the BM25 formula does', () => {
    const engine = buildRefTaat(DOCS);
    for (const query of ['quick', 'quick fox', 'lazy dog', 'the', 'brown dog again', 'again quick quick']) {
      const hits = engine.search(query, 10);
      const want = expected(DOCS, query, 10);
      expect(hits.map((h) => h.id)).toEqual(want.map((h) => h.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 5));
    }
  });

  it('honours k1 and b', () => {
    const engine = buildRefTaat(DOCS, { k1: 0.9, b: 0.4 });
    const hits = engine.search('quick dog', 10);
    const want = expected(DOCS, 'quick dog', 10, 0.9, 0.4);
    expect(hits.map((h) => h.id)).toEqual(want.map((h) => h.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 5));
  });

  it('breaks score ties by the lower document index and cuts at k', () => {
    const docs = [
      { id: 'x3', text: 'alpha beta' },
      { id: 'x1', text: 'beta alpha' },
      { id: 'x2', text: 'gamma delta' },
      { id: 'x0', text: 'alpha beta' },
    ];
    const engine = buildRefTaat(docs);
    expect(engine.search('alpha', 10).map((h) => h.id)).toEqual(['x3', 'x1', 'x0']);
    // The tie is decided by index even when a later term touches the lower index first.
    expect(engine.search('beta alpha', 2).map((h) => h.id)).toEqual(['x3', 'x1']);
  });

  it('returns nothing for unknown terms, an empty query or k = 0, and leaves no state behind', () => {
    const engine = buildRefTaat(DOCS);
    expect(engine.search('zebra', 10)).toEqual([]);
    expect(engine.search('   ', 10)).toEqual([]);
    expect(engine.search('quick', 0)).toEqual([]);
    // A query after k = 0 must not see the scores that query accumulated.
    const hits = engine.search('quick', 10);
    expect(hits[0].score).toBeCloseTo(expected(DOCS, 'quick', 1)[0].score, 5);
  });

  it('splits on any whitespace and counts a repeated query term twice, as Lucene does', () => {
    const engine = buildRefTaat([...DOCS, { id: 'f', text: '\tquick\n\u00a0fox  ' }]);
    expect(engine.numTerms).toBe(new Set(DOCS.flatMap((d) => d.text.split(' '))).size);
    const once = engine.search('fox', 10).find((h) => h.id === 'f')!;
    const twice = engine.search('fox fox', 10).find((h) => h.id === 'f')!;
    expect(twice.score).toBeCloseTo(2 * once.score, 5);
  });

  it('counts the postings a query streams', () => {
    const engine = buildRefTaat(DOCS);
    expect(engine.postingsTouched('quick dog zebra')).toBe(2 + 3);
    expect(engine.numPostings).toBe(DOCS.reduce((n, d) => n + new Set(d.text.split(' ')).size, 0));
  });

  it('agrees with the formula on a generated corpus', () => {
    const c = generateBm25Corpus({ docs: 300, queries: 30, vocab: 500, qFromRank: 5 });
    const engine = buildRefTaat(c.docs);
    for (const q of c.queries) {
      const hits = engine.search(q, 10);
      const want = expected(c.docs, q, 10);
      // Float32 accumulation can swap two scores closer than its precision; compare scores by rank.
      expect(hits.length).toBe(want.length);
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 4));
    }
  });
});
