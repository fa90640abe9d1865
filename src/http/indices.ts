/**
 * Index APIs: create, get, exists, delete, mappings, settings, refresh, flush, force merge
 * (ES RestCreateIndexAction, RestGetIndicesAction, RestPutMappingAction, …). Metadata changes are
 * durable (cluster state saved) before they are acknowledged.
 */
import { render, type IndexService, type IndicesService } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, intParam, resolveParams } from './params.js';
import { hasBody, jsonObjectBody, type RestRequest, type RouteDef } from './rest.js';

const MASTER = ['timeout', 'master_timeout'];

function shardsHeader(indices: IndexService[]): { total: number; successful: number; failed: number } {
  const n = indices.reduce((sum, i) => sum + i.shards.length, 0);
  return { total: n * (1 + (indices[0]?.resolvedSettings.numberOfReplicas ?? 0)), successful: n, failed: 0 };
}

function resolveForRead(indices: IndicesService, req: RestRequest): IndexService[] {
  return indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true }));
}

function renderAliases(indices: IndicesService, index: string): Record<string, unknown> {
  return Object.fromEntries([...indices.aliases.aliasesOf(index)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, p]) => [a, render(p)]));
}

export function indexRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['PUT'],
      paths: ['/:index'],
      authz: { action: 'indices:admin/create' },
      validatesIndexName: true,
      params: [...MASTER, 'wait_for_active_shards', 'include_type_name'],
      handler: async (req) => {
        const body = !hasBody(req) ? {} : jsonObjectBody(req);
        const index = indices.create(req.params.index, body);
        await indices.persist();
        return { body: { acknowledged: true, shards_acknowledged: true, index: index.name } };
      },
    },
    {
      methods: ['HEAD'],
      paths: ['/:index'],
      authz: { action: 'indices:admin/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'flat_settings', 'include_defaults', 'master_timeout'],
      handler: (req) => {
        try {
          const found = resolveForRead(indices, req);
          return { status: found.length > 0 ? 200 : 404 };
        } catch {
          return { status: 404 };
        }
      },
    },
    {
      methods: ['GET'],
      paths: ['/:index'],
      authz: { action: 'indices:admin/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'flat_settings', 'include_defaults', 'master_timeout', 'features'],
      handler: (req) => {
        const flat = boolParam(req.query, 'flat_settings', false);
        const out: Record<string, unknown> = {};
        for (const index of resolveForRead(indices, req)) {
          out[index.name] = { aliases: renderAliases(indices, index.name), mappings: index.renderMapping(), settings: index.renderSettings(flat) };
        }
        return { body: out };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/:index'],
      authz: { action: 'indices:admin/delete' },
      takesBody: false,
      params: [...MASTER, ...INDICES_OPTIONS],
      handler: async (req) => {
        // ES: ignore_unavailable skips named indices that do not exist, and a request left with
        // none is still acknowledged (the official clients' and Rally's "delete if it exists").
        // Wildcards and aliases stay in the expression, so they are refused as without it.
        let expression = req.params.index;
        if (boolParam(req.query, 'ignore_unavailable', false)) {
          const present = expression.split(',').filter((p) => p.includes('*') || p === '_all' || indices.exists(p.trim()));
          if (present.length === 0) return { body: { acknowledged: true } };
          expression = present.join(',');
        }
        await indices.delete(expression);
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_mapping', '/:index/_mapping'],
      authz: { action: 'indices:admin/mappings/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'master_timeout'],
      handler: (req) => {
        const out: Record<string, unknown> = {};
        for (const index of resolveForRead(indices, req)) out[index.name] = { mappings: index.renderMapping() };
        return { body: out };
      },
    },
    {
      methods: ['PUT', 'POST'],
      paths: ['/:index/_mapping'],
      authz: { action: 'indices:admin/mapping/put' },
      params: [...MASTER, ...INDICES_OPTIONS, 'write_index_only'],
      handler: async (req) => {
        const body = !hasBody(req) ? {} : jsonObjectBody(req);
        const targets = indices.resolve(req.params.index);
        try {
          for (const index of targets) index.putMapping(body);
        } finally {
          // Indices updated before one that failed keep their update: it must be durable too.
          await indices.persist();
        }
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_settings', '/:index/_settings', '/:index/_settings/:name'],
      authz: { action: 'indices:monitor/settings/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'master_timeout', 'flat_settings', 'include_defaults'],
      handler: (req) => {
        const flat = boolParam(req.query, 'flat_settings', false);
        const out: Record<string, unknown> = {};
        const names = req.params.name ? req.params.name.split(',') : null;
        for (const index of resolveForRead(indices, req)) out[index.name] = { settings: index.renderSettings(flat, names) };
        return { body: out };
      },
    },
    {
      methods: ['PUT'],
      paths: ['/_settings', '/:index/_settings'],
      authz: { action: 'indices:admin/settings/update' },
      params: [...MASTER, ...INDICES_OPTIONS, 'preserve_existing', 'flat_settings', 'reopen'],
      handler: async (req) => {
        const body = !hasBody(req) ? {} : jsonObjectBody(req);
        const settings = 'settings' in body ? body.settings : body;
        try {
          for (const index of indices.resolve(req.params.index)) index.updateSettings(settings);
        } finally {
          await indices.persist();
        }
        return { body: { acknowledged: true } };
      },
    },
    {
      methods: ['POST', 'GET'],
      paths: ['/_refresh', '/:index/_refresh'],
      authz: { action: 'indices:admin/refresh' },
      takesBody: false,
      params: INDICES_OPTIONS,
      handler: async (req) => {
        const targets = resolveForRead(indices, req);
        await Promise.all(targets.map((i) => i.refresh()));
        return { body: { _shards: shardsHeader(targets) } };
      },
    },
    {
      // Writes every shard's segments to disk, commits them and trims the translog.
      methods: ['POST', 'GET'],
      paths: ['/_flush', '/:index/_flush'],
      authz: { action: 'indices:admin/flush' },
      params: [...INDICES_OPTIONS, 'force', 'wait_if_ongoing'],
      handler: async (req) => {
        // Both are accepted as ES does; a flush here always waits and always commits.
        boolParam(req.query, 'force', false);
        boolParam(req.query, 'wait_if_ongoing', true);
        const targets = resolveForRead(indices, req);
        await Promise.all(targets.map((i) => i.flush()));
        return { body: { _shards: shardsHeader(targets) } };
      },
    },
    {
      methods: ['POST'],
      paths: ['/_forcemerge', '/:index/_forcemerge'],
      authz: { action: 'indices:admin/forcemerge' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion'],
      handler: async (req) => {
        const targets = resolveForRead(indices, req);
        const max = intParam(req.query, 'max_num_segments', 1);
        await Promise.all(targets.map((i) => i.forceMerge(Math.max(1, max))));
        return { body: { _shards: shardsHeader(targets) } };
      },
    },
  ];
}
