/**
 * The regex components — `pattern` tokenizer and analyzer, `pattern_replace` char filter and token
 * filter — against the examples of ES's reference pages, token by token (offsets and positions follow
 * from the example texts).
 */
import { describe, expect, it } from 'vitest';
import { analyzeToTokens, buildIndexAnalysis, DEFAULT_INDEX_ANALYSIS, runStages } from '../../src/analysis/index.js';

const tokensOf = (settings: Record<string, unknown>, analyzer: string, text: string) =>
  analyzeToTokens(buildIndexAnalysis(settings).analyzer(analyzer)!, text).map((t) => [t.term, t.startOffset, t.endOffset, t.position]);
const termsOf = (settings: Record<string, unknown>, analyzer: string, text: string) =>
  analyzeToTokens(buildIndexAnalysis(settings).analyzer(analyzer)!, text).map((t) => t.term);

describe('pattern tokenizer', () => {
  it('splits on \\W+ by default (the page example)', () => {
    const c = DEFAULT_INDEX_ANALYSIS.components('pattern', [], []);
    const { streams } = runStages(c, 'The foo_bar_size\'s default is 5.', false);
    expect(streams[0].tokens.map((t) => [t.term, t.start, t.end, t.type])).toEqual([
      ['The', 0, 3, 'word'], ['foo_bar_size', 4, 16, 'word'], ['s', 17, 18, 'word'], ['default', 19, 26, 'word'], ['is', 27, 29, 'word'], ['5', 30, 31, 'word'],
    ]);
  });

  it('splits on a configured pattern', () => {
    const settings = { tokenizer: { t: { type: 'pattern', pattern: ',' } }, analyzer: { a: { tokenizer: 't' } } };
    expect(tokensOf(settings, 'a', 'comma,separated,values')).toEqual([['comma', 0, 5, 0], ['separated', 6, 15, 1], ['values', 16, 22, 2]]);
  });

  it('emits a group: the quoted-values example (leftmost-first alternation, as Java)', () => {
    const settings = { tokenizer: { t: { type: 'pattern', pattern: '"((?:\\\\"|[^"]|\\\\")+)"', group: 1 } }, analyzer: { a: { tokenizer: 't' } } };
    expect(tokensOf(settings, 'a', '"value", "value with embedded \\" quote"')).toEqual([
      ['value', 1, 6, 0], ['value with embedded \\" quote', 10, 38, 1],
    ]);
  });

  it('group 0 emits whole matches; empty matches and empty pieces make no token', () => {
    const settings = {
      tokenizer: { g0: { type: 'pattern', pattern: '\'([^\']+)\'', group: 0 }, split: { type: 'pattern', pattern: '-*' } },
      analyzer: { g0: { tokenizer: 'g0' }, split: { tokenizer: 'split' } },
    };
    expect(termsOf(settings, 'g0', 'a \'b\' c \'d e\'')).toEqual(['\'b\'', '\'d e\'']);
    expect(termsOf(settings, 'split', '--ab--c-')).toEqual(['a', 'b', 'c']);
  });

  it('takes ES flags', () => {
    const settings = { tokenizer: { t: { type: 'pattern', pattern: 'x', flags: 'CASE_INSENSITIVE' } }, analyzer: { a: { tokenizer: 't' } } };
    expect(termsOf(settings, 'a', 'aXbxc')).toEqual(['a', 'b', 'c']);
  });

  it('refuses bad patterns, groups and flags when the index is created', () => {
    expect(() => buildIndexAnalysis({ tokenizer: { t: { type: 'pattern', pattern: '(a' } } })).toThrow('Unclosed group near index 2');
    expect(() => buildIndexAnalysis({ tokenizer: { t: { type: 'pattern', pattern: '(a)', group: 2 } } })).toThrow('No group 2');
    expect(() => buildIndexAnalysis({ tokenizer: { t: { type: 'pattern', flags: 'NOPE' } } })).toThrow('Unknown regex flag [NOPE]');
    expect(() => buildIndexAnalysis({ tokenizer: { t: { type: 'pattern', pattern: '(\\w)\\1' } } })).toThrow('back-reference');
  });
});

