/**
 * Stored API key secrets: salted scrypt hashes, verified in constant time, as ES stores API keys
 * (its default is PBKDF2; the issue asks for scrypt or similar). The cost is modest on purpose:
 * keys are 128 random bits, so no dictionary can guess them and a slow hash buys nothing but
 * latency; the hash exists so that a stolen data directory yields no usable key.
 *
 * Verification runs on libuv's thread pool, which the translog's fsyncs also use, so at most
 * `MAX_CONCURRENT` run at once and a bounded number wait; beyond that a flood of bad keys is
 * rejected (429) instead of starving writes.
 *
 * Format: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`, so the cost can change without a migration.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { sha256From, sha256Prefix } from './sha256.js';
import { RejectedExecutionError } from '../errors/index.js';

const N = 1024;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_CONCURRENT = 2;
const MAX_WAITING = 1000;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r * 2 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

let running = 0;
const waiting: Array<() => void> = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (waiting.length >= MAX_WAITING) {
      throw new RejectedExecutionError(`rejected execution of API key verification [queue capacity = ${MAX_WAITING}]`);
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await bounded(() => derive(secret, salt, N, R, P));
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `secret` matches `stored`. A malformed stored hash matches nothing. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  // scrypt keys HMAC-SHA256 with the secret, and HMAC pads a short key with zero bytes: `s` and
  // `s\0\0` would derive the same hash. No secret this server issues (or accepts at start-up)
  // holds a NUL, so one that does is wrong whatever its hash says.
  if (secret.includes('\0')) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  const actual = await bounded(() => derive(secret, salt, n, r, p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A fast digest for the verified-key cache (ES caches a fast hash of keys it has verified):
 * SHA-256(salt ‖ UTF-8 of the secret), 64 random bytes of salt per process, which keeps the cache's
 * contents useless outside this process. The salt is exactly one SHA-256 block, compressed once
 * here, so a request's digest is one compression of its secret (sha256.ts: in JS, into typed
 * arrays, nothing allocated — `crypto.hash` measured ~1 µs per request in the server, cold between
 * requests, plus its strings: docs/benchmarks/issue-19-request-hot-path.md, security-s36;
 * BENCHMARKS.md security-i19u).
 */
const CACHE_SALT = randomBytes(64);
const SALTED = sha256Prefix(CACHE_SALT);

/** A cache digest: eight 32-bit words. */
export type CacheDigest = Int32Array;

/** The cache digest of the secret in `bytes[start, end)` (its UTF-8 bytes), written to `out`. */
export function cacheDigestOf(bytes: Uint8Array, start: number, end: number, out: CacheDigest): void {
  sha256From(SALTED, CACHE_SALT.length, bytes, start, end, out);
}

/** The cache digest of `secret`, written to `out`. */
export function cacheDigest(secret: string, out: CacheDigest = new Int32Array(8)): CacheDigest {
  const bytes = Buffer.from(secret, 'utf8');
  cacheDigestOf(bytes, 0, bytes.length, out);
  return out;
}

/**
 * Whether two cache digests are equal, in time that does not depend on their contents (as
 * `timingSafeEqual` compares bytes): all eight words are compared, no early exit.
 */
export function digestsEqual(a: CacheDigest, b: CacheDigest): boolean {
  let diff = 0;
  for (let i = 0; i < 8; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
