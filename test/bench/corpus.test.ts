import { describe, expect, it } from 'vitest';
import { BM25_CORPUS_DEFAULTS, generateBm25Corpus, generateBm25TermIds, generateVocabulary } from '../../src/cli/corpus/corpus.js';
import { mulberry32 } from '../../src/common/prng.js';
import { generateSparseCorpus } from '../../bench/lib/sparse-corpus.js';

describe('mulberry32', () => {
  it('produces the standard sequence for seed 1', () => {
    const r = mulberry32(1);
    // The reference outputs of the public-domain mulberry32 for seed 1.
    expect([r(), r(), r()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
  });

  it('returns numbers in [0, 1)', () => {
    const r = mulberry32(123);
    for (let i = 0; i < 10_000; i++) {
      const u = r();
      expect(u >= 0 && u < 1).toBe(true);
    }
  });
});

describe('the BM25 corpus', () => {
  it('is identical for identical parameters', () => {
    const a = generateBm25Corpus({ docs: 2_000, queries: 300 });
    const b = generateBm25Corpus({ docs: 2_000, queries: 300 });
    expect(b).toEqual(a);
  });

  it('changes with the seed', () => {
    const a = generateBm25Corpus({ docs: 10, queries: 10, vocab: 1_000 });
    const b = generateBm25Corpus({ docs: 10, queries: 10, vocab: 1_000, seed: 43 });
    expect(b.vocabulary[0]).not.toBe(a.vocabulary[0]);
    expect(b.docs[0].text).not.toBe(a.docs[0].text);
  });

  it('defaults to the parameters of performance.md §2.1', () => {
    expect(BM25_CORPUS_DEFAULTS).toEqual({
      docs: 200_000, vocab: 50_000, s: 1, minLen: 10, maxLen: 50, seed: 42, queries: 2_000, qFromRank: 50,
    });
  });

  it('pins the first words, the first documents and the first queries of the default corpus', () => {
    // Vocabulary, documents and queries use separate streams, so a short prefix is the same as in the
    // full 200k corpus. A change here changes every published figure: update them together.
    const c = generateBm25Corpus({ docs: 2, queries: 3 });
    expect(c.vocabulary.slice(0, 8)).toEqual(['teabrer', 'shear', 'wou', 'zoul', 'vea', 'bidek', 'bestuk', 'ta']);
    expect(c.vocabulary[49_999]).toBe('goustaimuk');
    expect(c.docs[0]).toEqual({
      id: '0',
      text:
        'zoul liol meapligean liokioniom vea shukior tiobugrai shuhar wou zeawio shear zoul grebiohi teabrer ' +
        'stoutebar ta taplohiol paibouk zoul trir tethu hovearai justai',
    });
    expect(c.docs[1]).toEqual({ id: '1', text: 'patraik kai thoum fastea baigriothun shohiot fiotio woto zoul mounen patraik trir' });
    expect(c.queries).toEqual(['plewe haneaviojiok', 'hotruta brepli chaifal', 'maim fepliomur']);
  });

  it('builds a vocabulary of distinct pseudo-words whose frequent words are shorter', () => {
    const vocab = generateVocabulary(50_000, 42);
    expect(new Set(vocab).size).toBe(50_000);
    expect(vocab.filter((w) => !/^[a-z]{2,}$/.test(w))).toEqual([]);
    const meanLength = (words: string[]) => words.reduce((n, w) => n + w.length, 0) / words.length;
    expect(meanLength(vocab.slice(0, 98))).toBeLessThan(meanLength(vocab.slice(98, 9_998)));
    expect(meanLength(vocab.slice(98, 9_998))).toBeLessThan(meanLength(vocab.slice(9_998)));
  });

  it('has documents of 10–50 tokens averaging 30, drawn from the vocabulary', () => {
    const c = generateBm25Corpus({ docs: 20_000, queries: 0 });
    const known = new Set(c.vocabulary);
    let tokens = 0;
    let badIds = 0;
    let badLengths = 0;
    let unknownWords = 0;
    c.docs.forEach((doc, i) => {
      if (doc.id !== String(i)) badIds++;
      const words = doc.text.split(' ');
      if (words.length < 10 || words.length > 50) badLengths++;
      for (const w of words) if (!known.has(w)) unknownWords++;
      tokens += words.length;
    });
    expect({ badIds, badLengths, unknownWords }).toEqual({ badIds: 0, badLengths: 0, unknownWords: 0 });
    expect(tokens / c.docs.length).toBeGreaterThan(29.7);
    expect(tokens / c.docs.length).toBeLessThan(30.3);
  });

  it('follows the Zipf law: rank 0 is about twice as frequent as rank 1 and ten times rank 9', () => {
    const c = generateBm25TermIds({ docs: 20_000, queries: 0 });
    const count = new Float64Array(c.params.vocab);
    for (const t of c.termIds) count[t]++;
    expect(count[0] / count[1]).toBeGreaterThan(1.9);
    expect(count[0] / count[1]).toBeLessThan(2.1);
    expect(count[0] / count[9]).toBeGreaterThan(9);
    expect(count[0] / count[9]).toBeLessThan(11);
  });

  it('has queries of 2 or 3 distinct terms, none of them among the 50 most frequent words', () => {
    const c = generateBm25Corpus({ docs: 1, queries: 2_000 });
    const rank = new Map(c.vocabulary.map((w, r) => [w, r]));
    let twoTerm = 0;
    for (const q of c.queries) {
      const terms = q.split(' ');
      expect(terms.length === 2 || terms.length === 3).toBe(true);
      expect(new Set(terms).size).toBe(terms.length);
      for (const t of terms) expect(rank.get(t)).toBeGreaterThanOrEqual(50);
      if (terms.length === 2) twoTerm++;
    }
    expect(twoTerm / c.queries.length).toBeGreaterThan(0.45);
    expect(twoTerm / c.queries.length).toBeLessThan(0.55);
  });

  it('reproduces the postings per query published in performance.md §8.2 (mean 3,725, median 2,304)', () => {
    // Ties this generator to the one behind the published figures: any deviation in the vocabulary
    // rule, the Zipf sampling or the stream order moves these numbers.
    const c = generateBm25TermIds();
    const df = new Uint32Array(c.params.vocab);
    const lastDoc = new Int32Array(c.params.vocab).fill(-1);
    for (let d = 0; d < c.params.docs; d++) {
      for (let i = c.docStarts[d]; i < c.docStarts[d + 1]; i++) {
        const t = c.termIds[i];
        if (lastDoc[t] !== d) {
          lastDoc[t] = d;
          df[t]++;
        }
      }
    }
    const rank = new Map(c.vocabulary.map((w, r) => [w, r]));
    const touched = c.queries.map((q) => q.split(' ').reduce((n, w) => n + df[rank.get(w)!], 0)).sort((a, b) => a - b);
    expect(touched.reduce((a, b) => a + b, 0) / touched.length).toBeCloseTo(3725.08, 2);
    expect(touched[touched.length / 2]).toBe(2304);
    expect(c.termIds.length / c.params.docs).toBeCloseTo(29.96, 2);
  });
});

describe('the sparse corpus', () => {
  it('is identical for identical parameters', () => {
    const a = generateSparseCorpus({ docs: 500, queries: 20 });
    const b = generateSparseCorpus({ docs: 500, queries: 20 });
    expect(b).toEqual(a);
  });

  it('pins the start of the default stream', () => {
    const c = generateSparseCorpus({ docs: 2, queries: 1 });
    expect(Array.from(c.rankToToken.subarray(0, 5))).toEqual([13179, 20243, 21997, 22503, 5894]);
    expect(Array.from(c.docs.offsets)).toEqual([0, 127, 191]);
    expect(Array.from(c.docs.tokens.subarray(0, 4))).toEqual([7665, 377, 21997, 2105]);
    expect(c.docs.weights[0]).toBe(Math.fround(0.5868585109710693));
    expect(Array.from(c.queries.offsets)).toEqual([0, 29]);
  });

  it('has distinct tokens per vector, non-zero counts in range and float32 weights in [0.05, 3]', () => {
    const c = generateSparseCorpus({ docs: 2_000, queries: 100 });
    const violations = (v: typeof c.docs, lo: number, hi: number) => {
      let counts = 0;
      let duplicates = 0;
      let outOfVocab = 0;
      let weights = 0;
      for (let i = 0; i + 1 < v.offsets.length; i++) {
        const n = v.offsets[i + 1] - v.offsets[i];
        if (n < lo || n > hi) counts++;
        const tokens = v.tokens.subarray(v.offsets[i], v.offsets[i + 1]);
        if (new Set(tokens).size !== n) duplicates++;
        for (const t of tokens) if (t >= 30_522) outOfVocab++;
      }
      for (const w of v.weights) if (!(w >= Math.fround(0.05) && w <= 3)) weights++;
      return { counts, duplicates, outOfVocab, weights };
    };
    const none = { counts: 0, duplicates: 0, outOfVocab: 0, weights: 0 };
    expect(violations(c.docs, 60, 180)).toEqual(none);
    expect(violations(c.queries, 16, 48)).toEqual(none);
    expect(c.docs.weights).toBeInstanceOf(Float32Array);
  });

  it('reproduces the corpus statistics published in performance.md §2.2', () => {
    const c = generateSparseCorpus();
    expect(c.docs.tokens.length).toBe(23_974_981);
    const df = new Uint32Array(c.params.vocab);
    for (const t of c.docs.tokens) df[t]++;
    expect(Math.max(...df)).toBe(199_222);
    expect(c.queries.tokens.length / c.params.queries).toBeCloseTo(32.7, 1);
  });
});
