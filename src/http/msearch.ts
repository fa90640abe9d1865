/**
 * `_msearch` (ES RestMultiSearchAction + TransportMultiSearchAction): the NDJSON header/body pairs
 * are read by `dsl/msearch-request.ts` before anything runs (a malformed line fails the request);
 * each search then runs on its own and fails alone, reported in place in `responses` with its
 * `status`. At most `max_concurrent_searches` run at once, in request order.
 */
import { availableParallelism } from 'node:os';
import { ActionRequestValidationError, EsError, IllegalArgumentError, InternalError } from '../errors/index.js';
import { MSEARCH_ITEM_PARAMS, parseMsearchBody, type SearchRequest } from '../dsl/index.js';
import type { IndicesService, SearchContexts, SearchService } from '../cluster/index.js';
import { boolParam, intParam, resolveParams, type Query } from './params.js';
import type { RestRequest, RestResponse, RouteDef } from './rest.js';
import { authorizedIndexBoosts, type BodyIndexNames } from './authorization.js';
import { cachedSearchRequest, PARSED_SEARCH_CACHE_ENTRIES } from './search.js';
import { LruCache } from '../common/lru-cache.js';
import { JsonPieces } from '../common/json-pieces.js';

const PARAMS = [...MSEARCH_ITEM_PARAMS, 'max_concurrent_searches', 'max_concurrent_shard_requests', 'pre_filter_shard_size', 'typed_keys'];

/** A search's outcome (the search service's). */
type Outcome = Awaited<ReturnType<SearchService['search']>>;

/**
 * An item's search body with its parameters, read as `_search` reads body and URL (through the
 * same kind of parsed-request cache: load tests send the same item bodies again and again).
 */
function itemReader(cache: LruCache<string, SearchRequest>): (query: Query, body: string | null) => SearchRequest {
  // Items whose header sets nothing share one parameters object (parseMsearchBody): its cache key
  // part is written once for all of them, not once per item.
  let lastQuery: Query | null = null;
  let lastKey = '';
  const keyOf = (body: string | null): string => itemKey(lastKey, body);
  return (query, body) => {
    if (query !== lastQuery) {
      lastKey = JSON.stringify(query);
      lastQuery = query;
    }
    return cachedSearchRequest(cache, { method: 'POST', path: '/_msearch', params: {}, query, body, headers: {} }, keyOf);
  };
}

/**
 * An item's key in the parsed-request cache, from its parameters' JSON and its body line. An item
 * without parameters (nearly all: `{}` headers and a bare URL) is keyed by its body line alone: a
 * lookup then hashes the line as it is, instead of a concatenated key flattened for every lookup. No
 * body line holds a newline (the body was split at them) and every other key does, and a parameters
 * JSON holds none either, so keys of different parameters or bodies never meet.
 */
export function itemKey(params: string, body: string | null): string {
  if (params === '{}') return body ?? '\n';
  return body === null ? `${params}\n` : `${params}\n${body}`;
}

type ItemOptions = { resolve: ReturnType<typeof resolveParams>; restTotalHitsAsInt: boolean; allowPartialSearchResults: boolean };

/** An item's search options from its parameters (throws, for the item alone, on a malformed one). */
function itemOptions(query: Query): ItemOptions {
  return {
    resolve: resolveParams(query, { ignoreUnavailable: false, allowNoIndices: true }),
    restTotalHitsAsInt: boolParam(query, 'rest_total_hits_as_int', false),
    allowPartialSearchResults: boolParam(query, 'allow_partial_search_results', true),
  };
}

/** ES's default: the data nodes × the search pool size ((processors × 3) / 2 + 1); read once (a system call). */
const DEFAULT_MAX_CONCURRENT_SEARCHES = Math.max(1, Math.floor((availableParallelism() * 3) / 2) + 1);

/** What ES adds to each answered item. */
const STATUS_OK = '"status":200';

function errorItem(e: unknown): string {
  const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
  // ES MultiSearchResponse.Item: the full failure body (root_cause included) and its status.
  return JSON.stringify(err.toBody());
}

/**
 * Runs the items, at most `limit` at once: each answer (or failure) fills its entry and starts the
 * next item. One object per request rather than `limit` async loops: under load ~100 requests wait
 * at once, and a suspended async frame per loop was a good part of what the coordinator's
 * scavenges copied and promoted (issue 22, gc-i22young).
 */
class MsearchItems {
  private next = 0;
  private inFlight = 0;
  private done = 0;

  constructor(
    private readonly count: number,
    private readonly limit: number,
    private readonly start: (k: number) => Promise<JsonPieces | Outcome>,
    private readonly responses: Array<JsonPieces | string>,
    private readonly resolve: () => void,
  ) {}

