import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { float32ToJson, writeFloat32Json } from '../../src/common/float-json.js';

/** The fewest significant digits any decimal that reads back as the float32 `x` needs. */
function fewestDigits(x: number): number {
  for (let p = 1; p <= 9; p++) if (Math.fround(Number(x.toPrecision(p))) === x) return p;
  return 9;
}

function significantDigits(s: string): number {
  const mantissa = s.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.max(1, mantissa.length);
}

describe('float32ToJson', () => {
  it('prints the shortest decimal that reads back as the float32, for any finite float32', () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const s = float32ToJson(x);
        if (x === 0) {
          expect(s).toBe('0');
        } else {
          // Reads back exactly, with no more digits than needed (at a tie either neighbour will do).
          expect(Math.fround(Number(s))).toBe(x);
          expect(significantDigits(s)).toBe(fewestDigits(x));
        }
      }),
      { numRuns: 20_000, seed: 42 },
    );
  });

  it('prints as JS prints the same number (plain notation from 1e-6 to below 1e21, exponent form outside)', () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const s = float32ToJson(x);
        expect(s).toBe(String(Number(s)));
      }),
      { numRuns: 20_000, seed: 7 },
    );
    // The digits are written from an integer: the point's place, leading zeros and trailing zeros
    // of a rounding up (9.9999999 → 10) at the edges of plain notation.
    const cases: Array<[number, string]> = [
      [1e-6, '0.000001'], [1e-7, '1e-7'], [-0.00123, '-0.00123'], [0.1, '0.1'], [9.9999999, '10'], [99999.99, '99999.99'], [99999.999, '100000'],
      [123456789, '123456790'], [1e20, '100000000000000000000'], [1e21, '1e+21'], [-2.5, '-2.5'], [1000, '1000'], [0.001, '0.001'],
    ];
    for (const [x, expected] of cases) expect(float32ToJson(Math.fround(x))).toBe(expected);
  });

  it('prints model weights and scores as ES does', () => {
    expect(float32ToJson(Math.fround(3.8033624))).toBe('3.8033624');
    expect(float32ToJson(Math.fround(0.1))).toBe('0.1');
    expect(float32ToJson(Math.fround(1.3862943611198906))).toBe('1.3862944');
    expect(float32ToJson(1)).toBe('1');
    expect(float32ToJson(Math.fround(1e-30))).toBe('1e-30');
    expect(float32ToJson(Infinity)).toBe('null');
  });
});

describe('writeFloat32Json', () => {
  const written = (x: number): string => {
    const out = new Uint8Array(40).fill(0x7e);
    const end = writeFloat32Json(x, out, 3);
    // Only [3, end) is written.
    expect(out[2]).toBe(0x7e);
    expect(out[end]).toBe(0x7e);
    return Buffer.from(out.subarray(3, end)).toString('latin1');
  };

  it('writes the bytes of float32ToJson for any float32', () => {
    fc.assert(
      fc.property(fc.float(), (x) => {
        expect(written(x)).toBe(float32ToJson(x));
      }),
      { numRuns: 20_000, seed: 11 },
    );
  });

  it('writes the edges of plain notation, roundings up and special values as float32ToJson does', () => {
    const xs = [
      0, -0, 1, -1, 10, 100, 1000, 0.5, 0.001, 1e-6, 1e-7, 9.9999999, 99999.999, 123456789, 1e20, 1e21, 1e-30, 3.4e38, -2.5, 0.1, -0.00123,
      1.4e-45, NaN, Infinity, -Infinity, 1.3862943611198906, 3.8033624, 12.5, 0.000123,
    ];
    for (const x of xs) expect(written(Math.fround(x))).toBe(float32ToJson(Math.fround(x)));
    for (let k = -45; k <= 38; k++) {
      const p = Math.fround(10 ** k);
      for (const x of [p, Math.fround(p * (1 + 2 ** -23)), Math.fround(p * (1 - 2 ** -24))]) expect(written(x)).toBe(float32ToJson(x));
    }
  });
});
