import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FUZZINESS, parseQueryString, QueryStringSyntaxError, type DefaultOperator, type QsNode } from '../../../src/dsl/query-string/index.js';
import { renderTop } from './render.js';

const show = (q: string, op: DefaultOperator = 'or'): string => renderTop(parseQueryString(q, op));

/** The single node of a one-clause query. */
function only(q: string): QsNode {
  const top = parseQueryString(q);
  expect(top.clauses).toHaveLength(1);
  return top.clauses[0].node;
}

describe('query_string syntax: shapes', () => {
  it('always returns a bool at the top level, even for a single term', () => {
    expect(parseQueryString('foo')).toEqual({
      kind: 'bool',
      boost: null,
      clauses: [{ occur: 'should', node: { kind: 'term', field: null, text: 'foo', fuzziness: null, multiTerm: false, boost: null } }],
    });
    expect(parseQueryString('foo', 'and').clauses[0].occur).toBe('must');
  });

  it('returns a bool without clauses for an empty or blank query', () => {
    for (const q of ['', '   ', '\t\n\r ']) expect(parseQueryString(q)).toEqual({ kind: 'bool', clauses: [], boost: null });
  });

  it('reads field:term, and a field on a group applies to every clause inside it', () => {
    expect(show('status:active')).toBe('status:active');
    expect(show('title:(quick OR brown) body:fox')).toBe('(title:quick title:brown) body:fox');
    expect(show('title:(quick OR body:brown)')).toBe('title:quick body:brown');
  });

  it('passes consecutive plain terms to the analyzer as one text, as Lucene does without splitOnWhitespace', () => {
    expect(only('new york city')).toEqual({ kind: 'term', field: null, text: 'new york city', fuzziness: null, multiTerm: true, boost: null });
    expect(show('title:(new york) city')).toBe('(title:«new york») city');
    expect(show('new york', 'and')).toBe('+«new york»');
  });

  it('stops a multi-term run before a term that carries a field, a boost, a fuzzy slop or an AND/OR', () => {
    expect(show('a b c:d')).toBe('«a b» c:d');
    expect(show('a b:c')).toBe('a b:c');
    expect(show('a b c^2')).toBe('«a b» c^2');
    expect(show('a b c~')).toBe(`«a b» c~${DEFAULT_FUZZINESS}`);
    expect(show('a b c AND d')).toBe('«a b» +c +d');
    expect(show('a b OR c')).toBe('a b c');
    expect(show('a -b c d')).toBe('a -b «c d»');
    expect(show('a b*')).toBe('a b*');
  });

  it('reads quoted phrases with slop and boost in either order', () => {
    expect(only('"john smith"')).toEqual({ kind: 'phrase', field: null, text: 'john smith', slop: null, boost: null });
    expect(only('author:"John Smith"~2^3')).toEqual({ kind: 'phrase', field: 'author', text: 'John Smith', slop: 2, boost: 3 });
    expect(show('"a b"^2~3')).toBe('"a b"~3^2');
  });

  it('truncates a phrase slop like Java (int) Float.parseFloat, and leaves an unparsable one to phrase_slop', () => {
    expect(show('"a b"~1.9')).toBe('"a b"~1');
    expect(show('"a b"~')).toBe('"a b"');
    expect(show('"a b"~abc')).toBe('"a b"');
  });

  it('reads fuzzy terms: a bare ~ defers to the query fuzziness, ~n keeps the text after the tilde', () => {
    expect(only('quikc~')).toEqual({ kind: 'term', field: null, text: 'quikc', fuzziness: DEFAULT_FUZZINESS, multiTerm: false, boost: null });
    expect(show('quikc~1 brwn~AUTO foks~0.5')).toBe('quikc~1 brwn~AUTO foks~0.5');
    expect(show('name:quikc~1^2')).toBe('name:quikc~1^2');
    expect(show('quikc^2~1')).toBe('quikc~1^2');
  });

  it('reads boosts on terms, phrases, groups and ranges', () => {
    expect(show('quick^2 fox')).toBe('quick^2 fox');
    expect(show('"john smith"^2 (foo bar)^4')).toBe('"john smith"^2 («foo bar»)^4');
    expect(show('title:quick^0.5')).toBe('title:quick^0.5');
    expect(show('[a TO b]^3')).toBe('[a TO b]^3');
  });

  it('collapses a group holding one unmodified clause into that clause, multiplying the boosts', () => {
    expect(only('(foo)')).toEqual({ kind: 'term', field: null, text: 'foo', fuzziness: null, multiTerm: false, boost: null });
    expect(show('(foo^2)^3 bar')).toBe('foo^6 bar');
    expect(show('((a OR b))^2 c')).toBe('(a b)^2 c');
    expect(show('(+foo) bar')).toBe('(+foo) bar');
  });

  it('returns a query that is one unmodified group as that group, as Lucene returns (a AND b) as +a +b', () => {
    expect(show('(a AND b)')).toBe('+a +b');
    expect(parseQueryString('(a OR b)^2')).toEqual({
      kind: 'bool',
      boost: 2,
      clauses: [
        { occur: 'should', node: { kind: 'term', field: null, text: 'a', fuzziness: null, multiTerm: false, boost: null } },
        { occur: 'should', node: { kind: 'term', field: null, text: 'b', fuzziness: null, multiTerm: false, boost: null } },
      ],
    });
    expect(parseQueryString('((a OR b))^2')).toEqual(parseQueryString('(a OR b)^2'));
    expect(show('-(a OR b)')).toBe('-(a b)');
  });

  it('reads prefix, wildcard and regexp terms', () => {
    expect(only('bro*')).toEqual({ kind: 'prefix', field: null, text: 'bro', boost: null });
    expect(only('qu?ck')).toEqual({ kind: 'wildcard', field: null, pattern: 'qu?ck', boost: null });
    expect(show('fo?b*r *foo foo*bar* ** ?')).toBe('fo?b*r *foo foo*bar* ** ?');
    expect(only('name:/joh?n(ath[oa]n)/')).toEqual({ kind: 'regexp', field: 'name', pattern: 'joh?n(ath[oa]n)', boost: null });
    expect(show('path:/a\\/b/^2')).toBe('path:/a\\/b/^2');
  });

  it('keeps escapes in wildcard patterns, where \\* is a literal star, and drops them in prefixes', () => {
    expect(only('fo\\*o?')).toEqual({ kind: 'wildcard', field: null, pattern: 'fo\\*o?', boost: null });
    expect(only('a\\-b*')).toEqual({ kind: 'prefix', field: null, text: 'a-b', boost: null });
    expect(only('foo\\*')).toMatchObject({ kind: 'term', text: 'foo*' });
    expect(only('foo\\**')).toMatchObject({ kind: 'prefix', text: 'foo*' });
  });

  it('reads inclusive, exclusive, mixed and open ranges', () => {
    expect(only('count:[1 TO 5]')).toEqual({ kind: 'range', field: 'count', lower: '1', upper: '5', includeLower: true, includeUpper: true, boost: null });
    expect(only('date:{* TO 2012-01-01}')).toEqual({ kind: 'range', field: 'date', lower: null, upper: '2012-01-01', includeLower: false, includeUpper: false, boost: null });
    expect(show('count:[10 TO *] x:[a TO b} y:{a TO b]')).toBe('count:[10 TO *] x:[a TO b} y:{a TO b]');
    expect(show('[* TO *]')).toBe('[* TO *]');
  });

  it('unquotes and unescapes range bounds, and treats any * bound as open as ES does', () => {
    expect(only('f:["a b" TO "c\\"d"]')).toMatchObject({ lower: 'a b', upper: 'c"d' });
    expect(only('f:[a\\- TO a\\+]')).toMatchObject({ lower: 'a-', upper: 'a+' });
    expect(only('f:["*" TO \\*]')).toMatchObject({ lower: null, upper: null });
    expect(only('f:[TO TO TO]')).toMatchObject({ lower: 'TO', upper: 'TO' });
  });

  it('reads the >, >=, < and <= shorthand after a field as one-sided ranges', () => {
    expect(only('age:>10')).toEqual({ kind: 'range', field: 'age', lower: '10', upper: null, includeLower: false, includeUpper: true, boost: null });
    expect(only('age:>=10')).toEqual({ kind: 'range', field: 'age', lower: '10', upper: null, includeLower: true, includeUpper: true, boost: null });
    expect(only('age:<10')).toEqual({ kind: 'range', field: 'age', lower: null, upper: '10', includeLower: true, includeUpper: false, boost: null });
    expect(only('date:<=2020-01-01')).toEqual({ kind: 'range', field: 'date', lower: null, upper: '2020-01-01', includeLower: true, includeUpper: true, boost: null });
    expect(show('age:(>=10 AND <20)')).toBe('+age:[10 TO *] +age:[* TO 20}');
    expect(show('age:>=10^2')).toBe('age:[10 TO *]^2');
  });

  it('keeps the shorthand quirks of ES QueryStringQueryParser.getFieldQuery', () => {
    expect(show('>10')).toBe('>10'); // no field: a plain term
    expect(show('age:>')).toBe('age:>'); // nothing after the operator
    expect(show('age:>=')).toBe('age:{= TO *]'); // ">=" is "> '='"
    expect(show('age:\\>10')).toBe('age:{10 TO *]'); // the check runs on the unescaped text
    expect(show('age:">10"')).toBe('age:">10"'); // not for phrases
    expect(show('age:>10~')).toBe(`age:>10~${DEFAULT_FUZZINESS}`); // not for fuzzy terms
    expect(show('age:(>10 <20)')).toBe('age:{10 <20 TO *]'); // a multi-term run is one text
  });

  it('reads _exists_, field:* and *:*', () => {
    expect(only('_exists_:title')).toEqual({ kind: 'exists', field: 'title', boost: null });
    expect(only('_exists_:"title"^2')).toEqual({ kind: 'exists', field: 'title', boost: 2 });
    expect(only('title:*')).toEqual({ kind: 'exists', field: 'title', boost: null });
    expect(only('*:*')).toEqual({ kind: 'match_all', boost: null });
    expect(show('NOT _exists_:title')).toBe('-_exists_:title');
  });

  it('reads a lone * as match_all', () => {
    expect(only('*')).toEqual({ kind: 'match_all', boost: null });
    expect(only('*^2')).toEqual({ kind: 'match_all', boost: 2 });
  });

  it('accepts field names with dots, an escaped * or space or colon, and * for all fields', () => {
    expect(show('book.title:quick')).toBe('book.title:quick');
    expect(show('book.\\*:(quick OR brown)')).toBe('book.*:quick book.*:brown');
    expect(show('first\\ name:Alice')).toBe('first name:Alice');
    expect(show('a\\:b:c')).toBe('a:b:c');
    expect(show('*:foo')).toBe('*:foo');
    expect(only('title.\\*:*')).toEqual({ kind: 'exists', field: 'title.*', boost: null });
  });

  it('reads + - or ! followed by whitespace as a term, not an operator (LUCENE-2566)', () => {
    expect(show('a - b')).toBe('a - b');
    expect(show('a + b')).toBe('a + b');
    expect(show('a ! b')).toBe('a ! b');
  });

  it('reads & and | inside words as ordinary term characters', () => {
    expect(show('a&b a&&b')).toBe('«a&b a&&b»');
    expect(show('ANDY ORE NOTE')).toBe('«ANDY ORE NOTE»');
    expect(show('.NET')).toBe('.NET');
  });

  it('treats tabs, newlines and the ideographic space as whitespace', () => {
    expect(show('term\u3000term')).toBe('«term term»');
    expect(show('weltbank \r\n +worlbank', 'and')).toBe('+weltbank +worlbank');
    expect(show('+weltbank\t+worlbank', 'and')).toBe('+weltbank +worlbank');
  });
});

