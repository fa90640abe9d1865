/**
 * Authorization over the REST API: every index privilege against every API family (es-api.md
 * §7.4 for the actions and the privileges that grant them), index patterns narrowed as ES narrows
 * them, bulk items refused one by one, cluster privileges, key management limits, and the
 * browser key story: read-only on one index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
beforeAll(async () => {
  t = await createSecureTestApp();
  for (const index of ['t1', 'logs-1', 'logs-2', 'secret']) {
    await t.request('PUT', `/${index}/_doc/1?refresh=true`, { title: `doc in ${index}`, n: 1 });
  }
});
afterAll(async () => t.close());

const DATA_READ = ['read', 'all'];
const ADMIN_READ = ['view_index_metadata', 'manage', 'all'];
const MAINTENANCE = ['maintenance', 'manage', 'all'];

/** API family → a request on index pattern `t*` (with the privilege name substituted) → privileges that allow it. */
const OPERATIONS: Array<{ name: string; request: (p: string) => [string, string, unknown?]; allowedBy: string[] }> = [
  { name: 'search', request: () => ['POST', '/t1/_search', { query: { match: { title: 'doc' } } }], allowedBy: DATA_READ },
  { name: 'count', request: () => ['GET', '/t1/_count'], allowedBy: DATA_READ },
  { name: 'get document', request: () => ['GET', '/t1/_doc/1'], allowedBy: DATA_READ },
  { name: 'get _source', request: () => ['GET', '/t1/_source/1'], allowedBy: DATA_READ },
  { name: 'index (overwrite) a document', request: (p) => ['PUT', `/t1/_doc/by-${p}`, { title: 'x' }], allowedBy: ['create', 'index', 'write', 'all'] },
  { name: 'create a document', request: (p) => ['PUT', `/t1/_create/new-${p}`, { title: 'x' }], allowedBy: ['create_doc', 'create', 'index', 'write', 'all'] },
  { name: 'index with an auto id', request: () => ['POST', '/t1/_doc', { title: 'x' }], allowedBy: ['create_doc', 'create', 'index', 'write', 'all'] },
  { name: 'update a document', request: () => ['POST', '/t1/_update/1', { doc: { n: 2 } }], allowedBy: ['index', 'write', 'all'] },
  { name: 'delete a document', request: () => ['DELETE', '/t1/_doc/absent'], allowedBy: ['delete', 'write', 'all'] },
  { name: 'create an index', request: (p) => ['PUT', `/t-new-${p.replace('_', '-')}`], allowedBy: ['create_index', 'manage', 'all'] },
  { name: 'delete an index', request: (p) => ['DELETE', `/t-new-${p.replace('_', '-')}`], allowedBy: ['delete_index', 'manage', 'all'] },
  { name: 'get an index', request: () => ['GET', '/t1'], allowedBy: ADMIN_READ },
  { name: 'get mappings', request: () => ['GET', '/t1/_mapping'], allowedBy: ADMIN_READ },
  { name: 'put mappings', request: () => ['PUT', '/t1/_mapping', { properties: { extra: { type: 'keyword' } } }], allowedBy: ['create_doc', 'create', 'index', 'write', 'manage', 'all'] },
  { name: 'get settings', request: () => ['GET', '/t1/_settings'], allowedBy: ['monitor', 'view_index_metadata', 'manage', 'all'] },
  { name: 'update settings', request: () => ['PUT', '/t1/_settings', { index: { refresh_interval: '1s' } }], allowedBy: ['manage', 'all'] },
  { name: 'refresh', request: () => ['POST', '/t1/_refresh'], allowedBy: MAINTENANCE },
  { name: 'flush', request: () => ['POST', '/t1/_flush'], allowedBy: MAINTENANCE },
  { name: 'force merge', request: () => ['POST', '/t1/_forcemerge'], allowedBy: MAINTENANCE },
];

const PRIVILEGES = ['read', 'view_index_metadata', 'monitor', 'maintenance', 'create_doc', 'create', 'index', 'delete', 'write', 'create_index', 'delete_index', 'manage', 'all'];

describe.each(PRIVILEGES)('index privilege [%s] on t*', (privilege) => {
  let key: string;
  beforeAll(async () => {
    key = (await t.createKey(`p-${privilege}`, role('t*', [privilege]))).encoded;
    // The index the delete operation removes (created up front by the superuser).
    await t.request('PUT', `/t-new-${privilege.replace('_', '-')}`);
    if (OPERATIONS.find((o) => o.name === 'create an index')!.allowedBy.includes(privilege)) await t.request('DELETE', `/t-new-${privilege.replace('_', '-')}`);
  });

  it.each(OPERATIONS)('$name', async (op) => {
    const [method, url, body] = op.request(privilege);
    const res = await t.as(key, method, url, body);
    if (op.allowedBy.includes(privilege)) {
      expect(res.status, `${method} ${url}: ${res.text}`).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status, `${method} ${url}: ${res.text}`).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
      expect(res.body.error.reason).toMatch(/^action \[[^\]]+\] is unauthorized for API key id \[[A-Za-z0-9_-]{20}\] of user \[elastic\] on indices \[t[^\]]*\], this action is granted by the index privileges \[[a-z_,]+\]$/);
    }
  });

  it('no index privilege reaches an index outside its pattern', async () => {
    const res = await t.as(key, 'GET', '/secret/_doc/1');
    expect(res.status).toBe(403);
  });

  it('no index privilege grants cluster actions or key management', async () => {
    expect((await t.as(key, 'GET', '/_cluster/health')).status).toBe(403);
    expect((await t.as(key, 'GET', '/')).status).toBe(403);
    expect((await t.as(key, 'POST', '/_security/api_key', { name: 'x' })).status).toBe(403);
  });
});

