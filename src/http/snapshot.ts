/**
 * Snapshot and restore APIs (ES RestPutRepositoryAction, RestGetRepositoriesAction,
 * RestDeleteRepositoryAction, RestVerifyRepositoryAction, RestCreateSnapshotAction,
 * RestGetSnapshotsAction, RestSnapshotsStatusAction, RestRestoreSnapshotAction,
 * RestDeleteSnapshotAction, RestSnapshotAction for `_cat/snapshots`). The work is in
 * cluster/snapshots/; `wait_for_completion=false` (the default) answers `{"accepted": true}` and
 * the snapshot or restore goes on in the background.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { parseCreateSnapshotBody, parsePutRepositoryBody, parseRestoreSnapshotBody, parseJsonObject } from '../dsl/index.js';
import type { RepositoriesService, SnapshotMetadata, SnapshotsService } from '../cluster/index.js';
import { CAT_PARAMS, renderCat, type CatColumn } from './cat-table.js';
import { boolParam } from './params.js';
import type { RestRequest, RestResponse, RouteDef } from './rest.js';

function optionalBody(req: RestRequest): Record<string, unknown> | null {
  return req.body === null || req.body.trim() === '' ? null : parseJsonObject(req.body);
}

/** `wait_for_completion=false` (the default): `{"accepted": true}` now, the work goes on; else its rendered result. */
async function acceptedOrDone<T>(req: RestRequest, done: Promise<T>, render: (result: T) => Promise<unknown>): Promise<RestResponse> {
  if (boolParam(req.query, 'wait_for_completion', false)) return { body: await render(await done) };
  // The failure of a background run reaches nobody (ES logs it); the repository is unchanged by it.
  done.catch(() => undefined);
  return { body: { accepted: true } };
}

function oneOf<T extends string>(req: RestRequest, name: string, allowed: readonly T[], def: T): T {
  const v = req.query[name];
  if (v === undefined) return def;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new IllegalArgumentError(`[${name}] must be one of [${allowed.join(', ')}] but was [${v}]`);
}

const SNAPSHOT_COLUMNS: CatColumn<SnapshotMetadata>[] = [
  { name: 'id', aliases: ['snapshot'], desc: 'unique snapshot', default: true, value: (m) => m.snapshot },
  { name: 'repository', aliases: ['re', 'repo'], desc: 'repository name', default: true, value: (m) => m.repository },
  { name: 'status', aliases: ['s'], desc: 'snapshot name', default: true, value: (m) => m.state },
  { name: 'start_epoch', aliases: ['ste', 'startEpoch'], desc: 'start time in seconds since 1970-01-01 00:00:00', default: true, value: (m) => Math.floor(m.start_time_in_millis / 1000) },
  { name: 'start_time', aliases: ['sti', 'startTime'], desc: 'start time in HH:MM:SS', default: true, value: (m) => new Date(m.start_time_in_millis).toISOString().slice(11, 19) },
  { name: 'end_epoch', aliases: ['ete', 'endEpoch'], desc: 'end time in seconds since 1970-01-01 00:00:00', default: true, value: (m) => Math.floor(m.end_time_in_millis / 1000) },
  { name: 'end_time', aliases: ['eti', 'endTime'], desc: 'end time in HH:MM:SS', default: true, value: (m) => new Date(m.end_time_in_millis).toISOString().slice(11, 19) },
  { name: 'duration', aliases: ['dur'], desc: 'duration', default: true, kind: 'time', value: (m) => (m.end_time_in_millis || Date.now()) - m.start_time_in_millis },
  { name: 'indices', aliases: ['i'], desc: 'number of indices', default: true, kind: 'number', value: (m) => m.indices.length },
  { name: 'successful_shards', aliases: ['ss'], desc: 'number of successful shards', default: true, kind: 'number', value: (m) => shards(m) },
  { name: 'failed_shards', aliases: ['fs'], desc: 'number of failed shards', default: true, kind: 'number', value: () => 0 },
  { name: 'total_shards', aliases: ['ts'], desc: 'number of total shards', default: true, kind: 'number', value: (m) => shards(m) },
  { name: 'reason', aliases: ['r'], desc: 'reason for failures', value: () => '' },
];

function shards(m: SnapshotMetadata): number {
  return Object.values(m.index_details).reduce((n, d) => n + d.shards.length, 0);
}

