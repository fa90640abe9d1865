import { describe, expect, it } from 'vitest';
import { javaDouble } from '../../../src/search/aggs/key-format.js';
import { didYouMean } from '../../../src/common/did-you-mean.js';

describe('javaDouble', () => {
  it('prints numbers as Java Double.toString does, the form of ES range keys', () => {
    expect([10, 0, -0, 0.5, 12.25, -3, 9_999_999, 1e7, 123456789, 0.001, 0.0001, 1.5e-7, Infinity].map(javaDouble)).toEqual([
      '10.0', '0.0', '-0.0', '0.5', '12.25', '-3.0', '9999999.0', '1.0E7', '1.23456789E8', '0.001', '1.0E-4', '1.5E-7', 'Infinity',
    ]);
  });
});

describe('didYouMean', () => {
  it('suggests close names as ES does, best first', () => {
    expect(didYouMean('term', ['terms', 'range', 'min'])).toBe(' did you mean [terms]?');
    expect(didYouMean('mix', ['min', 'max', 'terms'])).toBe(' did you mean any of [max, min]?');
    expect(didYouMean('zzzz', ['terms'])).toBe('');
  });
});
