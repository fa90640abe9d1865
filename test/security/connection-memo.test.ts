/**
 * The per-connection authentication memo (ApiKeyService.authenticateConnection): a keep-alive
 * connection that sends the header it authenticated with last is answered without decoding or
 * hashing it again, and nothing else changes — the same identity, invalidation and expiry at once,
 * another key or a wrong secret on the same connection through the full path, the same 401s.
 * The HTTP tests send every request of a case through one keep-alive socket and assert that it was
 * reused; the service tests drive connections (plain objects) and a clock directly.
 */
import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyService, encodeApiKey, type Authentication } from '../../src/security/index.js';
import { charCodes, codesMatch } from '../../src/security/key-hasher.js';
import { createSecureTestApp, role, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

interface Answer {
  readonly status: number;
  readonly body: { [k: string]: unknown; error?: { reason: string; additional_unsuccessful_credentials?: string } };
  /** Whether the request went out on a socket an earlier request had used (node's `reusedSocket`). */
  readonly reused: boolean;
  /** The client side's port: the same port is the same TCP connection. */
  readonly port: number;
}

/** One keep-alive connection to `base`: every request goes through the same socket (maxSockets 1). */
function connection(base: string): { send(key: string | null, method: string, path: string, body?: unknown): Promise<Answer>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  return {
    send(key, method, path, body) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            agent, host: url.hostname, port: url.port, method, path,
            headers: { ...(key === null ? {} : { authorization: `ApiKey ${key}` }), ...(payload ? { 'content-type': 'application/json' } : {}) },
          },
          (res: IncomingMessage) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), reused: req.reusedSocket, port: req.socket!.localPort! }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

let t: SecureTestApp;
let base: string;
beforeAll(async () => {
  t = await createSecureTestApp();
  await t.request('PUT', '/a/_doc/1?refresh=true', { title: 'in a' });
  base = await t.listen();
});
afterAll(async () => t.close());

/** Runs `body` with one keep-alive connection and checks that every request after the first reused its socket. */
async function onOneConnection(body: (send: ReturnType<typeof connection>['send']) => Promise<void>): Promise<void> {
  const c = connection(base);
  const ports = new Set<number>();
  let n = 0;
  try {
    await body(async (...args) => {
      const a = await c.send(...args);
      ports.add(a.port);
      expect(a.reused, `request ${n} reused the socket`).toBe(n > 0);
      n++;
      return a;
    });
  } finally {
    c.close();
  }
  expect(ports.size).toBe(1);
}

