/**
 * Lucene RegExp syntax translated to JS (lucene-regexp.ts): the same strings match, Lucene's
 * literal characters stay literal, and what has no JS equivalent fails clearly.
 */
import { describe, expect, it } from 'vitest';
import { REGEXP_FLAGS } from '../../../src/dsl/index.js';
import { literalPrefix, luceneRegexpToJs } from '../../../src/search/suggest/lucene-regexp.js';

const ALL = REGEXP_FLAGS.ALL;
const matches = (regexp: string, s: string, flags = ALL) => new RegExp(`^(?:${luceneRegexpToJs(regexp, flags)})$`, 'u').test(s);

describe('Lucene regexps in JS', () => {
  it('keep the operators both have', () => {
    expect(matches('ab*c', 'abbbc')).toBe(true);
    expect(matches('a(b|cd)+', 'abcdb')).toBe(true);
    expect(matches('a{2,3}', 'aaaa')).toBe(false);
    expect(matches('x{2,}', 'xxxxx')).toBe(true);
    expect(matches('[a-c]z', 'bz')).toBe(true);
    expect(matches('[^a-c]z', 'bz')).toBe(false);
    expect(matches('n.t', 'n\nt')).toBe(true); // Lucene's `.` is any character
    expect(matches('\\d+\\s\\w', '12 x')).toBe(true);
    expect(matches('()a', 'a')).toBe(true);
  });

  it('keep characters JS would read as operators literal', () => {
    expect(matches('^a$', '^a$')).toBe(true);
    expect(matches('a/b-c', 'a/b-c')).toBe(true);
    expect(matches('"a.b*"', 'a.b*')).toBe(true);
    expect(matches('[\\]a]', ']')).toBe(true);
    expect(matches('\\.', '.')).toBe(true);
  });

  it('take the optional operators their flags turn on', () => {
    expect(matches('a@', 'anything')).toBe(true);
    expect(matches('a#', 'a')).toBe(false);
    expect(matches('a@', 'a@', REGEXP_FLAGS.NONE)).toBe(true);
    expect(() => luceneRegexpToJs('a&b', ALL)).toThrow('regex intersection [&] is not supported by this server yet');
    expect(() => luceneRegexpToJs('~a', ALL)).toThrow('regex complement [~] is not supported by this server yet');
    expect(() => luceneRegexpToJs('<1-5>', ALL)).toThrow(/interval/);
    expect(matches('a&b~c', 'a&b~c', REGEXP_FLAGS.NONE)).toBe(true);
  });

  it('fail on malformed input with Lucene\'s messages', () => {
    expect(() => luceneRegexpToJs('(ab', ALL)).toThrow("expected ')' at position 3");
    expect(() => luceneRegexpToJs('[ab', ALL)).toThrow("expected ']' at position 3");
    expect(() => luceneRegexpToJs('a\\', ALL)).toThrow('unexpected end-of-string');
    expect(() => luceneRegexpToJs('a{x}', ALL)).toThrow('integer expected at position 2');
    expect(() => luceneRegexpToJs('ab)', ALL)).toThrow('end-of-string expected at position 2');
  });

  it('find the literal prefix every match starts with', () => {
    expect(literalPrefix('nir.*', ALL)).toBe('nir');
    expect(literalPrefix('nirv?', ALL)).toBe('nir');
    expect(literalPrefix('nir+', ALL)).toBe('nir');
    expect(literalPrefix('a|b', ALL)).toBe('');
    expect(literalPrefix('ab@', ALL)).toBe('ab');
  });
});
