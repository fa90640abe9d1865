/**
 * The `Authorization` header as ES's API-key realm reads it (`ApiKey <encoded>`), and new keys in
 * ES's formats: a 20-character time-based id and a 22-character secret from 128 random bits.
 */
import { randomBytes } from 'node:crypto';
import { base64UrlNoPad, TimeBasedIdGenerator } from '../common/ids.js';
import { decodeApiKey, type ApiKeyCredentials } from '../common/api-key-codec.js';

export { decodeApiKey, encodeApiKey, type ApiKeyCredentials } from '../common/api-key-codec.js';

export type ParsedAuthorization =
  | { readonly kind: 'api_key'; readonly credentials: ApiKeyCredentials }
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'unsupported'; readonly scheme: string };

export function parseAuthorization(header: string): ParsedAuthorization {
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'apikey') return { kind: 'unsupported', scheme };
  const credentials = decodeApiKey(header.slice(space + 1));
  return credentials ? { kind: 'api_key', credentials } : { kind: 'malformed', reason: 'invalid ApiKey value' };
}

/** Each standard-alphabet base64 character's value by char code (< 128); -1 for every other code. */
const BASE64_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUES['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
const EQUALS = 0x3d;
const PREFIX = 'ApiKey ';

/** A base64 character's value; -1 for anything else (`=` included). */
function base64Value(header: string, i: number): number {
  const c = header.charCodeAt(i);
  return c < 128 ? BASE64_VALUES[c] : -1;
}

/**
 * The header every client sends, `ApiKey <base64 of id:secret>` — exactly that scheme spelling, the
 * standard alphabet, padded, no whitespace, ASCII text — decoded into `into` without making a
 * string: the secret is only ever hashed (key-hasher.ts), so on a secured server's hot path it
 * never becomes one. Returns the decoded length, or -1 for any other header, which
 * parseAuthorization reads (and answers with its errors) as before. For every header accepted here
 * the bytes are exactly the text parseAuthorization decodes (base64 decoding as `atob`'s forgiving
 * reading, which ignores a final character's unused bits as Buffer does).
 */
export function decodeCanonicalApiKey(header: string, into: Uint8Array): number {
  const n = header.length;
  const length = n - PREFIX.length;
  if (length <= 0 || length % 4 !== 0 || (length / 4) * 3 > into.length || !header.startsWith(PREFIX)) return -1;
  const pad = header.charCodeAt(n - 1) !== EQUALS ? 0 : header.charCodeAt(n - 2) === EQUALS ? 2 : 1;
  const full = pad === 0 ? n : n - 4;
  // Any invalid character makes `bad` negative; any byte ≥ 0x80 sets its bit 7 (not ASCII: Buffer's UTF-8 reading applies).
  let bad = 0;
  let o = 0;
  for (let i = PREFIX.length; i < full; i += 4) {
    const a = base64Value(header, i);
    const b = base64Value(header, i + 1);
    const c = base64Value(header, i + 2);
    const d = base64Value(header, i + 3);
    bad |= a | b | c | d;
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    const x = (v >>> 16) & 0xff;
    const y = (v >>> 8) & 0xff;
    const z = v & 0xff;
    bad |= x | y | z;
    into[o] = x;
    into[o + 1] = y;
    into[o + 2] = z;
    o += 3;
  }
  if (pad !== 0) {
    const a = base64Value(header, full);
    const b = base64Value(header, full + 1);
    // One '=': the third character is data; two: it is the first '='.
    const c = pad === 1 ? base64Value(header, full + 2) : 0;
    bad |= a | b | c;
    const v = (a << 18) | (b << 12) | (c << 6);
    const x = (v >>> 16) & 0xff;
    bad |= x;
    into[o++] = x;
    if (pad === 1) {
      const y = (v >>> 8) & 0xff;
      bad |= y;
      into[o++] = y;
    }
  }
  if (bad >= 0 && (bad & 0x80) === 0) return o;
  // Declined: what was decoded (perhaps most of a secret) is not left behind in `into`.
  for (let i = 0; i < o; i++) into[i] = 0;
  return -1;
}

const ids = new TimeBasedIdGenerator();

export function newApiKeyCredentials(): ApiKeyCredentials {
  return { id: ids.next(), secret: base64UrlNoPad(randomBytes(16)) };
}
