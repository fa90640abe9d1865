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

/** Decodes an `encoded` API key value; null when it is not base64 of `id:secret`. */
export function decodeApiKey(encoded: string): ApiKeyCredentials | null {
  const value = encoded.trim();
  if (!BASE64.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export function encodeApiKey(c: ApiKeyCredentials): string {
  return Buffer.from(`${c.id}:${c.secret}`, 'utf8').toString('base64');
}
