/**
 * Privileges and permissions (ES ClusterPrivilegeResolver / IndexPrivilege / limited-by roles):
 * which named privilege grants which action, the order ES names them in a 403, role descriptor
 * validation, and that a derived key never exceeds its creator.
 */
import { describe, expect, it } from 'vitest';
import { grantingPrivileges, parseRoleDescriptors, Permission, privilegeGrants, SUPERUSER } from '../../src/security/index.js';
import { EsError } from '../../src/errors/index.js';

describe('granting privileges (the "this action is granted by …" part of a 403)', () => {
  // es-api.md §7.4, from ES's AuthorizationDenialMessages.
  it.each([
    ['index', 'indices:data/read/search', ['read', 'all']],
    ['index', 'indices:data/read/get', ['read', 'all']],
    ['index', 'indices:data/write/index', ['create_doc', 'create', 'index', 'write', 'all']],
    ['index', 'indices:data/write/bulk[s]', ['create_doc', 'create', 'delete', 'index', 'write', 'all']],
    ['index', 'indices:admin/auto_create', ['auto_configure', 'create_index', 'manage', 'all']],
    ['index', 'indices:admin/create', ['create_index', 'manage', 'all']],
    ['cluster', 'cluster:monitor/main', ['monitor', 'manage', 'all']],
    // ES 8.15's monitor reads templates; writing them takes manage_index_templates.
    ['cluster', 'indices:admin/index_template/get', ['monitor', 'manage_index_templates', 'manage', 'all']],
    ['cluster', 'indices:admin/index_template/put', ['manage_index_templates', 'manage', 'all']],
    ['cluster', 'cluster:admin/component_template/get', ['monitor', 'manage_index_templates', 'manage', 'all']],
    ['cluster', 'cluster:admin/xpack/security/api_key/create', ['manage_own_api_key', 'manage_api_key', 'manage_security', 'all']],
  ] as const)('%s action %s', (kind, action, expected) => {
    expect(grantingPrivileges(kind, action)).toEqual(expected);
  });

  it('create_doc adds documents but does not overwrite them; index does both', () => {
    expect(privilegeGrants('index', 'create_doc', 'indices:data/write/index:op_type/create')).toBe(true);
    expect(privilegeGrants('index', 'create_doc', 'indices:data/write/index:op_type/index')).toBe(false);
    expect(privilegeGrants('index', 'index', 'indices:data/write/index:op_type/index')).toBe(true);
    expect(privilegeGrants('index', 'index', 'indices:data/write/update')).toBe(true);
    expect(privilegeGrants('index', 'create', 'indices:data/write/update')).toBe(false);
  });

  it('cluster manage does not include security administration', () => {
    expect(privilegeGrants('cluster', 'manage', 'cluster:monitor/health')).toBe(true);
    expect(privilegeGrants('cluster', 'manage', 'cluster:admin/xpack/security/api_key/create')).toBe(false);
    expect(privilegeGrants('cluster', 'all', 'cluster:admin/xpack/security/api_key/create')).toBe(true);
  });
});

describe('role descriptors', () => {
  it('parses names as a string or a list, and `index` as an alias of `indices`', () => {
    const r = parseRoleDescriptors({ a: { cluster: ['monitor'], index: [{ names: 'logs-*', privileges: ['read'] }] } });
    expect(r.a.indices[0]).toEqual({ names: ['logs-*'], privileges: ['read'], allowRestrictedIndices: false });
    expect(r.a.cluster).toEqual(['monitor']);
  });

  function error(v: unknown): EsError {
    try {
      parseRoleDescriptors(v);
    } catch (e) {
      return e as EsError;
    }
    throw new Error('expected an error');
  }

  it('rejects unknown privileges with ES request validation wording', () => {
    const e = error({ a: { cluster: ['fly'], indices: [{ names: ['x'], privileges: ['reed'] }] } });
    expect(e.type).toBe('action_request_validation_exception');
    expect(e.message).toMatch(/^Validation Failed: 1: unknown cluster privilege \[fly\]\. a privilege must be either one of the predefined cluster privilege names \[.*\] or a pattern over one of the available cluster actions;2: unknown index privilege \[reed\]/);
  });

  it.each([
    [{ a: 'x' }, /failed to parse role \[a\]\. expected an object but found \[VALUE_STRING\]/],
    [{ a: { clusters: [] } }, /failed to parse role \[a\]\. unexpected field \[clusters\]/],
    [{ a: { indices: [{ privileges: ['read'] }] } }, /failed to parse indices privileges for role \[a\]\. missing required \[names\] field/],
    [{ a: { indices: [{ names: ['x'] }] } }, /missing required \[privileges\] field/],
    [{ a: { indices: [{ names: ['x'], privileges: ['read'], query: '{"match_all":{}}' }] } }, /document and field level security\) is not supported/],
    [{ a: { cluster: 'all' } }, /expected field \[cluster\] value to be an array of strings/],
    [[], /expected an object but found \[START_ARRAY\]/],
  ])('rejects %j', (v, message) => {
    const e = error(v);
    expect(e.type).toBe('parse_exception');
    expect(e.status).toBe(400);
    expect(e.message).toMatch(message);
  });
});

