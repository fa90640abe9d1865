import { describe, expect, it } from 'vitest';
import { wildcardsIntersect } from '../../src/common/wildcard-intersection.js';
import { wildcardMatch } from '../../src/common/wildcard.js';

describe('wildcardsIntersect', () => {
  it('finds a common string of two patterns when there is one', () => {
    expect(wildcardsIntersect('web-*', 'web-a*')).toBe(true);
    expect(wildcardsIntersect('web-*', '*-app')).toBe(true); // web-app
    expect(wildcardsIntersect('web-*', 'api-*')).toBe(false);
    expect(wildcardsIntersect('*', 'anything')).toBe(true);
    expect(wildcardsIntersect('a*b', 'a*c')).toBe(false);
    expect(wildcardsIntersect('*a', '*b')).toBe(false);
    expect(wildcardsIntersect('a*', '*b')).toBe(true);
    expect(wildcardsIntersect('', '*')).toBe(true);
    expect(wildcardsIntersect('', 'a')).toBe(false);
  });

  it('is a wildcard match when one side has no star, agreeing with the RegExp matcher on random cases', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 2000; i++) {
      const pattern = Array.from({ length: rnd(6) }, () => 'ab*'[rnd(3)]).join('');
      const value = Array.from({ length: rnd(6) }, () => 'ab'[rnd(2)]).join('');
      expect(wildcardsIntersect(pattern, value), `${pattern} ~ ${value}`).toBe(wildcardMatch(pattern, value));
    }
  });

  it('takes linear-ish time on patterns that make a backtracking matcher explode', () => {
    const p = '*a'.repeat(200) + 'b';
    expect(wildcardsIntersect(p, 'a'.repeat(255))).toBe(false);
  });
});
