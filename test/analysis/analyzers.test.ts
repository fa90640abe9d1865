import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  BUILT_IN_ANALYZERS,
  analyzeToTokens,
  chainAnalyzer,
  englishPossessiveFilter,
  englishStopFilter,
  getAnalyzer,
  lowercaseFilter,
  porterStemFilter,
  standardTokenizer,
  type Analyzer,
} from '../../src/analysis/index.js';

function analyzer(name: string): Analyzer {
  const found = getAnalyzer(name);
  if (found === undefined) throw new Error(`no analyzer ${name}`);
  return found;
}
const terms = (name: string, text: string): string[] => analyzeToTokens(analyzer(name), text).map((t) => t.term);
const positions = (name: string, text: string): number[] =>
  analyzeToTokens(analyzer(name), text).map((t) => t.position);

// The sentence the Elasticsearch reference uses on each built-in analyzer's page.
const SENTENCE = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";

describe('the built-in analyzer registry', () => {
  it('lists the six built-in analyzers and finds each by name', () => {
    expect([...BUILT_IN_ANALYZERS].sort()).toEqual(['english', 'keyword', 'simple', 'standard', 'stop', 'whitespace']);
    for (const name of BUILT_IN_ANALYZERS) expect(getAnalyzer(name)?.name).toBe(name);
  });

  it('returns undefined for an unknown analyzer', () => {
    expect(getAnalyzer('klingon')).toBeUndefined();
  });
});

describe('built-in analyzers on the Elasticsearch reference sentence', () => {
  it('standard lowercases and keeps stop words (analysis-standard-analyzer)', () => {
    expect(terms('standard', SENTENCE)).toEqual([
      'the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone',
    ]);
  });

  it('simple splits on non-letters and lowercases (analysis-simple-analyzer)', () => {
    expect(terms('simple', SENTENCE)).toEqual([
      'the', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone',
    ]);
  });

  it('whitespace splits on whitespace only (analysis-whitespace-analyzer)', () => {
    expect(terms('whitespace', SENTENCE)).toEqual([
      'The', '2', 'QUICK', 'Brown-Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone.',
    ]);
  });

  it('stop removes English stop words and leaves position gaps (analysis-stop-analyzer)', () => {
    expect(terms('stop', SENTENCE)).toEqual(['quick', 'brown', 'foxes', 'jumped', 'over', 'lazy', 'dog', 's', 'bone']);
    expect(positions('stop', SENTENCE)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10]);
  });

  it('keyword keeps the whole input as one term (analysis-keyword-analyzer)', () => {
    expect(analyzeToTokens(analyzer('keyword'), SENTENCE)).toEqual([
      { term: SENTENCE, position: 0, startOffset: 0, endOffset: SENTENCE.length },
    ]);
  });

  it('english strips possessives, removes stop words and stems (analysis-lang-analyzer)', () => {
    expect(analyzeToTokens(analyzer('english'), SENTENCE)).toEqual([
      { term: '2', position: 1, startOffset: 4, endOffset: 5 },
      { term: 'quick', position: 2, startOffset: 6, endOffset: 11 },
      { term: 'brown', position: 3, startOffset: 12, endOffset: 17 },
      { term: 'fox', position: 4, startOffset: 18, endOffset: 23 },
      { term: 'jump', position: 5, startOffset: 24, endOffset: 30 },
      { term: 'over', position: 6, startOffset: 31, endOffset: 35 },
      { term: 'lazi', position: 8, startOffset: 40, endOffset: 44 },
      { term: 'dog', position: 9, startOffset: 45, endOffset: 50 },
      { term: 'bone', position: 10, startOffset: 51, endOffset: 55 },
    ]);
  });
});

describe('positions and the value analyze returns', () => {
  it('starts at firstPosition and returns one past the last position', () => {
    const seen: Array<[string, number]> = [];
    const next = analyzer('standard').analyze('quick brown', (term, position) => seen.push([term, position]), 10);
    expect(seen).toEqual([
      ['quick', 10],
      ['brown', 11],
    ]);
    expect(next).toBe(12);
  });

  it('counts removed leading stop words in the first position, as Lucene does', () => {
    expect(positions('english', 'the quick')).toEqual([1]);
  });

  it('counts removed trailing stop words in the returned position', () => {
    // Lucene: after "quick the" the field position is 0 + 1 (the removed "the"); one past it is 2.
    expect(analyzer('english').analyze('quick the', () => {})).toBe(2);
    expect(analyzer('english').analyze('quick', () => {})).toBe(1);
  });

  it('lets a caller lay out multi-valued fields with position_increment_gap like Lucene', () => {
    const gap = 100;
    const english = analyzer('english');
    const seen: Array<[string, number]> = [];
    let next = 0;
    for (const value of ['quick the', 'brown fox']) {
      next = english.analyze(value, (term, position) => seen.push([term, position]), next) + gap;
    }
    // Lucene: value 1 ends at position 1 (quick 0 + 1 removed), + gap 100, + increment 1 = 102.
    expect(seen).toEqual([
      ['quick', 0],
      ['brown', 102],
      ['fox', 103],
    ]);
  });

  it('returns firstPosition when there is no token at all, and advances past removed stop words', () => {
    expect(analyzer('standard').analyze('', () => {}, 7)).toBe(7);
    expect(analyzer('standard').analyze(' ... ', () => {}, 7)).toBe(7);
    // Lucene applies the removed words' increments in end(): the next value starts after them.
    expect(analyzer('english').analyze('the a of', () => {}, 7)).toBe(10);
  });

  it('emits an empty term for empty input with the keyword analyzer, as Lucene does', () => {
    expect(analyzeToTokens(analyzer('keyword'), '')).toEqual([{ term: '', position: 0, startOffset: 0, endOffset: 0 }]);
  });

  it('keeps the offsets of the original text when filters change the term', () => {
    const [token] = analyzeToTokens(analyzer('english'), "  Dog's");
    expect(token).toEqual({ term: 'dog', position: 0, startOffset: 2, endOffset: 7 });
  });

  it('allows a sink to analyse another text while it runs', () => {
    const inner: string[] = [];
    const outer = analyzeToTokens(analyzer('standard'), 'a b').map((t) => t.term);
    const seen: string[] = [];
    analyzer('standard').analyze('one two', (term) => {
      seen.push(term);
      analyzer('english').analyze('running dogs', (t) => inner.push(t));
    });
    expect(seen).toEqual(['one', 'two']);
    expect(inner).toEqual(['run', 'dog', 'run', 'dog']);
    expect(outer).toEqual(['a', 'b']);
  });
});