describe('pattern analyzer', () => {
  it('the page example: \\W+, lowercased, no stop words', () => {
    expect(analyzeToTokens(DEFAULT_INDEX_ANALYSIS.analyzer('pattern')!, 'The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone.').map((t) => t.term))
      .toEqual(['the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone']);
  });

  it('the email example: \\W|_ lowercased', () => {
    const settings = { analyzer: { email: { type: 'pattern', pattern: '\\W|_', lowercase: true } } };
    expect(termsOf(settings, 'email', 'John_Smith@foo-bar.com')).toEqual(['john', 'smith', 'foo', 'bar', 'com']);
  });

  it('the camel-case example (lookaround, class intersection)', () => {
    const pattern = '([^\\p{L}\\d]+)|(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)|(?<=[\\p{L}&&[^\\p{Lu}]])(?=\\p{Lu})|(?<=\\p{Lu})(?=\\p{Lu}[\\p{L}&&[^\\p{Lu}]])';
    const settings = { analyzer: { camel: { type: 'pattern', pattern } } };
    expect(termsOf(settings, 'camel', 'MooseX::FTPClass2_beta')).toEqual(['moose', 'x', 'ftp', 'class', '2', 'beta']);
  });

  it('stopwords and lowercase: false', () => {
    const settings = { analyzer: { a: { type: 'pattern', stopwords: '_english_', lowercase: false } } };
    expect(tokensOf(settings, 'a', 'The cat and the Hat')).toEqual([['The', 0, 3, 0], ['cat', 4, 7, 1], ['Hat', 16, 19, 4]]);
  });
});

describe('pattern_replace', () => {
  it('char filter: the credit-card example keeps offsets in the original text', () => {
    const settings = {
      char_filter: { cf: { type: 'pattern_replace', pattern: '(\\d+)-(?=\\d)', replacement: '$1_' } },
      analyzer: { a: { tokenizer: 'standard', char_filter: ['cf'] } },
    };
    expect(tokensOf(settings, 'a', 'My credit card is 123-456-789')).toEqual([
      ['My', 0, 2, 0], ['credit', 3, 9, 1], ['card', 10, 14, 2], ['is', 15, 17, 3], ['123_456_789', 18, 29, 4],
    ]);
  });

  it('char filter: the camel-case split example, with Lucene\'s offset arithmetic for inserted text', () => {
    const settings = {
      char_filter: { cf: { type: 'pattern_replace', pattern: '(?<=\\p{Lower})(?=\\p{Upper})', replacement: ' ' } },
      analyzer: { a: { tokenizer: 'standard', char_filter: ['cf'], filter: ['lowercase'] } },
    };
    // Each inserted space maps to the char before it, so a token ending at one ends a char early:
    // the imprecise highlighting ES's page warns about for replacements that change the length.
    expect(tokensOf(settings, 'a', 'The fooBarBaz method')).toEqual([
      ['the', 0, 3, 0], ['foo', 4, 6, 1], ['bar', 7, 9, 2], ['baz', 10, 13, 3], ['method', 14, 20, 4],
    ]);
  });

  it('char filter: a shorter replacement maps the rest of the match to its end', () => {
    const settings = {
      char_filter: { cf: { type: 'pattern_replace', pattern: '<[^>]*>' } },
      analyzer: { a: { tokenizer: 'whitespace', char_filter: ['cf'] } },
    };
    expect(tokensOf(settings, 'a', 'a<b>bold</b> c')).toEqual([['abold', 0, 12, 0], ['c', 13, 14, 1]]);
  });

  it('token filter: the watchdogs example, `all`, and use in a normalizer', () => {
    const settings = {
      filter: { f: { type: 'pattern_replace', pattern: '(dog)', replacement: 'watch$1' }, first: { type: 'pattern_replace', pattern: 'o', replacement: '0', all: false } },
      analyzer: { a: { tokenizer: 'whitespace', filter: ['f'] }, b: { tokenizer: 'whitespace', filter: ['first'] } },
      normalizer: { n: { filter: ['first', 'lowercase'] } },
    };
    expect(termsOf(settings, 'a', 'foxes jump lazy dogs')).toEqual(['foxes', 'jump', 'lazy', 'watchdogs']);
    expect(termsOf(settings, 'b', 'foo boo')).toEqual(['f0o', 'b0o']);
    expect(buildIndexAnalysis(settings).normalizer('n')!.normalize('BOOK')).toBe('book');
  });

  it('requires a pattern, with ES\'s messages, and checks the replacement\'s groups', () => {
    expect(() => buildIndexAnalysis({ char_filter: { cf: { type: 'pattern_replace' } } })).toThrow("pattern is missing for [cf] char filter of type 'pattern_replace'");
    expect(() => buildIndexAnalysis({ filter: { f: { type: 'pattern_replace', pattern: '' } } })).toThrow("pattern is missing for [f] token filter of type 'pattern_replace'");
    expect(() => buildIndexAnalysis({ filter: { f: { type: 'pattern_replace', pattern: 'a', replacement: '$1' } } })).toThrow('No group 1');
  });
});