export function snapshotRoutes(repositories: RepositoriesService, snapshots: SnapshotsService, node: { id: string; name: string }): RouteDef[] {
  const inUse = (name: string) => snapshots.inUse(name);
  return [
    {
      methods: ['PUT', 'POST'],
      paths: ['/_snapshot/:repository'],
      authz: { action: 'cluster:admin/repository/put' },
      params: ['master_timeout', 'timeout', 'verify'],
      handler: async (req) => {
        if (req.body === null) throw new IllegalArgumentError('request body is required');
        const body = parsePutRepositoryBody(parseJsonObject(req.body));
        await repositories.put(req.params.repository, body, inUse);
        if (boolParam(req.query, 'verify', true)) await snapshots.verify(req.params.repository, node);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_snapshot', '/_snapshot/:repository'],
      authz: { action: 'cluster:admin/repository/get' },
      takesBody: false,
      params: ['master_timeout', 'local'],
      handler: (req) => ({
        body: Object.fromEntries(repositories.resolve(req.params.repository).map((r) => [r.name, { type: r.metadata.type, settings: r.metadata.settings }])),
      }),
    },
    {
      methods: ['DELETE'],
      paths: ['/_snapshot/:repository'],
      authz: { action: 'cluster:admin/repository/delete' },
      takesBody: false,
      params: ['master_timeout', 'timeout'],
      handler: async (req) => {
        await repositories.delete(req.params.repository, inUse);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['POST'],
      paths: ['/_snapshot/:repository/_verify'],
      authz: { action: 'cluster:admin/repository/verify' },
      takesBody: false,
      params: ['master_timeout', 'timeout'],
      handler: async (req) => ({ body: await snapshots.verify(req.params.repository, node) }),
    },
    {
      methods: ['GET'],
      paths: ['/_snapshot/_status', '/_snapshot/:repository/_status', '/_snapshot/:repository/:snapshot/_status'],
      authz: { action: 'cluster:admin/snapshot/status' },
      takesBody: false,
      params: ['master_timeout', 'ignore_unavailable'],
      handler: async (req) => ({
        body: await snapshots.status(req.params.repository, req.params.snapshot, boolParam(req.query, 'ignore_unavailable', false)),
      }),
    },
    {
      methods: ['PUT', 'POST'],
      paths: ['/_snapshot/:repository/:snapshot'],
      authz: { action: 'cluster:admin/snapshot/create' },
      params: ['master_timeout', 'wait_for_completion'],
      handler: async (req) => {
        const { done } = await snapshots.create(req.params.repository, req.params.snapshot, parseCreateSnapshotBody(optionalBody(req)));
        return acceptedOrDone(req, done, async (meta) => {
          const info = await snapshots.get(req.params.repository, meta.snapshot, { ignoreUnavailable: false, verbose: true, sort: 'start_time', order: 'asc' });
          return { snapshot: (info.snapshots as unknown[])[0] };
        });
      },
    },
    {
      methods: ['GET'],
      paths: ['/_snapshot/:repository/:snapshot'],
      authz: { action: 'cluster:admin/snapshot/get' },
      takesBody: false,
      params: ['master_timeout', 'ignore_unavailable', 'verbose', 'sort', 'order', 'index_details', 'include_repository'],
      handler: async (req) => ({
        body: await snapshots.get(req.params.repository, req.params.snapshot, {
          ignoreUnavailable: boolParam(req.query, 'ignore_unavailable', false),
          verbose: boolParam(req.query, 'verbose', true),
          sort: oneOf(req, 'sort', ['start_time', 'name', 'duration', 'index_count'] as const, 'start_time'),
          order: oneOf(req, 'order', ['asc', 'desc'] as const, 'asc'),
        }),
      }),
    },
    {
      methods: ['POST'],
      paths: ['/_snapshot/:repository/:snapshot/_restore'],
      authz: { action: 'cluster:admin/snapshot/restore' },
      params: ['master_timeout', 'wait_for_completion'],
      handler: async (req) => {
        const { done } = await snapshots.restore(req.params.repository, req.params.snapshot, parseRestoreSnapshotBody(optionalBody(req)));
        return acceptedOrDone(req, done, async (restored) => ({ snapshot: restored }));
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/_snapshot/:repository/:snapshot'],
      authz: { action: 'cluster:admin/snapshot/delete' },
      takesBody: false,
      params: ['master_timeout', 'wait_for_completion'],
      handler: async (req) => {
        await snapshots.delete(req.params.repository, req.params.snapshot);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_cat/snapshots', '/_cat/snapshots/:repository'],
      authz: { action: 'cluster:admin/snapshot/get' },
      takesBody: false,
      params: [...CAT_PARAMS, 'ignore_unavailable'],
      handler: async (req) => {
        const rows = (await snapshots.list(req.params.repository)).sort((a, b) => a.start_time_in_millis - b.start_time_in_millis);
        return renderCat(req, SNAPSHOT_COLUMNS, rows);
      },
    },
  ];
}
