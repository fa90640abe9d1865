/**
 * Alias APIs (ES RestIndicesAliasesAction, RestIndexPutAliasAction, RestIndexDeleteAliasesAction,
 * RestGetAliasesAction): `POST /_aliases` actions, add/remove one alias, get and exists. The
 * aliases themselves live in cluster/indices/aliases.ts; this file only translates requests.
 */
import { parseAliasActions, parseAliasProperties, parseBody, type AliasAction } from '../dsl/index.js';
import { render, type IndicesService } from '../cluster/index.js';
import type { RequestAuthorizer } from './authorization.js';
import { INDICES_OPTIONS, resolveParams } from './params.js';
import { hasBody, jsonObjectBody, type RestRequest, type RestResponse, type RouteDef } from './rest.js';

const MASTER = ['timeout', 'master_timeout'];
const ACTION = 'indices:admin/aliases';

/**
 * `POST /_aliases` names its indices in the body, so each action is authorized here (ES checks
 * `indices:admin/aliases` on the indices and, for add/remove, on the alias names too).
 */
function authorizeActions(authorizer: RequestAuthorizer | undefined, indices: IndicesService, actions: readonly AliasAction[]): void {
  if (!authorizer) return;
  for (const a of actions) {
    const concrete = a.indices.flatMap((e) => indices.resolve(e, { ignoreUnavailable: true, allowNoIndices: true, expandHidden: false }).map((i) => i.name));
    authorizer.require(ACTION, [...new Set([...concrete, ...a.indices.filter((e) => !e.includes('*') && e !== '_all')])]);
    if (a.kind !== 'remove_index') authorizer.require(ACTION, a.aliases.filter((n) => !n.includes('*') && n !== '_all'));
    if (a.kind === 'remove_index') authorizer.require('indices:admin/delete', concrete);
  }
}

/** ES's answer to an alias change (8.14+ adds `errors`, false when every action applied). */
const ACKNOWLEDGED = { acknowledged: true, errors: false };

function splitNames(v: string | undefined): string[] | null {
  if (v === undefined || v === '' || v === '_all' || v === '*') return null;
  return v.split(',').map((n) => n.trim()).filter((n) => n !== '');
}

/**
 * `GET /_alias[/{name}]`, `GET /{index}/_alias[/{name}]`: per index, its aliases (matching the
 * names). Names that match nothing make it a 404 that still lists what was found, as ES does.
 */
function getAliases(indices: IndicesService, req: RestRequest, head: boolean): RestResponse {
  const names = splitNames(req.params.name);
  const targets = indices.resolve(req.params.index, resolveParams(req.query, { ignoreUnavailable: false, allowNoIndices: true })).map((i) => i.name).sort();
  const { found, missing } = indices.aliases.select(targets, names);
  const body: Record<string, unknown> = {};
  for (const [index, aliases] of found) {
    // With names asked for, only indices that have one of them are listed.
    if (names !== null && aliases.size === 0) continue;
    body[index] = { aliases: Object.fromEntries([...aliases].map(([a, p]) => [a, render(p)])) };
  }
  if (head) return { status: missing.length === 0 && (names === null || Object.keys(body).length > 0) ? 200 : 404 };
  if (missing.length === 0) return { body };
  const reason = missing.length === 1 ? `alias [${missing[0]}] missing` : `aliases [${missing.join(',')}] missing`;
  return { status: 404, body: { error: reason, status: 404, ...body } };
}

export function aliasRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['POST'],
      paths: ['/_aliases'],
      authz: { action: ACTION, perItem: true },
      params: MASTER,
      handler: async (req) => {
        const actions = parseAliasActions(!hasBody(req) ? {} : jsonObjectBody(req));
        authorizeActions(req.authorizer, indices, actions);
        await indices.applyAliasActions(actions);
        return { body: ACKNOWLEDGED };
      },
    },
    {
      methods: ['PUT', 'POST'],
      paths: ['/:index/_alias/:name', '/:index/_aliases/:name'],
      authz: { action: ACTION },
      params: MASTER,
      handler: async (req) => {
        const aliases = req.params.name.split(',');
        const properties = parseBody(() => parseAliasProperties(!hasBody(req) ? {} : jsonObjectBody(req), 'alias', aliases[0]));
        req.authorizer?.require(ACTION, aliases);
        await indices.applyAliasActions([{ kind: 'add', indices: [req.params.index], aliases, properties, mustExist: null }]);
        return { body: ACKNOWLEDGED };
      },
    },
    {
      methods: ['DELETE'],
      paths: ['/:index/_alias/:name', '/:index/_aliases/:name'],
      authz: { action: ACTION },
      takesBody: false,
      params: MASTER,
      handler: async (req) => {
        const aliases = req.params.name.split(',');
        req.authorizer?.require(ACTION, aliases.filter((n) => !n.includes('*') && n !== '_all'));
        await indices.applyAliasActions([{ kind: 'remove', indices: [req.params.index], aliases, mustExist: null }]);
        return { body: ACKNOWLEDGED };
      },
    },
    {
      methods: ['GET'],
      paths: ['/_alias', '/_alias/:name', '/:index/_alias', '/:index/_alias/:name', '/_aliases', '/:index/_aliases', '/:index/_aliases/:name'],
      authz: { action: 'indices:admin/aliases/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'master_timeout'],
      handler: (req) => getAliases(indices, req, false),
    },
    {
      methods: ['HEAD'],
      paths: ['/_alias/:name', '/:index/_alias/:name', '/:index/_alias'],
      authz: { action: 'indices:admin/aliases/get' },
      takesBody: false,
      params: [...INDICES_OPTIONS, 'local', 'master_timeout'],
      handler: (req) => {
        try {
          return getAliases(indices, req, true);
        } catch {
          return { status: 404 };
        }
      },
    },
  ];
}
