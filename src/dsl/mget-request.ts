/**
 * The `_mget` body (ES MultiGetRequest.add/parseDocuments/parseIds, then validate()): `docs` with
 * per-document `_index`, `_id`, `routing`, `_source`; or `ids` against the URL's index. Errors
 * in the body's structure fail the request; a missing index or id is a validation failure
 * numbered by the document's position.
 */
import { ActionRequestValidationError, IllegalArgumentError, ParseError, ParsingError } from '../errors/index.js';
import { tokenName } from './json-body.js';
import { isObject, parseBody, within, type JsonObject } from './parse-helpers.js';
import { parseSourceFilter, type SourceFilter } from './source-filter.js';

export interface MultiGetItem {
  readonly index: string | null;
  readonly id: string;
  readonly routing: string | null;
  /** The document's own `_source`, else null (the URL's applies). */
  readonly source: SourceFilter | null;
}

/** JSON scalars ES reads as text (`_id: 1` is the id "1"). */
function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

const DOC_FIELDS = new Set(['_index', '_id', 'routing', '_routing', '_source', 'stored_fields', 'version', 'version_type']);

function parseDoc(v: unknown, defaultIndex: string | null, defaultRouting: string | null): { index: string | null; id: string | null; routing: string | null; source: SourceFilter | null } {
  if (!isObject(v)) throw new IllegalArgumentError('docs array element should include an object');
  let index = defaultIndex;
  let id: string | null = null;
  let routing = defaultRouting;
  let source: SourceFilter | null = null;
  for (const [k, value] of Object.entries(v)) {
    if (!DOC_FIELDS.has(k)) throw new ParseError(`failed to parse multi get request. unknown field [${k}]`);
    within(k, () => {
      switch (k) {
        case '_index': index = scalar(value) ?? index; break;
        case '_id': id = scalar(value); break;
        case 'routing': case '_routing': routing = scalar(value); break;
        case '_source': source = parseSourceFilter(value); break;
        // This server keeps no stored fields apart from `_source`; versions are not checked on reads.
        case 'stored_fields': case 'version': case 'version_type':
          throw new IllegalArgumentError(`[${k}] is not supported in multi get requests by this server`);
      }
    });
  }
  return { index, id, routing, source };
}

export function parseMultiGetRequest(body: JsonObject, defaultIndex: string | null, defaultRouting: string | null): MultiGetItem[] {
  const parsed = parseBody(() => {
    const out: Array<{ index: string | null; id: string | null; routing: string | null; source: SourceFilter | null }> = [];
    for (const [k, v] of Object.entries(body)) {
      within(k, () => {
        if (!Array.isArray(v)) throw new ParsingError(`unexpected token [${tokenName(v)}], expected [FIELD_NAME] or [START_ARRAY]`);
        if (k === 'docs') {
          v.forEach((d, i) => out.push(within(i, () => parseDoc(d, defaultIndex, defaultRouting))));
        } else if (k === 'ids') {
          for (const raw of v) {
            const id = scalar(raw);
            if (id === null) throw new IllegalArgumentError('ids array element should only contain ids');
            out.push({ index: defaultIndex, id, routing: defaultRouting, source: null });
          }
        } else {
          throw new ParsingError(`unknown key [${k}] for a START_ARRAY, expected [docs] or [ids]`);
        }
      });
    }
    return out;
  });
  // MultiGetRequest.validate(): every problem, numbered by the document's position.
  const problems: string[] = [];
  if (parsed.length === 0) problems.push('no documents to get');
  parsed.forEach((d, i) => {
    if (d.index === null) problems.push(`index is missing for doc ${i}`);
    if (d.id === null) problems.push(`id is missing for doc ${i}`);
  });
  if (problems.length > 0) throw new ActionRequestValidationError(problems);
  return parsed.map((d) => ({ index: d.index, id: d.id!, routing: d.routing, source: d.source }));
}
