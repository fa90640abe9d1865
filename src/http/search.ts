/**
 * `_search` and `_count` (ES RestSearchAction, RestCountAction): body and URL parameters (URL wins,
 * as in ES), `q=` as a query_string query, index expressions with their resolution options.
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO, parseCountRequest, parseQuery, parseSearchRequest, parseSearchTimeout, parseSortParam, parseSourceParams, TRACK_TOTAL_HITS_ACCURATE, TRACK_TOTAL_HITS_DISABLED, trackTotalHitsUpTo, validatePaging, type QueryNode, type SearchRequest,
} from '../dsl/index.js';
import { SLICE_OUTSIDE_CONTEXT, type IndicesService, type SearchContexts, type SearchService } from '../cluster/index.js';
import { authorizedIndexBoosts, type BodyIndexNames } from './authorization.js';
import { LruCache } from '../common/lru-cache.js';
import { boolParam, INDICES_OPTIONS, intParam, resolveParams, type Query } from './params.js';
import { jsonBody, type RestRequest, type RouteDef } from './rest.js';

const SEARCH_PARAMS = [
  ...INDICES_OPTIONS, 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'from', 'size', 'sort',
  '_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude', 'track_total_hits',
  'rest_total_hits_as_int', 'typed_keys', 'search_type', 'request_cache', 'preference', 'routing', 'timeout',
  'terminate_after', 'track_scores', 'version', 'seq_no_primary_term', 'stored_fields', 'docvalue_fields', 'explain',
  'batched_reduce_size', 'max_concurrent_shard_requests', 'pre_filter_shard_size', 'ccs_minimize_roundtrips',
  'allow_partial_search_results', 'scroll', 'stats', 'include_named_queries_score', 'suggest_field', 'suggest_mode',
  'suggest_size', 'suggest_text', 'force_synthetic_source',
];
const COUNT_PARAMS = [...INDICES_OPTIONS, 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'min_score', 'terminate_after', 'routing', 'preference'];

/** `q=` → a query_string query with `df`, `default_operator`, `analyzer`, `lenient`. */
export function queryFromParams(query: Query): QueryNode | null {
  if (query.q === undefined) return null;
  const qs: Record<string, unknown> = { query: query.q };
  if (query.df !== undefined) qs.default_field = query.df;
  if (query.default_operator !== undefined) qs.default_operator = query.default_operator;
  if (query.analyzer !== undefined) qs.analyzer = query.analyzer;
  if (query.lenient !== undefined) qs.lenient = boolParam(query, 'lenient', false);
  if (query.analyze_wildcard !== undefined) qs.analyze_wildcard = boolParam(query, 'analyze_wildcard', false);
  return parseQuery({ query_string: qs });
}

