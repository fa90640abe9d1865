/**
 * The official Node clients (8.x and 9.x, aliased `es8` / `es9`) against a server with security on,
 * as the product starts by default: `auth: { apiKey }` in both its forms (the encoded string and
 * `{ id, api_key }`), keys created, inspected and invalidated through `client.security.*`, and the
 * 401 / 403 answers surfacing as the client's `ResponseError` with ES's status, body and
 * `WWW-Authenticate` challenge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client8, errors as errors8, type Client as Es8Client, type ClientOptions } from 'es8';
import { Client as Client9, errors as errors9 } from 'es9';
import { createSecureTestApp, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

type ErrorClass = abstract new (...args: never[]) => Error;

interface Flavour {
  readonly major: 8 | 9;
  /** Typed loosely (v9's class is not assignable to v8's); called through v8's types, as in scenarios.ts. */
  readonly Client: new (options: Pick<ClientOptions, 'node' | 'auth'>) => unknown;
  readonly ResponseError: ErrorClass;
}

/** The parts of a transport ResponseError the tests read. */
interface ResponseErrorLike extends Error {
  readonly statusCode?: number;
  readonly body?: any;
  readonly meta: { readonly statusCode?: number; readonly headers?: Record<string, string> };
}

const FLAVOURS: Flavour[] = [
  { major: 8, Client: Client8, ResponseError: errors8.ResponseError },
  { major: 9, Client: Client9, ResponseError: errors9.ResponseError },
];

/** Runs `call`, which must reject with the flavour's ResponseError, and returns it. */
async function responseError(flavour: Flavour, call: () => Promise<unknown>): Promise<ResponseErrorLike> {
  let caught: unknown;
  try {
    await call();
  } catch (err) {
    caught = err;
  }
  if (caught === undefined) throw new Error('expected the call to be rejected, but it resolved');
  expect(caught).toBeInstanceOf(flavour.ResponseError);
  return caught as ResponseErrorLike;
}

