import { describe, expect, it } from 'vitest';
import { parseQueryString, QueryStringSyntaxError } from '../../../src/dsl/query-string/index.js';

/** The thrown QueryStringSyntaxError (fails the test when nothing is thrown). */
function syntaxError(q: string): QueryStringSyntaxError {
  try {
    parseQueryString(q);
  } catch (e) {
    if (e instanceof QueryStringSyntaxError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(q)} to be rejected`);
}

const firstLine = (q: string): string => syntaxError(q).message.split('\n')[0];

// Clause starts as listed by Lucene 9's generated parser, in token-ordinal order.
const CLAUSE_START =
  '    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n    <PREFIXTERM> ...\n' +
  '    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    ';

describe('query_string syntax errors', () => {
  it('are QueryStringSyntaxErrors carrying the query and a 0-based position', () => {
    const e = syntaxError('foo AND');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('QueryStringSyntaxError');
    expect(e.query).toBe('foo AND');
    expect(e.position).toBe(7);
  });

  it('report a dangling operator as Lucene does, with the list of expected tokens', () => {
    expect(syntaxError('a AND').message).toBe(
      "Cannot parse 'a AND': Encountered \"<EOF>\" at line 1, column 5.\n" +
        'Was expecting one of:\n    <NOT> ...\n    "+" ...\n    "-" ...\n' +
        CLAUSE_START,
    );
    expect(firstLine('NOT')).toBe(`Cannot parse 'NOT': Encountered "<EOF>" at line 1, column 3.`);
  });

  it('report a field with nothing after it', () => {
    expect(syntaxError('foo:').message).toBe(
      "Cannot parse 'foo:': Encountered \"<EOF>\" at line 1, column 4.\nWas expecting one of:\n" + CLAUSE_START,
    );
  });

  it('match a message Elasticsearch returned for a modifier after a field', () => {
    // From a query_shard_exception's parse_exception cause (NRGI/resourcecontracts.org#1146).
    expect(syntaxError('Income+tax:+exemptions~4').message).toBe(
      "Cannot parse 'Income+tax:+exemptions~4': Encountered \" \"+\" \"+ \"\" at line 1, column 11.\nWas expecting one of:\n" +
        CLAUSE_START,
    );
  });

  it('report a leading operator with the operator token and column 0', () => {
    expect(firstLine('AND foo')).toBe(`Cannot parse 'AND foo': Encountered " <AND> "AND "" at line 1, column 0.`);
    expect(syntaxError('AND foo').position).toBe(0);
    expect(firstLine('|| foo')).toBe(`Cannot parse '|| foo': Encountered " <OR> "|| "" at line 1, column 0.`);
  });

  it('report an unclosed parenthesis at the end, expecting ")" among the rest', () => {
    const e = syntaxError('title:(foo OR bar');
    expect(e.message.split('\n')[0]).toBe(`Cannot parse 'title:(foo OR bar': Encountered "<EOF>" at line 1, column 17.`);
    expect(e.message).toContain('\n    ")" ...\n');
    expect(e.message).toContain('\n    "^" ...\n    <QUOTED> ...\n    <TERM> ...\n    <FUZZY_SLOP> ...\n');
    expect(e.position).toBe(17);
  });

  it('report an unmatched closing parenthesis, expecting <EOF> among the rest', () => {
    const e = syntaxError('foo bar))');
    expect(e.message.split('\n')[0]).toBe(`Cannot parse 'foo bar))': Encountered " ")" ") "" at line 1, column 7.`);
    expect(e.message).toContain('Was expecting one of:\n    <EOF> \n    <AND> ...\n');
    expect(e.position).toBe(7);
    expect(firstLine('secret AND illegal) AND access:confidential')).toBe(
      `Cannot parse 'secret AND illegal) AND access:confidential': Encountered " ")" ") "" at line 1, column 18.`,
    );
  });

  it('report other misplaced tokens the same way', () => {
    expect(firstLine('field:term:with:colon some more terms')).toContain(`Encountered " ":" ": "" at line 1, column 10.`);
    expect(firstLine('(sub query)^5.0^2.0 plus more')).toContain(`Encountered " "^" "^ "" at line 1, column 15.`);
    expect(firstLine('foo ()')).toContain(`Encountered " ")" ") "" at line 1, column 5.`);
    // An unescaped * makes `title.*` a PREFIXTERM, which cannot be a field name (ES docs escape it: book.\*).
    expect(firstLine('title.*:foo')).toContain(`Encountered " ":" ": "" at line 1, column 7.`);
  });

  it('report a range without TO with the single expected token', () => {
    expect(syntaxError('[a b]').message).toBe(
      "Cannot parse '[a b]': Encountered \" <RANGE_GOOP> \"b \"\" at line 1, column 3.\nWas expecting:\n    \"TO\" ...\n    ",
    );
    expect(firstLine('[a "b c"]')).toBe(`Cannot parse '[a "b c"]': Encountered " <RANGE_QUOTED> "\\"b c\\" "" at line 1, column 3.`);
    expect(firstLine('[a TO]')).toContain(`Encountered " "]" "] "" at line 1, column 5.`);
    expect(firstLine('[a TO b')).toContain(`Encountered "<EOF>" at line 1, column 7.`);
  });

  it('report an unterminated quote as a lexical error, in the JavaCC 7 wording of Lucene 9+', () => {
    // Lucene 8 and older said: Encountered: <EOF> after : "\"foo"
    const e = syntaxError('"foo');
    expect(e.message).toBe(`Cannot parse '"foo': Lexical error at line 1, column 5.  Encountered: <EOF> after prefix "\\"foo" (in lexical state 2)`);
    expect(e.position).toBe(4);
    expect(syntaxError('title:"foo bar').message).toBe(
      `Cannot parse 'title:"foo bar': Lexical error at line 1, column 15.  Encountered: <EOF> after prefix "\\"foo bar" (in lexical state 2)`,
    );
  });

  it('report an unterminated regular expression, e.g. an unescaped slash', () => {
    expect(syntaxError('CI/CD').message).toBe(
      `Cannot parse 'CI/CD': Lexical error at line 1, column 6.  Encountered: <EOF> after prefix "/CD" (in lexical state 2)`,
    );
  });

  it('report a stray ] or } outside a range as a lexical error', () => {
    expect(syntaxError('foo] bar').message).toBe(`Cannot parse 'foo] bar': Lexical error at line 1, column 4.  Encountered: ']' (93), (in lexical state 2)`);
    expect(syntaxError('foo] bar').position).toBe(3);
    // JavaCC peeks one char past the bad one; at the end of input it reports <EOF> instead.
    expect(syntaxError('foo}').message).toBe(`Cannot parse 'foo}': Lexical error at line 1, column 5.  Encountered: <EOF> (in lexical state 2)`);
  });

  it('report a trailing backslash as a lexical error', () => {
    expect(syntaxError('foo\\').message).toBe(`Cannot parse 'foo\\': Lexical error at line 1, column 5.  Encountered: <EOF> (in lexical state 2)`);
  });

  it('report a boost that is not a number, in the Boost lexical state that skips no whitespace', () => {
    expect(syntaxError('a^b c').message).toBe(`Cannot parse 'a^b c': Lexical error at line 1, column 3.  Encountered: 'b' (98),`);
    expect(syntaxError('a^ 2').message).toBe(`Cannot parse 'a^ 2': Lexical error at line 1, column 3.  Encountered: ' ' (32),`);
    expect(syntaxError('a^b').message).toBe(`Cannot parse 'a^b': Lexical error at line 1, column 4.  Encountered: <EOF>`);
    expect(firstLine('a^')).toBe(`Cannot parse 'a^': Encountered "<EOF>" at line 1, column 2.`);
    expect(syntaxError('a^').message).toContain('Was expecting:\n    <NUMBER> ...\n    ');
  });

  it('report bad escapes with the messages of QueryParserBase.discardEscapeChar', () => {
    expect(syntaxError('XY\\u005').message).toBe(`Cannot parse 'XY\\u005': Truncated unicode escape sequence.`);
    expect(syntaxError('XY\\u005G').message).toBe(`Cannot parse 'XY\\u005G': Non-hex character in Unicode escape sequence: G`);
    expect(syntaxError('[a\\ TO b]').message).toBe(`Cannot parse '[a\\ TO b]': Term can not end with escape character.`);
    expect(syntaxError('foo AND \\u12').position).toBe(8);
  });

  it('treat an ideographic space alone as not blank, so it fails like Lucene', () => {
    expect(firstLine('\u3000')).toBe(`Cannot parse '\u3000': Encountered "<EOF>" at line 1, column 1.`);
  });
});
