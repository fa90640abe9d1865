/**
 * Every server setting, declared once: its threadsearch.yml key (ES's dotted name where ES has
 * one), its command-line flag, its environment variable, its type (which parses and validates it),
 * its default, whether it is a secret, and what it does. The command-line parser, the environment
 * and config-file readers, `--help`, the effective settings printed at start, the README table and
 * the `ServerConfig` type are all derived from this list: a new setting is one entry here.
 */
import { availableParallelism, totalmem } from 'node:os';
import { parseMemorySize } from '../common/byte-size.js';
import { decodeApiKey, type ApiKeyCredentials } from '../common/api-key-codec.js';
import { defaultMlNodes, MlNodesConfigError, parseMlNodes, type MlNodeConfig } from './ml-nodes.js';
import { boolean, custom, integer, list, memorySize, oneOf, path, pathList, SettingValueError, text, time, type SettingType } from './setting-types.js';

/** A byte size or a % of physical memory; -1: no limit (Infinity). */
const physicalMemoryLimit: SettingType<number> = {
  arg: 'size',
  describe: 'byte size (e.g. 2gb), % of physical memory, or -1',
  parse(raw, key) {
    if (raw.trim() === '-1') return Infinity;
    try {
      return parseMemorySize(raw, key, totalmem());
    } catch (e) {
      throw new SettingValueError((e as Error).message);
    }
  },
};

export interface SettingDef<F extends string = string, T = unknown> {
  /** The threadsearch.yml key, e.g. `http.port` (nested YAML maps spell the same key). */
  readonly key: string;
  /** The command-line flag without dashes, e.g. `port`. */
  readonly flag: string;
  /** For a flag that takes no value (`--no-security`): the value its presence sets. */
  readonly flagValue?: string;
  readonly env: string;
  /** The `ServerConfig` field the parsed value lands in. */
  readonly field: F;
  readonly type: SettingType<T>;
  /** The default, in the same syntax as the flag's value. */
  readonly default: string;
  /** How the README and --help show a computed default (e.g. "available cores"). */
  readonly defaultText?: string;
  /** Never printed, logged or echoed in an error. */
  readonly secret?: boolean;
  /** The parser reads JSON too: a YAML list or map in threadsearch.yml arrives as JSON text. */
  readonly json?: boolean;
  readonly description: string;
}

function setting<const F extends string, T>(def: SettingDef<F, T>): SettingDef<F, T> {
  return def;
}

const bootstrapApiKey: SettingType<ApiKeyCredentials | null> = {
  describe: 'encoded API key (base64 of id:api_key)',
  arg: 'encoded',
  parse(raw) {
    if (raw.trim() === '') return null;
    const key = decodeApiKey(raw.trim());
    // Never echo the value: it is a secret.
    if (!key) throw new SettingValueError('must be an encoded API key: base64 of <id>:<api_key>');
    return key;
  },
};

const mlNodes = custom<readonly MlNodeConfig[]>(
  'name:memory:processors[,…], a JSON file, or (in YAML) a list of {name, memory, allocated_processors}',
  'spec',
  (raw) => (raw.trim() === '' ? defaultMlNodes() : parseMlNodes(raw)),
  (e) => e instanceof MlNodesConfigError,
);

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;

