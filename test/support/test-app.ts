/**
 * Builds a real server (search pool, workers, HTTP routes) for tests, with a temporary data
 * directory (removed on close) or a given one (kept, so a test can restart a node on it).
 * `request()` goes through fastify's inject (no socket); `listen()` binds a free port for clients
 * that need a URL (the official Elasticsearch clients).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { defaultConfig, type ServerConfig } from '../../src/config/config.js';
import type { Logger } from '../../src/logging/index.js';

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined for empty bodies). */
  readonly body: any;
  readonly text: string;
}

export interface TestApp {
  readonly app: App;
  request(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** NDJSON helper for _bulk: lines are JSON-serialised and newline-terminated. */
  bulk(url: string, lines: unknown[], query?: string): Promise<TestResponse>;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly threads?: number;
  /** Use (and keep) this data directory instead of a fresh temporary one. */
  readonly dataDir?: string;
  readonly config?: Partial<ServerConfig>;
  /** The server's logger (test/support/log-capture.ts collects its lines); none: silent. */
  readonly logger?: Logger;
  /** Other createApp options (test hooks such as snapshots.beforeRootSwap). */
  readonly appOptions?: AppOptions;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'threadsearch-test-'));
  // Security is on by default in the product; tests opt in (test/security/) so the rest of the suite
  // exercises the APIs without keys.
  const app = await createApp(defaultConfig({ host: '127.0.0.1', port: 0, dataDir, threads: options.threads ?? 1, logLevel: 'warn', securityEnabled: false, ...options.config }), { ...options.appOptions, logger: options.logger });
  await app.http.app.ready();
  const request = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await app.http.app.inject({
      method: method as never,
      url,
      payload,
      headers: payload !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
    });
    let parsed: unknown;
    try {
      parsed = res.body.length > 0 ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers as TestResponse['headers'], body: parsed, text: res.body };
  };
  return {
    app,
    request,
    bulk: (url, lines, query = '') =>
      request('POST', url + query, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' }),
    async listen() {
      return app.listen('127.0.0.1', 0);
    },
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
