/**
 * Single-document APIs: index (with or without an id), create, get, exists, delete, update, and
 * `_source` (ES RestIndexAction, RestGetAction, RestDeleteAction, RestUpdateAction).
 */
import { IllegalArgumentError, ActionRequestValidationError, EsError } from '../errors/index.js';
import { TimeBasedIdGenerator } from '../common/ids.js';
import { filterSource } from '../common/source-filter.js';
import { isPlainObject } from '../common/json.js';
import { idTooLong, parseSourceParams, parseUpdateRequest } from '../dsl/index.js';
import { TouchedShards, type Authorize, type IndexService, type IndicesService, type RefreshPolicy, type WriteFlow, type WriteOptions } from '../cluster/index.js';
import { intParam, longParam, refreshParam, type Query } from './params.js';
import { jsonBody, jsonObjectBody, type RestRequest, type RestResponse, type RouteDef } from './rest.js';
import { updateGetSection, writeBody, writeStatus } from './write-responses.js';

const WRITE_PARAMS = ['refresh', 'routing', 'timeout', 'wait_for_active_shards', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'require_alias', 'require_data_stream'];
const INDEX_PARAMS = [...WRITE_PARAMS, 'op_type', 'pipeline', 'list_executed_pipelines'];
const GET_PARAMS = ['_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude', 'stored_fields', 'routing', 'realtime', 'refresh', 'preference', 'version', 'version_type'];

export const ids = new TimeBasedIdGenerator();

export function writeOptions(query: Query, create: boolean): WriteOptions {
  if (query.version !== undefined || query.version_type !== undefined) {
    throw new IllegalArgumentError('external versioning ([version], [version_type]) is not supported by this server yet; use [if_seq_no] and [if_primary_term]');
  }
  return {
    create,
    ifSeqNo: longParam(query, 'if_seq_no'),
    ifPrimaryTerm: longParam(query, 'if_primary_term'),
    routing: query.routing ?? null,
  };
}

/** The caller's rights as the write flow takes them; undefined without security. */
export function authorizeOf(req: RestRequest): Authorize | undefined {
  const authorizer = req.authorizer;
  return authorizer && ((action, indices) => authorizer.require(action, indices));
}

function requireBody(req: RestRequest): string {
  if (req.body === null) throw new ActionRequestValidationError(['source is missing', 'content type is missing']);
  return req.body;
}

/**
 * What ES answers for a document a pipeline dropped: nothing was written, `result: noop` with
 * version -3 (the "not found" version marker).
 */
export function droppedBody(index: string, id: string): Record<string, unknown> {
  return { _index: index, _id: id, _version: -3, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 }, status: 200 };
}

/** One document's writes are done: durable, saved, refreshed as asked. True when a refresh was forced. */
function completeOne(writes: WriteFlow, policy: RefreshPolicy, index: IndexService, shard: number): Promise<boolean> {
  const touched = new TouchedShards();
  touched.touch(index, shard);
  return writes.complete(policy, touched);
}

async function indexDocument(writes: WriteFlow, req: RestRequest, id: string | null, create: boolean): Promise<RestResponse> {
  const opType = req.query.op_type;
  if (opType !== undefined && opType !== 'index' && opType !== 'create') {
    throw new IllegalArgumentError(`opType must be 'create' or 'index', found: [${opType}]`);
  }
  const tooLong = idTooLong(id);
  if (tooLong !== null) throw new ActionRequestValidationError([tooLong]);
  const opts = writeOptions(req.query, create || opType === 'create');
  // ES authorizes the operation too: `create_doc` may add documents (auto ids are creates) but not overwrite.
  const op = create || opType === 'create' || id === null ? 'create' : 'index';
  req.authorizer?.require(`indices:data/write/index:op_type/${op}`, [req.params.index]);
  const text = requireBody(req);
  let parsed = jsonBody(req);
  const policy = refreshParam(req.query);
  let indexName = req.params.index;
  let docId = id ?? ids.next();
  let routing = opts.routing;
  let sourceText = text;
  const pipelines = writes.pipelinesFor(indexName, req.query.pipeline ?? null);
  if (pipelines.length > 0 && isPlainObject(parsed)) {
    const [outcome] = await writes.runPipelines([{ index: indexName, id: docId, routing, source: parsed, requestPipeline: req.query.pipeline ?? null }]);
    if (outcome.kind === 'failed') throw outcome.error;
    if (outcome.kind === 'dropped') {
      const { status: _, ...body } = droppedBody(indexName, docId);
      return { status: 200, body };
    }
    // The route checked the URL's index; a pipeline that set `_index` is checked where it points.
    if (outcome.index !== indexName) writes.authorizeLanding(authorizeOf(req), op, outcome.index, false);
    indexName = outcome.index;
    docId = outcome.id ?? ids.next();
    routing = outcome.routing;
    parsed = outcome.source;
    sourceText = JSON.stringify(parsed);
  }
  const index = writes.target(op, indexName);
  const result = index.index(docId, sourceText, parsed, { ...opts, routing });
  const forced = await completeOne(writes, policy, index, result.shard);
  const status = writeStatus(result.result);
  return {
    status,
    body: writeBody(index, result, forced),
    headers: status === 201 ? { Location: `/${encodeURIComponent(index.name)}/_doc/${encodeURIComponent(result.id)}` } : undefined,
  };
}

