/**
 * `_reindex`, `_update_by_query`, `_delete_by_query` and their `_rethrottle` (ES RestReindexAction,
 * RestUpdateByQueryAction, RestDeleteByQueryAction, RestRethrottleAction). Every request runs as a
 * task (listed in `_tasks` while it runs); `wait_for_completion=false` answers `{"task": id}` at
 * once and keeps the result for `GET /_tasks/<id>`. Reindex checks, for the caller's key, read on
 * the source indices and write on the destination, as ES's child search and bulk requests would.
 */
import { ActionRequestValidationError, IllegalArgumentError } from '../errors/index.js';
import { parseByQueryBody, parseConflicts, parseReindexBody, type Conflicts } from '../dsl/index.js';
import {
  ByScrollJob, type ByScrollDeps, type ByScrollKind, type ByScrollRequest, type IndicesService, type SearchPool, type WriteFlow,
} from '../cluster/index.js';
import { authorizeOf } from './documents.js';
import type { JsonObject, TaskManager } from '../tasks/index.js';
import { boolParam, intParam, longParam, refreshParam, resolveParams, INDICES_OPTIONS, type Query } from './params.js';
import { hasBody, jsonBody, type RestRequest, type RestResponse, type RouteDef } from './rest.js';
import { renderTaskNodes, type TaskNodeInfo } from './tasks.js';

export interface ByQueryDeps {
  readonly indices: IndicesService;
  readonly writes: WriteFlow;
  readonly tasks: TaskManager;
  readonly pool: SearchPool;
  readonly inference: ByScrollDeps['inference'];
  readonly node: TaskNodeInfo;
  /** Benchmarks read where the time went (pipelines vs writes). */
  readonly timings?: { ingestMs: number; writeMs: number };
}

/** The source search's wildcard states (ES SearchRequest's default, strictExpandOpen: open, not hidden). */
const STRICT_EXPAND_OPEN = { expandOpen: true, expandHidden: false };

const DEFAULT_BATCH_SIZE = 1000;
const ACTIONS: Record<ByScrollKind, string> = {
  reindex: 'indices:data/write/reindex',
  update_by_query: 'indices:data/write/update/byquery',
  delete_by_query: 'indices:data/write/delete/byquery',
};

