/**
 * Scroll and point in time (ES RestSearchScrollAction, RestClearScrollAction,
 * RestOpenPointInTimeAction, RestClosePointInTimeAction). The first scroll page is `_search?scroll=`
 * (http/search.ts), as is every search with a `pit`; contexts live in cluster/search/search-contexts.ts.
 */
import { ActionRequestValidationError } from '../errors/index.js';
import { isObject, readString, readStringArray } from '../dsl/index.js';
import type { SearchContexts } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, resolveParams } from './params.js';
import { jsonBody, type RestRequest, type RouteDef } from './rest.js';

function body(req: RestRequest): Record<string, unknown> {
  if (req.body === null) return {};
  const v = jsonBody(req);
  return isObject(v) ? v : {};
}

/** The scroll ids of a request: the body's `scroll_id` (string or array), else the URL's. */
function scrollIds(req: RestRequest): string[] {
  const b = body(req);
  if (b.scroll_id !== undefined) return readStringArray('clear_scroll', 'scroll_id', b.scroll_id);
  const fromUrl = req.params.scroll_id ?? req.query.scroll_id;
  return fromUrl === undefined ? [] : fromUrl.split(',');
}

export function scrollRoutes(contexts: SearchContexts): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_search/scroll', '/_search/scroll/:scroll_id'],
      queryBody: true,
      authz: { action: 'indices:data/read/scroll' },
      params: ['scroll', 'scroll_id', 'rest_total_hits_as_int'],
      handler: async (req) => {
        boolParam(req.query, 'rest_total_hits_as_int', false);
        const b = body(req);
        const [id] = scrollIds(req);
        if (id === undefined) throw new ActionRequestValidationError(['scrollId is missing']);
        const scroll = b.scroll !== undefined ? readString('scroll', 'scroll', b.scroll) : req.query.scroll;
        return { body: await contexts.continueScroll(id, scroll === undefined ? null : contexts.keepAlive(scroll, 'scroll')) };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_search/scroll', '/_search/scroll/:scroll_id'],
      queryBody: true,
      authz: { action: 'indices:data/read/scroll/clear' },
      params: ['scroll_id'],
      handler: (req) => {
        const ids = scrollIds(req);
        if (ids.length === 0) throw new ActionRequestValidationError(['no scroll ids specified']);
        const freed = contexts.clearScrolls(ids.includes('_all') ? 'all' : ids);
        return { status: freed > 0 || ids.includes('_all') ? 200 : 404, body: { succeeded: true, num_freed: freed } };
      },
    },
    {
      methods: ['POST'],
      paths: ['/:index/_pit'],
      queryBody: true,
      authz: { action: 'indices:data/read/open_point_in_time' },
      params: [...INDICES_OPTIONS, 'keep_alive', 'routing', 'preference', 'allow_partial_search_results', 'max_concurrent_shard_requests'],
      handler: async (req) => {
        if (req.query.keep_alive === undefined) throw new ActionRequestValidationError(['[keep_alive] is not specified']);
        const keepAlive = contexts.keepAlive(req.query.keep_alive, 'keep_alive');
        const { id, shards } = await contexts.openPointInTime(req.params.index, keepAlive, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }));
        return { body: { id, _shards: { total: shards, successful: shards, skipped: 0, failed: 0 } } };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_pit'],
      queryBody: true,
      authz: { action: 'indices:data/read/close_point_in_time' },
      handler: (req) => {
        const b = body(req);
        if (b.id === undefined) throw new ActionRequestValidationError(['point-in-time id should not be empty']);
        const freed = contexts.closePointInTime(readString('close_point_in_time', 'id', b.id)) ? 1 : 0;
        return { status: freed > 0 ? 200 : 404, body: { succeeded: true, num_freed: freed } };
      },
    },
  ];
}
