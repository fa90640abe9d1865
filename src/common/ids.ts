/**
 * Identifiers in ES's formats: auto-generated document ids (20 base64url characters, time-based,
 * like ES's `TimeBasedUUIDGenerator`) and index/node UUIDs (22 base64url characters, random, like
 * `UUIDs.randomBase64UUID`).
 */

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function base64UrlNoPad(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64URL[n >>> 18] + B64URL[(n >>> 12) & 63] + B64URL[(n >>> 6) & 63] + B64URL[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64URL[n >>> 18] + B64URL[(n >>> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64URL[n >>> 18] + B64URL[(n >>> 12) & 63] + B64URL[(n >>> 6) & 63];
  }
  return out;
}

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** A random 22-character id, as ES uses for index and node UUIDs. */
export function randomBase64Uuid(): string {
  const b = randomBytes(16);
  // RFC 4122 version 4 bits, as Java's UUID.randomUUID() sets them.
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return base64UrlNoPad(b);
}

/**
 * Time-based 20-character document ids. Layout follows ES's TimeBasedUUIDGenerator in spirit:
 * 15 bytes = sequence (3 bytes) + timestamp (6 bytes) + node id (6 bytes), so ids are unique within
 * the process (sequence) and across processes (random node id), and roughly time-ordered.
 */
export class TimeBasedIdGenerator {
  private sequence = randomBytes(3).reduce((a, b) => (a << 8) | b, 0);
  private lastTimestamp = 0;
  private readonly node = randomBytes(6);

  next(now = Date.now()): string {
    const seq = (this.sequence = (this.sequence + 1) & 0xffffff);
    // Never go backwards in time, and when the sequence wraps within a millisecond, borrow the next.
    let ts = Math.max(now, this.lastTimestamp);
    if (seq === 0) ts++;
    this.lastTimestamp = ts;
    const b = new Uint8Array(15);
    b[0] = seq & 0xff;
    b[1] = (seq >>> 16) & 0xff;
    // Timestamp bytes (big-endian, 48 bits) interleaved as ES does to keep prefixes shared.
    let t = ts;
    for (let i = 6; i >= 1; i--) {
      b[1 + i] = t % 256;
      t = Math.floor(t / 256);
    }
    b[8] = (seq >>> 8) & 0xff;
    b.set(this.node, 9);
    return base64UrlNoPad(b);
  }
}
