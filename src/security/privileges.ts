/**
 * Named privileges and the actions they grant (ES ClusterPrivilegeResolver, IndexPrivilege). An
 * action is ES's transport action name (`indices:data/read/search`); a privilege is a set of action
 * patterns where `*` matches any run of characters. The tables are the one place that says which
 * privilege grants what: authorization checks and the "this action is granted by …" part of a 403
 * are both derived from them.
 */
import { IllegalArgumentError } from '../errors/index.js';
import { globMatcher } from '../common/wildcard.js';

export type PrivilegeKind = 'cluster' | 'index';

/** Security actions every authenticated caller may use on itself (ES RBACEngine.checkSameUserPermissions). */
export const SELF_ACTIONS: ReadonlySet<string> = new Set([
  'cluster:admin/xpack/security/user/authenticate',
  'cluster:admin/xpack/security/user/has_privileges',
]);

const SECURITY = 'cluster:admin/xpack/security/*';
const API_KEY = 'cluster:admin/xpack/security/api_key/*';

interface Privilege {
  readonly grants: readonly string[];
  /** Action patterns carved out of `grants` (ES `manage` excludes security administration). */
  readonly except?: readonly string[];
}

/** Cluster privileges, narrowest first (the order a 403 lists them in). */
const CLUSTER: ReadonlyMap<string, Privilege> = new Map<string, Privilege>([
  ['none', { grants: [] }],
  // ES 8.15's MONITOR_PATTERN reads templates too (GetIndexTemplates, GetComponentTemplate, GetComposableIndexTemplate).
  ['monitor', { grants: ['cluster:monitor/*', 'indices:admin/template/get', 'cluster:admin/component_template/get', 'indices:admin/index_template/get'] }],
  ['monitor_ml', { grants: ['cluster:monitor/xpack/ml/*'] }],
  // ES MONITOR_INFERENCE_PATTERN also grants inference against a model deployment.
  ['monitor_inference', { grants: ['cluster:monitor/xpack/inference*', 'cluster:monitor/xpack/ml/trained_models/deployment/infer'] }],
  ['manage_index_templates', { grants: ['indices:admin/template/*', 'indices:admin/index_template/*', 'cluster:admin/component_template/*'] }],
  ['manage_ingest_pipelines', { grants: ['cluster:admin/ingest/pipeline/*'] }],
  ['manage_pipeline', { grants: ['cluster:admin/ingest/pipeline/*'] }],
  ['manage_ml', { grants: ['cluster:admin/xpack/ml/*', 'cluster:monitor/xpack/ml/*'] }],
  ['manage_inference', { grants: ['cluster:admin/xpack/inference/*', 'cluster:monitor/xpack/inference*', 'cluster:monitor/xpack/ml/trained_models/deployment/infer'] }],
  // ES ClusterPrivilegeResolver: taking snapshots and watching them, without restoring or deleting.
  ['monitor_snapshot', { grants: ['cluster:admin/snapshot/status*', 'cluster:admin/snapshot/get', 'cluster:admin/repository/get'] }],
  ['create_snapshot', { grants: ['cluster:admin/snapshot/create', 'cluster:admin/snapshot/status*', 'cluster:admin/snapshot/get', 'cluster:admin/repository/get'] }],
  ['manage_own_api_key', { grants: [API_KEY] }],
  ['manage_api_key', { grants: [API_KEY] }],
  ['read_security', { grants: ['cluster:admin/xpack/security/*/get', 'cluster:admin/xpack/security/*/query'] }],
  ['manage_security', { grants: [SECURITY] }],
  ['manage', { grants: ['cluster:*', 'indices:admin/template/*', 'indices:admin/index_template/*'], except: [SECURITY] }],
  ['all', { grants: ['cluster:*', 'indices:admin/template/*', 'indices:admin/index_template/*'] }],
]);

const WRITE_MAPPING = ['indices:admin/mapping/put', 'indices:admin/mapping/auto_put'];

/**
 * Index privileges, narrowest first: the order ES lists them in a 403 ("granted by the index
 * privileges [create_doc,create,index,write,all]").
 */
