/**
 * Elastic's Search UI connector 1.24.2 as a browser app uses it: with an API key that may only read
 * the `products` index (security issue 4), sent as `Authorization: ApiKey <key>`. Every scenario
 * runs with that key; the key cannot write; and the CORS preflight a browser sends before each of
 * the connector's requests (reference §7) is answered without a key, allowing what it asks for.
 */
import { describe, expect, it } from 'vitest';
import { connectorFor, useConnectorServer } from './fixture.js';
import { INDEX, PRODUCTS } from './products.js';
import { describeConnectorScenarios } from './scenarios.js';

const ORIGIN = 'https://shop.example';

/** Request headers a browser lists in a preflight: all but the CORS-safelisted ones, lowercase, sorted (Fetch standard). */
function preflightHeaderNames(headers: Record<string, string>): string[] {
  const safelisted = new Set(['accept', 'accept-language', 'content-language']);
  const safeContentType = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/;
  return Object.entries(headers)
    .filter(([name, value]) => !safelisted.has(name) && !(name === 'content-type' && safeContentType.test(value)))
    .map(([name]) => name)
    .sort();
}

describe('the Search UI connector with a read-only key for one index', () => {
  const server = useConnectorServer();
  describeConnectorScenarios(server, (s) => s.readOnlyKey);

  describe('what the key may not do', () => {
    const write = (method: string, path: string, body: string, contentType = 'application/json') =>
      fetch(`${server().url}${path}`, { method, body, headers: { authorization: `ApiKey ${server().readOnlyKey}`, 'content-type': contentType } });

    it('indexing a document is refused with 403 and nothing is written', async () => {
      const res = await write('POST', `/${INDEX}/_doc/intruder?refresh=true`, JSON.stringify({ title: 'Free Laptop' }));
      expect(res.status).toBe(403);
      const body = (await res.json()) as any;
      expect(body.error.type).toBe('security_exception');
      expect(body.error.reason).toContain(`action [indices:data/write/index] is unauthorized for API key id [${server().readOnlyKeyId}]`);
      expect(body.error.reason).toContain(`on indices [${INDEX}]`);
      const count = await server().t.request('GET', `/${INDEX}/_count`);
      expect(count.body.count).toBe(PRODUCTS.length);
    });

    it('a bulk write, a delete and a mapping change are refused too', async () => {
      const bulk = await write('POST', '/_bulk', `${JSON.stringify({ delete: { _index: INDEX, _id: 'p01' } })}\n`, 'application/x-ndjson');
      expect(bulk.status).toBe(403);
      expect(((await bulk.json()) as any).error.type).toBe('security_exception');
      const del = await write('DELETE', `/${INDEX}/_doc/p01`, '');
      expect(del.status).toBe(403);
      const mapping = await write('PUT', `/${INDEX}/_mapping`, JSON.stringify({ properties: { hacked: { type: 'keyword' } } }));
      expect(mapping.status).toBe(403);
      expect((await server().t.request('GET', `/${INDEX}/_doc/p01`)).body.found).toBe(true);
    });

    it('searching another index is refused with 403: the connector cannot read it', async () => {
      const s = server();
      const created = await s.t.request('PUT', '/orders', { mappings: { properties: { title: { type: 'text' } } } });
      expect(created.status).toBe(200);
      s.exchanges.length = 0;
      await expect(connectorFor(s, s.readOnlyKey, { index: 'orders' }).onSearch({ searchTerm: 'laptop' }, {})).rejects.toThrow(TypeError);
      expect(s.exchanges.map((x) => x.status)).toEqual([403]);
      expect(JSON.parse(s.exchanges[0].responseText).error.reason).toContain('action [indices:data/read/search] is unauthorized');
    });

    it('a wrong key is refused with 401 and the connector throws (it never reads the status)', async () => {
      const s = server();
      s.exchanges.length = 0;
      const connector = connectorFor(s, Buffer.from(`${s.readOnlyKeyId}:not-the-secret`).toString('base64'));
      await expect(connector.onSearch({ searchTerm: 'laptop' }, {})).rejects.toThrow(TypeError);
      expect(s.exchanges.map((x) => x.status)).toEqual([401]);
      expect(s.exchanges[0].responseHeaders.get('www-authenticate')).toContain('ApiKey');
    });
  });

  describe('CORS, as a browser on another origin sees it', () => {
    it('the preflight of a connector search is answered 200 without a key, allowing POST and every header the connector sends', async () => {
      const s = server();
      s.exchanges.length = 0;
      await connectorFor(s, s.readOnlyKey).onSearch({ searchTerm: 'laptop' }, { search_fields: { title: {} } });
      const sent = s.exchanges[0].requestHeaders;
      const requested = preflightHeaderNames(sent);
      expect(requested).toEqual(['authorization', 'content-type', 'x-elastic-client-meta']);

      const res = await fetch(`${s.url}/${INDEX}/_search`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': requested.join(',') },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const methods = res.headers.get('access-control-allow-methods')!.split(',').map((m) => m.trim());
      expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
      // Listed by name: the Fetch standard's `*` would not cover Authorization.
      const allowed = res.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim().toLowerCase());
      expect(allowed).toEqual(expect.arrayContaining(requested));
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    });

    it("the connector's own requests from another origin, answered or refused, carry Access-Control-Allow-Origin", async () => {
      const s = server();
      const withOrigin = (apiKey: string) => connectorFor(s, apiKey, { headers: { origin: ORIGIN } });
      s.exchanges.length = 0;
      const response = await withOrigin(s.readOnlyKey).onSearch({ searchTerm: 'laptop' }, { search_fields: { title: {} }, result_fields: { title: { raw: {} } } });
      expect(response.totalResults).toBeGreaterThan(0);
      await expect(withOrigin('bm90LWEta2V5').onSearch({ searchTerm: 'laptop' }, {})).rejects.toThrow(TypeError);
      expect(s.exchanges.map((x) => [x.requestHeaders.origin, x.status, x.responseHeaders.get('access-control-allow-origin')])).toEqual([
        [ORIGIN, 200, '*'],
        [ORIGIN, 401, '*'],
      ]);
    });
  });
});