export function searchRequestFrom(req: RestRequest): SearchRequest {
  const q = req.query;
  if (q.search_type !== undefined && q.search_type !== 'query_then_fetch' && q.search_type !== 'dfs_query_then_fetch') {
    throw new IllegalArgumentError(`No search type for [${q.search_type}]`);
  }
  // ES RestSearchAction.checkRestTotalHits: an integer total must be exact, so count every hit
  // unless track_total_hits says otherwise (and refuse it when it says to count inexactly).
  const totalHitsAsInt = boolParam(q, 'rest_total_hits_as_int', false);
  let r: SearchRequest = parseSearchRequest(jsonBody(req), {
    trackTotalHitsUpTo: totalHitsAsInt ? TRACK_TOTAL_HITS_ACCURATE : DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  });
  const fromQ = queryFromParams(q);
  if (fromQ) {
    if (r.query) throw new IllegalArgumentError('request [q] parameter and a [query] in the body cannot both be set');
    r = { ...r, query: fromQ };
  }
  const source = parseSourceParams(q._source, q._source_includes ?? q._source_include, q._source_excludes ?? q._source_exclude);
  r = {
    ...r,
    from: intParam(q, 'from', r.from),
    size: intParam(q, 'size', r.size),
    sort: q.sort !== undefined ? parseSortParam(q.sort) : r.sort,
    source: source ?? r.source,
    trackTotalHitsUpTo: trackTotalHitsParam(q, r.trackTotalHitsUpTo),
    terminateAfter: intParam(q, 'terminate_after', r.terminateAfter),
    trackScores: boolParam(q, 'track_scores', r.trackScores),
    version: boolParam(q, 'version', r.version),
    seqNoPrimaryTerm: boolParam(q, 'seq_no_primary_term', r.seqNoPrimaryTerm),
    explain: boolParam(q, 'explain', r.explain),
    storedFieldsNone: q.stored_fields === '_none_' ? true : r.storedFieldsNone,
    docvalueFields: q.docvalue_fields !== undefined ? q.docvalue_fields.split(',').map((field) => field.trim()).filter((field) => field !== '').map((field) => ({ field, format: null, includeUnmapped: false })) : r.docvalueFields,
    timeoutMs: q.timeout !== undefined ? parseSearchTimeout(q.timeout) : r.timeoutMs,
  };
  validatePaging(r.from, r.size);
  validateContexts(r, q.scroll !== undefined);
  if (totalHitsAsInt && r.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_ACCURATE && r.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_DISABLED) {
    throw new IllegalArgumentError(`[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${r.trackTotalHitsUpTo}`);
  }
  return r;
}

/** ES SearchRequest.validate's rules for scroll and point-in-time searches. */
function validateContexts(r: SearchRequest, scroll: boolean): void {
  const problems: string[] = [];
  if (scroll) {
    if (r.trackTotalHitsUpTo === TRACK_TOTAL_HITS_DISABLED) problems.push('disabling [track_total_hits] is not allowed in a scroll context');
    if (r.from > 0) problems.push('using [from] is not allowed in a scroll context');
    if (r.size === 0) problems.push('[size] cannot be [0] in a scroll context');
    if (r.rescore) problems.push('using [rescore] is not allowed in a scroll context');
    if (r.searchAfter) problems.push('[search_after] cannot be used in a scroll context');
    if (r.pit) problems.push('using [point in time] is not allowed in a scroll context');
  }
  if (r.slice && !scroll && !r.pit) problems.push(SLICE_OUTSIDE_CONTEXT);
  if (!r.pit && r.sort?.some((s) => s.kind === 'shard_doc')) problems.push('[_shard_doc] sort field cannot be used without [point in time]');
  if (problems.length > 0) throw new ActionRequestValidationError(problems);
}

/** `track_total_hits` in the URL (ES RestSearchAction): a boolean, else an int parameter. */
function trackTotalHitsParam(q: Query, current: number): number {
  const v = q.track_total_hits;
  if (v === undefined) return current;
  if (v === 'true' || v === 'false') return v === 'true' ? TRACK_TOTAL_HITS_ACCURATE : TRACK_TOTAL_HITS_DISABLED;
  return trackTotalHitsUpTo(intParam(q, 'track_total_hits', current));
}

/** Parsed searches a server keeps, by URL parameters and body text. */
export const PARSED_SEARCH_CACHE_ENTRIES = 4096;
/** Longer bodies are parsed every time (they are rarely repeated, and would hold memory). */
const MAX_CACHED_BODY_CHARS = 4096;

/**
 * `key` as a string of its own, to keep as a cache key: an `_msearch` item's key is a slice of the
 * request body (http/msearch.ts itemKey), and V8 keeps a slice's whole parent string alive, so 4,096
 * of them would hold as many request bodies. Prepending a character and slicing it off copies the
 * characters into a new flat string. Only on a miss.
 */
function ownString(key: string): string {
  return (' ' + key).slice(1);
}