describe('permissions', () => {
  const reader = parseRoleDescriptors({ r: { indices: [{ names: ['logs-*', 'metrics'], privileges: ['read'] }] } });

  it('matches index patterns and exact names', () => {
    const p = new Permission([reader]);
    expect(p.allowsIndex('indices:data/read/search', 'logs-2024')).toBe(true);
    expect(p.allowsIndex('indices:data/read/search', 'metrics')).toBe(true);
    expect(p.allowsIndex('indices:data/read/search', 'metrics-1')).toBe(false);
    expect(p.allowsIndex('indices:data/write/index', 'logs-2024')).toBe(false);
    expect(p.allowsEveryIndex('indices:data/read/search')).toBe(false);
    expect(new Permission([SUPERUSER]).allowsEveryIndex('indices:data/write/index')).toBe(true);
  });

  it('answers the same when asked again, past the bound of remembered answers too', () => {
    const p = new Permission([reader]);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5000; i++) {
        expect(p.allowsIndex('indices:data/read/search', `logs-${i}`)).toBe(true);
        expect(p.allowsIndex('indices:data/read/search', `other-${i}`)).toBe(false);
      }
      expect(p.allowsIndex('indices:data/read/search', 'metrics')).toBe(true);
      expect(p.allowsIndex('indices:data/write/index', 'metrics')).toBe(false);
    }
  });

  it('supports /regex/ index patterns', () => {
    const p = new Permission([parseRoleDescriptors({ r: { indices: [{ names: ['/logs-[0-9]+/'], privileges: ['read'] }] } })]);
    expect(p.allowsIndex('indices:data/read/search', 'logs-42')).toBe(true);
    expect(p.allowsIndex('indices:data/read/search', 'logs-x')).toBe(false);
  });

  it('a derived key is the intersection of its roles and its creator’s: it can never exceed them', () => {
    const creator = new Permission([reader]);
    const asksForEverything = parseRoleDescriptors({ x: { cluster: ['all'], indices: [{ names: ['*'], privileges: ['all'] }] } });
    const derived = Permission.derived(asksForEverything, creator);
    expect(derived.allowsIndex('indices:data/read/search', 'logs-1')).toBe(true);
    expect(derived.allowsIndex('indices:data/read/search', 'secret')).toBe(false);
    expect(derived.allowsIndex('indices:data/write/index', 'logs-1')).toBe(false);
    expect(derived.allowsCluster('cluster:monitor/main')).toBe(false);
    // No role descriptors: a snapshot of the creator.
    const snapshot = Permission.derived({}, creator);
    expect(snapshot.allowsIndex('indices:data/read/search', 'logs-1')).toBe(true);
    expect(snapshot.allowsIndex('indices:data/read/search', 'secret')).toBe(false);
  });

  it('answers _has_privileges questions for named privileges', () => {
    const p = new Permission([reader]);
    expect(p.hasIndexPrivilege('read', 'logs-1')).toBe(true);
    expect(p.hasIndexPrivilege('write', 'logs-1')).toBe(false);
    expect(p.hasIndexPrivilege('read', 'secret')).toBe(false);
    expect(p.hasClusterPrivilege('monitor')).toBe(false);
    expect(new Permission([SUPERUSER]).hasClusterPrivilege('all')).toBe(true);
  });
});
