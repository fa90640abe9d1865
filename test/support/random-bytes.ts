/** Deterministic incompressible bytes (xorshift32) for codec tests: the same `seed` gives the same bytes. */
export function xorshiftBytes(n: number, seed = 0x9e3779b9): Uint8Array {
  let x = seed;
  return new Uint8Array(n).map(() => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
}
