/**
 * Server settings, with every default filled in once: flags override environment variables, which
 * override the embedded defaults (127.0.0.1:9200, data under ./data, one search thread per core).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { parseMemorySize } from '../common/byte-size.js';
import { parseTimeValue } from '../common/time-value.js';
import { decodeApiKey, type ApiKeyCredentials } from '../common/api-key-codec.js';
import { defaultMlNodes, MlNodesConfigError, parseMlNodes, type MlNodeConfig } from './ml-nodes.js';

export type { MlNodeConfig };

export interface ServerConfig {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly dataDir: string;
  /** Search pool size (worker threads). */
  readonly threads: number;
  /** Tasks allowed to wait for a search thread before requests are rejected with 429. */
  readonly searchQueueSize: number;
  /** `search.default_search_timeout` in ms, for searches without a `timeout` (-1: none, as ES). */
  readonly searchTimeoutMs: number;
  /** HTTP requests being handled at once before new ones are rejected with 429. */
  readonly maxInFlightRequests: number;
  /** `indexing_pressure.memory.limit`: bytes of write requests in flight before 429. */
  readonly indexingPressureBytes: number;
  /** `indices.memory.index_buffer_size`: buffered (unrefreshed) document bytes before a refresh is forced. */
  readonly indexBufferBytes: number;
  /** Authentication and authorization of every request (off only for local experiments). */
  readonly securityEnabled: boolean;
  /** The bootstrap superuser key (`--api-key` / THREADSEARCH_API_KEY); null: keep or generate one. */
  readonly bootstrapApiKey: ApiKeyCredentials | null;
  /** Origins browsers may call from (`*`, exact origins, `/regex/`); empty: no CORS. */
  readonly corsOrigins: readonly string[];
  /** `http.max_content_length`: larger request bodies are refused with 413. */
  readonly maxContentLength: number;
  /** Time a client has to send a whole request (headers and body) before a 408 closes it, in ms. */
  readonly requestTimeoutMs: number;
  /** `indices.query.bool.max_clause_count`: leaf clauses one query may expand to. */
  readonly maxClauseCount: number;
  /** `search.max_open_scroll_context`: scrolls open at once; more fail until some are cleared or expire. */
  readonly maxOpenScrollContexts: number;
  /** The simulated ML nodes model deployments are placed on (`--ml-nodes`). */
  readonly mlNodes: readonly MlNodeConfig[];
  readonly quiet: boolean;
}

export class ConfigError extends Error {}

export const DEFAULTS = {
  host: '127.0.0.1', port: 9200, dataDir: './data', searchQueueSize: 1000, searchTimeout: '-1', maxInFlight: 2000,
  // ES's defaults: both are 10% of the heap.
  indexingPressure: '10%', indexBuffer: '10%', corsOrigin: '*', maxContentLength: '100mb', maxClauseCount: 4096,
  requestTimeout: '60s',
  maxOpenScrollContext: 500,
} as const;

function intOption(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`--${name} must be an integer, got [${raw}]`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`--${name} must be between ${min} and ${max}, got [${raw}]`);
  return n;
}

