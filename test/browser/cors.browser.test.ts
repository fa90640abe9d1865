/**
 * A real browser (Debian's headless Chromium, driven by playwright-core) on a page from another
 * origin calls the API with `fetch` and an API key: the `Authorization` and JSON `Content-Type`
 * headers force a CORS preflight, which the server answers without a key; then authorization
 * decides, and the page can read the 200, 403 and 401 answers (status and JSON body) because every
 * response to an allowed origin carries `Access-Control-Allow-Origin`. A page from an origin that
 * is not allowed cannot read anything.
 *
 * Skipped when /usr/bin/chromium is missing (a dev machine); CI installs it (.ci/run).
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createSecureTestApp, role, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) {
  console.warn(`[cors.browser.test] skipped: ${CHROMIUM} not found (install it with: apt-get install -y chromium)`);
}

/** Generous: the browser start can take several seconds on a busy 2-core machine. */
const BROWSER_TIMEOUT = 120_000;

/** What the API server saw on the socket, for one request (recorded on the raw Node server). */
interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly origin: string | undefined;
  readonly requestMethod: string | undefined;
  readonly requestHeaders: string | undefined;
  readonly authorization: boolean;
  status?: number;
  allowOrigin?: string;
  allowMethods?: string;
  allowHeaders?: string;
  maxAge?: string;
  exposeHeaders?: string;
}

/** A secure app bound to 127.0.0.1 with every request it receives recorded. */
async function startApi(config: Parameters<typeof createSecureTestApp>[0] = {}): Promise<{ t: SecureTestApp; url: string; seen: SeenRequest[] }> {
  const t = await createSecureTestApp(config);
  const seen: SeenRequest[] = [];
  // Fastify is already `ready()` (no more hooks), so observe the underlying Node server. Fastify
  // hands its headers to `writeHead` (they never show in `getHeader`), so wrap it; prepended, so
  // the wrapper is in place before fastify's own 'request' listener runs.
  t.app.http.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const entry: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      origin: req.headers.origin,
      requestMethod: req.headers['access-control-request-method'] as string | undefined,
      requestHeaders: req.headers['access-control-request-headers'] as string | undefined,
      authorization: req.headers.authorization !== undefined,
    };
    seen.push(entry);
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      const result = writeHead.apply(this, args);
      const headers = res.getHeaders();
      const explicit = (args.find((a) => typeof a === 'object' && a !== null) ?? {}) as Record<string, unknown>;
      const header = (name: string): string | undefined => {
        const key = Object.keys(explicit).find((k) => k.toLowerCase() === name);
        const value = key !== undefined ? explicit[key] : headers[name];
        return value === undefined ? undefined : String(value);
      };
      entry.status = res.statusCode;
      entry.allowOrigin = header('access-control-allow-origin');
      entry.allowMethods = header('access-control-allow-methods');
      entry.allowHeaders = header('access-control-allow-headers');
      entry.maxAge = header('access-control-max-age');
      entry.exposeHeaders = header('access-control-expose-headers');
      return result;
    } as ServerResponse['writeHead'];
  });
  const url = await t.listen();
  return { t, url, seen };
}

/** What a page's `fetch` could read from a response, or the error it threw. */
interface PageResult {
  readonly ok: boolean;
  readonly status?: number;
  readonly body?: any;
  readonly product?: string | null;
  readonly wwwAuthenticate?: string | null;
  readonly error?: string;
}

/** Runs `fetch` inside the page (so the browser applies CORS) and returns what JS could read. */
function pageFetch(page: Page, url: string, init: { method: string; headers?: Record<string, string>; body?: unknown }): Promise<PageResult> {
  return page.evaluate(
    async ({ url, method, headers, body }) => {
      try {
        const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = text.length > 0 ? JSON.parse(text) : undefined;
        } catch {
          parsed = text;
        }
        return {
          ok: true,
          status: res.status,
          body: parsed,
          product: res.headers.get('x-elastic-product'),
          wwwAuthenticate: res.headers.get('www-authenticate'),
        };
      } catch (err) {
        return { ok: false, error: String(err) };
      }
    },
    { url, method: init.method, headers: init.headers ?? {}, body: init.body },
  );
}

