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
import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
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
 * SHA-256 of a per-process random salt followed by the secret's UTF-8 bytes, which keeps the cache's
 * contents useless outside this process. The salt and the secret sit in one scratch buffer, so a
 * request's digest is one `crypto.hash` of a view, with no string built from the secret and no
 * `Hash` object (docs/benchmarks/issue-19-request-hot-path.md, security-i19t and security-i19u).
 */
const SALT_LENGTH = 16;
/** Room for secrets up to this many bytes in the scratch buffer; longer ones get a buffer of their own. */
const SCRATCH_SECRET_BYTES = 256;
const SALTED = Buffer.alloc(SALT_LENGTH + SCRATCH_SECRET_BYTES);
randomBytes(SALT_LENGTH).copy(SALTED);
/** Every view of the scratch a digest can take: no Buffer is created per request. */
const VIEWS: Buffer[] = [];
for (let n = 0; n <= SCRATCH_SECRET_BYTES; n++) VIEWS.push(SALTED.subarray(0, SALT_LENGTH + n));

/**
 * A cache digest: SHA-256's 32 bytes as a 32-character latin1 string (one character per byte; node's
 * types call that encoding 'binary'): no base64 encoding, and 32 characters for codesMatch to
 * compare instead of base64's 44.
 */
export type CacheDigest = string;

/** The cache digest of the secret in `bytes[start, end)` (its UTF-8 bytes). */
export function cacheDigestOf(bytes: Uint8Array, start: number, end: number): CacheDigest {
  const length = end - start;
  if (length > SCRATCH_SECRET_BYTES) return hash('sha256', Buffer.concat([SALTED.subarray(0, SALT_LENGTH), bytes.subarray(start, end)]), 'binary');
  for (let i = 0; i < length; i++) SALTED[SALT_LENGTH + i] = bytes[start + i];
  const digest = hash('sha256', VIEWS[length], 'binary');
  // The secret is not left behind in the scratch buffer.
  for (let i = 0; i < length; i++) SALTED[SALT_LENGTH + i] = 0;
  return digest;
}

/** The cache digest of `secret`. */
export function cacheDigest(secret: string): CacheDigest {
  const bytes = Buffer.from(secret, 'utf8');
  return cacheDigestOf(bytes, 0, bytes.length);
}

/**
 * `text`'s UTF-16 code units, kept for codesMatch: a verified secret's cache digest (one code unit per
 * digest byte) and the header a connection authenticated with.
 */
export function charCodes(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
}

/**
 * Whether `text` is the string whose code units `codes` holds (charCodes), in time that depends on the
 * lengths only, as `timingSafeEqual` compares bytes: a different length is a miss at once (lengths are
 * not secret: a cache digest has 32 characters, and every key this server issues encodes to the same
 * length), an equal length compares every character with no early exit. Two callers: the verified
 * digest against a request's (security-i19s2), and the per-connection memo's header against a
 * request's `Authorization` header (behind a reverse proxy that pools its upstream connections one
 * socket carries several users' requests, and an early exit would tell a caller how long a prefix of
 * another user's header it had guessed). Only `text` is read with `charCodeAt`, the dear part of the
 * loop (~20 instructions a call in TurboFan's code); the kept side is read from its codes, which
 * halves the calls.
 */
export function codesMatch(codes: Uint16Array, text: string): boolean {
  if (text.length !== codes.length) return false;
  let diff = 0;
  for (let i = 0; i < codes.length; i++) diff |= codes[i] ^ text.charCodeAt(i);
  return diff === 0;
}
