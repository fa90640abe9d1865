/**
 * FixedShingleFilter and EdgeNGramTokenFilter as analyzer wrappers, configured the way ES's
 * SearchAsYouTypeFieldMapper configures them (separator " ", filler "", trailing positions
 * size - 1 for `._index_prefix`, edge n-grams 1..20 preserving originals).
 */
import { describe, expect, it } from 'vitest';
import { analyzeToTokens, edgeNGramAnalyzer, fixedShingleAnalyzer, getAnalyzer, type Analyzer } from '../../src/analysis/index.js';

const standard = getAnalyzer('standard')!;
const stop = getAnalyzer('stop')!;
const shingles = (inner: Analyzer, size: number, trailingPositions: number | null = null, filler = '') =>
  fixedShingleAnalyzer('test', inner, { size, separator: ' ', filler, trailingPositions });
const terms = (a: Analyzer, text: string) => analyzeToTokens(a, text).map((t) => t.term);

describe('fixedShingleAnalyzer (Lucene FixedShingleFilter)', () => {
  it('emits shingles of exactly the size, no unigrams, at their first token position and offsets', () => {
    expect(analyzeToTokens(shingles(standard, 2), 'Quick brown fox')).toEqual([
      { term: 'quick brown', position: 0, startOffset: 0, endOffset: 11 },
      { term: 'brown fox', position: 1, startOffset: 6, endOffset: 15 },
    ]);
    expect(terms(shingles(standard, 3), 'quick brown fox jumps')).toEqual(['quick brown fox', 'brown fox jumps']);
    expect(terms(shingles(standard, 4), 'a b c d e')).toEqual(['a b c d', 'b c d e']);
  });

  it('emits nothing for values shorter than the size', () => {
    expect(terms(shingles(standard, 2), 'laptop')).toEqual([]);
    expect(terms(shingles(standard, 3), 'wireless ea')).toEqual([]);
    expect(terms(shingles(standard, 2), '')).toEqual([]);
  });

  it('fills position gaps from removed stop words with the filler', () => {
    // stop: "the" removed → "over" at 0, "lazy" at 2.
    expect(analyzeToTokens(shingles(stop, 2, null, '_'), 'over the lazy dog')).toEqual([
      { term: 'over _', position: 0, startOffset: 0, endOffset: 4 },
      { term: 'lazy dog', position: 2, startOffset: 9, endOffset: 17 },
    ]);
    expect(terms(shingles(stop, 3, null, '_'), 'over the lazy dog')).toEqual(['over _ lazy']);
    expect(terms(shingles(stop, 3, null, ''), 'jumps over the lazy dog')).toEqual(['jumps over ', 'over  lazy']);
  });

  it('completes the last shingles with fillers when the stream reports trailing positions', () => {
    // ES's TrailingShingleTokenFilter: size - 1 extra positions at the end.
    expect(analyzeToTokens(shingles(standard, 3, 2), 'quick brown fox')).toEqual([
      { term: 'quick brown fox', position: 0, startOffset: 0, endOffset: 15 },
      { term: 'brown fox ', position: 1, startOffset: 6, endOffset: 15 },
      { term: 'fox  ', position: 2, startOffset: 12, endOffset: 15 },
    ]);
    expect(terms(shingles(standard, 2, 1), 'laptop')).toEqual(['laptop ']);
    // Removed trailing stop words count as trailing positions too.
    expect(terms(shingles(stop, 2, null, '_'), 'lazy dog the')).toEqual(['lazy dog', 'dog _']);
  });

  it('returns where the next value of the field starts counting positions', () => {
    const sink = () => {};
    expect(shingles(standard, 2).analyze('a b c', sink)).toBe(standard.analyze('a b c', sink));
    expect(shingles(standard, 3, 2).analyze('a b c', sink, 10)).toBe(15);
    expect(shingles(standard, 3, 2).analyze('', sink, 10)).toBe(12);
  });

  it('rejects sizes Lucene rejects', () => {
    expect(() => shingles(standard, 1)).toThrow('Shingle size must be between 2 and 4, got 1');
    expect(() => shingles(standard, 5)).toThrow('Shingle size must be between 2 and 4, got 5');
  });
});

describe('edgeNGramAnalyzer (Lucene EdgeNGramTokenFilter)', () => {
  const edges = (inner: Analyzer, min: number, max: number, preserveOriginal: boolean) =>
    edgeNGramAnalyzer('test', inner, { minGram: min, maxGram: max, preserveOriginal });

  it('emits the prefixes in range at the token position with the token offsets', () => {
    expect(analyzeToTokens(edges(standard, 1, 3, false), 'Fox ab')).toEqual([
      { term: 'f', position: 0, startOffset: 0, endOffset: 3 },
      { term: 'fo', position: 0, startOffset: 0, endOffset: 3 },
      { term: 'fox', position: 0, startOffset: 0, endOffset: 3 },
      { term: 'a', position: 1, startOffset: 4, endOffset: 6 },
      { term: 'ab', position: 1, startOffset: 4, endOffset: 6 },
    ]);
  });

  it('keeps tokens outside the range whole only when preserving originals', () => {
    expect(terms(edges(standard, 2, 3, false), 'a abcd')).toEqual(['ab', 'abc']);
    expect(terms(edges(standard, 2, 3, true), 'a abcd abc')).toEqual(['a', 'ab', 'abc', 'abcd', 'ab', 'abc']);
  });

  it('counts code points, never splitting a surrogate pair', () => {
    expect(terms(edges(getAnalyzer('whitespace')!, 1, 2, true), '𝒳𝒴𝒵')).toEqual(['𝒳', '𝒳𝒴', '𝒳𝒴𝒵']);
  });

  it('on the shingles with trailing fillers, as search_as_you_type indexes `._index_prefix`', () => {
    const indexPrefix = edges(shingles(standard, 2, 1), 1, 20, true);
    expect(terms(indexPrefix, 'Wireless Earbuds')).toEqual([
      'w', 'wi', 'wir', 'wire', 'wirel', 'wirele', 'wireles', 'wireless', 'wireless ', 'wireless e',
      'wireless ea', 'wireless ear', 'wireless earb', 'wireless earbu', 'wireless earbud', 'wireless earbuds',
      'e', 'ea', 'ear', 'earb', 'earbu', 'earbud', 'earbuds', 'earbuds ',
    ]);
    // A shingle longer than 20 characters: 20 prefixes, then the whole shingle.
    const long = terms(indexPrefix, 'extraordinarily quick');
    expect(long.slice(17, 21)).toEqual(['extraordinarily qu', 'extraordinarily qui', 'extraordinarily quic', 'extraordinarily quick']);
  });
});
