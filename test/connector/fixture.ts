/**
 * One running server per test file for the connector suite: security on (as the product starts),
 * listening on a real port because the connector talks to it with `fetch`, the `products` index
 * created and seeded once, and a browser-style key (`read` on `products` only) created through the
 * security API as the README tells users to. Also records every exchange the connector makes, since
 * the connector itself never looks at the HTTP status (reference §2.4): a scenario must see that
 * the server answered 200, not only what the connector made of the body.
 */
import { afterAll, beforeAll } from 'vitest';
import type { APIConnector } from '@elastic/search-ui';
import ConnectorExport from '@elastic/search-ui-elasticsearch-connector';
import { ThreadsearchConnector } from 'threadsearch/connector';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';
import { INDEX, MAPPINGS, PRODUCTS } from './products.js';

export interface Exchange {
  readonly url: string;
  readonly method: string;
  readonly requestHeaders: Record<string, string>;
  /** The parsed JSON body (the connector only sends JSON), else the text as sent. */
  readonly requestBody: any;
  readonly status: number;
  readonly responseHeaders: Headers;
  readonly responseText: string;
}

export interface ConnectorServer {
  readonly t: SecureTestApp;
  /** `http://127.0.0.1:<port>`: the connector's `host`. */
  readonly url: string;
  /** The encoded read-only key (`read` on `products`), as a browser app would embed it. */
  readonly readOnlyKey: string;
  readonly readOnlyKeyId: string;
  /** Every fetch made since the last `exchanges.length = 0`. */
  readonly exchanges: Exchange[];
}

/** Creates the server in `beforeAll` and closes it in `afterAll`; the getter is valid inside tests. */
export function useConnectorServer(): () => ConnectorServer {
  let server: ConnectorServer | undefined;
  let restoreFetch: (() => void) | undefined;

  beforeAll(async () => {
    const t = await createSecureTestApp();
    const url = await t.listen();
    await expectOk(t.request('PUT', `/${INDEX}`, { settings: { number_of_shards: 2 }, mappings: MAPPINGS }));
    const bulk = await t.bulk('/_bulk', PRODUCTS.flatMap(({ id, ...source }) => [{ index: { _index: INDEX, _id: id } }, source]), '?refresh=true');
    if (bulk.status !== 200 || bulk.body.errors) throw new Error(`seeding failed: ${bulk.status} ${bulk.text.slice(0, 2000)}`);
    const key = await t.createKey('search-ui-browser-key', role(INDEX, ['read']));
    const exchanges: Exchange[] = [];
    restoreFetch = recordFetch(exchanges);
    server = { t, url, readOnlyKey: key.encoded, readOnlyKeyId: key.id, exchanges };
  });

  afterAll(async () => {
    restoreFetch?.();
    await server?.t.close();
  });

  return () => {
    if (!server) throw new Error('the connector server is not started (use it inside a test)');
    return server;
  };
}

/**
 * The package's `.d.ts` is CommonJS-flavoured (its package.json has no `"type": "module"`), so under
 * NodeNext TypeScript types the default import as the module object; at run time Node loads the
 * ESM build (`lib/index.mjs`), whose default export is the class itself.
 */
const ElasticsearchAPIConnector = ConnectorExport as unknown as typeof ConnectorExport.default;
export type Connector = InstanceType<typeof ElasticsearchAPIConnector>;

export interface ConnectorOptions {
  readonly headers?: Record<string, string>;
  readonly index?: string;
}

/** The published connector, unmodified, pointed at the server's `products` (or `index`) with `apiKey` and extra headers (e.g. a browser's Origin). */
export function connectorFor(s: ConnectorServer, apiKey: string, options: ConnectorOptions = {}): Connector {
  const { headers, index = INDEX } = options;
  return new ElasticsearchAPIConnector({ host: s.url, index, apiKey, ...(headers ? { connectionOptions: { headers } } : {}) });
}

/** Search UI's connector interface, which both implement (for ours, TypeScript checks it below without a cast). */
export type SearchConnector = APIConnector;

/** A connector the scenarios run through, and whether it follows the project's rules where they differ from Elastic's (reference §0). */
export interface ConnectorFlavour {
  readonly name: string;
  /** threadsearch's own connector: refuses `none`, matches range-facet filters by name, defaults autocomplete size to 5, reports error answers. */
  readonly ours: boolean;
  create(s: ConnectorServer, apiKey: string, options?: ConnectorOptions): SearchConnector;
}

export const ELASTIC_CONNECTOR: ConnectorFlavour = { name: "Elastic's connector 1.24.2", ours: false, create: connectorFor };

/** threadsearch's connector as published: the `threadsearch/connector` bundle in dist/, not its sources. */
export const THREADSEARCH_CONNECTOR: ConnectorFlavour = {
  name: 'the threadsearch connector',
  ours: true,
  create: (s, apiKey, { headers, index = INDEX } = {}) =>
    new ThreadsearchConnector({ host: s.url, index, apiKey, ...(headers ? { connectionOptions: { headers } } : {}) }),
};

async function expectOk(res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup request failed: ${r.status} ${r.text}`);
}

/**
 * Wraps the global `fetch` the connector calls (it has no hook that sees the HTTP response), so
 * each exchange is recorded with its status and body text; the connector still reads the response.
 */
function recordFetch(into: Exchange[]): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await original(input, init);
    const requestHeaders: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (requestHeaders[k] = v));
    const body = typeof init?.body === 'string' ? parseIfJson(init.body) : undefined;
    into.push({
      url: String(input instanceof Request ? input.url : input),
      method: init?.method ?? 'GET',
      requestHeaders,
      requestBody: body,
      status: response.status,
      responseHeaders: response.headers,
      responseText: await response.clone().text(),
    });
    return response;
  };
  return () => {
    globalThis.fetch = original;
  };
}

function parseIfJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