  /** Starts items while fewer than `limit` are in flight; resolves once every item has its entry. */
  pump(): void {
    while (this.inFlight < this.limit && this.next < this.count) {
      const k = this.next++;
      let search: Promise<JsonPieces | Outcome>;
      try {
        search = this.start(k);
      } catch (e) {
        this.responses[k] = errorItem(e);
        this.done++;
        continue;
      }
      this.inFlight++;
      watchItem(this, k, search);
    }
    if (this.done === this.count) this.resolve();
  }

  answered(k: number, answer: JsonPieces | Outcome): void {
    let response: JsonPieces | string;
    try {
      response = (answer instanceof JsonPieces ? answer : answer.body).withLastMember(STATUS_OK);
    } catch (e) {
      response = errorItem(e);
    }
    this.settled(k, response);
  }

  failed(k: number, e: unknown): void {
    this.settled(k, errorItem(e));
  }

  private settled(k: number, response: JsonPieces | string): void {
    this.responses[k] = response;
    this.inFlight--;
    this.done++;
    this.pump();
  }
}

/** Settles item `k` when its search does; made here so that its closures hold these values alone. */
function watchItem(items: MsearchItems, k: number, search: Promise<JsonPieces | Outcome>): void {
  search.then((answer) => items.answered(k, answer), (e: unknown) => items.failed(k, e));
}

async function executeMsearch(
  indices: IndicesService, search: SearchService, contexts: SearchContexts, readSearch: (query: Query, body: string | null) => SearchRequest, req: RestRequest,
): Promise<RestResponse> {
  const start = performance.now();
  const max = intParam(req.query, 'max_concurrent_searches', 0);
  if (req.query.max_concurrent_searches !== undefined && max < 1) throw new IllegalArgumentError('maxConcurrentSearchRequests must be positive');
  const limit = max > 0 ? max : DEFAULT_MAX_CONCURRENT_SEARCHES;
  // Accepted as ES does; this server runs every shard of a search at once anyway.
  if (req.query.max_concurrent_shard_requests !== undefined && intParam(req.query, 'max_concurrent_shard_requests', 1) < 1) {
    throw new IllegalArgumentError('maxConcurrentShardRequests must be >= 1');
  }
  boolParam(req.query, 'typed_keys', false);
  const items = req.body === null ? [] : parseMsearchBody(req.body, req.params.index, req.query, readSearch);
  if (items.length === 0) throw new ActionRequestValidationError(['no requests added']);
  const existing = () => [...indices.names(), ...indices.aliases.names()];
  const names: BodyIndexNames = { existing, isHidden: indices.isHidden };
  const responses = new Array<JsonPieces | string>(items.length);
  // Items sharing a parameters object (parseMsearchBody) share its options too: nothing downstream
  // writes to them. A parameter that fails to parse is read again, and fails, for each item.
  let lastQuery: Query | null = null;
  let lastOptions: ItemOptions | null = null;
  const optionsOf = (query: Query): ItemOptions => {
    if (query !== lastQuery || lastOptions === null) {
      lastOptions = itemOptions(query);
      lastQuery = query;
    }
    return lastOptions;
  };
  const pending = (k: number): Promise<JsonPieces | Outcome> => {
    const item = items[k];
    const options = optionsOf(item.query);
    if (item.request.pit) {
      // As `_search` with `pit`: the point in time names its indices (authorized when it was opened).
      if (item.index !== undefined) throw new ActionRequestValidationError(['[indices] cannot be used with point in time. Do not specify any index with point in time.']);
      return contexts.searchPointInTime(item.request, options);
    }
    // Each item is authorized as a search of its own indices (ES authorizes msearch's items one by one).
    const resolve = options.resolve;
    const expression = req.authorizer ? req.authorizer.narrow('indices:data/read/search', item.index, existing, () => resolve, indices.isHidden) : item.index;
    return search.search(expression, authorizedIndexBoosts(req.authorizer, item.request, names, () => resolve), options);
  };
  // At most `limit` items in flight, in request order; an item's failure is its own entry.
  await new Promise<void>((resolve) => new MsearchItems(items.length, limit, pending, responses, resolve).pump());
  const took = Math.round(performance.now() - start);
  return { body: JsonPieces.join(`{"took":${took},"responses":[`, responses, ']}') };
}

export function msearchRoutes(indices: IndicesService, search: SearchService, contexts: SearchContexts): RouteDef[] {
  const readSearch = itemReader(new LruCache<string, SearchRequest>(PARSED_SEARCH_CACHE_ENTRIES));
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_msearch', '/:index/_msearch'],
      // ES authorizes the msearch action itself for "some index", then each item as a search.
      authz: { action: 'indices:data/read/msearch', perItem: true },
      params: PARAMS,
      ndjson: true,
      queryBody: true,
      handler: (req) => executeMsearch(indices, search, contexts, readSearch, req),
    },
  ];
}
