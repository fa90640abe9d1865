/**
 * The matcher VM (java.util.regex Matcher.find semantics without backtracking): checked against
 * JS RegExp, which is leftmost-first with the same group rules for the syntax both share, and on
 * Java-only syntax (class intersection, inline flags, `$` before a final newline) by hand.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JavaPattern, Splitter, javaRegexFlags } from '../../../src/common/pattern/index.js';

function matches(p: JavaPattern, text: string): number[][] {
  const out: number[][] = [];
  p.forEachMatch(text, (m) => {
    const g = [m.start, m.end];
    for (let i = 1; i <= p.groupCount; i++) g.push(JavaPattern.groupStart(m, i), JavaPattern.groupEnd(m, i));
    out.push(g);
  });
  return out;
}

function jsMatches(re: string, text: string, groups: number): number[][] {
  const r = new RegExp(re, 'gd');
  const out: number[][] = [];
  for (let m = r.exec(text); m !== null; m = r.exec(text)) {
    const g = [m.index, m.index + m[0].length];
    for (let i = 1; i <= groups; i++) g.push(m.indices![i]?.[0] ?? -1, m.indices![i]?.[1] ?? -1);
    out.push(g);
    if (m[0].length === 0) r.lastIndex++;
  }
  return out;
}

const PATTERNS = [
  'a|ab', '(a|ab)(c|bcd)(d*)', 'a*?b', '(a+)+', '\\W+', '(\\w+)@(\\w+)', 'x*', '(a*)*b', 'b(a|b)*?a', '\\bab', 'a$', '^a',
  '(?:ab|a)(b)?', 'a{2,3}?', '[^ab]+', '(a)|(b)', '(?<=a)b', '(?<!a)b+', 'a(?=b)', 'a(?!b)', '(\\d+)-(?=\\d)', '\\B.',
];

describe('the matcher VM', () => {
  it('finds the matches and groups JS RegExp finds (leftmost-first, greedy and lazy, lookaround)', () => {
    fc.assert(fc.property(
      fc.constantFrom(...PATTERNS),
      fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', ' ', '@', 'x', '1', '2', '-', 'A'), maxLength: 14 }),
      (re, text) => {
        const p = JavaPattern.compile(re);
        expect(matches(p, text), `${re} on ${text}`).toEqual(jsMatches(re, text, p.groupCount));
      },
    ), { numRuns: 2000 });
  });

  it('reads Java-only syntax as Java does', () => {
    expect(matches(JavaPattern.compile('[a-d&&[^bc]]+'), 'abcda')).toEqual([[0, 1], [3, 5]]);
    expect(matches(JavaPattern.compile('[\\p{L}&&[^\\p{Lu}]]+'), 'abCdé')).toEqual([[0, 2], [3, 5]]);
    expect(matches(JavaPattern.compile('(?i)ab'), 'AB aB')).toEqual([[0, 2], [3, 5]]);
    expect(matches(JavaPattern.compile('a(?i:b)c'), 'aBc abC')).toEqual([[0, 3]]);
    // CASE_INSENSITIVE alone folds ASCII only; UNICODE_CASE folds the rest.
    expect(matches(JavaPattern.compile('é', javaRegexFlags('CASE_INSENSITIVE')), 'É')).toEqual([]);
    expect(matches(JavaPattern.compile('é', javaRegexFlags('CASE_INSENSITIVE|UNICODE_CASE')), 'É')).toEqual([[0, 1]]);
    // `$` also matches before a final line terminator; with MULTILINE at every line end.
    expect(matches(JavaPattern.compile('a$'), 'a\na\n')).toEqual([[2, 3]]);
    expect(matches(JavaPattern.compile('^a$', javaRegexFlags('MULTILINE')), 'a\nb\na')).toEqual([[0, 1], [4, 5]]);
    expect(matches(JavaPattern.compile('.+', javaRegexFlags('DOTALL')), 'a\nb')).toEqual([[0, 3]]);
    expect(matches(JavaPattern.compile('a.b', javaRegexFlags('LITERAL')), 'axb a.b')).toEqual([[4, 7]]);
    expect(matches(JavaPattern.compile('\\p{Punct}+'), 'a!?b')).toEqual([[1, 3]]);
    expect(matches(JavaPattern.compile('\\p{IsGreek}+'), 'abΩμέγα')).toEqual([[2, 7]]);
    expect(matches(JavaPattern.compile('(?<y>\\d{4})'), 'in 2024').map((m) => m.slice(2))).toEqual([[3, 7]]);
  });

  it('parses ES flag strings, and refuses unknown flags with ES\'s message', () => {
    expect(javaRegexFlags('CASE_INSENSITIVE|COMMENTS')).toBe(2 | 4);
    expect(javaRegexFlags('')).toBe(0);
    expect(() => javaRegexFlags('CASE_INSENSITIVE|NOPE')).toThrow('Unknown regex flag [NOPE]');
  });

  it('replaces with Matcher.appendReplacement syntax and errors', () => {
    const p = JavaPattern.compile('(\\d+)-(?<tail>\\d+)');
    expect(p.replace('12-34 5-6', p.replacement('$2:$1 ${tail} \\$1'), true)).toBe('34:12 34 $1 6:5 6 $1');
    expect(p.replace('12-34 5-6', p.replacement('x'), false)).toBe('x 5-6');
    // `$12` reads as group 1 then '2' when there is no group 12.
    expect(p.replace('1-2', p.replacement('$12'), true)).toBe('12');
    expect(() => p.replacement('$3')).toThrow('No group 3');
    expect(() => p.replacement('${nope}')).toThrow('No group with name {nope}');
    expect(() => p.replacement('a\\')).toThrow('character to be escaped is missing');
    expect(() => p.replacement('$x')).toThrow('Illegal group reference');
  });

  it('refuses what is not regular, naming it', () => {
    expect(() => JavaPattern.compile('(a)\\1')).toThrow('back-reference');
    expect(() => JavaPattern.compile('(?>a)')).toThrow('atomic group');
    expect(() => JavaPattern.compile('a*+')).toThrow('possessive quantifier');
    expect(() => JavaPattern.compile('\\Ga')).toThrow("boundary '\\G'");
    expect(() => JavaPattern.compile('(?x)a b')).toThrow('COMMENTS flag');
    expect(() => JavaPattern.compile('(?=\\b)a')).toThrow('inside lookaround');
    expect(() => JavaPattern.compile('\\p{Nope}')).toThrow('Unknown character property name {Nope}');
    expect(() => JavaPattern.compile('a{2}{1000}{1000}')).toThrow('too large');
  });

  it('matches hostile patterns in linear time, and bounds patterns that would reread the text', () => {
    const start = performance.now();
    expect(matches(JavaPattern.compile('(a+)+b'), 'a'.repeat(100_000))).toEqual([]);
    expect(matches(JavaPattern.compile('(a|aa)*c'), `${'a'.repeat(50_000)}c`)).toEqual([[0, 50_001, 49_999, 50_000]]);
    expect(performance.now() - start).toBeLessThan(20_000);
    // Each `a` matches alone after the first branch rereads the rest looking for a `b`.
    expect(() => matches(JavaPattern.compile('a.*b|a'), 'a'.repeat(5_000))).toThrow('too costly to match over a text of length [5000]');
  });

  it('lets the split separator use class intersection', () => {
    expect(new Splitter('[,;&&[^;]]').split('a,b;c')).toEqual(['a', 'b;c']);
  });
});