/**
 * `searchRequestFrom` with the result kept for the next request with the same URL parameters and
 * body text: load tests repeat a fixed set of query bodies, and parsing is pure. A hit hands back
 * the same SearchRequest (and so the same QueryNode, which the search phase's plan cache keys on).
 * Only plain searches are kept: aggregations, suggesters, highlighting, hybrid ranking, scrolls and
 * points in time go the long way, so nothing that holds per-request state shares an object.
 */
export function cachedSearchRequest(cache: LruCache<string, SearchRequest>, req: RestRequest, keyOf?: (body: string | null) => string): SearchRequest {
  // A body parsed ahead (a large one) is never cached, and its text is not decoded to find that out.
  if (req.json !== undefined || req.query.scroll !== undefined) return searchRequestFrom(req);
  const body = req.body;
  if (body !== null && body.length > MAX_CACHED_BODY_CHARS) return searchRequestFrom(req);
  // No body and an empty one are told apart (an empty `_msearch` item body is not a missing one).
  // `keyOf`: the caller's key for its cache (`_msearch`'s, whose item bodies are single lines).
  let key: string;
  if (keyOf !== undefined) key = keyOf(body);
  else {
    const params = JSON.stringify(req.query);
    key = body === null ? params : `${params}\n${body}`;
  }
  let r = cache.get(key);
  if (r === undefined) {
    r = searchRequestFrom(req);
    if (r.aggs === null && r.suggest === null && r.highlight === null && r.fusion === null && !r.pit) cache.set(ownString(key), r);
  }
  return r;
}

export function searchRoutes(indices: IndicesService, search: SearchService, contexts: SearchContexts): RouteDef[] {
  const parsed = new LruCache<string, SearchRequest>(PARSED_SEARCH_CACHE_ENTRIES);
  const names: BodyIndexNames = { existing: () => [...indices.names(), ...indices.aliases.names()], isHidden: indices.isHidden };
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_search', '/:index/_search'],
      queryBody: true,
      authz: { action: 'indices:data/read/search' },
      params: SEARCH_PARAMS,
      handler: async (req) => {
        const resolve = resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true });
        const r = authorizedIndexBoosts(req.authorizer, cachedSearchRequest(parsed, req), names, () => resolve);
        const opts = {
          resolve,
          restTotalHitsAsInt: boolParam(req.query, 'rest_total_hits_as_int', false),
          allowPartialSearchResults: boolParam(req.query, 'allow_partial_search_results', true),
          includeNamedQueriesScore: boolParam(req.query, 'include_named_queries_score', false),
          // A large body's text is decoded only if a slow-log line quotes it.
          source: req.json === undefined ? req.body : () => req.body,
        };
        if (r.pit) {
          if (req.params.index !== undefined) throw new ActionRequestValidationError(['[indices] cannot be used with point in time. Do not specify any index with point in time.']);
          return { body: await contexts.searchPointInTime(r, opts) };
        }
        if (req.query.scroll !== undefined) {
          return { body: await contexts.startScroll(req.params.index, r, contexts.keepAlive(req.query.scroll, 'scroll'), opts) };
        }
        const outcome = await search.search(req.params.index, r, opts);
        return { body: outcome.body };
      },
    },
    {
      methods: ['GET', 'POST'],
      paths: ['/_count', '/:index/_count'],
      queryBody: true,
      authz: { action: 'indices:data/read/search' },
      params: COUNT_PARAMS,
      handler: async (req) => {
        let { query } = parseCountRequest(jsonBody(req));
        const fromQ = queryFromParams(req.query);
        if (fromQ && query) throw new IllegalArgumentError('request [q] parameter and a [query] in the body cannot both be set');
        query = fromQ ?? query;
        const minScore = req.query.min_score !== undefined ? Number(req.query.min_score) : null;
        if (minScore !== null && Number.isNaN(minScore)) throw new IllegalArgumentError(`Failed to parse float parameter [min_score] with value [${req.query.min_score}]`);
        const { count, shards } = await search.count(req.params.index, query, minScore, {
          resolve: resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }),
        });
        return { body: { count, _shards: shards } };
      },
    },
  ];
}
