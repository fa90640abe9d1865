/**
 * A test server with security on, as the product starts by default: a known bootstrap superuser
 * key, helpers to create API keys through the REST API, and requests sent with a given key.
 */
import type { Logger } from '../../src/logging/index.js';
import { encodeApiKey } from '../../src/security/index.js';
import type { ServerConfig } from '../../src/config/config.js';
import { createTestApp, type TestApp, type TestResponse } from './test-app.js';

export const SUPERUSER = { id: 'bootstrap-key-id', secret: 'bootstrap-secret-for-tests' };
export const SUPERUSER_KEY = encodeApiKey(SUPERUSER);

/** `request()` and `bulk()` send the superuser key; `as()` sends any key, or none. */
export interface SecureTestApp extends TestApp {
  /** A request with `Authorization: ApiKey <key>`, or with no Authorization header when `key` is null. */
  as(key: string | null, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** Creates an API key with the given role descriptors (as the superuser unless `by` is given); returns its encoded value and id. */
  createKey(name: string, roleDescriptors?: unknown, extra?: Record<string, unknown>, by?: string): Promise<{ id: string; encoded: string; apiKey: string }>;
}

export async function createSecureTestApp(options: { dataDir?: string; config?: Partial<ServerConfig>; logger?: Logger } = {}): Promise<SecureTestApp> {
  const t = await createTestApp({ dataDir: options.dataDir, logger: options.logger, config: { securityEnabled: true, bootstrapApiKey: SUPERUSER, ...options.config } });
  const as: SecureTestApp['as'] = (key, method, url, body, headers = {}) =>
    t.request(method, url, body, key === null ? headers : { authorization: `ApiKey ${key}`, ...headers });
  return {
    ...t,
    request: (method, url, body, headers = {}) => as(SUPERUSER_KEY, method, url, body, headers),
    bulk: (url, lines, query = '') =>
      as(SUPERUSER_KEY, 'POST', url + query, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' }),
    as,
    async createKey(name, roleDescriptors, extra = {}, by = SUPERUSER_KEY) {
      const res = await as(by, 'POST', '/_security/api_key', { name, ...(roleDescriptors !== undefined ? { role_descriptors: roleDescriptors } : {}), ...extra });
      if (res.status !== 200) throw new Error(`creating key [${name}] failed: ${res.status} ${res.text}`);
      return { id: res.body.id, encoded: res.body.encoded, apiKey: res.body.api_key };
    },
  };
}

/** Role descriptors for one index-privilege group (and optional cluster privileges). */
export function role(names: string | string[], privileges: string[], cluster: string[] = []): unknown {
  return { r: { cluster, indices: [{ names: Array.isArray(names) ? names : [names], privileges }] } };
}
