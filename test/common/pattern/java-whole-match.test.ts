/**
 * `/regex/` CORS origins (ES http.cors.allow-origin): a Java regex matched against the whole
 * Origin, as an automaton. End anchors are no-ops under whole-string matching and accepted; an
 * anchor anywhere else is refused when the pattern is configured.
 */
import { describe, expect, it } from 'vitest';
import { compileJavaWholeMatch, matches, stripEndAnchors } from '../../../src/common/pattern/index.js';
import { createTestApp } from '../../support/test-app.js';

describe('java whole-match patterns', () => {
  it('drops a leading ^ and an unescaped trailing $ only', () => {
    expect(stripEndAnchors('^a$')).toBe('a');
    expect(stripEndAnchors('a\\$')).toBe('a\\$');
    expect(stripEndAnchors('a\\\\$')).toBe('a\\\\');
    expect(stripEndAnchors('^')).toBe('');
    expect(stripEndAnchors('$')).toBe('');
  });

  it('matches the whole string, with or without end anchors', () => {
    for (const p of ['https?:\\/\\/localhost(:[0-9]+)?', '^https?:\\/\\/localhost(:[0-9]+)?$', '^http:\\/\\/localhost:\\d+$']) {
      const dfa = compileJavaWholeMatch(p);
      expect(matches(dfa, 'http://localhost:3000'), p).toBe(true);
      expect(matches(dfa, 'http://localhost.evil.com'), p).toBe(false);
      expect(matches(dfa, 'xhttp://localhost:3000'), p).toBe(false);
    }
    expect(matches(compileJavaWholeMatch('price\\$'), 'price$')).toBe(true);
  });

  it('refuses anchors in the middle', () => {
    expect(() => compileJavaWholeMatch('a^b')).toThrow(/The anchor '\^'/);
    expect(() => compileJavaWholeMatch('^a$|^b$')).toThrow(/The anchor '\$'/);
  });

  it('a hostile Origin against a pattern that backtracks exponentially is answered in linear time', () => {
    const dfa = compileJavaWholeMatch('^(a|aa)*c$');
    const t0 = performance.now();
    expect(matches(dfa, 'a'.repeat(100_000))).toBe(false);
    // A backtracking engine takes seconds at 40 characters; the DFA is microseconds per character.
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('a server configured with a mid-pattern anchor refuses to start, naming the pattern', async () => {
    await expect(createTestApp({ config: { corsOrigins: ['/https:\\/\\/a^b/'] } })).rejects.toThrow(/^invalid CORS allowed origin pattern \[\/https:\\\/\\\/a\^b\/\]: The anchor '\^'/);
  });
});
