/**
 * The encoded form of an API key that clients send after `ApiKey ` (ES ApiKeyCredentials):
 * base64 of `id:api_key`. Here, not in security/, because configuration validates the bootstrap
 * key from flags and environment too.
 */
export interface ApiKeyCredentials {
  readonly id: string;
  readonly secret: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const URL_SAFE = /[-_]/;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * `value` (base64 or base64url, already checked against BASE64) decoded and read as UTF-8, exactly
 * as `Buffer.from(value, 'base64').toString('utf8')` reads it. Every request with security on
 * decodes its key: the common case — the standard alphabet, padded as `atob` requires, ASCII
 * text (every key this server issues) — goes through `atob`, which makes no Buffer (70 ns instead
 * of 200); anything else (base64url, lenient padding, non-ASCII bytes) through Buffer.
 */
function decodeBase64Text(value: string): string {
  if (!URL_SAFE.test(value)) {
    let latin1: string | null = null;
    try {
      latin1 = atob(value);
    } catch {
      // padding atob refuses but Buffer reads: Buffer below
    }
    // Bytes below 0x80 read the same as latin1 and as UTF-8.
    if (latin1 !== null && ASCII.test(latin1)) return latin1;
  }
  return Buffer.from(value, 'base64').toString('utf8');
}

/** Decodes an `encoded` API key value; null when it is not base64 of `id:secret`. */
export function decodeApiKey(encoded: string): ApiKeyCredentials | null {
  const value = encoded.trim();
  if (!BASE64.test(value)) return null;
  const text = decodeBase64Text(value);
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export function encodeApiKey(c: ApiKeyCredentials): string {
  return Buffer.from(`${c.id}:${c.secret}`, 'utf8').toString('base64');
}