describe('authentication memo per keep-alive connection (HTTP)', () => {
  it('a remembered header runs as the same identity, without the full path', async () => {
    const k = await t.createKey('memo-reader', role('a', ['read']));
    const full = vi.spyOn(t.app.apiKeys!, 'authenticate');
    try {
      await onOneConnection(async (send) => {
        // The key's first request verifies its secret (scrypt), which is not remembered; the second
        // is answered from the verified digests and remembered; the rest are hits.
        const first = await send(k.encoded, 'GET', '/_security/_authenticate');
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ username: 'elastic', api_key: { id: k.id, name: 'memo-reader' }, authentication_type: 'api_key' });
        expect((await send(k.encoded, 'GET', '/_security/_authenticate')).body).toEqual(first.body);
        const calls = full.mock.calls.length;
        const third = await send(k.encoded, 'GET', '/_security/_authenticate');
        expect(third.body).toEqual(first.body);
        expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
        // A read-only key is still narrowed on a hit: the index it may not read is a 403.
        expect((await send(k.encoded, 'PUT', '/a/_doc/2', { title: 'x' })).status).toBe(403);
        expect(full.mock.calls.length).toBe(calls);
        // The bootstrap key too.
        const su = await send(SUPERUSER_KEY, 'GET', '/_security/_authenticate');
        expect(su.body).toMatchObject({ username: 'elastic', authentication_type: 'realm', roles: ['superuser'] });
        const su2 = await send(SUPERUSER_KEY, 'GET', '/_security/_authenticate');
        expect(su2.body).toEqual(su.body);
        expect(full.mock.calls.length).toBe(calls + 1);
      });
    } finally {
      full.mockRestore();
    }
  });

  it('a key invalidated between two requests of one connection gets the 401 on the second, as on a new connection', async () => {
    const k = await t.createKey('memo-invalidate', role('a', ['read']));
    await onOneConnection(async (send) => {
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      // Invalidated by another client (inject: a socket of its own).
      expect((await t.request('DELETE', '/_security/api_key', { ids: [k.id] })).body.invalidated_api_keys).toEqual([k.id]);
      const refused = await send(k.encoded, 'GET', '/a/_search');
      const fresh = await t.as(k.encoded, 'GET', '/a/_search');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(fresh.body);
      expect(refused.body.error!.additional_unsuccessful_credentials).toBe(`API key: api key [${k.id}] has been invalidated`);
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(401);
    });
  });

  it('a key that expires while its connection is open gets the 401 on its next request', async () => {
    const k = await t.createKey('memo-expire', role('a', ['read']), { expiration: '1500ms' });
    const expiresAt = (await t.request('GET', `/_security/api_key?id=${k.id}`)).body.api_keys[0].expiration as number;
    await onOneConnection(async (send) => {
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
      const refused = await send(k.encoded, 'GET', '/a/_search');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual((await t.as(k.encoded, 'GET', '/a/_search')).body);
      expect(refused.body.error!.additional_unsuccessful_credentials).toBe('API key: api key is expired');
    });
  });

  it('another key on the same connection authenticates as that key, and back', async () => {
    const k1 = await t.createKey('memo-one', role('a', ['read']));
    const k2 = await t.createKey('memo-two', role('a', ['read']));
    await onOneConnection(async (send) => {
      for (const [key, id] of [[k1.encoded, k1.id], [k1.encoded, k1.id], [k2.encoded, k2.id], [k2.encoded, k2.id], [k1.encoded, k1.id], [SUPERUSER_KEY, null], [k2.encoded, k2.id]] as const) {
        const a = await send(key, 'GET', '/_security/_authenticate');
        expect(a.status).toBe(200);
        expect((a.body.api_key as { id: string } | undefined)?.id ?? null).toBe(id);
      }
    });
  });

  it('a wrong secret after a good one on the same connection is refused; no header is refused', async () => {
    const k = await t.createKey('memo-forge', role('a', ['read']));
    const forged = encodeApiKey({ id: k.id, secret: k.apiKey.slice(0, -1) + (k.apiKey.endsWith('A') ? 'B' : 'A') });
    expect(forged.length).toBe(k.encoded.length);
    await onOneConnection(async (send) => {
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      const refused = await send(forged, 'GET', '/a/_search');
      expect(refused.status).toBe(401);
      expect(refused.body.error!.additional_unsuccessful_credentials).toBe(`API key: invalid credentials for API key [${k.id}]`);
      const none = await send(null, 'GET', '/a/_search');
      expect(none.status).toBe(401);
      expect(none.body.error!.reason).toBe('missing authentication credentials for REST request [/a/_search]');
      expect((await send(k.encoded, 'GET', '/a/_search')).status).toBe(200);
      expect((await send(forged, 'GET', '/a/_search')).status).toBe(401);
    });
  });
});