export const SETTINGS = [
  setting({ key: 'network.host', flag: 'host', env: 'THREADSEARCH_HOST', field: 'host', type: text, default: '127.0.0.1', description: 'address to listen on' }),
  setting({ key: 'http.port', flag: 'port', env: 'THREADSEARCH_PORT', field: 'port', type: integer(0, 65535), default: '9200', description: 'HTTP port; 0 picks a free one (the bound address is logged)' }),
  setting({ key: 'path.data', flag: 'data', env: 'THREADSEARCH_DATA', field: 'dataDir', type: path, default: './data', description: 'data directory (indices, cluster state, translogs)' }),
  setting({
    key: 'path.repo', flag: 'path-repo', env: 'THREADSEARCH_PATH_REPO', field: 'pathRepo', type: pathList,
    default: '', defaultText: 'none: snapshots disabled', description: 'directories snapshot repositories (type fs) may use (ES path.repo)',
  }),
  setting({
    key: 'thread_pool.search.size', flag: 'threads', env: 'THREADSEARCH_THREADS', field: 'threads', type: integer(1, 256),
    default: String(Math.max(1, availableParallelism())), defaultText: 'available cores', description: 'search/build worker threads',
  }),
  setting({
    key: 'thread_pool.search.queue_size', flag: 'search-queue-size', env: 'THREADSEARCH_SEARCH_QUEUE_SIZE', field: 'searchQueueSize', type: integer(1, 1_000_000),
    default: '1000', description: 'searches waiting for a search thread before 429',
  }),
  setting({
    key: 'search.default_search_timeout', flag: 'search-timeout', env: 'THREADSEARCH_SEARCH_TIMEOUT', field: 'searchTimeoutMs', type: time,
    default: '-1', description: 'timeout of searches that set none (-1: none)',
  }),
  setting({
    key: 'http.max_in_flight_requests', flag: 'max-in-flight', env: 'THREADSEARCH_MAX_IN_FLIGHT', field: 'maxInFlightRequests', type: integer(1, 1_000_000),
    default: '2000', description: 'HTTP requests handled at once; more are answered 429',
  }),
  setting({
    key: 'indexing_pressure.memory.limit', flag: 'indexing-pressure', env: 'THREADSEARCH_INDEXING_PRESSURE', field: 'indexingPressureBytes', type: memorySize,
    default: '10%', description: 'bytes of write requests in flight; more are answered 429',
  }),
  setting({
    // ES: 10% of the JVM heap, at least 48mb. Unrefreshed documents here sit on the coordinator's V8
    // heap, whose limit (~4 GB by default) is no measure of what the node should hold: ES's floor.
    key: 'indices.memory.index_buffer_size', flag: 'index-buffer-size', env: 'THREADSEARCH_INDEX_BUFFER_SIZE', field: 'indexBufferBytes', type: memorySize,
    default: '48mb', description: 'unrefreshed documents across all shards before the largest are refreshed; past 1.5x (refreshes behind) writes to them are throttled',
  }),
  setting({
    // ES's parent circuit breaker. Here of physical memory (ES's 95% is of the JVM heap, about half of it).
    key: 'indices.breaker.total.limit', flag: 'max-memory', env: 'THREADSEARCH_MAX_MEMORY', field: 'maxMemoryBytes', type: physicalMemoryLimit,
    default: '90%', description: 'process RSS past which writes get 429 circuit_breaking_exception (size, % of physical memory, or -1 for none)',
  }),
  setting({
    key: 'xpack.security.enabled', flag: 'no-security', flagValue: 'false', env: 'THREADSEARCH_SECURITY', field: 'securityEnabled', type: boolean,
    default: 'true', description: 'authenticate and authorize every request; false only for local experiments (warns at start-up and in GET /)',
  }),
  setting({
    key: 'xpack.security.bootstrap_api_key', flag: 'api-key', env: 'THREADSEARCH_API_KEY', field: 'bootstrapApiKey', type: bootstrapApiKey,
    default: '', defaultText: 'generated on first start, printed once', secret: true, description: 'the bootstrap superuser key, encoded as clients send it (only its hash is stored; a new value replaces the stored one)',
  }),
  setting({
    key: 'http.cors.allow-origin', flag: 'cors-origin', env: 'THREADSEARCH_CORS_ORIGIN', field: 'corsOrigins', type: list,
    default: '*', description: 'origins browsers may call from: *, exact origins, /regex/ (empty: no CORS)',
  }),
  setting({
    key: 'http.max_content_length', flag: 'max-content-length', env: 'THREADSEARCH_MAX_CONTENT_LENGTH', field: 'maxContentLength', type: memorySize,
    default: '100mb', description: 'largest request body (413 above it)',
  }),
  setting({
    // Not in ES (which bounds a search body by http.max_content_length only): a query body's parsed
    // value is copied to the main thread, ~5 ms per MB on a slow VM, so it is kept small.
    key: 'http.max_query_content_length', flag: 'max-query-content-length', env: 'THREADSEARCH_MAX_QUERY_CONTENT_LENGTH', field: 'maxQueryContentLength', type: memorySize,
    default: '10mb', description: 'largest read-request body (_search, _count, _explain, by-query, _mget, _termvectors, _analyze …; 413 above it), counted inflated; not an ES setting',
  }),
  setting({
    // Not in ES either: Jackson's StreamReadConstraints.maxTokenCount, which ES leaves unbounded.
    key: 'http.max_query_token_count', flag: 'max-query-token-count', env: 'THREADSEARCH_MAX_QUERY_TOKEN_COUNT', field: 'maxQueryTokenCount', type: integer(1, 100_000_000),
    default: '100000', description: 'JSON tokens a query DSL body may hold (400 x_content_parse_exception above it); not an ES setting',
  }),
  setting({
    key: 'http.request_timeout', flag: 'request-timeout', env: 'THREADSEARCH_REQUEST_TIMEOUT', field: 'requestTimeoutMs', type: time,
    default: '60s', description: 'time a client has to send a whole request, headers and body, before 408 and close (headers alone: 10 s at most; -1: no body deadline)',
  }),
  setting({
    key: 'indices.query.bool.max_clause_count', flag: 'max-clause-count', env: 'THREADSEARCH_MAX_CLAUSE_COUNT', field: 'maxClauseCount', type: integer(1, 1_000_000),
    default: '4096', description: 'leaf clauses one query may expand to',
  }),
  setting({
    key: 'search.max_open_scroll_context', flag: 'max-open-scroll-context', env: 'THREADSEARCH_MAX_OPEN_SCROLL_CONTEXT', field: 'maxOpenScrollContexts', type: integer(0, 1_000_000),
    default: '500', description: 'scrolls open at once; more fail until some are cleared or expire',
  }),
  setting({
    key: 'ml.nodes', flag: 'ml-nodes', env: 'THREADSEARCH_ML_NODES', field: 'mlNodes', type: mlNodes, json: true,
    default: '', defaultText: "one node with this machine's memory and cores", description: 'simulated ML nodes model deployments are placed on (see Semantic model)',
  }),
  setting({
    key: 'logger.level', flag: 'log-level', env: 'THREADSEARCH_LOG_LEVEL', field: 'logLevel', type: oneOf(LOG_LEVELS),
    default: 'info', description: 'least severe log level written (debug adds one line per request)',
  }),
  setting({
    key: 'logger.format', flag: 'log-format', env: 'THREADSEARCH_LOG_FORMAT', field: 'logFormat', type: oneOf(LOG_FORMATS),
    default: 'pretty', description: 'log lines for people (pretty) or one JSON object per line (json)',
  }),
] as const;

export type Setting = (typeof SETTINGS)[number];

/** The parsed settings, one field per entry of SETTINGS. */
export type SettingValues = {
  -readonly [S in Setting as S['field']]: S extends SettingDef<string, infer T> ? T : never;
};

/** Flags that are shorthands for a setting's value rather than settings of their own. */
export const FLAG_ALIASES: Readonly<Record<string, { readonly key: string; readonly value: string; readonly description: string }>> = {
  quiet: { key: 'logger.level', value: 'warn', description: 'log only warnings and errors (--log-level warn)' },
};

export const SETTINGS_BY_KEY: ReadonlyMap<string, SettingDef> = new Map(SETTINGS.map((s) => [s.key, s]));
