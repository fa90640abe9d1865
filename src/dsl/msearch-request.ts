/**
 * `_msearch` bodies (ES MultiSearchRequest.readMultiLineFormat): NDJSON header/body pairs. The whole
 * body is read before anything runs, so a malformed line or search body fails the request (400) as
 * in ES. Each header names the item's indices and its search parameters, defaulted from the URL's.
 */
import { EsError, IllegalArgumentError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { parseJson, tokenName, withBodyPositions } from './json-body.js';
import type { UrlParams } from './url-params.js';

/** The index resolution options a request's URL (or an `_msearch` header) may carry. */
export const INDICES_OPTIONS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'ignore_throttled'];

/** Header keys ES accepts (camelCase forms included, as ES reads both). */
const HEADER_KEYS: Record<string, string> = {
  index: 'index', indices: 'index', search_type: 'search_type', ccs_minimize_roundtrips: 'ccs_minimize_roundtrips',
  request_cache: 'request_cache', routing: 'routing', preference: 'preference',
  allow_partial_search_results: 'allow_partial_search_results',
  expand_wildcards: 'expand_wildcards', expandWildcards: 'expand_wildcards',
  ignore_unavailable: 'ignore_unavailable', ignoreUnavailable: 'ignore_unavailable',
  allow_no_indices: 'allow_no_indices', allowNoIndices: 'allow_no_indices',
  ignore_throttled: 'ignore_throttled', ignoreThrottled: 'ignore_throttled',
};

/** URL parameters that are defaults for every item (the rest apply to the request as a whole). */
export const MSEARCH_ITEM_PARAMS = [...INDICES_OPTIONS, 'search_type', 'rest_total_hits_as_int', 'ccs_minimize_roundtrips', 'routing', 'preference', 'allow_partial_search_results'];

export interface MsearchItem<R> {
  readonly index: string | undefined;
  /** The item's search parameters: the URL's item defaults, then its header's. */
  readonly query: UrlParams;
  readonly request: R;
}

/**
 * Reads one item's search body (null when its line is empty) with the item's parameters; the
 * route's, since a search body is read together with URL-style parameters.
 */
export type ReadMsearchSearch<R> = (query: UrlParams, body: string | null) => R;

function headerValue(key: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(',');
  throw new IllegalArgumentError(`Failed to parse value [${typeof v === 'object' ? tokenName(v) : String(v)}] of key [${key}] in the metadata section`);
}

/** Splits the body into lines (`\n`, with an optional `\r` before it), requiring the final newline. */
function lines(body: string): string[] {
  if (!body.endsWith('\n')) throw new IllegalArgumentError('The msearch request must be terminated by a newline [\\n]');
  return body.slice(0, -1).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** The URL's item parameters (what every item starts from). */
function itemDefaults(urlQuery: UrlParams): UrlParams {
  const query: UrlParams = {};
  for (const k of MSEARCH_ITEM_PARAMS) if (urlQuery[k] !== undefined) query[k] = urlQuery[k];
  return query;
}

/**
 * A header that sets nothing: blank, or `{}` (what clients send for "the URL's index and
 * parameters"). Its item shares the request's one defaults object and no JSON is parsed for it.
 */
function emptyHeader(text: string): boolean {
  return text === '{}' || text.trim() === '';
}

/**
 * The items, in order. Items whose header sets nothing share one `query` object (the URL's item
 * parameters), which nothing downstream writes to: the route reads its parameters once per
 * distinct object rather than once per item.
 */
export function parseMsearchBody<R>(body: string, defaultIndex: string | undefined, urlQuery: UrlParams, readSearch: ReadMsearchSearch<R>): Array<MsearchItem<R>> {
  const all = lines(body);
  const items: Array<MsearchItem<R>> = [];
  let defaults: UrlParams | null = null;
  for (let i = 0; i < all.length; i += 2) {
    const headerText = all[i];
    // A header with no body line after it ends the request (ES stops reading there).
    if (i + 1 >= all.length) break;
    if (emptyHeader(headerText)) {
      const query = (defaults ??= itemDefaults(urlQuery));
      items.push({ index: defaultIndex, query, request: readItem(readSearch, query, all[i + 1]) });
      continue;
    }
    const header = parseJson(headerText);
    if (!isPlainObject(header)) throw new IllegalArgumentError(`Expected [START_OBJECT] but found [${tokenName(header)}] in the msearch header on line [${i + 1}]`);
    const query = itemDefaults(urlQuery);
    let index = defaultIndex;
    for (const [k, v] of Object.entries(header)) {
      const name = HEADER_KEYS[k];
      if (name === undefined) throw new IllegalArgumentError(`key [${k}] is not supported in the metadata section`);
      const value = headerValue(k, v);
      if (name === 'index') index = value;
      else query[name] = value;
    }
    items.push({ index, query, request: readItem(readSearch, query, all[i + 1]) });
  }
  return items;
}

function readItem<R>(readSearch: ReadMsearchSearch<R>, query: UrlParams, bodyText: string): R {
  try {
    return readSearch(query, bodyText.trim() === '' ? null : bodyText);
  } catch (e) {
    // Locate body parse errors within the item's own line, as ES parses each line separately.
    throw e instanceof EsError ? withBodyPositions(e, bodyText) : e;
  }
}