const INDEX: ReadonlyMap<string, Privilege> = new Map<string, Privilege>([
  ['none', { grants: [] }],
  ['read', { grants: ['indices:data/read/*', 'indices:admin/resolve/index'] }],
  ['auto_configure', { grants: ['indices:admin/auto_create', 'indices:admin/mapping/auto_put'] }],
  ['create_doc', { grants: ['indices:data/write/index', 'indices:data/write/index:op_type/create', 'indices:data/write/bulk*', ...WRITE_MAPPING] }],
  ['create', { grants: ['indices:data/write/index*', 'indices:data/write/bulk*', ...WRITE_MAPPING] }],
  ['delete', { grants: ['indices:data/write/delete*', 'indices:data/write/bulk*'] }],
  ['index', { grants: ['indices:data/write/index*', 'indices:data/write/update*', 'indices:data/write/bulk*', ...WRITE_MAPPING] }],
  ['write', { grants: ['indices:data/write/*', ...WRITE_MAPPING] }],
  ['create_index', { grants: ['indices:admin/create', 'indices:admin/auto_create'] }],
  ['delete_index', { grants: ['indices:admin/delete'] }],
  ['maintenance', { grants: ['indices:admin/refresh*', 'indices:admin/flush*', 'indices:admin/forcemerge*'] }],
  ['monitor', { grants: ['indices:monitor/*'] }],
  ['view_index_metadata', {
    grants: ['indices:admin/get', 'indices:admin/aliases/get', 'indices:admin/mappings/get', 'indices:admin/mappings/fields/get*', 'indices:monitor/settings/get', 'indices:admin/resolve/index',
      'indices:admin/data_stream/get', 'indices:admin/validate/query*'],
  }],
  ['manage', { grants: ['indices:monitor/*', 'indices:admin/*'] }],
  ['all', { grants: ['indices:*'] }],
]);

function table(kind: PrivilegeKind): ReadonlyMap<string, Privilege> {
  return kind === 'cluster' ? CLUSTER : INDEX;
}

const matchers = new Map<string, (action: string) => boolean>();

/** Whether the named privilege grants `action`; names must have been validated. */
export function privilegeGrants(kind: PrivilegeKind, name: string, action: string): boolean {
  const key = `${kind}:${name}`;
  let match = matchers.get(key);
  if (!match) {
    const p = table(kind).get(name);
    if (!p) return false;
    const grants = p.grants.map(globMatcher);
    const except = (p.except ?? []).map(globMatcher);
    match = (a) => grants.some((re) => re.test(a)) && !except.some((re) => re.test(a));
    matchers.set(key, match);
  }
  return match(action);
}

/** The action patterns a named privilege grants (an action name stands for itself). */
export function privilegePatterns(kind: PrivilegeKind, name: string): readonly string[] {
  return name.includes(':') ? [name] : table(kind).get(name)?.grants ?? [];
}

/** The predefined privileges that grant `action`, in ES's order (for "this action is granted by …"). */
export function grantingPrivileges(kind: PrivilegeKind, action: string): string[] {
  return [...table(kind).keys()].filter((name) => name !== 'none' && privilegeGrants(kind, name, action));
}

/** Throws ES's error for a privilege name that is not one of the predefined ones. */
export function validatePrivilege(kind: PrivilegeKind, name: string): void {
  if (table(kind).has(name)) return;
  const names = [...table(kind).keys()].sort().join(',');
  throw new IllegalArgumentError(
    kind === 'cluster'
      ? `unknown cluster privilege [${name}]. a privilege must be either one of the predefined cluster privilege names [${names}] or a pattern over one of the available cluster actions`
      : `unknown index privilege [${name}]. a privilege must be either one of the predefined fixed indices privileges [${names}] or a pattern over one of the available index actions`,
  );
}

export function isClusterAction(action: string): boolean {
  // ES's template actions are named like index actions but authorized as cluster actions.
  return action.startsWith('cluster:') || action.startsWith('indices:admin/template/') || action.startsWith('indices:admin/index_template/');
}