for (const flavour of FLAVOURS) {
  describe(`official client v${flavour.major} with API keys`, () => {
    let t: SecureTestApp;
    let url: string;
    let admin: Es8Client;
    /** The restricted key: `read` on index `a` only. */
    let restricted: { id: string; name: string; apiKey: string; encoded: string };
    let reader: Es8Client;
    let readerByIdSecret: Es8Client;
    const clients: Es8Client[] = [];

    const client = (auth?: ClientOptions['auth']): Es8Client => {
      const c = new flavour.Client({ node: url, ...(auth !== undefined ? { auth } : {}) }) as Es8Client;
      clients.push(c);
      return c;
    };

    beforeAll(async () => {
      t = await createSecureTestApp();
      url = await t.listen();
      admin = client({ apiKey: SUPERUSER_KEY });

      await admin.indices.create({ index: 'a', mappings: { properties: { title: { type: 'text' }, n: { type: 'integer' } } } });
      await admin.indices.create({ index: 'b' });
      await admin.index({ index: 'a', id: '1', document: { title: 'red apple', n: 1 } });
      await admin.index({ index: 'a', id: '2', document: { title: 'green pear', n: 2 } });
      await admin.index({ index: 'b', id: '1', document: { title: 'red secret', n: 3 }, refresh: true });
      await admin.indices.refresh({ index: 'a' });

      const name = `reader-v${flavour.major}`;
      const created = await admin.security.createApiKey({
        name,
        role_descriptors: { reader: { cluster: [], indices: [{ names: ['a'], privileges: ['read'] }] } },
      });
      expect(created.name).toBe(name);
      expect(typeof created.id).toBe('string');
      expect(typeof created.api_key).toBe('string');
      expect(created.encoded).toBe(Buffer.from(`${created.id}:${created.api_key}`).toString('base64'));
      restricted = { id: created.id, name, apiKey: created.api_key, encoded: created.encoded! };

      reader = client({ apiKey: restricted.encoded });
      readerByIdSecret = client({ apiKey: { id: restricted.id, api_key: restricted.apiKey } });
    });

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await t?.close();
    });

    it('the superuser key reads and writes every index', async () => {
      const me = await admin.security.authenticate();
      expect(me.username).toBe('elastic');
      expect(me.authentication_type).toBe('realm');
      const res = await admin.search({ index: 'b', query: { match: { title: 'red' } } });
      expect(res.hits.hits.map((h) => h._id)).toEqual(['1']);
    });

    it('a read key for [a], sent encoded or as { id, api_key }, searches [a]', async () => {
      for (const c of [reader, readerByIdSecret]) {
        const res = await c.search<{ title: string }>({ index: 'a', query: { match: { title: 'apple' } } });
        expect(res.hits.hits.map((h) => [h._id, h._source?.title])).toEqual([['1', 'red apple']]);
        const doc = await c.get<{ title: string }>({ index: 'a', id: '2' });
        expect(doc._source?.title).toBe('green pear');
        const count = await c.count({ index: 'a' });
        expect(count.count).toBe(2);
      }
    });

    it('the read key may not index into [a]: 403 security_exception', async () => {
      for (const c of [reader, readerByIdSecret]) {
        const err = await responseError(flavour, () => c.index({ index: 'a', id: '3', document: { title: 'blocked' } }));
        expect(err.statusCode).toBe(403);
        expect(err.body.status).toBe(403);
        expect(err.body.error.type).toBe('security_exception');
        expect(err.body.error.reason).toContain(`is unauthorized for API key id [${restricted.id}] of user [elastic] on indices [a]`);
        // 403 is an authorization failure: no authentication challenge.
        expect(err.meta.headers?.['www-authenticate']).toBeUndefined();
      }
      const bulkErr = await responseError(flavour, () => reader.bulk({ operations: [{ index: { _index: 'a', _id: '4' } }, { title: 'blocked' }] }));
      expect(bulkErr.statusCode).toBe(403);
      expect(bulkErr.body.error.type).toBe('security_exception');
      // Nothing was written.
      const count = await admin.count({ index: 'a' });
      expect(count.count).toBe(2);
    });

    it('the read key may not search [b]: 403 naming the action, the key and the granting privileges', async () => {
      for (const c of [reader, readerByIdSecret]) {
        const err = await responseError(flavour, () => c.search({ index: 'b', query: { match_all: {} } }));
        expect(err.statusCode).toBe(403);
        expect(err.body.error.type).toBe('security_exception');
        expect(err.body.error.reason).toBe(
          `action [indices:data/read/search] is unauthorized for API key id [${restricted.id}] of user [elastic] on indices [b], this action is granted by the index privileges [read,all]`,
        );
      }
    });

    it('the read key may not create API keys: 403', async () => {
      const err = await responseError(flavour, () => reader.security.createApiKey({ name: 'escalate' }));
      expect(err.statusCode).toBe(403);
      expect(err.body.error.type).toBe('security_exception');
    });

    it('a client without auth gets 401 with the ApiKey challenge', async () => {
      const anonymous = client();
      const err = await responseError(flavour, () => anonymous.search({ index: 'a' }));
      expect(err.statusCode).toBe(401);
      expect(err.body.error.type).toBe('security_exception');
      expect(err.body.error.reason).toMatch(/^missing authentication credentials for REST request \[\/a\/_search/);
      expect(err.meta.headers?.['www-authenticate']).toBe('ApiKey');
    });

    it('a wrong secret gets 401 with the ApiKey challenge', async () => {
      const wrong = client({ apiKey: { id: restricted.id, api_key: 'not-the-secret' } });
      const err = await responseError(flavour, () => wrong.search({ index: 'a' }));
      expect(err.statusCode).toBe(401);
      expect(err.body.error.type).toBe('security_exception');
      expect(err.meta.headers?.['www-authenticate']).toBe('ApiKey');
    });

    it('security.authenticate() describes the restricted key', async () => {
      for (const c of [reader, readerByIdSecret]) {
        const me = await c.security.authenticate();
        expect(me.username).toBe('elastic');
        expect(me.authentication_type).toBe('api_key');
        expect(me.api_key).toMatchObject({ id: restricted.id, name: restricted.name });
      }
    });

    it('security.getApiKey({ id }) returns the key, without its secret', async () => {
      const res = await admin.security.getApiKey({ id: restricted.id });
      expect(res.api_keys).toHaveLength(1);
      const key = res.api_keys[0]!;
      expect(key).toMatchObject({ id: restricted.id, name: restricted.name, invalidated: false, username: 'elastic' });
      expect(JSON.stringify(key)).not.toContain(restricted.apiKey);
    });

    it('after security.invalidateApiKey({ ids }) the restricted clients get 401', async () => {
      const res = await admin.security.invalidateApiKey({ ids: [restricted.id] });
      expect(res.invalidated_api_keys).toEqual([restricted.id]);
      expect(res.error_count).toBe(0);

      for (const c of [reader, readerByIdSecret]) {
        const err = await responseError(flavour, () => c.search({ index: 'a' }));
        expect(err.statusCode).toBe(401);
        expect(err.body.error.type).toBe('security_exception');
        expect(err.meta.headers?.['www-authenticate']).toBe('ApiKey');
      }

      const after = await admin.security.getApiKey({ id: restricted.id });
      expect(after.api_keys[0]).toMatchObject({ id: restricted.id, invalidated: true });
      // Invalidating again reports it as previously invalidated.
      const again = await admin.security.invalidateApiKey({ ids: [restricted.id] });
      expect(again.invalidated_api_keys).toEqual([]);
      expect(again.previously_invalidated_api_keys).toEqual([restricted.id]);
      // The superuser is unaffected.
      const count = await admin.count({ index: 'a' });
      expect(count.count).toBe(2);
    });
  });
}
