/** The segment's UTF-8 string tables (index/segment/bytes.ts encodeStrings): the same bytes as Buffer's encoder, whatever the strings. */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeStrings } from '../../src/index/segment/bytes.js';

function expected(strings: readonly string[]): { bytes: Buffer; offsets: number[] } {
  const parts = strings.map((s) => Buffer.from(s, 'utf8'));
  const offsets = [0];
  for (const p of parts) offsets.push(offsets[offsets.length - 1] + p.length);
  return { bytes: Buffer.concat(parts), offsets };
}

describe('encodeStrings', () => {
  it('writes short ASCII, long, non-ASCII, lone surrogates and empty strings as Buffer does', () => {
    const strings = ['', 'a', 'term', 'x'.repeat(64), 'y'.repeat(65), `ab${'z'.repeat(70)}é`, 'café', 'a😀b', '\ud800', 'z\udc00z', '\u007f', '\u0080', `{"text":"${'w '.repeat(200)}"}`];
    const table = encodeStrings(strings);
    const want = expected(strings);
    expect(Array.from(table.offsets)).toEqual(want.offsets);
    expect(Buffer.from(table.bytes.subarray(0, want.bytes.length)).equals(want.bytes)).toBe(true);
  });

  it('matches Buffer on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 70 }))), (strings) => {
        const table = encodeStrings(strings);
        const want = expected(strings);
        expect(Array.from(table.offsets)).toEqual(want.offsets);
        expect(Buffer.from(table.bytes.subarray(0, want.bytes.length)).equals(want.bytes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
