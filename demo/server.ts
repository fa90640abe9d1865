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
import { adminClient, DEFAULT_ES, DemoError, esUrl, runMain } from './admin-client.js';
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
  const body = (await adminClient(es, adminKey)('POST', '/_security/api_key', {
    name, expiration: '1d', role_descriptors: { 'demo-reader': { cluster: [], indices: [{ names: [index], privileges: ['read'] }] } },
  })) as { encoded?: string };
  if (!body.encoded) throw new DemoError(`creating the ${name} key answered without a key: ${JSON.stringify(body).slice(0, 300)}`);
  return body.encoded;
}

const USAGE = `Usage: npm run demo -- [options]

Serves the demo search page (React Search UI with threadsearch's connector) and its proxy, in front
of a running server that \`npm run demo:load\` has loaded.

  --es <url>            the server (env THREADSEARCH_URL; default ${DEFAULT_ES})
  --index <name>        the index to search (default ${SAMPLE_INDEX})
  --host <address>      the page's address (default 127.0.0.1)
  --port <port>         the page's port (default 8080)
  --api-key <key>       a key allowed to create API keys (env THREADSEARCH_API_KEY): the demo mints
                        a read-only key for the proxy and one for the browser, valid one day
  --proxy-key <key>     a read-only key you made, for the proxy (instead of minting one)
  --browser-key <key>   a read-only key you made, for the page's direct mode (/?via=direct)
  --no-direct           no direct mode: the browser gets no key
  -h, --help            this text`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      es: { type: 'string' },
      index: { type: 'string', default: SAMPLE_INDEX },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      'api-key': { type: 'string' },
      'proxy-key': { type: 'string' },
      'browser-key': { type: 'string' },
      'no-direct': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) throw new DemoError(`--port must be an integer between 0 and 65535, got [${values.port.slice(0, 20)}]`);
  const es = esUrl(values.es);
  const admin = values['api-key'] ?? (process.env.THREADSEARCH_API_KEY || undefined);
  const proxyKey = values['proxy-key'] ?? (await mintReadKey(es, admin, values.index, 'demo-proxy'));
  const browserKey = values['no-direct'] ? undefined : (values['browser-key'] ?? (await mintReadKey(es, admin, values.index, 'demo-browser')));
  // Without the sample every search on the page would fail: say so before serving it.
  const count = await adminClient(es, proxyKey)('GET', `/${encodeURIComponent(values.index)}/_count`, undefined, (s) => s === 404);
  if (count?.count === undefined) throw new DemoError(`${es} has no index [${values.index}]: load the sample first (npm run demo:load), or pass the --index to search`);
  const server = await startDemoServer({ es, index: values.index, proxyKey, browserKey, host: values.host, port });
  console.log(`demo search page on ${server.url} (through the proxy; ${browserKey ? `${server.url}/?via=direct for the browser's own read-only key` : 'direct mode off'})`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) runMain('demo', main);
