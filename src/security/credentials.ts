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

const ids = new TimeBasedIdGenerator();

export function newApiKeyCredentials(): ApiKeyCredentials {
  return { id: ids.next(), secret: base64UrlNoPad(randomBytes(16)) };
}