export const USAGE = `Usage: threadsearch start [options]   (or: threadsearch [options], npm start -- [options])

  --host <addr>       address to listen on     (env THREADSEARCH_HOST, default ${DEFAULTS.host})
  --port <n>          port; 0 picks a free one (env THREADSEARCH_PORT, default ${DEFAULTS.port})
  --data <dir>        data directory           (env THREADSEARCH_DATA, default ${DEFAULTS.dataDir})
  --threads <n>       search pool threads      (env THREADSEARCH_THREADS, default: available cores)
  --search-timeout <t>  default search timeout, e.g. 30s (env THREADSEARCH_SEARCH_TIMEOUT, default ${DEFAULTS.searchTimeout}: none)
  --max-in-flight <n>   HTTP requests handled at once before 429 (default ${DEFAULTS.maxInFlight})
  --indexing-pressure <size>  write bytes in flight before 429, e.g. 512mb (default ${DEFAULTS.indexingPressure} of heap)
  --index-buffer-size <size>  unrefreshed document bytes before a forced refresh (default ${DEFAULTS.indexBuffer} of heap)
  --api-key <encoded> bootstrap superuser API key, base64 of id:secret (env THREADSEARCH_API_KEY;
                      default: generated on first start, printed once, only its hash stored)
  --no-security       no authentication at all, for local experiments (env THREADSEARCH_SECURITY=false)
  --cors-origin <list>  origins browsers may call from: *, exact origins, /regex/; comma-separated,
                      empty for none (env THREADSEARCH_CORS_ORIGIN, default ${DEFAULTS.corsOrigin})
  --max-content-length <size>  largest request body (default ${DEFAULTS.maxContentLength})
  --request-timeout <t>  time to send a whole request, headers and body, before 408 (default ${DEFAULTS.requestTimeout})
  --max-clause-count <n>  leaf clauses one query may expand to (default ${DEFAULTS.maxClauseCount})
  --max-open-scroll-context <n>  scrolls open at once (ES search.max_open_scroll_context, default ${DEFAULTS.maxOpenScrollContext})
  --ml-nodes <spec>   simulated ML nodes for model deployments: name:memory:processors[,...]
                      (e.g. ml-1:16gb:8,ml-2:8gb:4) or a JSON file [{name, memory,
                      allocated_processors}] (env THREADSEARCH_ML_NODES, default: one node
                      with this machine's memory and cores)
  --quiet             log only warnings and errors
  --help              show this help
`;

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        threads: { type: 'string' },
        'search-timeout': { type: 'string' },
        'max-in-flight': { type: 'string' },
        'indexing-pressure': { type: 'string' },
        'index-buffer-size': { type: 'string' },
        'api-key': { type: 'string' },
        'no-security': { type: 'boolean' },
        'cors-origin': { type: 'string' },
        'max-content-length': { type: 'string' },
        'request-timeout': { type: 'string' },
        'max-clause-count': { type: 'string' },
        'max-open-scroll-context': { type: 'string' },
        'ml-nodes': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const host = v.host ?? env.THREADSEARCH_HOST ?? DEFAULTS.host;
  const portRaw = v.port ?? env.THREADSEARCH_PORT;
  const threadsRaw = v.threads ?? env.THREADSEARCH_THREADS;
  return {
    host,
    port: portRaw !== undefined ? intOption('port', portRaw, 0, 65535) : DEFAULTS.port,
    dataDir: resolve(v.data ?? env.THREADSEARCH_DATA ?? DEFAULTS.dataDir),
    threads: threadsRaw !== undefined ? intOption('threads', threadsRaw, 1, 256) : Math.max(1, availableParallelism()),
    searchQueueSize: DEFAULTS.searchQueueSize,
    searchTimeoutMs: settingValue('search-timeout', v['search-timeout'] ?? env.THREADSEARCH_SEARCH_TIMEOUT ?? DEFAULTS.searchTimeout, (x, n) => parseTimeValue(x, n)),
    maxInFlightRequests: intOption('max-in-flight', v['max-in-flight'] ?? String(DEFAULTS.maxInFlight), 1, 1_000_000),
    indexingPressureBytes: settingValue('indexing-pressure', v['indexing-pressure'] ?? DEFAULTS.indexingPressure, (x, n) => parseMemorySize(x, n, heap)),
    indexBufferBytes: settingValue('index-buffer-size', v['index-buffer-size'] ?? DEFAULTS.indexBuffer, (x, n) => parseMemorySize(x, n, heap)),
    securityEnabled: securityEnabled(v['no-security'], env.THREADSEARCH_SECURITY),
    bootstrapApiKey: bootstrapKey(v['api-key'] ?? env.THREADSEARCH_API_KEY),
    corsOrigins: (v['cors-origin'] ?? env.THREADSEARCH_CORS_ORIGIN ?? DEFAULTS.corsOrigin).split(',').map((o) => o.trim()).filter((o) => o !== ''),
    maxContentLength: settingValue('max-content-length', v['max-content-length'] ?? DEFAULTS.maxContentLength, (x, n) => parseMemorySize(x, n, heap)),
    requestTimeoutMs: settingValue('request-timeout', v['request-timeout'] ?? DEFAULTS.requestTimeout, (x, n) => parseTimeValue(x, n)),
    maxClauseCount: intOption('max-clause-count', v['max-clause-count'] ?? String(DEFAULTS.maxClauseCount), 1, 1_000_000),
    maxOpenScrollContexts: intOption('max-open-scroll-context', v['max-open-scroll-context'] ?? String(DEFAULTS.maxOpenScrollContext), 0, 1_000_000),
    mlNodes: mlNodes(v['ml-nodes'] ?? env.THREADSEARCH_ML_NODES),
    quiet: v.quiet ?? false,
  };
}

function mlNodes(raw: string | undefined): MlNodeConfig[] {
  if (raw === undefined || raw.trim() === '') return defaultMlNodes();
  try {
    return parseMlNodes(raw);
  } catch (e) {
    if (e instanceof MlNodesConfigError) throw new ConfigError(e.message);
    throw e;
  }
}

function securityEnabled(noSecurityFlag: boolean | undefined, env: string | undefined): boolean {
  if (noSecurityFlag) return false;
  if (env === undefined || env === '') return true;
  if (env === 'true' || env === 'false') return env === 'true';
  throw new ConfigError(`THREADSEARCH_SECURITY must be true or false, got [${env}]`);
}

function bootstrapKey(raw: string | undefined): ApiKeyCredentials | null {
  if (raw === undefined || raw === '') return null;
  const key = decodeApiKey(raw);
  // Never echo the value: it is a secret.
  if (!key) throw new ConfigError('--api-key / THREADSEARCH_API_KEY must be an encoded API key: base64 of <id>:<api_key>');
  return key;
}

const heap = getHeapStatistics().heap_size_limit;

function settingValue(name: string, raw: string, parse: (raw: string, name: string) => number): number {
  try {
    return parse(raw, name);
  } catch (e) {
    throw new ConfigError(`--${name}: ${(e as Error).message}`);
  }
}

/** Defaults for embedding (tests, benchmarks): the same values `loadConfig` fills in. */
export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const base = loadConfig([], {});
  if (base === 'help') throw new Error('unreachable');
  return { ...base, ...overrides };
}