/** ES RestReindexAction / AbstractBaseReindexRestHandler `requests_per_second`: -1 or a float > 0. */
export function requestsPerSecondParam(query: Query): number {
  const v = query.requests_per_second;
  if (v === undefined || v === '-1') return -1;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new IllegalArgumentError('[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  return n;
}

/** `slices`: `auto` (the smallest source shard count) or an integer ≥ 1. */
function slicesParam(query: Query): number | 'auto' {
  if (query.slices === 'auto') return 'auto';
  const n = intParam(query, 'slices', 1);
  if (n < 1) throw new IllegalArgumentError(`[slices] must be at least 1, was [${n}]`);
  return n;
}

interface Plan {
  readonly kind: ByScrollKind;
  readonly description: string;
  /** Builds the request once the task runs (missing sources are the task's error, as in ES). */
  build(): Omit<ByScrollRequest, 'slices'> & { slices: number | 'auto' };
}

async function runByScroll(deps: ByQueryDeps, req: RestRequest, plan: Plan): Promise<RestResponse> {
  const wait = boolParam(req.query, 'wait_for_completion', true);
  let job: ByScrollJob | null = null;
  const { task, result } = deps.tasks.start({
    action: ACTIONS[plan.kind], description: plan.description, cancellable: true, storeResult: !wait,
    status: () => job?.status() ?? {},
  }, async (t) => {
    const built = plan.build();
    const slices = built.slices === 'auto' ? Math.max(1, Math.min(...built.source.map((i) => i.shards.length))) : built.slices;
    job = new ByScrollJob({ ...built, slices, authorize: authorizeOf(req) }, {
      indices: deps.indices, pool: deps.pool, inference: deps.inference, writes: deps.writes, timings: deps.timings,
    }, t);
    return (await job.run()) as JsonObject;
  });
  if (!wait) return { body: { task: task.taskId } };
  return { body: await result };
}

function commonParams(req: RestRequest, defaults: { conflicts: Conflicts | null; maxDocs: number | null; size: number | null }) {
  const maxDocsParam = longParam(req.query, 'max_docs');
  if (maxDocsParam !== null && maxDocsParam < -1) {
    throw new IllegalArgumentError(`maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${maxDocsParam}]`);
  }
  return {
    requestsPerSecond: requestsPerSecondParam(req.query),
    slices: slicesParam(req.query),
    refresh: refreshParam(req.query) !== 'none',
    conflicts: req.query.conflicts !== undefined ? parseConflicts(req.query.conflicts) : defaults.conflicts ?? 'abort',
    maxDocs: maxDocsParam !== null ? (maxDocsParam === -1 ? null : maxDocsParam) : defaults.maxDocs,
    size: req.query.scroll_size !== undefined ? intParam(req.query, 'scroll_size', DEFAULT_BATCH_SIZE) : defaults.size ?? DEFAULT_BATCH_SIZE,
  };
}

function checkSize(size: number): void {
  if (size < 1) throw new IllegalArgumentError(`[size] must be greater than 0 but was [${size}]`);
}

const BY_SCROLL_PARAMS = ['wait_for_completion', 'refresh', 'requests_per_second', 'slices', 'timeout', 'scroll', 'max_docs', 'wait_for_active_shards'];

export function reindexRoutes(deps: ByQueryDeps): RouteDef[] {
  const { indices } = deps;
  const byQuery = (kind: 'update_by_query' | 'delete_by_query') => async (req: RestRequest): Promise<RestResponse> => {
    const body = parseByQueryBody(jsonBody(req), kind);
    if (kind === 'delete_by_query' && body.query === null) throw new ActionRequestValidationError(['query is missing']);
    const p = commonParams(req, { conflicts: body.conflicts, maxDocs: body.maxDocs, size: null });
    checkSize(p.size);
    const pipeline = kind === 'update_by_query' ? req.query.pipeline ?? null : null;
    const expression = req.params.index;
    const resolve = resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true });
    if (req.query.q !== undefined) throw new IllegalArgumentError('[q] is not supported on this API by this server; send a query in the body');
    const query = body.query;
    return runByScroll(deps, req, {
      kind,
      description: `${kind === 'update_by_query' ? 'update-by-query' : 'delete-by-query'} [${expression}]`,
      build: () => ({
        kind, source: indices.resolve(expression, resolve), query, size: p.size, maxDocs: p.maxDocs, conflicts: p.conflicts,
        requestsPerSecond: p.requestsPerSecond, slices: p.slices, refresh: p.refresh, sourceFilter: null, dest: null, pipeline,
      }),
    });
  };
  const rethrottle: RouteDef['handler'] = (req) => {
    if (req.query.requests_per_second === undefined) throw new IllegalArgumentError('requests_per_second is a required parameter');
    const rps = requestsPerSecondParam(req.query);
    const task = deps.tasks.require(req.params.task_id);
    if (!task.rethrottle) throw new IllegalArgumentError(`task [${req.params.task_id}] does not support rethrottling`);
    task.rethrottle(rps);
    return { body: renderTaskNodes(deps.node, [task], true) };
  };
  return [
    {
      methods: ['POST'],
      paths: ['/_reindex'],
      queryBody: true,
      // The sources and the destination are checked in the handler: read on one, write on the other.
      authz: { action: ACTIONS.reindex, perItem: true },
      params: [...BY_SCROLL_PARAMS, 'require_alias'],
      handler: (req) => {
        if (!hasBody(req)) throw new IllegalArgumentError('request body is required');
        const body = parseReindexBody(jsonBody(req));
        const p = commonParams(req, { conflicts: body.conflicts, maxDocs: body.maxDocs, size: body.size });
        checkSize(p.size);
        let sourceExpression = body.sourceIndex;
        if (req.authorizer) {
          sourceExpression = req.authorizer.narrow('indices:data/read/search', sourceExpression, () => indices.names(), () => STRICT_EXPAND_OPEN, indices.isHidden) ?? sourceExpression;
          const dest = [body.destIndex];
          req.authorizer.require('indices:data/write/bulk[s]', dest);
          req.authorizer.require(`indices:data/write/index:op_type/${body.opType}`, dest);
          if (indices.get(body.destIndex) === undefined) req.authorizer.require('indices:admin/auto_create', dest);
        }
        return runByScroll(deps, req, {
          kind: 'reindex',
          description: `reindex from [${body.sourceIndex}] to [${body.destIndex}]`,
          build: () => {
            const source = indices.resolve(sourceExpression);
            const target = source.find((i) => i.name === body.destIndex);
            if (target) throw new IllegalArgumentError(`reindex cannot write into an index its reading from [${target.name}]`);
            return {
              kind: 'reindex', source, query: body.query, size: p.size, maxDocs: p.maxDocs, conflicts: p.conflicts, requestsPerSecond: p.requestsPerSecond,
              slices: p.slices, refresh: p.refresh, sourceFilter: body.sourceFilter, dest: { index: body.destIndex, opType: body.opType, pipeline: body.pipeline }, pipeline: null,
            };
          },
        });
      },
    },
    {
      methods: ['POST'],
      paths: ['/:index/_update_by_query'],
      queryBody: true,
      authz: { action: ACTIONS.update_by_query },
      params: [...BY_SCROLL_PARAMS, ...INDICES_OPTIONS, 'pipeline', 'conflicts', 'scroll_size', 'q', 'routing'],
      handler: byQuery('update_by_query'),
    },
    {
      methods: ['POST'],
      paths: ['/:index/_delete_by_query'],
      queryBody: true,
      authz: { action: ACTIONS.delete_by_query },
      params: [...BY_SCROLL_PARAMS, ...INDICES_OPTIONS, 'conflicts', 'scroll_size', 'q', 'routing'],
      handler: byQuery('delete_by_query'),
    },
    {
      methods: ['POST'],
      paths: ['/_reindex/:task_id/_rethrottle', '/_update_by_query/:task_id/_rethrottle', '/_delete_by_query/:task_id/_rethrottle'],
      authz: { action: 'cluster:admin/reindex/rethrottle' },
      takesBody: false,
      params: ['requests_per_second', 'group_by'],
      handler: rethrottle,
    },
  ];
}