describe('ApiKeyService.authenticateConnection', () => {
  const boot = { id: 'boot', secret: 'boot-secret' };
  async function service(now: () => number = Date.now): Promise<{ keys: ApiKeyService; su: Authentication }> {
    const keys = new ApiKeyService(async () => {}, now);
    await keys.initBootstrap(boot);
    return { keys, su: await keys.authenticate(`ApiKey ${encodeApiKey(boot)}`, '/') };
  }

  it('answers a remembered header without the full path; per connection only', async () => {
    const { keys, su } = await service();
    const header = `ApiKey ${encodeApiKey(boot)}`;
    const full = vi.spyOn(keys, 'authenticate');
    const c1 = {};
    const c2 = {};
    expect(keys.authenticateConnection(c1, header, '/')).toBe(su);
    expect(keys.authenticateConnection(c1, header, '/')).toBe(su);
    expect(full).toHaveBeenCalledTimes(1);
    expect(keys.authenticateConnection(c2, header, '/')).toBe(su);
    expect(full).toHaveBeenCalledTimes(2);
    // A header one character off (in the secret's part), of the same length, takes the full path and
    // is refused; then the good one is remembered again.
    const at = header.length - 6;
    const off = header.slice(0, at) + (header[at] === 'A' ? 'B' : 'A') + header.slice(at + 1);
    await expect((async () => keys.authenticateConnection(c1, off, '/'))()).rejects.toMatchObject({ metadata: { additional_unsuccessful_credentials: 'API key: invalid credentials for API key [boot]' } });
    expect(keys.authenticateConnection(c1, header, '/')).toBe(su);
    expect(keys.authenticateConnection(c1, header, '/')).toBe(su);
    expect(full).toHaveBeenCalledTimes(4);
  });

  it('expiry and invalidation take effect on the next request of a connection; a new bootstrap key too', async () => {
    let clock = 1_000_000;
    const { keys, su } = await service(() => clock);
    const created = (await keys.create(su, { name: 'k', expiration: '10s' })) as { id: string; encoded: string };
    const other = (await keys.create(su, { name: 'other' })) as { id: string; encoded: string };
    const header = `ApiKey ${created.encoded}`;
    const c = {};
    await keys.authenticateConnection(c, header, '/');
    const auth = keys.authenticateConnection(c, header, '/') as Authentication;
    expect(auth.apiKey?.id).toBe(created.id);
    clock += 9_999;
    expect(keys.authenticateConnection(c, header, '/')).toBe(auth);
    clock += 1;
    expect(() => keys.authenticateConnection(c, header, '/')).toThrow(/security_exception|unable to authenticate/);

    const otherHeader = `ApiKey ${other.encoded}`;
    await keys.authenticateConnection(c, otherHeader, '/');
    expect((keys.authenticateConnection(c, otherHeader, '/') as Authentication).apiKey?.id).toBe(other.id);
    await keys.invalidate(su, { ids: [other.id] });
    let reason = '';
    try {
      keys.authenticateConnection(c, otherHeader, '/');
    } catch (e) {
      reason = String((e as { metadata: Record<string, unknown> }).metadata.additional_unsuccessful_credentials);
    }
    expect(reason).toBe(`API key: api key [${other.id}] has been invalidated`);

    // The bootstrap key replaced (same id, new secret): the old header is verified again, and fails.
    const bootHeader = `ApiKey ${encodeApiKey(boot)}`;
    expect(keys.authenticateConnection(c, bootHeader, '/')).toBe(su);
    await keys.initBootstrap({ id: boot.id, secret: 'a-new-boot-secret' });
    await expect(keys.authenticateConnection(c, bootHeader, '/')).rejects.toMatchObject({ metadata: { additional_unsuccessful_credentials: `API key: invalid credentials for API key [${boot.id}]` } });
  });

  it('a header still being verified (scrypt) is not remembered', async () => {
    const { keys, su } = await service();
    const created = (await keys.create(su, { name: 'k' })) as { encoded: string };
    const header = `ApiKey ${created.encoded}`;
    const full = vi.spyOn(keys, 'authenticate');
    const c = {};
    const first = keys.authenticateConnection(c, header, '/');
    expect(first).toBeInstanceOf(Promise);
    await first;
    keys.authenticateConnection(c, header, '/');
    keys.authenticateConnection(c, header, '/');
    expect(full).toHaveBeenCalledTimes(2);
  });
});

describe('codesMatch (the constant-time header compare)', () => {
  it('is true exactly for the same string, over equal and different lengths', () => {
    const kept = 'ApiKey ' + encodeApiKey({ id: 'abcdefghijklmnopqrst', secret: 'uvwxyzABCDEFGHIJKLMNOP' });
    const codes = charCodes(kept);
    expect(codes).toHaveLength(kept.length);
    expect(codesMatch(codes, kept)).toBe(true);
    expect(codesMatch(codes, Buffer.from(kept, 'latin1').toString('latin1'))).toBe(true);
    for (const other of [kept.slice(0, -1), kept + 'A', '']) expect(codesMatch(codes, other)).toBe(false);
    for (let i = 0; i < kept.length; i++) {
      const changed = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) ^ 1) + kept.slice(i + 1);
      expect(codesMatch(codes, changed), `position ${i}`).toBe(false);
    }
    // Code units above latin1 compare exactly too.
    const wide = 'ApiKey ключ';
    const wideCodes = charCodes(wide);
    expect(codesMatch(wideCodes, wide)).toBe(true);
    expect(codesMatch(wideCodes, 'ApiKey ключа'.slice(0, wide.length - 1) + 'a')).toBe(false);
  });

  it('reads every character of an equal-length header, wherever the first difference is', () => {
    const kept = 'ApiKey abcdefghijklmnop';
    const codes = charCodes(kept);
    for (const differsAt of [0, 7, kept.length - 1]) {
      const read: number[] = [];
      const text = kept.slice(0, differsAt) + '#' + kept.slice(differsAt + 1);
      // A string-like that records which characters the compare reads.
      const probe = { length: text.length, charCodeAt: (i: number) => (read.push(i), text.charCodeAt(i)) } as unknown as string;
      expect(codesMatch(codes, probe)).toBe(false);
      expect(read).toEqual([...Array(kept.length).keys()]);
    }
    // A different length reads nothing.
    const read: number[] = [];
    const shorter = { length: kept.length - 1, charCodeAt: (i: number) => (read.push(i), 0) } as unknown as string;
    expect(codesMatch(codes, shorter)).toBe(false);
    expect(read).toEqual([]);
  });
});
