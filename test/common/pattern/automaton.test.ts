/**
 * The pattern engine (common/pattern): Lucene RegExp and wildcard syntax compiled to DFAs agree
 * with JavaScript's backtracking RegExp on random benign patterns, keep Lucene's literal
 * characters and operators, fail with Lucene's and ES's messages, and match hostile patterns in
 * linear time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REGEXP_FLAGS, Splitter, commonPrefix, compileLiteral, compileRegexp, compileWildcard, matches, matchesPrefix, parseRegexp, toDfa,
} from '../../../src/common/pattern/index.js';
import { TooComplexToDeterminizeError } from '../../../src/errors/index.js';
import { globMatcher } from '../../../src/common/wildcard.js';

const ALL = REGEXP_FLAGS.ALL;
const lucene = (regexp: string, s: string, flags: number = ALL) => matches(compileRegexp(regexp, { flags }), s);

/** Random patterns in the syntax both engines share (no JS-only or Lucene-only operators). */
const ALPHABET = ['a', 'b', 'c'];
const patternArb: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ALPHABET, '.', '[ab]', '[^a]', '[a-c]'),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a}|${b})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{2,}')).map(([a, q]) => `(${a})${q}`),
  ),
})).node;
const textArb = fc.stringMatching(/^[abcd]{0,12}$/);