describe('cluster privileges', () => {
  it.each([
    ['monitor', { '/': 200, '/_cluster/health': 200, create: 403 }],
    ['manage', { '/': 200, '/_cluster/health': 200, create: 403 }],
    ['manage_own_api_key', { '/': 403, '/_cluster/health': 403, create: 200 }],
    ['manage_api_key', { '/': 403, '/_cluster/health': 403, create: 200 }],
    ['all', { '/': 200, '/_cluster/health': 200, create: 200 }],
  ] as const)('[%s]', async (privilege, expected) => {
    const key = (await t.createKey(`c-${privilege}`, { r: { cluster: [privilege], indices: [] } })).encoded;
    expect((await t.as(key, 'GET', '/')).status).toBe(expected['/']);
    expect((await t.as(key, 'GET', '/_cluster/health')).status).toBe(expected['/_cluster/health']);
    const created = await t.as(key, 'POST', '/_security/api_key', { name: `child-of-${privilege}` });
    expect(created.status).toBe(expected.create);
    if (created.status === 403) {
      expect(created.body.error.reason).toMatch(/^action \[cluster:admin\/xpack\/security\/api_key\/create\] is unauthorized for API key id \[.*\] of user \[elastic\], this action is granted by the cluster privileges \[manage_own_api_key,manage_api_key,manage_security,all\]$/);
    }
  });
});

describe('index expressions are narrowed to authorized indices', () => {
  let key: string;
  beforeAll(async () => {
    key = (await t.createKey('logs-reader', role('logs-*', ['read', 'view_index_metadata']))).encoded;
  });

  async function hitIndices(url: string): Promise<string[]> {
    const res = await t.as(key, 'GET', url);
    expect(res.status, res.text).toBe(200);
    return res.body.hits.hits.map((h: { _index: string }) => h._index).sort();
  }

  it('wildcards and _all expand to authorized indices only', async () => {
    expect(await hitIndices('/_search')).toEqual(['logs-1', 'logs-2']);
    expect(await hitIndices('/*/_search')).toEqual(['logs-1', 'logs-2']);
    expect(await hitIndices('/_all/_search')).toEqual(['logs-1', 'logs-2']);
    expect(await hitIndices('/l*,s*/_search')).toEqual(['logs-1', 'logs-2']);
    expect(await hitIndices('/logs-*,-logs-2/_search')).toEqual(['logs-1']);
    expect((await t.as(key, 'GET', '/_count')).body.count).toBe(2);
  });

  it('a wildcard matching only forbidden indices finds nothing (200), or 404 with allow_no_indices=false', async () => {
    expect(await hitIndices('/sec*/_search')).toEqual([]);
    expect((await t.as(key, 'GET', '/sec*/_search?allow_no_indices=false')).status).toBe(404);
  });

  it('an explicitly named forbidden index is a 403 naming it, even beside allowed ones', async () => {
    const res = await t.as(key, 'GET', '/logs-1,secret/_search');
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toContain('on indices [secret]');
    // A forbidden name is refused whether or not it exists: no probing for index names.
    const missing = await t.as(key, 'GET', '/no-such-index/_search');
    expect(missing.status).toBe(403);
    // An authorized name that does not exist is the usual 404.
    expect((await t.as(key, 'GET', '/logs-9/_search')).status).toBe(404);
  });

  it('metadata APIs are narrowed the same way', async () => {
    const res = await t.as(key, 'GET', '/_mapping');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['logs-1', 'logs-2']);
    expect(Object.keys((await t.as(key, 'GET', '/*')).body).sort()).toEqual(['logs-1', 'logs-2']);
  });
});

