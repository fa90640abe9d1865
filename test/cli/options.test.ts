/**
 * Option values the commands parse themselves: --headroom is a fraction or a percentage, and a bare
 * number above 1 (most likely meant as a percentage) is refused instead of asking for 3000%.
 */
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { headroom } from '../../src/cli/program.js';

describe('--headroom', () => {
  it('takes a fraction or a percentage', () => {
    expect(headroom('0.3')).toBe(0.3);
    expect(headroom('0')).toBe(0);
    expect(headroom('1')).toBe(1);
    expect(headroom('30%')).toBe(0.3);
    expect(headroom('150%')).toBe(1.5);
    expect(headroom('12.5%')).toBe(0.125);
  });

  it('refuses a bare number above 1 with what it would have meant, and anything not a number', () => {
    expect(() => headroom('30')).toThrow(new InvalidArgumentError('--headroom 30 would be 3000% headroom; give 30% headroom as 0.3 or 30% (above 100%: e.g. 150%)'));
    for (const bad of ['', 'abc', '-0.1', '30 %x']) {
      expect(() => headroom(bad)).toThrow(/^--headroom must be a fraction such as 0\.3 or a percentage such as 30%, got \[/);
    }
  });
});
