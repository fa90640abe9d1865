import { describe, expect, it } from 'vitest';
import { Lexer, type TokenKind } from '../../../src/dsl/query-string/lexer.js';

/** `kind:image` for every token up to EOF. */
function lex(q: string): string[] {
  const lexer = new Lexer(q);
  const out: string[] = [];
  for (let t = lexer.next(); t.kind !== 'EOF'; t = lexer.next()) out.push(`${t.kind}:${t.image}`);
  return out;
}

const kinds = (q: string): TokenKind[] => lex(q).map((s) => s.slice(0, s.indexOf(':')) as TokenKind);

describe('query_string lexer (longest match, first-declared token wins ties)', () => {
  it('tells terms, prefixes and wildcards apart by their stars and question marks', () => {
    expect(lex('foo foo* foo*bar *foo * ** ? f?o')).toEqual([
      'TERM:foo', 'PREFIXTERM:foo*', 'WILDTERM:foo*bar', 'WILDTERM:*foo', 'STAR:*', 'WILDTERM:**', 'WILDTERM:?', 'WILDTERM:f?o',
    ]);
  });

  it('reads operator words only when they stand alone', () => {
    expect(kinds('AND ANDY && &&& OR ORE || NOT NOTE and')).toEqual(['AND', 'TERM', 'AND', 'TERM', 'OR', 'TERM', 'OR', 'NOT', 'TERM', 'TERM']);
    expect(kinds('AND*')).toEqual(['PREFIXTERM']);
  });

  it('reads + - ! as modifiers when attached and as BAREOPER before whitespace', () => {
    expect(lex('+a -b !c + - !\td')).toEqual(['PLUS:+', 'TERM:a', 'MINUS:-', 'TERM:b', 'NOT:!', 'TERM:c', 'BAREOPER:+ ', 'BAREOPER:- ', 'BAREOPER:!\t', 'TERM:d']);
    expect(lex('a-b+c')).toEqual(['TERM:a-b+c']);
  });

  it('keeps escape pairs inside terms, wildcards and fuzzy slops', () => {
    expect(lex('a\\:b \\*x fo\\*o? c~\\ 2')).toEqual(['TERM:a\\:b', 'TERM:\\*x', 'WILDTERM:fo\\*o?', 'TERM:c', 'FUZZY_SLOP:~\\ 2']);
  });

  it('reads quoted phrases, regexps with escaped slashes and fuzzy slops', () => {
    expect(lex('"a \\"b" /a\\/b/ x~ x~2 x~0.5')).toEqual([
      'QUOTED:"a \\"b"', 'REGEXPTERM:/a\\/b/', 'TERM:x', 'FUZZY_SLOP:~', 'TERM:x', 'FUZZY_SLOP:~2', 'TERM:x', 'FUZZY_SLOP:~0.5',
    ]);
  });

  it('switches to the Boost state after ^ and back after the number', () => {
    expect(lex('a^2.5b')).toEqual(['TERM:a', 'CARAT:^', 'NUMBER:2.5', 'TERM:b']);
    expect(lex('a^2.')).toEqual(['TERM:a', 'CARAT:^', 'NUMBER:2', 'TERM:.']);
  });

  it('switches to the Range state inside brackets, where almost anything is one bound', () => {
    expect(lex('[a:b TO "c d"} x')).toEqual(['RANGEIN_START:[', 'RANGE_GOOP:a:b', 'RANGE_TO:TO', 'RANGE_QUOTED:"c d"', 'RANGEEX_END:}', 'TERM:x']);
    expect(lex('{TO TO TOM]')).toEqual(['RANGEEX_START:{', 'RANGE_TO:TO', 'RANGE_TO:TO', 'RANGE_GOOP:TOM', 'RANGEIN_END:]']);
    expect(lex('["ab"c TO ""]')).toEqual(['RANGEIN_START:[', 'RANGE_GOOP:"ab"c', 'RANGE_TO:TO', 'RANGE_GOOP:""', 'RANGEIN_END:]']);
  });
});
