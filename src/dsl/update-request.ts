/**
 * The body of `_update` and of a bulk `update` item (ES UpdateRequest.fromXContent, an ObjectParser
 * named "UpdateRequest"), then UpdateRequest.validate(). Scripts are not supported by this server.
 */
import { ActionRequestValidationError, IllegalArgumentError, XContentParseError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { forEachEntry, isObject, parseBody, readBoolean, type JsonObject } from './parse-helpers.js';
import { parseSourceFilter, type SourceFilter } from './source-filter.js';

export interface UpdateRequest {
  readonly doc: JsonObject | null;
  readonly upsert: JsonObject | null;
  readonly docAsUpsert: boolean;
  /** false: write a new version even when the merged document equals the current one. */
  readonly detectNoop: boolean;
  /** `_source`: what the response's `get` section shows of the document after the update; null for no section. */
  readonly source: SourceFilter | null;
}

const OWNER = 'UpdateRequest';

function objectField(key: string, v: unknown): JsonObject {
  if (isObject(v)) return v;
  throw new XContentParseError(`[${OWNER}] ${key} doesn't support values of type: ${tokenName(v)}`);
}

export function parseUpdateRequest(body: JsonObject): UpdateRequest {
  const r = { doc: null as JsonObject | null, upsert: null as JsonObject | null, docAsUpsert: false, detectNoop: true, source: null as SourceFilter | null };
  parseBody(() => forEachEntry(body, (k, v) => {
    switch (k) {
      case 'doc': r.doc = objectField(k, v); break;
      case 'upsert': r.upsert = objectField(k, v); break;
      case 'doc_as_upsert': r.docAsUpsert = readBoolean(OWNER, k, v); break;
      case 'detect_noop': r.detectNoop = readBoolean(OWNER, k, v); break;
      case 'scripted_upsert': readBoolean(OWNER, k, v); break;
      case '_source': r.source = parseSourceFilter(v); break;
      case 'script': throw new IllegalArgumentError('scripted updates are not supported by this server');
      default: throw new XContentParseError(`[${OWNER}] unknown field [${k}]`, undefined, 'key');
    }
  }));
  // UpdateRequest.validate(); without scripts, a doc is always required (an upsert alone is not enough).
  if (r.doc === null) throw new ActionRequestValidationError(['script or doc is missing']);
  return r;
}