describe('query_string syntax: operators follow Lucene QueryParserBase.addClause', () => {
  // Expected values derived from addClause and checked against Lucene's QueryParserTestBase.
  const withOr: Array<[string, string]> = [
    ['a AND b', '+a +b'],
    ['a OR b', 'a b'],
    ['a AND b OR c', '+a +b c'],
    ['a OR b AND c', 'a +b +c'],
    ['A AND B OR C AND D', '+A +B +C +D'],
    ['a AND b c', '+a +b c'],
    ['a AND NOT b', '+a -b'],
    ['a AND -b', '+a -b'],
    ['a AND !b', '+a -b'],
    ['a && b || c', '+a +b c'],
    ['a OR NOT b', 'a -b'],
    ['a OR -b', 'a -b'],
    ['NOT a AND b', '-a +b'],
    ['-a OR b', '-a b'],
    ['+a OR b', '+a b'],
    ['a NOT b', 'a -b'],
    ['!a', '-a'],
    ['+term -term term', '+term -term term'],
    ['c OR (a AND b)', 'c (+a +b)'],
    ['(foo OR bar) AND (baz OR boo)', '+(foo bar) +(baz boo)'],
    ['((a OR b) AND NOT c) OR d', '(+(a b) -c) d'],
    ['+title:(dog OR cat) -author:"bob dole"', '+(title:dog title:cat) -author:"bob dole"'],
    ['foo:term AND field:anotherTerm', '+foo:term +field:anotherTerm'],
  ];
  for (const [q, expected] of withOr) {
    it(`parses ${q} as ${expected} with default_operator OR`, () => {
      expect(show(q, 'or')).toBe(expected);
    });
  }

  const withAnd: Array<[string, string]> = [
    ['a AND b', '+a +b'],
    ['a OR b', 'a b'],
    ['a AND b OR c', '+a b c'],
    ['a OR b AND c', 'a +b +c'],
    ['a OR b c', 'a b +c'],
    ['-a OR b', '-a b'],
    ['+a OR b', 'a b'],
    ['a NOT b', '+a -b'],
    ['a -b c', '+a -b +c'],
    ['term +term term', '+term +term +term'],
    ['-term term term', '-term +«term term»'],
    ['(a OR b) c', '+(a b) +c'],
    ['NOT a', '-a'],
  ];
  for (const [q, expected] of withAnd) {
    it(`parses ${q} as ${expected} with default_operator AND`, () => {
      expect(show(q, 'and')).toBe(expected);
    });
  }

  it('gives the clauses of a group their own occurs and the group one occur in its parent', () => {
    expect(show('a AND (b OR c) d')).toBe('+a +(b c) d');
    expect(show('a AND (b OR c) d', 'and')).toBe('+a +(b c) +d');
  });
});