describe('bulk', () => {
  it('refuses items one by one (403 per item), and the rest succeed', async () => {
    const key = (await t.createKey('logs-writer', role('logs-*', ['write']))).encoded;
    const ndjson = [
      { index: { _index: 'logs-1', _id: 'b1' } }, { title: 'ok' },
      { index: { _index: 'secret', _id: 'b2' } }, { title: 'refused' },
      { delete: { _index: 'logs-2', _id: 'nothing' } },
      { index: { _index: 'logs-new', _id: 'b3' } }, { title: 'auto-create refused' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const res = await t.as(key, 'POST', '/_bulk', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(true);
    const [ok, refused, del, auto] = res.body.items;
    expect(ok.index.status).toBe(201);
    expect(refused.index.status).toBe(403);
    expect(refused.index.error.type).toBe('security_exception');
    expect(refused.index.error.reason).toMatch(/^action \[indices:data\/write\/bulk\[s\]\] is unauthorized for API key id \[.*\] of user \[elastic\] on indices \[secret\], this action is granted by the index privileges \[create_doc,create,delete,index,write,all\]$/);
    expect(del.delete.status).toBe(404);
    expect(auto.index.status).toBe(403);
    expect(auto.index.error.reason).toContain('action [indices:admin/auto_create]');
    expect((await t.request('GET', '/secret/_doc/b2')).status).toBe(404);
  });

  it('a key with no write privilege anywhere is refused the whole request', async () => {
    const key = (await t.createKey('reader-bulk', role('logs-*', ['read']))).encoded;
    const res = await t.as(key, 'POST', '/_bulk', '{"index":{"_index":"logs-1"}}\n{"a":1}\n', { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toMatch(/^action \[indices:data\/write\/bulk\] is unauthorized for API key id \[.*\] of user \[elastic\], this action is granted by the index privileges/);
  });

  it('create_doc may add but not overwrite', async () => {
    const key = (await t.createKey('appender', role('logs-*', ['create_doc']))).encoded;
    const lines = '{"create":{"_index":"logs-1","_id":"c1"}}\n{"a":1}\n{"index":{"_index":"logs-1","_id":"c2"}}\n{"a":1}\n';
    const res = await t.as(key, 'POST', '/_bulk', lines, { 'content-type': 'application/x-ndjson' });
    expect(res.body.items[0].create.status).toBe(201);
    expect(res.body.items[1].index.status).toBe(403);
    expect(res.body.items[1].index.error.reason).toContain('action [indices:data/write/index:op_type/index]');
  });
});

describe('derived keys and key management', () => {
  it('a key can never hand out more than it has', async () => {
    const parent = await t.createKey('parent', { r: { cluster: ['manage_own_api_key'], indices: [{ names: ['logs-*'], privileges: ['read'] }] } });
    const greedy = await t.createKey('greedy-child', { x: { cluster: ['all'], indices: [{ names: ['*'], privileges: ['all'] }] } }, {}, parent.encoded);
    expect((await t.as(greedy.encoded, 'GET', '/logs-1/_search')).status).toBe(200);
    expect((await t.as(greedy.encoded, 'GET', '/secret/_search')).status).toBe(403);
    expect((await t.as(greedy.encoded, 'PUT', '/logs-1/_doc/9', { a: 1 })).status).toBe(403);
    expect((await t.as(greedy.encoded, 'GET', '/_cluster/health')).status).toBe(403);
    // No role descriptors: a snapshot of the parent.
    const snapshot = await t.createKey('snapshot-child', undefined, {}, parent.encoded);
    expect((await t.as(snapshot.encoded, 'GET', '/logs-1/_search')).status).toBe(200);
    expect((await t.as(snapshot.encoded, 'GET', '/secret/_search')).status).toBe(403);
  });

  it('manage_own_api_key sees and invalidates only its own keys', async () => {
    const owner = await t.createKey('owner', { r: { cluster: ['manage_own_api_key'], indices: [] } });
    const mine = await t.createKey('mine', undefined, {}, owner.encoded);
    const other = await t.createKey('others', role('logs-*', ['read']));
    const listed = (await t.as(owner.encoded, 'GET', '/_security/api_key')).body.api_keys.map((k: { id: string }) => k.id);
    expect(listed).toContain(mine.id);
    expect(listed).not.toContain(other.id);
    const inv = await t.as(owner.encoded, 'DELETE', '/_security/api_key', { ids: [other.id, mine.id] });
    expect(inv.body.invalidated_api_keys).toEqual([mine.id]);
    expect((await t.as(other.encoded, 'GET', '/logs-1/_search')).status).toBe(200);
  });
});

describe('the browser key: read-only on one index', () => {
  let key: string;
  beforeAll(async () => {
    key = (await t.createKey('search-ui', role('t1', ['read']), { expiration: '30d' })).encoded;
  });

  it('searches its index', async () => {
    const res = await t.as(key, 'POST', '/t1/_search', { query: { match_all: {} } });
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBeGreaterThan(0);
  });

  it('cannot search another index, write its own, administer, or create keys', async () => {
    expect((await t.as(key, 'POST', '/secret/_search', {})).status).toBe(403);
    expect((await t.as(key, 'POST', '/t1/_doc', { evil: true })).status).toBe(403);
    expect((await t.as(key, 'DELETE', '/t1/_doc/1')).status).toBe(403);
    expect((await t.as(key, 'DELETE', '/t1')).status).toBe(403);
    expect((await t.as(key, 'POST', '/_security/api_key', { name: 'escalate' })).status).toBe(403);
    expect((await t.request('GET', '/t1/_doc/1')).status).toBe(200);
  });
});
