/**
 * SHA-256 (FIPS 180-4) over bytes, in JS, for the verified-key cache digest (key-hasher.ts) — the
 * same digest `crypto.hash('sha256', …)` computes, bit for bit (test/security/sha256.test.ts checks
 * it against node:crypto), not a weaker one.
 *
 * Why not node:crypto: the cache digest runs on every request of a secured server. In a loop
 * `crypto.hash` costs 0.3 µs, but in the server, between requests, it measured ~1 µs (OpenSSL's
 * code, its method lookup and tables are cold there) plus the strings in and out
 * (docs/benchmarks/issue-19-request-hot-path.md, security-s36; BENCHMARKS.md security-i19u). This
 * one runs on typed arrays the caller owns, allocates nothing, and starts from a precomputed state:
 * the digest's salt is exactly one block, compressed once per process, so a 22-byte secret costs
 * one compression.
 *
 * Every operation is on 32-bit words with no branch or index that depends on the data, like the
 * reference algorithm.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The initial hash value H(0). */
export const SHA256_IV: Readonly<Int32Array> = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The message schedule, reused by every compression (one thread, no re-entry); zeroed after each digest. */
const W = new Int32Array(64);
/** The last one or two blocks, padded; zeroed after each digest. */
const TAIL = new Uint8Array(128);

/** Compresses the 64-byte block of `bytes` at `offset` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const o = offset + 4 * i;
    W[i] = (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3];
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15];
    const w2 = W[i - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/**
 * The state after whole 64-byte blocks `bytes` (length a multiple of 64), from the IV: the starting
 * point for `sha256From` when every message begins with those blocks.
 */
export function sha256Prefix(bytes: Uint8Array): Int32Array {
  if (bytes.length % 64 !== 0) throw new Error('a SHA-256 prefix state needs whole 64-byte blocks');
  const state = new Int32Array(SHA256_IV);
  for (let o = 0; o < bytes.length; o += 64) compress(state, bytes, o);
  return state;
}

/**
 * SHA-256 of (the `prefixLength` bytes that produced `prefix`) ‖ `bytes[start, end)`, as eight
 * big-endian words written to `out`. Allocates nothing.
 */
export function sha256From(prefix: Readonly<Int32Array>, prefixLength: number, bytes: Uint8Array, start: number, end: number, out: Int32Array): void {
  out.set(prefix);
  let o = start;
  for (; o + 64 <= end; o += 64) compress(out, bytes, o);
  const rest = end - o;
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[o + i];
  TAIL[rest] = 0x80;
  const blocks = rest + 9 <= 64 ? 1 : 2;
  const last = blocks * 64;
  for (let i = rest + 1; i < last - 8; i++) TAIL[i] = 0;
  // The message length in bits, big-endian, in the last 8 bytes (lengths stay far below 2^53).
  const bits = (prefixLength + end - start) * 8;
  const high = Math.floor(bits / 0x100000000);
  TAIL[last - 8] = high >>> 24;
  TAIL[last - 7] = high >>> 16;
  TAIL[last - 6] = high >>> 8;
  TAIL[last - 5] = high;
  TAIL[last - 4] = bits >>> 24;
  TAIL[last - 3] = bits >>> 16;
  TAIL[last - 2] = bits >>> 8;
  TAIL[last - 1] = bits;
  compress(out, TAIL, 0);
  if (blocks === 2) compress(out, TAIL, 64);
  // The message (a secret) is not left behind in the scratch arrays. Loops, not fill(): a typed
  // array's fill() is a call into C++ (~500 instructions per digest under callgrind, security-i19u).
  for (let i = 0; i < last; i++) TAIL[i] = 0;
  for (let i = 0; i < 64; i++) W[i] = 0;
}