function sourceFilterFor(query: Query) {
  return parseSourceParams(query._source, query._source_includes ?? query._source_include, query._source_excludes ?? query._source_exclude);
}

function getDocument(indices: IndicesService, req: RestRequest) {
  const index = indices.require(req.params.index);
  return { index, result: index.get(req.params.id, req.query.routing ?? null) };
}

export function documentRoutes(writes: WriteFlow): RouteDef[] {
  const indices: IndicesService = writes.indices;
  return [
    {
      methods: ['PUT', 'POST'],
      paths: ['/:index/_doc/:id'],
      authz: { action: 'indices:data/write/index', autoCreate: true },
      params: INDEX_PARAMS,
      handler: (req) => indexDocument(writes, req, req.params.id, false),
    },
    {
      methods: ['POST'],
      paths: ['/:index/_doc'],
      authz: { action: 'indices:data/write/index', autoCreate: true },
      params: INDEX_PARAMS,
      handler: (req) => indexDocument(writes, req, null, false),
    },
    {
      methods: ['PUT', 'POST'],
      paths: ['/:index/_create/:id'],
      authz: { action: 'indices:data/write/index', autoCreate: true },
      params: INDEX_PARAMS,
      handler: (req) => indexDocument(writes, req, req.params.id, true),
    },
    {
      methods: ['GET'],
      paths: ['/:index/_doc/:id'],
      authz: { action: 'indices:data/read/get' },
      takesBody: false,
      params: GET_PARAMS,
      handler: (req) => {
        const { index, result } = getDocument(indices, req);
        if (!result.found) return { status: 404, body: { _index: index.name, _id: result.id, found: false } };
        const body: Record<string, unknown> = {
          _index: index.name, _id: result.id, _version: result.version, _seq_no: result.seqNo, _primary_term: result.primaryTerm, found: true,
        };
        const filter = sourceFilterFor(req.query);
        let json = JSON.stringify(body);
        if (result.source !== null && (filter === null || filter.fetch)) {
          const src = filter && (filter.includes.length > 0 || filter.excludes.length > 0)
            ? JSON.stringify(filterSource(JSON.parse(result.source) as Record<string, unknown>, filter))
            : result.source;
          json = json.slice(0, -1) + `,"_source":${src}}`;
        }
        return { body: json };
      },
    },
    {
      methods: ['HEAD'],
      paths: ['/:index/_doc/:id'],
      authz: { action: 'indices:data/read/get' },
      takesBody: false,
      params: GET_PARAMS,
      handler: (req) => {
        let index;
        try {
          index = indices.require(req.params.index);
        } catch {
          return { status: 404 };
        }
        return { status: index.get(req.params.id, req.query.routing ?? null).found ? 200 : 404 };
      },
    },
    {
      methods: ['GET'],
      paths: ['/:index/_source/:id'],
      authz: { action: 'indices:data/read/get' },
      takesBody: false,
      params: GET_PARAMS,
      handler: (req) => {
        const { index, result } = getDocument(indices, req);
        if (!result.found || result.source === null) {
          throw new EsError('resource_not_found_exception', `Document not found [${index.name}]/[${result.id}]`, 404);
        }
        const filter = sourceFilterFor(req.query);
        if (filter && (filter.includes.length > 0 || filter.excludes.length > 0)) {
          return { body: filterSource(JSON.parse(result.source) as Record<string, unknown>, filter) };
        }
        return { body: result.source };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/:index/_doc/:id'],
      authz: { action: 'indices:data/write/delete' },
      takesBody: false,
      params: WRITE_PARAMS,
      handler: async (req) => {
        const index = indices.requireWrite(req.params.index);
        const policy = refreshParam(req.query);
        const result = index.delete(req.params.id, writeOptions(req.query, false));
        const forced = await completeOne(writes, policy, index, result.shard);
        return { status: writeStatus(result.result), body: writeBody(index, result, forced) };
      },
    },
    {
      methods: ['POST'],
      paths: ['/:index/_update/:id'],
      authz: { action: 'indices:data/write/update', autoCreate: true },
      params: [...WRITE_PARAMS, 'retry_on_conflict', '_source', '_source_includes', '_source_excludes', 'lang'],
      handler: async (req) => {
        const update = parseUpdateRequest((requireBody(req), jsonObjectBody(req)));
        // An update reads and writes the document in one synchronous step on the coordinator, so no
        // other write can slip in between and a conflict retry never has anything to retry; the
        // parameter is still validated as ES does.
        intParam(req.query, 'retry_on_conflict', 0);
        const policy = refreshParam(req.query);
        const opts = writeOptions(req.query, false);
        const index = writes.target('update', req.params.index);
        const result = index.update(req.params.id, update, opts);
        const forced = await completeOne(writes, policy, index, result.shard);
        const body = writeBody(index, result, forced);
        // The body's `_source` wins over the URL's, as in ES RestUpdateAction.
        const get = updateGetSection(index, result.id, opts.routing, update.source ?? sourceFilterFor(req.query));
        if (get) body.get = get;
        return { status: writeStatus(result.result), body };
      },
    },
  ];
}
