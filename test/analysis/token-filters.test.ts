import { describe, it, expect } from 'vitest';
import { englishPossessiveFilter } from '../../src/analysis/english-possessive-filter.js';
import { lowercaseFilter } from '../../src/analysis/lowercase-filter.js';
import { ENGLISH_STOP_WORDS, englishStopFilter, stopFilter } from '../../src/analysis/stop-filter.js';

describe('lowercaseFilter (Lucene LowerCaseFilter)', () => {
  it('lowercases ASCII and other scripts', () => {
    expect(lowercaseFilter('HeLLo')).toBe('hello');
    expect(lowercaseFilter('ÀÉÎ')).toBe('àéî');
    expect(lowercaseFilter('ПРИВЕТ')).toBe('привет');
    expect(lowercaseFilter('Ｔｅｓｔｓ')).toBe('ｔｅｓｔｓ');
  });

  it('returns an already lowercase term unchanged', () => {
    const term = 'already lower';
    expect(lowercaseFilter(term)).toBe(term);
  });

  it('maps each code point alone like Java Character.toLowerCase: no final sigma, İ becomes i', () => {
    expect(lowercaseFilter('ΟΔΟΣ')).toBe('οδοσ');
    expect(lowercaseFilter('İSTANBUL')).toBe('istanbul');
  });

  it('lowercases supplementary letters', () => {
    expect(lowercaseFilter('\u{10400}')).toBe('\u{10428}'); // DESERET CAPITAL LONG I
  });
});

describe('englishPossessiveFilter (Lucene EnglishPossessiveFilter)', () => {
  it("strips a trailing 's with any of the three apostrophes, in either case", () => {
    expect(englishPossessiveFilter("dog's")).toBe('dog');
    expect(englishPossessiveFilter('dog\u2019s')).toBe('dog');
    expect(englishPossessiveFilter('dog\uff07s')).toBe('dog');
    expect(englishPossessiveFilter("DOG'S")).toBe('DOG');
  });

  it("leaves other apostrophes and plain plurals alone", () => {
    expect(englishPossessiveFilter("don't")).toBe("don't");
    expect(englishPossessiveFilter("dogs'")).toBe("dogs'");
    expect(englishPossessiveFilter('dogs')).toBe('dogs');
    expect(englishPossessiveFilter("O'Reilly's")).toBe("O'Reilly");
  });
});

describe('stop filter with the English stop words', () => {
  it('has exactly the 33 words of Lucene EnglishAnalyzer.ENGLISH_STOP_WORDS_SET', () => {
    expect([...ENGLISH_STOP_WORDS].sort()).toEqual(
      [
        'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no',
        'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this',
        'to', 'was', 'will', 'with',
      ].sort(),
    );
  });

  it('removes stop words and keeps everything else, case-sensitively', () => {
    expect(englishStopFilter('the')).toBeNull();
    expect(englishStopFilter('quick')).toBe('quick');
    expect(englishStopFilter('The')).toBe('The');
  });

  it('accepts a custom stop set', () => {
    const filter = stopFilter(new Set(['foo']));
    expect(filter('foo')).toBeNull();
    expect(filter('the')).toBe('the');
  });
});