describe('query_string syntax: escapes', () => {
  it('unescapes every reserved character in terms', () => {
    const reserved = ['+', '-', '=', '&&', '||', '>', '<', '!', '(', ')', '{', '}', '[', ']', '^', '"', '~', '*', '?', ':', '\\', '/'];
    for (const r of reserved) {
      const escaped = [...r].map((c) => `\\${c}`).join('');
      expect(only(`a${escaped}b`), r).toEqual({ kind: 'term', field: null, text: `a${r}b`, fuzziness: null, multiTerm: false, boost: null });
    }
  });

  it('unescapes phrases and decodes \\uXXXX escapes', () => {
    expect(only('"a \\"b c\\" d"')).toMatchObject({ kind: 'phrase', text: 'a "b c" d' });
    expect(only('a\\u0062c')).toMatchObject({ kind: 'term', text: 'abc' });
    expect(only('"a \\\\\\u0028\\u0062\\" c"')).toMatchObject({ kind: 'phrase', text: 'a \\(b" c' });
    expect(show('c\\:\\\\temp\\\\\\~foo.txt')).toBe('c:\\temp\\~foo.txt');
  });

  it('reads an escaped space as part of the term', () => {
    expect(only('foo\\ bar')).toMatchObject({ kind: 'term', text: 'foo bar', multiTerm: false });
  });

  it('keeps escaped backslashes at the end of terms inside groups (LUCENE-800)', () => {
    expect(show('(item:\\\\ item:ABCD\\\\)')).toBe('item:\\ item:ABCD\\');
  });
});

describe('query_string syntax: robustness', () => {
  const alphabet = [...'ab AND OR NOT TO&|+-!():^[]"{}~*?\\/<>=_.\t\n\u3000', 'AND', 'OR', 'NOT', 'TO', '_exists_', '\\u0041'];

  it('either parses or throws a QueryStringSyntaxError for any mix of syntax characters', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }), fc.constantFrom<DefaultOperator>('and', 'or'), (parts, op) => {
        const q = parts.join('');
        try {
          expect(parseQueryString(q, op).kind).toBe('bool');
        } catch (e) {
          expect(e).toBeInstanceOf(QueryStringSyntaxError);
          const { position } = e as QueryStringSyntaxError;
          expect(position >= 0 && position <= q.length).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads any text escaped like Lucene QueryParser.escape back as one term with that text', () => {
    const escape = (s: string): string => s.replace(/[\\+\-!():^[\]"{}~*?|&/]/g, (c) => `\\${c}`);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab+-!():^[]"{}~*?|&/\\<>=.u0') }), (s) => {
        expect(only(`x${escape(s)}`)).toEqual({ kind: 'term', field: null, text: `x${s}`, fuzziness: null, multiTerm: false, boost: null });
      }),
    );
  });
});
