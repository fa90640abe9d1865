/**
 * The connector's configuration, as `ElasticsearchAPIConnector` takes it, checked and resolved
 * once: where `_search` is and which headers go with every request.
 */

export interface ConnectorConfig {
  /** The server's URL, e.g. `http://127.0.0.1:9200`; a path (`https://h/es`) is kept. */
  readonly host?: string;
  /** An Elastic Cloud id (`name:base64(domain$es_uuid$kibana_uuid)`), instead of `host`. */
  readonly cloud?: { readonly id: string };
  /** The index (or comma-separated indices, or an alias) searched. */
  readonly index: string;
  /** An encoded API key, sent as `Authorization: ApiKey <apiKey>`. Give a browser a read-only key. */
  readonly apiKey?: string;
  readonly connectionOptions?: { readonly headers?: Record<string, string> };
}

export interface ResolvedConnection {
  /** `POST` target: `<host>/<index>/_search`. */
  readonly searchUrl: string;
  readonly headers: Record<string, string>;
}

/** A mistake in the connector's configuration, thrown by the constructor. */
export class ConnectorConfigError extends Error {
  override name = 'ConnectorConfigError';
}

export function resolveConnection(config: ConnectorConfig | undefined): ResolvedConnection {
  if (config === null || typeof config !== 'object') throw new ConnectorConfigError('threadsearch connector: a configuration object is required ({host or cloud, index, apiKey?})');
  const { host, cloud, index, apiKey } = config;
  if ((host === undefined) === (cloud === undefined)) {
    throw new ConnectorConfigError('threadsearch connector: exactly one of [host] or [cloud] must be given');
  }
  if (typeof index !== 'string' || index.length === 0) throw new ConnectorConfigError('threadsearch connector: [index] is required');
  const base = host !== undefined ? parseHost(host) : cloudUrl(cloud);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined) {
    if (typeof apiKey !== 'string' || apiKey.length === 0) throw new ConnectorConfigError('threadsearch connector: [apiKey] must be a non-empty string');
    headers.authorization = `ApiKey ${apiKey}`;
  }
  for (const [name, value] of Object.entries(config.connectionOptions?.headers ?? {})) headers[name.toLowerCase()] = String(value);
  const path = index.split(',').map(encodeURIComponent).join(',');
  return { searchUrl: `${base}/${path}/_search`, headers };
}

/** The host without a trailing slash; unlike Elastic's connector, a path prefix is kept. */
function parseHost(host: unknown): string {
  if (typeof host !== 'string') throw new ConnectorConfigError('threadsearch connector: [host] must be a URL string');
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new ConnectorConfigError(`threadsearch connector: [host] is not a valid URL: [${host.slice(0, 100)}]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConnectorConfigError(`threadsearch connector: [host] must be an http or https URL, got [${url.protocol}]`);
  if (url.search !== '' || url.hash !== '') throw new ConnectorConfigError('threadsearch connector: [host] must not have a query string or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `name:base64("domain[:port]$es_uuid$kibana_uuid")` → `https://es_uuid.domain[:port]`, as Elastic's clients decode it. */
function cloudUrl(cloud: { readonly id: string } | undefined): string {
  const id = cloud?.id;
  if (typeof id !== 'string' || !id.includes(':')) throw new ConnectorConfigError('threadsearch connector: [cloud.id] must look like <name>:<base64>');
  let decoded: string;
  try {
    decoded = atob(decodeURIComponent(id.slice(id.indexOf(':') + 1)));
  } catch {
    throw new ConnectorConfigError('threadsearch connector: [cloud.id] is not valid base64 after the name');
  }
  const [domain, esUuid] = decoded.split('$');
  if (!domain || !esUuid) throw new ConnectorConfigError('threadsearch connector: [cloud.id] does not hold <domain>$<es_uuid>$<kibana_uuid>');
  return `https://${esUuid}.${domain}`;
}
