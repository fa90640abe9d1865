/**
 * Security APIs — create / get / invalidate API key, authenticate, has_privileges:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/security-api-create-api-key.html
 * (es-api.md §7), and what 401 looks like for missing, malformed, unknown, forged, expired and
 * invalidated keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeApiKey } from '../../src/security/index.js';
import { createSecureTestApp, role, SUPERUSER, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
beforeAll(async () => {
  t = await createSecureTestApp();
  await t.request('PUT', '/a/_doc/1?refresh=true', { title: 'in a' });
  await t.request('PUT', '/b/_doc/1?refresh=true', { title: 'in b' });
});
afterAll(async () => t.close());

const UNAUTHENTICATED = 'unable to authenticate with provided credentials and anonymous access is not allowed for this request';

describe('POST /_security/api_key', () => {
  it('returns id, name, api_key and encoded (base64 of id:api_key), and expiration when asked', async () => {
    const res = await t.request('POST', '/_security/api_key', { name: 'search-ui', expiration: '30d', role_descriptors: role('a', ['read']), metadata: { app: 'ui' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_key', 'encoded', 'expiration', 'id', 'name']);
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(res.body.encoded, 'base64').toString()).toBe(`${res.body.id}:${res.body.api_key}`);
    expect(res.body.expiration).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const plain = await t.request('PUT', '/_security/api_key', { name: 'no-expiry' });
    expect(plain.status).toBe(200);
    expect(plain.body.expiration).toBeUndefined();
  });

  it.each([
    [{}, 400, 'action_request_validation_exception', 'Validation Failed: 1: api key name is required;'],
    [{ name: '_x' }, 400, 'action_request_validation_exception', 'Validation Failed: 1: api key name may not begin with an underscore;'],
    [{ name: 'x', expiration: 'soon' }, 400, 'illegal_argument_exception', 'failed to parse setting [expiration] with value [soon] as a time value: unit is missing or unrecognized'],
    [{ name: 'x', colour: 'red' }, 400, 'x_content_parse_exception', /\[api_key_request\] unknown field \[colour\]/],
    [{ name: 'x', role_descriptors: { r: { indices: [{ names: ['a'], privileges: ['reed'] }] } } }, 400, 'action_request_validation_exception', /unknown index privilege \[reed\]/],
    [{ name: 'x', metadata: { _internal: 1 } }, 400, 'action_request_validation_exception', /metadata keys may not start with \[_\]/],
  ])('rejects %j', async (body, status, type, reason) => {
    const res = await t.request('POST', '/_security/api_key', body);
    expect(res.status).toBe(status);
    expect(res.body.error.type).toBe(type);
    if (typeof reason === 'string') expect(res.body.error.reason).toBe(reason);
    else expect(res.body.error.reason).toMatch(reason);
  });

  it('rejects malformed JSON and a missing body', async () => {
    expect((await t.request('POST', '/_security/api_key', '{"name": ')).status).toBe(400);
    const none = await t.request('POST', '/_security/api_key');
    expect(none.status).toBe(400);
    expect(none.body.error.type).toBe('illegal_argument_exception');
  });
});

describe('GET /_security/api_key', () => {
  it('finds keys by id, name (with a trailing wildcard) and owner, without secrets', async () => {
    const k = await t.createKey('lookup-me', role('a', ['read']), { metadata: { team: 'x' } });
    const byId = await t.request('GET', `/_security/api_key?id=${k.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.api_keys).toHaveLength(1);
    const info = byId.body.api_keys[0];
    expect(info).toMatchObject({ id: k.id, name: 'lookup-me', invalidated: false, username: 'elastic', realm: 'reserved', metadata: { team: 'x' } });
    expect(info.role_descriptors.r.indices).toEqual([{ names: ['a'], privileges: ['read'], allow_restricted_indices: false }]);
    expect(JSON.stringify(byId.body)).not.toContain(k.apiKey);
    expect((await t.request('GET', '/_security/api_key?name=lookup-*')).body.api_keys.map((x: { id: string }) => x.id)).toContain(k.id);
    expect((await t.request('GET', '/_security/api_key?owner=true')).body.api_keys.length).toBeGreaterThan(0);
    expect((await t.request('GET', '/_security/api_key?id=nope')).body).toEqual({ api_keys: [] });
    const limited = await t.request('GET', `/_security/api_key?id=${k.id}&with_limited_by=true`);
    expect(limited.body.api_keys[0].limited_by[0]).toHaveProperty('superuser');
  });

  it('refuses id together with name, and unknown parameters', async () => {
    const both = await t.request('GET', '/_security/api_key?id=x&name=y');
    expect(both.status).toBe(400);
    expect(both.body.error.reason).toBe('Validation Failed: 1: only one of [api key id, api key name] can be specified;');
    expect((await t.request('GET', '/_security/api_key?colour=red')).status).toBe(400);
  });
});

describe('authentication failures (401)', () => {
  async function expect401(headers: Record<string, string>, detail: string | RegExp | null, url = '/a/_search') {
    const res = await t.as(null, 'GET', url, undefined, headers);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('ApiKey');
    expect(res.body.error.type).toBe('security_exception');
    expect(res.body.error.header).toEqual({ 'WWW-Authenticate': ['ApiKey'] });
    if (detail !== null) {
      expect(res.body.error.reason).toBe(UNAUTHENTICATED);
      if (typeof detail === 'string') expect(res.body.error.additional_unsuccessful_credentials).toBe(detail);
      else expect(res.body.error.additional_unsuccessful_credentials).toMatch(detail);
    }
    return res;
  }

  it('no credentials: "missing authentication credentials for REST request [uri]"', async () => {
    const res = await expect401({}, null, '/a/_search?q=x');
    expect(res.body.error.reason).toBe('missing authentication credentials for REST request [/a/_search?q=x]');
  });

  it('malformed, unsupported and unknown keys', async () => {
    await expect401({ authorization: 'ApiKey !!!' }, 'API key: invalid ApiKey value');
    await expect401({ authorization: `ApiKey ${Buffer.from('no-colon').toString('base64')}` }, 'API key: invalid ApiKey value');
    await expect401({ authorization: 'Basic ZWxhc3RpYzpjaGFuZ2VtZQ==' }, /^Basic: this server accepts only API keys/);
    await expect401({ authorization: `ApiKey ${encodeApiKey({ id: 'unknown-id', secret: 'x' })}` }, 'API key: unable to find apikey with id unknown-id');
  });

  it('a forged key with a valid id is refused, before and after the real key was used', async () => {
    const k = await t.createKey('forge-target', role('a', ['read']));
    const forged = { authorization: `ApiKey ${encodeApiKey({ id: k.id, secret: 'forged-secret-forged-1' })}` };
    await expect401(forged, `API key: invalid credentials for API key [${k.id}]`);
    expect((await t.as(k.encoded, 'GET', '/a/_search')).status).toBe(200);
    // Now the key's verification is cached; a forged secret must still fail.
    await expect401(forged, `API key: invalid credentials for API key [${k.id}]`);
    // And the bootstrap key's id with a wrong secret.
    await expect401({ authorization: `ApiKey ${encodeApiKey({ id: SUPERUSER.id, secret: 'wrong' })}` }, `API key: invalid credentials for API key [${SUPERUSER.id}]`);
  });

  it('an expired key is refused', async () => {
    const k = await t.createKey('short-lived', role('a', ['read']), { expiration: '1ms' });
    await new Promise((r) => setTimeout(r, 20));
    await expect401({ authorization: `ApiKey ${k.encoded}` }, 'API key: api key is expired');
  });

  it('invalidation takes effect immediately, even for a key in use', async () => {
    const k = await t.createKey('to-invalidate', role('a', ['read']));
    expect((await t.as(k.encoded, 'GET', '/a/_search')).status).toBe(200);
    const inv = await t.request('DELETE', '/_security/api_key', { ids: [k.id] });
    expect(inv.status).toBe(200);
    expect(inv.body).toEqual({ invalidated_api_keys: [k.id], previously_invalidated_api_keys: [], error_count: 0 });
    await expect401({ authorization: `ApiKey ${k.encoded}` }, `API key: api key [${k.id}] has been invalidated`);
    const again = await t.request('DELETE', '/_security/api_key', { id: k.id });
    expect(again.body).toEqual({ invalidated_api_keys: [], previously_invalidated_api_keys: [k.id], error_count: 0 });
    const info = (await t.request('GET', `/_security/api_key?id=${k.id}`)).body.api_keys[0];
    expect(info.invalidated).toBe(true);
    expect(info.invalidation).toEqual(expect.any(Number));
    expect((await t.request('GET', `/_security/api_key?id=${k.id}&active_only=true`)).body.api_keys).toEqual([]);
  });
});

describe('DELETE /_security/api_key', () => {
  it('invalidates by name; unknown ids answer 200 with empty lists', async () => {
    const k1 = await t.createKey('batch-job', role('a', ['read']));
    const res = await t.request('DELETE', '/_security/api_key', { name: 'batch-job' });
    expect(res.body.invalidated_api_keys).toEqual([k1.id]);
    expect((await t.request('DELETE', '/_security/api_key', { ids: ['nope'] })).body).toEqual({ invalidated_api_keys: [], previously_invalidated_api_keys: [], error_count: 0 });
  });

  it('needs something to select keys by', async () => {
    const res = await t.request('DELETE', '/_security/api_key', {});
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe('Validation Failed: 1: One of [api key id(s), api key name, username, realm name] must be specified if [owner] flag is false;');
    expect((await t.request('DELETE', '/_security/api_key', { ids: 'x' })).status).toBe(400);
    expect((await t.request('DELETE', '/_security/api_key', { idz: ['x'] })).status).toBe(400);
  });
});

describe('GET /_security/_authenticate', () => {
  it('describes an API key caller', async () => {
    const k = await t.createKey('who-am-i', role('a', ['read']));
    const res = await t.as(k.encoded, 'GET', '/_security/_authenticate');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      username: 'elastic', roles: [], full_name: null, email: null, metadata: {}, enabled: true,
      authentication_realm: { name: '_es_api_key', type: '_es_api_key' }, lookup_realm: { name: '_es_api_key', type: '_es_api_key' },
      authentication_type: 'api_key', api_key: { id: k.id, name: 'who-am-i' },
    });
  });

  it('describes the bootstrap superuser', async () => {
    const res = await t.request('GET', '/_security/_authenticate');
    expect(res.body).toMatchObject({ username: 'elastic', roles: ['superuser'], authentication_type: 'realm', authentication_realm: { name: 'reserved', type: 'reserved' } });
  });
});

describe('POST /_security/user/_has_privileges', () => {
  it('answers per cluster privilege and per index × privilege', async () => {
    const k = await t.createKey('checker', role('a*', ['read'], ['monitor']));
    const res = await t.as(k.encoded, 'POST', '/_security/user/_has_privileges', {
      cluster: ['monitor', 'manage'],
      index: [{ names: ['a', 'b'], privileges: ['read', 'write'] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      username: 'elastic', has_all_requested: false,
      cluster: { monitor: true, manage: false },
      index: { a: { read: true, write: false }, b: { read: false, write: false } },
      application: {},
    });
  });
});

describe('security off', () => {
  it('the security APIs say that security is disabled', async () => {
    const { createTestApp } = await import('../support/test-app.js');
    const open = await createTestApp({ config: { securityEnabled: false } });
    try {
      const res = await open.request('POST', '/_security/api_key', { name: 'x' });
      expect(res.body.error.reason).toMatch(/Security is disabled on this server/);
      // …and every other API works without a key.
      expect((await open.request('GET', '/_cluster/health')).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('a bootstrap key from the environment is accepted as given', async () => {
    expect((await t.as(SUPERUSER_KEY, 'GET', '/')).status).toBe(200);
  });
});
