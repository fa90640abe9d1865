import { describe, it, expect } from 'vitest';
import { isJavaWhitespace, letterTokenizer, whitespaceTokenizer } from '../../src/analysis/char-tokenizer.js';
import { keywordTokenizer } from '../../src/analysis/keyword-tokenizer.js';
import type { Tokenizer } from '../../src/analysis/token-stream.js';

function spans(tokenizer: Tokenizer, text: string): Array<[string, number, number]> {
  const out = new Int32Array(3);
  const result: Array<[string, number, number]> = [];
  let previousEnd = -1;
  while (tokenizer.next(text, previousEnd, out)) {
    result.push([text.slice(out[0], out[1]), out[0], out[1]]);
    previousEnd = out[1];
  }
  return result;
}

describe('letterTokenizer (Lucene LetterTokenizer)', () => {
  it('emits runs of letters with their offsets and drops digits and punctuation', () => {
    expect(spans(letterTokenizer, "I'm 2 fast-ish!")).toEqual([
      ['I', 0, 1],
      ['m', 2, 3],
      ['fast', 6, 10],
      ['ish', 11, 14],
    ]);
  });

  it('counts letters of every script, including supplementary ones, but not combining marks', () => {
    expect(spans(letterTokenizer, 'über 中文 𐌀𐌁').map((s) => s[0])).toEqual(['über', '中文', '𐌀𐌁']);
    expect(spans(letterTokenizer, 'mo\u0364chte').map((s) => s[0])).toEqual(['mo', 'chte']);
  });

  it('cuts a token when it reaches 255 chars, as CharTokenizer does', () => {
    expect(spans(letterTokenizer, 'a'.repeat(300)).map((s) => s[0].length)).toEqual([255, 45]);
    // The length check follows each whole code point, so a pair can end a 256-char token.
    expect(spans(letterTokenizer, 'a'.repeat(254) + '𐌀b').map((s) => s[0].length)).toEqual([256, 1]);
  });
});

describe('whitespaceTokenizer (Lucene WhitespaceTokenizer)', () => {
  it('splits on Java whitespace only and keeps case and punctuation', () => {
    expect(spans(whitespaceTokenizer, " The  QUICK\tbrown-fox's\njump. ")).toEqual([
      ['The', 1, 4],
      ['QUICK', 6, 11],
      ["brown-fox's", 12, 23],
      ['jump.', 24, 29],
    ]);
  });

  it('does not split on no-break spaces, which Java does not count as whitespace', () => {
    expect(spans(whitespaceTokenizer, 'a\u00a0b c\u2007d e\u202ff g\u3000h').map((s) => s[0])).toEqual([
      'a\u00a0b',
      'c\u2007d',
      'e\u202ff',
      'g',
      'h',
    ]);
    expect(isJavaWhitespace(0x1c)).toBe(true);
    expect(isJavaWhitespace(0x85)).toBe(false);
  });
});

describe('keywordTokenizer (Lucene KeywordTokenizer)', () => {
  it('emits the whole input as one token', () => {
    expect(spans(keywordTokenizer, ' New York ')).toEqual([[' New York ', 0, 10]]);
  });

  it('emits one empty token for empty input, as Lucene does', () => {
    expect(spans(keywordTokenizer, '')).toEqual([['', 0, 0]]);
  });
});
