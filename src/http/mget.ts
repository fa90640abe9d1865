/**
 * `_mget` (ES RestMultiGetAction + TransportMultiGetAction): several realtime GETs in one request.
 * Each document is looked up on its own: a missing document is `found: false`, a missing index,
 * an alias with several indices or a refused index is that document's `error`, never the
 * request's. Documents come back in request order.
 */
import { ActionRequestValidationError, EsError, InternalError } from '../errors/index.js';
import { filterSource } from '../common/source-filter.js';
import { parseMultiGetRequest, parseSourceParams, type MultiGetItem, type SourceFilter } from '../dsl/index.js';
import type { IndicesService } from '../cluster/index.js';
import { boolParam, type Query } from './params.js';
import { hasBody, jsonObjectBody, type RestRequest, type RestResponse, type RouteDef } from './rest.js';

const PARAMS = ['_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude', 'stored_fields', 'routing', 'realtime', 'refresh', 'preference'];

function urlSourceFilter(query: Query): SourceFilter | null {
  return parseSourceParams(query._source, query._source_includes ?? query._source_include, query._source_excludes ?? query._source_exclude);
}

/** One document's entry, rendered as GET renders it (stored `_source` spliced in unparsed when unfiltered). */
function getOne(indices: IndicesService, req: RestRequest, item: MultiGetItem, urlFilter: SourceFilter | null, realtime: boolean): string {
  try {
    req.authorizer?.require('indices:data/read/get', [item.index!]);
    const index = indices.require(item.index!);
    const result = index.get(item.id, item.routing, realtime);
    if (!result.found) return JSON.stringify({ _index: index.name, _id: result.id, found: false });
    const head = JSON.stringify({
      _index: index.name, _id: result.id, _version: result.version, _seq_no: result.seqNo, _primary_term: result.primaryTerm, found: true,
    });
    const filter = item.source ?? urlFilter;
    if (result.source === null || (filter !== null && !filter.fetch)) return head;
    const src = filter && (filter.includes.length > 0 || filter.excludes.length > 0)
      ? JSON.stringify(filterSource(JSON.parse(result.source) as Record<string, unknown>, filter))
      : result.source;
    return `${head.slice(0, -1)},"_source":${src}}`;
  } catch (e) {
    const err = e instanceof EsError ? e : new InternalError(e instanceof Error ? e.message : String(e));
    // ES MultiGetResponse.Failure: the failure rendered as a full error (root_cause included), no status.
    return JSON.stringify({ _index: item.index, _id: item.id, error: err.toBody().error });
  }
}

async function executeMget(indices: IndicesService, req: RestRequest): Promise<RestResponse> {
  if (!hasBody(req)) throw new ActionRequestValidationError(['no documents to get']);
  const urlFilter = urlSourceFilter(req.query);
  const realtime = boolParam(req.query, 'realtime', true);
  const items = parseMultiGetRequest(jsonObjectBody(req), req.params.index ?? null, req.query.routing ?? null);
  // `refresh=true` makes the named indices' recent writes searchable first, as ES does for GET, and
  // `realtime=false` lets a search-idle index make the refresh it owes (it reads what refreshes
  // published) — only the indices the caller may read (a refused document fails alone below; its
  // index is not touched).
  const refresh = boolParam(req.query, 'refresh', false);
  if (refresh || !realtime) {
    const names = [...new Set(items.map((i) => i.index!))].filter((n) => !req.authorizer?.denial('indices:data/read/get', [n]));
    await Promise.all(names.map((n) => {
      try {
        const index = indices.require(n);
        return refresh ? index.refresh() : index.awaitSearchActive();
      } catch {
        return undefined;
      }
    }));
  }
  return { body: `{"docs":[${items.map((item) => getOne(indices, req, item, urlFilter, realtime)).join(',')}]}` };
}

export function mgetRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET', 'POST'],
      paths: ['/_mget', '/:index/_mget'],
      // ES authorizes mget for "some index", then each document's index as a get.
      authz: { action: 'indices:data/read/mget', perItem: true },
      queryBody: true,
      params: PARAMS,
      handler: (req) => executeMget(indices, req),
    },
  ];
}