describe('Lucene regexps as automata', () => {
  it('accept exactly what a JS RegExp of the same pattern accepts (random benign patterns)', () => {
    fc.assert(
      fc.property(patternArb, fc.array(textArb, { minLength: 1, maxLength: 20 }), (pattern, texts) => {
        const js = new RegExp(`^(?:${pattern})$`, 'su');
        const dfa = compileRegexp(pattern);
        for (const t of texts) expect(matches(dfa, t), `${pattern} on ${t}`).toBe(js.test(t));
      }),
      { numRuns: 300 },
    );
  });

  it('agree with JS on prefix matching (the completion suggester\'s regex)', () => {
    fc.assert(
      fc.property(patternArb, textArb, (pattern, t) => {
        expect(matchesPrefix(compileRegexp(pattern), t)).toBe(new RegExp(`^(?:${pattern})`, 'su').test(t));
        expect(matches(compileRegexp(pattern, { matchPrefix: true }), t)).toBe(new RegExp(`^(?:${pattern})`, 'su').test(t));
      }),
      { numRuns: 200 },
    );
  });

  it('keep the operators Lucene and JS share, and Lucene\'s `.` matches any character', () => {
    expect(lucene('ab*c', 'abbbc')).toBe(true);
    expect(lucene('a(b|cd)+', 'abcdb')).toBe(true);
    expect(lucene('a{2,3}', 'aaaa')).toBe(false);
    expect(lucene('x{2,}', 'xxxxx')).toBe(true);
    expect(lucene('[a-c]z', 'bz')).toBe(true);
    expect(lucene('[^a-c]z', 'bz')).toBe(false);
    expect(lucene('n.t', 'n\nt')).toBe(true);
    expect(lucene('\\d+\\s\\w', '12 x')).toBe(true);
    expect(lucene('[\\d]x', '7x')).toBe(true);
    expect(lucene('()a', 'a')).toBe(true);
    expect(lucene('caf.', 'café')).toBe(true);
    expect(lucene('.', '😀')).toBe(true); // one code point, not two UTF-16 units
  });

  it('keep characters other syntaxes read as operators literal', () => {
    expect(lucene('^a$', '^a$')).toBe(true);
    expect(lucene('a/b-c', 'a/b-c')).toBe(true);
    expect(lucene('"a.b*"', 'a.b*')).toBe(true);
    expect(lucene('[\\]a]', ']')).toBe(true);
    expect(lucene('\\.', '.')).toBe(true);
  });

  it('take the optional operators their flags turn on: @ # ~ & <n-m>', () => {
    expect(lucene('a@', 'anything')).toBe(true);
    expect(lucene('a#', 'a')).toBe(false);
    expect(lucene('a@', 'a@', REGEXP_FLAGS.NONE)).toBe(true);
    expect(lucene('~(ab)', 'ab')).toBe(false);
    expect(lucene('~(ab)', 'abc')).toBe(true);
    expect(lucene('a~b', 'ac')).toBe(true);
    expect(lucene('.*a.*&.*b.*', 'xaxbx')).toBe(true);
    expect(lucene('.*a.*&.*b.*', 'xax')).toBe(false);
    expect(lucene('a&b~c', 'a&b~c', REGEXP_FLAGS.NONE)).toBe(true);
    expect(lucene('<1-100>', '57')).toBe(true);
    expect(lucene('<1-100>', '101')).toBe(false);
    expect(lucene('<1-100>', '007')).toBe(true); // different widths: leading zeros allowed
    expect(lucene('<01-10>', '07')).toBe(true);
    expect(lucene('<01-10>', '7')).toBe(false); // same width: exactly that many digits
    expect(lucene('<10-1>', '5')).toBe(true);
    for (let n = 0; n <= 250; n++) expect(lucene('<17-213>', String(n))).toBe(n >= 17 && n <= 213);
  });

  it('match case-insensitively when asked (ES case_insensitive)', () => {
    expect(matches(compileRegexp('ab[c]', { caseInsensitive: true }), 'ABc')).toBe(true);
    expect(matches(compileLiteral('Straße', true), 'STRASSE')).toBe(false);
    expect(matches(compileLiteral('Hello', true), 'hELLO')).toBe(true);
  });

  it("fail on malformed input with Lucene's messages", () => {
    expect(() => parseRegexp('(ab')).toThrow("expected ')' at position 3");
    expect(() => parseRegexp('[ab')).toThrow("expected ']' at position 3");
    expect(() => parseRegexp('"ab')).toThrow('expected \'"\' at position 3');
    expect(() => parseRegexp('a\\')).toThrow('unexpected end-of-string');
    expect(() => parseRegexp('(')).toThrow('unexpected end-of-string');
    expect(() => parseRegexp('a{x}')).toThrow('integer expected at position 2');
    expect(() => parseRegexp('a{2')).toThrow("expected '}' at position 3");
    expect(() => parseRegexp('ab)')).toThrow('end-of-string expected at position 2');
    expect(() => parseRegexp('[z-a]')).toThrow('invalid range: from (122) cannot be > to (97)');
    expect(() => parseRegexp('<1-x>')).toThrow('interval syntax error at position 4');
    expect(() => parseRegexp('<name>')).toThrow("'name' not found");
  });

  it('refuse what would need more than max_determinized_states states, with Lucene\'s message', () => {
    const err = (() => {
      try {
        compileRegexp('.*a.{20}');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(TooComplexToDeterminizeError);
    expect((err as TooComplexToDeterminizeError).type).toBe('too_complex_to_determinize_exception');
    expect((err as Error).message).toMatch(/^Determinizing automaton with \d+ states and \d+ transitions would result in more than 10000 states\.$/);
    expect(() => compileRegexp('[ab]*a[ab]{4}', { maxDeterminizedStates: 10 })).toThrow('more than 10 states');
    expect(() => compileRegexp('[ab]*a[ab]{4}')).not.toThrow();
    // Repeats that would build a huge NFA are refused the same way, before they are built.
    expect(() => compileRegexp('((a{1000}){1000}){1000}')).toThrow(TooComplexToDeterminizeError);
  });

  it('run hostile patterns in time linear in the input', () => {
    const start = performance.now();
    expect(lucene('(a+)+b', 'a'.repeat(200_000))).toBe(false);
    expect(lucene('(a|aa)*c', 'a'.repeat(200_000))).toBe(false);
    expect(lucene('(.*a){12}', 'a'.repeat(200_000))).toBe(true);
    // Backtracking engines take seconds on 30 characters; generous bound for a loaded machine.
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it('find the literal prefix every match starts with', () => {
    expect(commonPrefix(compileRegexp('nir.*'))).toBe('nir');
    expect(commonPrefix(compileRegexp('nirv?'))).toBe('nir');
    expect(commonPrefix(compileRegexp('nir+'))).toBe('nir');
    expect(commonPrefix(compileRegexp('a|b'))).toBe('');
    expect(commonPrefix(compileRegexp('ab@'))).toBe('ab');
    expect(commonPrefix(compileWildcard('fo?o*'))).toBe('fo');
  });
});

describe('Lucene wildcards as automata', () => {
  it('agree with a JS translation on random patterns', () => {
    const wildcardArb = fc.stringMatching(/^[ab*?]{0,8}$/);
    fc.assert(
      fc.property(wildcardArb, fc.array(textArb, { maxLength: 20 }), (pattern, texts) => {
        const js = new RegExp(`^${[...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c)).join('')}$`, 'su');
        const dfa = compileWildcard(pattern);
        for (const t of texts) expect(matches(dfa, t), `${pattern} on ${t}`).toBe(js.test(t));
      }),
      { numRuns: 300 },
    );
  });

  it('treat `\\` as an escape and everything else as literal', () => {
    expect(matches(compileWildcard('a\\*b'), 'a*b')).toBe(true);
    expect(matches(compileWildcard('a\\*b'), 'axb')).toBe(false);
    expect(matches(compileWildcard('a.b[c]'), 'a.b[c]')).toBe(true);
    expect(matches(compileWildcard('ab\\'), 'ab\\')).toBe(true);
    expect(matches(compileWildcard('K?T*', { caseInsensitive: true }), 'kitten')).toBe(true);
  });
});

describe('`*` globs for names', () => {
  it('agree with a JS translation on random patterns', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,8}$/), fc.array(textArb, { maxLength: 20 }), (pattern, texts) => {
        const js = new RegExp(`^${pattern.split('*').join('.*')}$`, 's');
        for (const t of texts) expect(globMatcher(pattern).test(t), `${pattern} on ${t}`).toBe(js.test(t));
      }),
      { numRuns: 300 },
    );
  });

  it('match `*a*a*a*a*b` against a 100,000-character name at once', () => {
    const start = performance.now();
    expect(globMatcher('*a*a*a*a*b').test('a'.repeat(100_000))).toBe(false);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe('the split separator', () => {
  it('splits like Java String.split on benign separators', () => {
    const cases: Array<[string, string, string[]]> = [
      [',', 'a,b,,c', ['a', 'b', '', 'c']],
      ['\\s+', 'a  b\tc', ['a', 'b', 'c']],
      ['[,;]\\s*', 'a, b;c', ['a', 'b', 'c']],
      ['\\|', 'a|b', ['a', 'b']],
      ['-', '-a-b', ['', 'a', 'b']],
      ['x', 'abc', ['abc']],
      ['(?:ab)+', 'xababy', ['x', 'y']],
      ['\\Q.\\E', 'a.b', ['a', 'b']],
      ['\\u0041', 'bAc', ['b', 'c']],
    ];
    for (const [sep, text, parts] of cases) expect(new Splitter(sep).split(text), `${sep} on ${text}`).toEqual(parts);
  });

  it('agrees with JS split on random literal-ish separators', () => {
    fc.assert(
      fc.property(fc.constantFrom('a', 'b+', '[ab]', 'ab', 'c|d', 'a{2}'), textArb, (sep, t) => {
        expect(new Splitter(sep).split(t)).toEqual(t.split(new RegExp(sep)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses non-regular Java syntax clearly', () => {
    expect(() => new Splitter('(a)\\1')).toThrow('back-reference');
    expect(() => new Splitter('(?=a)')).toThrow('Lookaround');
    expect(() => new Splitter('^a')).toThrow("anchor '^'");
    expect(() => new Splitter('\\b')).toThrow('boundary');
    expect(() => new Splitter('(a')).toThrow('Unclosed group');
    expect(() => new Splitter('*a')).toThrow("Dangling meta character '*'");
  });

  it('splits a long value on a hostile separator in linear time', () => {
    const start = performance.now();
    expect(new Splitter('(a+)+b').split('a'.repeat(200_000))).toHaveLength(1);
    expect(new Splitter('(a|aa)*c').split(`${'a'.repeat(100_000)}c${'a'.repeat(10)}`)).toEqual(['', 'a'.repeat(10)]);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('toDfa', () => {
  it('marks match-all states so a `foo.*` walk can take whole runs of terms', () => {
    const dfa = toDfa(parseRegexp('foo.*'));
    let state = 0;
    for (const c of 'foo') state = dfa.trans[state * dfa.classCount + dfa.asciiClass[c.charCodeAt(0)]];
    expect(dfa.accept[state]).toBe(2);
  });
});
