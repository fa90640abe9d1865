/**
 * Request and response media types (es-api.md §0, §8): JSON, NDJSON and ES's vendor types with
 * `compatible-with=7|8|9` are accepted; the response echoes the vendor type the client used.
 * Other content types are refused with 406, as ES does.
 */
import { MediaTypeHeaderError, EsError, RestStatusError } from '../errors/index.js';

export interface MediaType {
  /** The response Content-Type to use. */
  readonly responseType: string;
}

const VENDOR = /^application\/vnd\.elasticsearch\+(json|x-ndjson)\s*(?:;\s*compatible-with\s*=\s*(\d+))?/i;
const SUPPORTED_VERSIONS = new Set(['7', '8', '9']);

function compatibleWith(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const m = VENDOR.exec(part.trim());
    if (m && m[2]) return m[2];
  }
  return null;
}

/** Validates Content-Type / Accept; returns the response media type. */
export function negotiate(contentType: string | undefined, accept: string | undefined): MediaType {
  const ctVersion = compatibleWith(contentType);
  const acceptVersion = compatibleWith(accept);
  for (const [name, v, header] of [['Content-Type', ctVersion, contentType], ['Accept', acceptVersion, accept]] as const) {
    if (v !== null && !SUPPORTED_VERSIONS.has(v)) {
      throw new MediaTypeHeaderError('Invalid media-type value on headers [Accept, Content-Type]',
        new EsError('status_exception', `${name} version must be either version 9, 8 or 7, but found ${v}. ${name}=${header}`, 400));
    }
  }
  const version = acceptVersion ?? ctVersion;
  return { responseType: version ? `application/vnd.elasticsearch+json;compatible-with=${version}` : 'application/json' };
}

const ACCEPTED_BODY = /^(application\/(json|x-ndjson|vnd\.elasticsearch\+(json|x-ndjson))|text\/plain)\b/i;

/** Bodies must be JSON or NDJSON (text/plain too: clients send pre-serialised strings so). */
export function checkBodyContentType(contentType: string | undefined): void {
  if (contentType === undefined || ACCEPTED_BODY.test(contentType.trim())) return;
  throw new RestStatusError(`Content-Type header [${contentType}] is not supported`, 406, true);
}
