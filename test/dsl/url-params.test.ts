import { describe, expect, it } from 'vitest';
import { boolParam, intParam } from '../../src/dsl/url-params.js';

describe('url params', () => {
  it('reads strict booleans and ints with ES\'s texts', () => {
    expect(boolParam({ a: 'true' }, 'a', false)).toBe(true);
    expect(boolParam({ a: '' }, 'a', false)).toBe(true);
    expect(boolParam({}, 'a', false)).toBe(false);
    expect(() => boolParam({ a: 'yes' }, 'a', false)).toThrow('Failed to parse value [yes] only [true] or [false] are allowed.');
    expect(() => intParam({ n: 'x1' }, 'n', 0)).toThrow('Failed to parse int parameter [n] with value [x1]');
  });

  it('echoes only a short prefix of a long value', () => {
    const long = 'x'.repeat(10_000);
    for (const read of [() => boolParam({ a: long }, 'a', false), () => intParam({ a: long }, 'a', 0)]) {
      let message = '';
      try { read(); } catch (e) { message = (e as Error).message; }
      expect(message).toMatch(/x\.\.\.\]/);
      expect(message.length).toBeLessThan(400);
    }
  });
});
