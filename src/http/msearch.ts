/**
 * `_msearch` (ES RestMultiSearchAction + MultiSearchRequest.readMultiLineFormat +
 * TransportMultiSearchAction): NDJSON header/body pairs. The whole body is parsed before anything
 * runs, so a malformed line or search body fails the request (400) as in ES; each search then
 * runs on its own and fails alone, reported in place in `responses` with its `status`. At most
 * `max_concurrent_searches` run at once, in request order.
 */
import { availableParallelism } from 'node:os';
import { ActionRequestValidationError, EsError, IllegalArgumentError, InternalError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { parseJson, tokenName, withBodyPositions, type SearchRequest } from '../dsl/index.js';
import type { IndicesService, SearchService } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, intParam, resolveParams, type Query } from './params.js';
import type { RestRequest, RestResponse, RouteDef } from './rest.js';
import { searchRequestFrom } from './search.js';

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
const ITEM_DEFAULTS = [...INDICES_OPTIONS, 'search_type', 'rest_total_hits_as_int', 'ccs_minimize_roundtrips', 'routing', 'preference', 'allow_partial_search_results'];

const PARAMS = [...ITEM_DEFAULTS, 'max_concurrent_searches', 'max_concurrent_shard_requests', 'pre_filter_shard_size', 'typed_keys'];

interface MsearchItem {
  readonly index: string | undefined;
  readonly query: Query;
  readonly request: SearchRequest;
}

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

export function parseMsearchBody(body: string, defaultIndex: string | undefined, urlQuery: Query): MsearchItem[] {
  const all = lines(body);
  const items: MsearchItem[] = [];
  for (let i = 0; i < all.length; i += 2) {
    const headerText = all[i];
    // A header with no body line after it ends the request (ES stops reading there).
    if (i + 1 >= all.length) break;
    const header = headerText.trim() === '' ? {} : parseJson(headerText);
    if (!isPlainObject(header)) throw new IllegalArgumentError(`Expected [START_OBJECT] but found [${tokenName(header)}] in the msearch header on line [${i + 1}]`);
    const query: Query = {};
    for (const k of ITEM_DEFAULTS) if (urlQuery[k] !== undefined) query[k] = urlQuery[k];
    let index = defaultIndex;
    for (const [k, v] of Object.entries(header)) {
      const name = HEADER_KEYS[k];
      if (name === undefined) throw new IllegalArgumentError(`key [${k}] is not supported in the metadata section`);
      const value = headerValue(k, v);
      if (name === 'index') index = value;
      else query[name] = value;
    }
    const bodyText = all[i + 1];
    let request: SearchRequest;
    try {
      request = searchRequestFrom({ method: 'POST', path: '/_msearch', params: {}, query, body: bodyText.trim() === '' ? null : bodyText, headers: {} });
      if (request.pit) throw new IllegalArgumentError('[pit] is not supported in _msearch by this server yet');
    } catch (e) {
      // Locate body parse errors within the item's own line, as ES parses each line separately.
      throw e instanceof EsError ? withBodyPositions(e, bodyText) : e;
    }
    items.push({ index, query, request });
  }
  return items;
}

/** ES's default: the data nodes × the search pool size ((processors × 3) / 2 + 1). */
function defaultMaxConcurrentSearches(): number {
  return Math.max(1, Math.floor((availableParallelism() * 3) / 2) + 1);
}

function errorItem(e: unknown): string {
  const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
  // ES MultiSearchResponse.Item: the full failure body (root_cause included) and its status.
  return JSON.stringify(err.toBody());
}

async function executeMsearch(indices: IndicesService, search: SearchService, req: RestRequest): Promise<RestResponse> {
  const start = performance.now();
  const max = intParam(req.query, 'max_concurrent_searches', 0);
  if (req.query.max_concurrent_searches !== undefined && max < 1) throw new IllegalArgumentError('maxConcurrentSearchRequests must be positive');
  const limit = max > 0 ? max : defaultMaxConcurrentSearches();
  // Accepted as ES does; this server runs every shard of a search at once anyway.
  if (req.query.max_concurrent_shard_requests !== undefined && intParam(req.query, 'max_concurrent_shard_requests', 1) < 1) {
    throw new IllegalArgumentError('maxConcurrentShardRequests must be >= 1');
  }
  boolParam(req.query, 'typed_keys', false);
  const items = req.body === null ? [] : parseMsearchBody(req.body, req.params.index, req.query);
  if (items.length === 0) throw new ActionRequestValidationError(['no requests added']);
  const existing = () => [...indices.names(), ...indices.aliases.names()];
  const responses: string[] = new Array(items.length);
  const runOne = async (item: MsearchItem): Promise<string> => {
    try {
      const resolve = resolveParams(item.query, { ignoreUnavailable: false, allowNoIndices: true });
      // Each item is authorized as a search of its own indices (ES authorizes msearch's items one by one).
      const expression = req.authorizer ? req.authorizer.narrow('indices:data/read/search', item.index, existing, () => resolve.expandHidden) : item.index;
      const outcome = await search.search(expression, item.request, {
        resolve,
        restTotalHitsAsInt: boolParam(item.query, 'rest_total_hits_as_int', false),
        allowPartialSearchResults: boolParam(item.query, 'allow_partial_search_results', true),
      });
      return `${outcome.body.slice(0, -1)},"status":200}`;
    } catch (e) {
      return errorItem(e);
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      responses[k] = await runOne(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  const took = Math.round(performance.now() - start);
  return { body: `{"took":${took},"responses":[${responses.join(',')}]}` };
}

export function msearchRoutes(indices: IndicesService, search: SearchService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_msearch', '/:index/_msearch'],
      // ES authorizes the msearch action itself for "some index", then each item as a search.
      authz: { action: 'indices:data/read/msearch', perItem: true },
      params: PARAMS,
      handler: (req) => executeMsearch(indices, search, req),
    },
  ];
}
