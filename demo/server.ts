/**
 * `npm run demo`: the demo search page and its proxy, one small fastify server on its own origin
 * (default http://127.0.0.1:8080), in front of a running threadsearch server.
 *
 * - `GET /` the page (React Search UI with threadsearch's connector), `/app.js`, `/app.css`;
 * - `GET /config.json` what the page needs: the index and, when a browser key exists, the server
 *   URL and that key for direct mode (`/?via=direct`);
 * - `POST /search`, `POST /autocomplete` the proxy (`/?via=proxy`, the default): the key stays here.
 *
 * Keys: `--proxy-key` / `--browser-key` (read-only keys you made), or `--api-key` (env
 * THREADSEARCH_API_KEY, a key allowed to create API keys), with which the server mints both at
 * start, each allowed to read the index only and expiring in a day.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { PUBLIC_ONLY, registerProxyRoutes } from './proxy.js';
import { SAMPLE_INDEX } from './sample/load.js';
import { SEARCH_MODES } from './search-modes.js';

export interface DemoServerOptions {
  /** The search server as the proxy reaches it. */
  readonly es: string;
  /** The search server as the browser reaches it (direct mode); default: `es`. */
  readonly publicEs?: string;
  readonly index?: string;
  readonly proxyKey?: string;
  /** A read-only key the page may use directly; without one, direct mode is off. */
  readonly browserKey?: string;
  readonly host?: string;
  readonly port?: number;
}

export interface DemoServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The project root, whether this runs compiled (dist/demo/server.js) or from source (demo/server.ts). */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = basename(dirname(HERE)) === 'dist' ? resolve(HERE, '../..') : resolve(HERE, '..');
/** The page's files: the HTML from the sources, the bundle `npm run build` made. */
const HTML = join(ROOT, 'demo/page/index.html');
const ASSETS: Record<string, [string, string]> = {
  '/app.js': [join(ROOT, 'dist/demo/page/app.js'), 'text/javascript; charset=utf-8'],
  '/app.css': [join(ROOT, 'dist/demo/page/app.css'), 'text/css; charset=utf-8'],
};

export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const index = options.index ?? SAMPLE_INDEX;
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  registerProxyRoutes(app, { es: options.es, index, apiKey: options.proxyKey, restrict: PUBLIC_ONLY });

  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(await readFile(HTML)));
  for (const [path, [file, type]] of Object.entries(ASSETS)) app.get(path, async (_req, reply) => reply.type(type).send(await readFile(file)));
  app.get('/favicon.ico', async (_req, reply) => reply.code(204).send());
  app.get('/config.json', async () => ({
    index,
    modes: SEARCH_MODES,
    direct: options.browserKey ? { host: options.publicEs ?? options.es, apiKey: options.browserKey } : null,
  }));

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8080 });
  return { url: address, close: () => app.close() };
}

/** A key that may only read `index`, valid for a day, made with a key allowed to manage API keys. */
export async function mintReadKey(es: string, adminKey: string | undefined, index: string, name: string): Promise<string> {
  const res = await fetch(`${es.replace(/\/+$/, '')}/_security/api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(adminKey ? { authorization: `ApiKey ${adminKey}` } : {}) },
    body: JSON.stringify({ name, expiration: '1d', role_descriptors: { 'demo-reader': { cluster: [], indices: [{ names: [index], privileges: ['read'] }] } } }),
  });
  const body = (await res.json()) as { encoded?: string };
  if (!res.ok || !body.encoded) throw new Error(`creating the ${name} key answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.encoded;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      es: { type: 'string', default: 'http://127.0.0.1:9200' },
      index: { type: 'string', default: SAMPLE_INDEX },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      'api-key': { type: 'string' },
      'proxy-key': { type: 'string' },
      'browser-key': { type: 'string' },
      'no-direct': { type: 'boolean', default: false },
    },
  });
  const admin = values['api-key'] ?? process.env.THREADSEARCH_API_KEY;
  const proxyKey = values['proxy-key'] ?? (await mintReadKey(values.es, admin, values.index, 'demo-proxy'));
  const browserKey = values['no-direct'] ? undefined : (values['browser-key'] ?? (await mintReadKey(values.es, admin, values.index, 'demo-browser')));
  const server = await startDemoServer({ es: values.es, index: values.index, proxyKey, browserKey, host: values.host, port: Number(values.port) });
  console.log(`demo search page on ${server.url} (through the proxy; ${browserKey ? `${server.url}/?via=direct for the browser's own read-only key` : 'direct mode off'})`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
