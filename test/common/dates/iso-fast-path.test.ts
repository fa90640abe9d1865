import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkAdjacentValues } from '../../../src/common/dates/elements.js';
import { parseIsoFast } from '../../../src/common/dates/iso-fast-path.js';
import { NAMED_FORMATS } from '../../../src/common/dates/named-formats.js';
import { ParseState, parseElements } from '../../../src/common/dates/parser.js';
import { resolveFields } from '../../../src/common/dates/resolver.js';
import type { TimeZone } from '../../../src/common/dates/time-zone.js';
import { UTC, parseTimeZone } from '../../../src/common/dates/time-zone.js';

// The element parser for strict_date_optional_time is the reference the fast path must agree with.
const [reference] = (NAMED_FORMATS.get('strict_date_optional_time')?.parsers ?? []).map(linkAdjacentValues);
const state = new ParseState();
function slowParse(text: string, zone: TimeZone, roundUp: boolean): number {
  state.reset();
  return parseElements(reference, text, 0, state) === text.length ? resolveFields(state, zone, roundUp) : NaN;
}

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const isoLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two(13), two(32), two(24), two(60), two(60),
    fc.stringMatching(/^[0-9]{1,10}$/),
    fc.constantFrom('', 'Z', '+01:00', '-0530', '+01', '+18:00', '+19:00', '+01:00:30', '+0100:00', 'z', 'Europe/Paris'),
    fc.constantFrom('.', ',', ':'),
    fc.integer({ min: 1, max: 9 }),
  )
  .map(([y, mo, d, h, mi, s, frac, zone, sep, parts]) => {
    const pieces = [y, `-${mo}`, `-${d}`, 'T', h, `:${mi}`, `:${s}`, `${sep}${frac}`].slice(0, parts);
    return pieces.join('') + zone;
  });

describe('the ISO fast path', () => {
  it('agrees with the element parser whenever it accepts a text', () => {
    let accepted = 0;
    fc.assert(
      fc.property(isoLike, fc.boolean(), fc.constantFrom(UTC, parseTimeZone('+02:00'), parseTimeZone('Europe/Paris')), (text, roundUp, zone) => {
        const fast = parseIsoFast(text, zone, roundUp);
        if (fast !== fast) return;
        accepted++;
        expect(fast).toBe(slowParse(text, zone, roundUp));
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(1000); // the generator does reach valid dates
  });

  it('handles the common shapes itself', () => {
    for (const text of ['2024', '2024-03', '2024-03-15', '2024-03-15T10:30:45.123Z', '2024-03-15T10:30:45+01:00', '2024-03-15T10:30:45,1']) {
      expect(parseIsoFast(text, UTC, false), text).toBe(slowParse(text, UTC, false));
    }
  });

  it('leaves what it does not handle to the element parser', () => {
    for (const text of ['+12024-01-01', '-0001-01-01', '2024-03-15T10:30Europe/Paris', '2024-02-30', 'garbage', '']) {
      expect(parseIsoFast(text, UTC, false), text).toBeNaN();
    }
  });
});