describe.skipIf(!HAVE_CHROMIUM)('CORS from a real browser on another origin', () => {
  let browser: Browser;
  let pages: Server;
  let pagePort: number;
  /** The page's origin: `localhost` (and its own port), while the API is on 127.0.0.1. */
  let pageOrigin: string;
  const contexts: BrowserContext[] = [];

  /** A fresh browser context (no shared preflight cache) with the page from `origin` loaded. */
  async function openPage(origin: string): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const res = await page.goto(`${origin}/`);
    expect(res?.status()).toBe(200);
    expect(await page.evaluate('location.origin')).toBe(origin);
    return page;
  }

  beforeAll(async () => {
    pages = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><head><title>cors test page</title></head><body>cors test page</body></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    // Bound to 127.0.0.1 and addressed as `localhost`: a different origin from the API's
    // http://127.0.0.1:<port> (host and port both differ), on loopback only.
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagePort = (pages.address() as AddressInfo).port;
    pageOrigin = `http://localhost:${pagePort}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      timeout: BROWSER_TIMEOUT,
    });
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    if (pages) await new Promise<void>((resolve) => pages.close(() => resolve()));
  }, BROWSER_TIMEOUT);

  describe('default CORS origins (*)', () => {
    let api: Awaited<ReturnType<typeof startApi>>;
    let key: string;
    let keyId: string;
    let page: Page;

    beforeAll(async () => {
      api = await startApi();
      const { t } = api;
      expect((await t.as(SUPERUSER_KEY, 'PUT', '/a')).status).toBe(200);
      expect((await t.as(SUPERUSER_KEY, 'PUT', '/a/_doc/1?refresh=true', { title: 'hello from the server' })).status).toBe(201);
      const created = await t.createKey('browser', role('a', ['read']));
      key = created.encoded;
      keyId = created.id;
      page = await openPage(pageOrigin);
      // Only the requests the page makes from here on matter.
      api.seen.length = 0;
    }, BROWSER_TIMEOUT);

    afterAll(async () => {
      await api?.t.close();
    });

    it('POST /a/_search with the read key: a preflight, then 200 and the hit readable from JS', async () => {
      const res = await pageFetch(page, `${api.url}/a/_search`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: { query: { match: { title: 'hello' } } },
      });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(200);
      expect(res.body.hits.total.value).toBe(1);
      expect(res.body.hits.hits[0]._id).toBe('1');
      expect(res.body.hits.hits[0]._source).toEqual({ title: 'hello from the server' });
      // Exposed to JS by Access-Control-Expose-Headers.
      expect(res.product).toBe('Elasticsearch');

      const forUrl = api.seen.filter((r) => r.url === '/a/_search');
      expect(forUrl.map((r) => r.method)).toEqual(['OPTIONS', 'POST']);
      const [preflight, actual] = forUrl as [SeenRequest, SeenRequest];
      expect(preflight).toMatchObject({
        origin: pageOrigin,
        requestMethod: 'POST',
        authorization: false,
        status: 200,
        allowOrigin: '*',
        allowMethods: 'GET, POST, OPTIONS',
        allowHeaders: 'Authorization, Content-Type, X-Elastic-Client-Meta',
      });
      expect(preflight.requestHeaders?.split(',').map((h) => h.trim()).sort()).toEqual(['authorization', 'content-type']);
      expect(Number(preflight.maxAge)).toBeGreaterThan(0);
      expect(actual).toMatchObject({ origin: pageOrigin, authorization: true, status: 200, allowOrigin: '*', exposeHeaders: 'X-elastic-product' });
    });

    it('POST /a/_doc with the read key: allowed by CORS, refused by authorization; the 403 body is readable', async () => {
      const res = await pageFetch(page, `${api.url}/a/_doc`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: { title: 'written from a browser' },
      });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(403);
      expect(res.body.status).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
      expect(res.body.error.reason).toContain(`is unauthorized for API key id [${keyId}] of user [elastic] on indices [a]`);

      const forUrl = api.seen.filter((r) => r.url === '/a/_doc');
      expect(forUrl.map((r) => [r.method, r.status])).toEqual([
        ['OPTIONS', 200],
        ['POST', 403],
      ]);
      expect(forUrl[1]!.allowOrigin).toBe('*');
      // Nothing was written.
      const count = await api.t.as(SUPERUSER_KEY, 'GET', '/a/_count');
      expect(count.body.count).toBe(1);
    });

    it('PUT is not an allowed CORS method: the browser stops after the preflight', async () => {
      const res = await pageFetch(page, `${api.url}/a/_doc/2`, {
        method: 'PUT',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: { title: 'never sent' },
      });
      expect(res.ok).toBe(false);
      expect(res.error).toMatch(/TypeError/);
      const forUrl = api.seen.filter((r) => r.url === '/a/_doc/2');
      expect(forUrl.map((r) => [r.method, r.requestMethod, r.status])).toEqual([['OPTIONS', 'PUT', 200]]);
    });

    it('a preflighted request without a key: 401 readable, with the security_exception body', async () => {
      const res = await pageFetch(page, `${api.url}/a/_count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: { query: { match_all: {} } },
      });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('security_exception');
      expect(res.body.error.reason).toMatch(/^missing authentication credentials for REST request \[\/a\/_count/);
      // WWW-Authenticate is sent but not exposed to scripts (as ES: only X-elastic-product is).
      expect(res.wwwAuthenticate).toBeNull();
      const forUrl = api.seen.filter((r) => r.url === '/a/_count');
      expect(forUrl.map((r) => [r.method, r.authorization, r.status])).toEqual([
        ['OPTIONS', false, 200],
        ['POST', false, 401],
      ]);
    });

    it('a simple GET without a key (no preflight): 401 readable', async () => {
      const res = await pageFetch(page, `${api.url}/a/_search`, { method: 'GET' });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('security_exception');
      const forUrl = api.seen.filter((r) => r.url === '/a/_search' && !r.authorization);
      // The earlier OPTIONS for /a/_search had no key either; this request added exactly one GET.
      expect(forUrl.map((r) => r.method)).toEqual(['OPTIONS', 'GET']);
      expect(forUrl[1]).toMatchObject({ origin: pageOrigin, status: 401, allowOrigin: '*' });
    });
  });

  describe('CORS restricted to the page origin', () => {
    let api: Awaited<ReturnType<typeof startApi>>;
    let key: string;

    beforeAll(async () => {
      api = await startApi({ config: { corsOrigins: [pageOrigin] } });
      const { t } = api;
      expect((await t.as(SUPERUSER_KEY, 'PUT', '/a/_doc/1?refresh=true', { title: 'hello again' })).status).toBe(201);
      key = (await t.createKey('browser', role('a', ['read']))).encoded;
    }, BROWSER_TIMEOUT);

    afterAll(async () => {
      await api?.t.close();
    });

    it('the allowed origin reads the search, with its own origin echoed', async () => {
      const page = await openPage(pageOrigin);
      api.seen.length = 0;
      const res = await pageFetch(page, `${api.url}/a/_search`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: { query: { match_all: {} } },
      });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(200);
      expect(res.body.hits.hits.map((h: { _source: unknown }) => h._source)).toEqual([{ title: 'hello again' }]);
      expect(api.seen.map((r) => [r.method, r.status, r.allowOrigin])).toEqual([
        ['OPTIONS', 200, pageOrigin],
        ['POST', 200, pageOrigin],
      ]);
    });

    it('another origin (the same page server as 127.0.0.1) is refused: the preflight gets a bare 403', async () => {
      const otherOrigin = `http://127.0.0.1:${pagePort}`;
      const page = await openPage(otherOrigin);
      api.seen.length = 0;
      const res = await pageFetch(page, `${api.url}/a/_search`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: { query: { match_all: {} } },
      });
      expect(res.ok).toBe(false);
      expect(res.error).toMatch(/TypeError/);
      // Only the preflight reached the server, and it was refused without CORS headers.
      expect(api.seen.map((r) => [r.method, r.origin, r.status, r.allowOrigin])).toEqual([['OPTIONS', otherOrigin, 403, undefined]]);
    });
  });
});