describe('analyzer invariants on random text', () => {
  const text = fc.string({
    unit: fc.constantFrom(...'aAbBeEsSyY01 .,\'’:-_the and of Σİ中ça\u0301👍\ud800'),
    maxLength: 40,
  });

  it('emits increasing positions and offsets that lie inside the text', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...BUILT_IN_ANALYZERS), (value, name) => {
        const tokens = analyzeToTokens(analyzer(name), value);
        for (let i = 0; i < tokens.length; i++) {
          const t = tokens[i];
          expect(t.startOffset).toBeGreaterThanOrEqual(0);
          expect(t.endOffset).toBeLessThanOrEqual(value.length);
          expect(t.startOffset).toBeLessThanOrEqual(t.endOffset);
          if (i > 0) {
            expect(t.position).toBeGreaterThan(tokens[i - 1].position);
            expect(t.startOffset).toBeGreaterThanOrEqual(tokens[i - 1].endOffset);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('puts each english token at the position and offsets of the standard token it comes from', () => {
    fc.assert(
      fc.property(text, (value) => {
        const standard = analyzeToTokens(analyzer('standard'), value);
        for (const t of analyzeToTokens(analyzer('english'), value)) {
          expect(standard[t.position]).toMatchObject({ startOffset: t.startOffset, endOffset: t.endOffset });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same english tokens with and without the term cache', () => {
    const uncached = chainAnalyzer('english-uncached', standardTokenizer, [
      englishPossessiveFilter,
      lowercaseFilter,
      englishStopFilter,
      porterStemFilter,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        expect(analyzeToTokens(analyzer('english'), value)).toEqual(analyzeToTokens(uncached, value));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same result on repeated runs (cached and fresh paths agree)', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(analyzeToTokens(analyzer('english'), value)).toEqual(analyzeToTokens(analyzer('english'), value));
      }),
      { numRuns: 500 },
    );
  });
});

describe('analyzeInterned (indexing by raw token)', () => {
  const text = fc.string({
    unit: fc.constantFrom(...'aAbBeEsSyY01 .,\'’:-_the and of Σİ中ça\u0301👍\ud800'),
    maxLength: 40,
  });

  /** A plain interner: raw token text → filtered term → id, as the segment builder's TokenHash does. */
  function interner() {
    const raw = new Map<string, number | null>();
    const terms: string[] = [];
    const filtered: string[] = [];
    return {
      terms,
      filtered,
      intern(t: string, start: number, end: number, filter: (term: string) => string | null): number | null {
        const key = t.slice(start, end);
        if (raw.has(key)) return raw.get(key)!;
        filtered.push(key);
        const term = filter(key);
        let id: number | null = null;
        if (term !== null) {
          id = terms.indexOf(term);
          if (id < 0) id = terms.push(term) - 1;
        }
        raw.set(key, id);
        return id;
      },
    };
  }

  it('emits the terms and positions analyze emits, and returns the same next position (every built-in analyzer)', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.constantFrom(...BUILT_IN_ANALYZERS), fc.nat(5), (values, name, first) => {
        const a = analyzer(name);
        const it = interner();
        for (const value of values) {
          const expected: Array<[string, number]> = [];
          const next = a.analyze(value, (term, position) => expected.push([term, position]), first);
          const got: Array<[string, number]> = [];
          const nextInterned = a.analyzeInterned!(value, it, (id, position) => got.push([it.terms[id], position]), first);
          expect(got).toEqual(expected);
          expect(nextInterned).toBe(next);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('runs the filters once per distinct raw token', () => {
    const it = interner();
    analyzer('english').analyzeInterned!("The dogs, the Dogs and THE dog's dogs", it, () => {});
    expect(it.filtered).toEqual(['The', 'dogs', 'the', 'Dogs', 'and', 'THE', "dog's"]);
  });
});
