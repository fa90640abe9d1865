/**
 * `GET /_resolve/index/{name}` (ES RestResolveIndexAction): the indices and aliases an expression
 * names (cluster/indices/resolve-index.ts). With security on, wildcards expand over what the key
 * may see and a concrete name it may not is ES's 403, so the route authorizes per name itself.
 */
import { indexAbstractionsOf, resolveIndexAbstractions, type IndicesService, type ResolveAccess, type ResolveIndexOptions } from '../cluster/index.js';
import { boolParam, INDICES_OPTIONS, wildcardStates, type Query } from './params.js';
import type { RouteDef } from './rest.js';

const ACTION = 'indices:admin/resolve/index';

/** ES IndicesOptions.fromRequest over the action's default, strictExpandOpen. */
export function resolveIndexOptions(query: Query): ResolveIndexOptions {
  const states = wildcardStates(query, { open: true, closed: false, hidden: false });
  boolParam(query, 'ignore_throttled', false);
  return {
    ignoreUnavailable: boolParam(query, 'ignore_unavailable', false),
    allowNoIndices: boolParam(query, 'allow_no_indices', true),
    expandOpen: states.open,
    expandClosed: states.closed,
    expandHidden: states.hidden,
  };
}

export function resolveIndexRoutes(indices: IndicesService): RouteDef[] {
  return [
    {
      methods: ['GET'],
      paths: ['/_resolve/index/:name'],
      // Names come per item: which ones the key may see is decided while resolving.
      authz: { action: ACTION, perItem: true },
      takesBody: false,
      params: INDICES_OPTIONS,
      handler: (req) => {
        const authorizer = req.authorizer;
        const access: ResolveAccess | null = authorizer && !authorizer.auth.permission.allowsEveryIndex(ACTION)
          ? {
              allows: (name) => authorizer.auth.permission.allowsIndex(ACTION, name),
              refuse: (name) => {
                authorizer.require(ACTION, [name]);
                throw new Error(`unreachable: [${name}] was refused`);
              },
            }
          : null;
        return { body: resolveIndexAbstractions(req.params.name, indexAbstractionsOf(indices), resolveIndexOptions(req.query), access) };
      },
    },
  ];
}
