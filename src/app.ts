/**
 * The composition root: the one place that wires configuration, the data directory, the search
 * pool, the indices and the HTTP routes together. Start-up opens the data directory, loads the
 * cluster state and recovers every index before the first request is served; `close()` is the
 * graceful shutdown. Tests build an app here and drive it with `app.http.app.inject`.
 */
import { randomBase64Uuid } from './common/ids.js';
import type { ServerConfig } from './config/config.js';
import { SETTINGS_BY_KEY } from './config/settings-registry.js';
import { SettingValueError } from './config/setting-types.js';
import { IllegalArgumentError, previewInput } from './errors/index.js';
import {
  BodyPool, ClusterSettingsService, DEFAULT_SEARCH_CONTEXT_LIMITS, IndicesService, MlService, NODE_ID, NodeStatsService, RepositoriesService, SearchContexts, SearchPool, SearchService, SlowLog,
  SnapshotsService, WriteFlow, type SnapshotsOptions, type MlState, type NodeRecovery,
} from './cluster/index.js';
import {
  aliasRoutes, analyzeRoutes, clusterSettingsRoutes, dropFreeBuffers, bulkRoutes, catRoutes, dataStreamRoutes, ES_VERSION, explainRoutes, fieldCapsRoutes, indexTemplateRoutes, scrollRoutes, statsRoutes,
  termVectorsRoutes, validateQueryRoutes, mgetRoutes, msearchRoutes, clusterRoutes, createHttpServer, documentRoutes, indexRoutes, ingestRoutes, mlRoutes,
  registerRoutes, rankEvalRoutes, reindexRoutes, resolveIndexRoutes, rootRoutes, snapshotRoutes,
  searchRoutes, securityRoutes, taskRoutes, type HttpServer,
} from './http/index.js';
import { IngestService, type IngestState } from './ingest/index.js';
import { TaskManager } from './tasks/index.js';
import { ApiKeyService, type SecurityState } from './security/index.js';
import { ClusterStateStore, openDataDir, TaskResultFiles } from './storage/index.js';
import type { Logger } from './logging/index.js';

export type { NodeRecovery };

export interface App {
  readonly http: HttpServer;
  readonly indices: IndicesService;
  readonly search: SearchService;
  /** Open scroll and point-in-time contexts (the segments they hold). */
  readonly searchContexts: SearchContexts;
  readonly pool: SearchPool;
  /** Trained models and their deployments (the inference API for ingest and search). */
  readonly ml: MlService;
  /** Ingest pipelines. */
  readonly ingest: IngestService;
  /** Running tasks (reindex, by-query) and stored results. */
  readonly tasks: TaskManager;
  /** Snapshot repositories and the snapshots in them. */
  readonly snapshots: SnapshotsService;
  /** Time reindex/by-query tasks spent in pipelines and in writes (benchmarks read it). */
  readonly byQueryTimings: { ingestMs: number; writeMs: number };
  /** What start-up recovery found. */
  readonly recovery: NodeRecovery;
  /** API keys; null when security is off. */
  readonly apiKeys: ApiKeyService | null;
  /**
   * The bootstrap superuser key generated at this start (encoded, as clients send it), to be shown
   * once; null when one was configured or already existed (only its hash is stored).
   */
  readonly generatedApiKey: string | null;
  /** Binds the HTTP server; resolves with its address (e.g. `http://127.0.0.1:9200`). */
  listen(host: string, port: number): Promise<string>;
  /**
   * Graceful shutdown: stop accepting connections, let in-flight requests finish (for at most
   * `drainMs`), flush every shard, close the translogs and the pool, release the data directory.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/** Compiled worker modules live in dist/workers whether we run from dist/ or from sources. */
export function workerDir(): URL {
  const here = new URL('.', import.meta.url);
  return here.pathname.includes('/dist/src/') ? new URL('../workers/', here) : new URL('../dist/workers/', here);
}

/** How long shutdown waits for in-flight requests before closing their connections. */
const DEFAULT_DRAIN_MS = 10_000;
/**
 * Pending-connection queue of the listening socket (the kernel caps it at somaxconn). Node's 511
 * drops connection storms on the floor — clients then wait out SYN retries — where Netty, under
 * ES, asks for somaxconn.
 */
const LISTEN_BACKLOG = 4096;

export interface AppOptions {
  /** The server's logger (start-up builds it from `logger.level` / `logger.format`); none: silent. */
  readonly logger?: Logger;
  /** Test hooks of the snapshot service (a failure injected before a repository's root swap). */
  readonly snapshots?: Pick<SnapshotsOptions, 'beforeRootSwap'>;
}

export async function createApp(config: ServerConfig, options: AppOptions = {}): Promise<App> {
  const dataDir = openDataDir(config.dataDir);
  let pool: SearchPool | null = null;
  let ml: MlService | null = null;
  try {
    const state = new ClusterStateStore(dataDir.clusterStateFile);
    state.load();
    // The cluster uuid is fixed when the data directory is first used (clients and logs key on it).
    const stored = state.section<{ cluster_uuid: string }>('cluster');
    const node = { nodeName: 'threadsearch-0', clusterName: 'threadsearch', clusterUuid: stored?.cluster_uuid ?? randomBase64Uuid() };
    state.register('cluster', () => ({ cluster_uuid: node.clusterUuid }));
    pool = new SearchPool({ threads: config.threads, maxQueue: config.searchQueueSize, workerDir: workerDir(), logger: options.logger, releaseCaches: dropFreeBuffers });
    const bodyPool = new BodyPool({ workerDir: workerDir() });
    // Slow-log lines go to the server's log; thresholds are per index (index.*.slowlog.threshold.*).
    const slowLog = options.logger ? new SlowLog(options.logger) : null;
    const indices = new IndicesService(pool, dataDir, state, { indexBufferBytes: config.indexBufferBytes, slowLog });
    const recovery = await indices.recover();
    if (!stored) {
      state.markChanged();
      await state.persist();
    }
    const persistState = () => {
      state.markChanged();
      return state.persist();
    };
    // Model deployments restart with the server (ES persistent tasks): pools load before serving.
    const mlService = new MlService({ nodes: config.mlNodes, workerDir: workerDir(), persist: persistState, modelsDir: dataDir.modelsDir });
    ml = mlService;
    state.register('ml', () => mlService.snapshot());
    await mlService.restore(state.section<MlState>('ml'));
    // text_expansion / sparse_vector queries encode their text through the ML service.
    const search = new SearchService(indices, pool, {
      defaultSearchTimeoutMs: config.searchTimeoutMs, maxClauseCount: config.maxClauseCount, inference: mlService, slowLog,
    });
    const searchContexts = new SearchContexts(indices, search, pool, { ...DEFAULT_SEARCH_CONTEXT_LIMITS, maxOpenScrollContexts: config.maxOpenScrollContexts });
    const ingest = new IngestService(mlService, persistState);
    state.register('ingest', () => ingest.snapshot());
    ingest.restore(state.section<IngestState>('ingest'));
    const writes = new WriteFlow(indices, ingest);
    const repositories = new RepositoriesService(config.pathRepo, state);
    repositories.load();
    const snapshots = new SnapshotsService(repositories, indices, ingest, { version: { id: 8505000, number: ES_VERSION.number }, ...options.snapshots });
    const tasks = new TaskManager(NODE_ID, new TaskResultFiles(dataDir.tasksDir));
    const byQueryTimings = { ingestMs: 0, writeMs: 0 };
    let apiKeys: ApiKeyService | null = null;
    let generatedApiKey: string | null = null;
    if (config.securityEnabled) {
      apiKeys = new ApiKeyService(persistState);
      apiKeys.load(state.section<SecurityState>('security'));
      const keys = apiKeys;
      state.register('security', () => keys.snapshot());
      generatedApiKey = await apiKeys.initBootstrap(config.bootstrapApiKey);
    }
    const http = createHttpServer({
      logger: options.logger,
      maxInFlightRequests: config.maxInFlightRequests,
      indexingPressureBytes: config.indexingPressureBytes,
      maxMemoryBytes: config.maxMemoryBytes,
      maxContentLength: config.maxContentLength,
      requestTimeoutMs: config.requestTimeoutMs,
      cors: { allowOrigins: config.corsOrigins },
      apiKeys,
      queryBodyLimits: { maxContentLength: config.maxQueryContentLength, maxTokenCount: config.maxQueryTokenCount },
      readLargeBody: (bytes, coding, maxContentLength, maxTokenCount) => bodyPool.read(bytes, coding, maxContentLength, maxTokenCount),
    });
    // The operator views (`_nodes`, `_stats`, `_cat`): the address is known once the server listens.
    let address = `${config.host}:${config.port}`;
    const identity = {
      id: NODE_ID, name: node.nodeName, clusterName: node.clusterName, clusterUuid: node.clusterUuid, address: () => address,
      version: ES_VERSION.number, buildFlavor: ES_VERSION.build_flavor, buildType: ES_VERSION.build_type, buildHash: ES_VERSION.build_hash,
    };
    // The node settings `PUT /_cluster/settings` may change while it runs, and where each takes effect.
    const dynamicSetting = (key: string, nodeValue: unknown, apply: (value: any) => void) => {
      const def = SETTINGS_BY_KEY.get(key)!;
      const parse = (raw: string) => {
        try {
          return def.type.parse(raw, key);
        } catch (e) {
          if (!(e instanceof SettingValueError)) throw e;
          // The value is quoted as a short prefix, whichever parser wrote the message.
          const message = e.message.split(raw).join(previewInput(raw));
          throw new IllegalArgumentError(message.includes(`[${key}]`) ? message : `failed to parse value [${previewInput(raw)}] for setting [${key}]: ${message}`);
        }
      };
      return { key, nodeValue, parse, apply };
    };
    const clusterSettings = new ClusterSettingsService(state, [
      dynamicSetting('search.default_search_timeout', config.searchTimeoutMs, (ms: number) => (search.options.defaultSearchTimeoutMs = ms)),
      dynamicSetting('search.max_open_scroll_context', config.maxOpenScrollContexts, (max: number) => searchContexts.setMaxOpenScrollContexts(max)),
      dynamicSetting('indices.breaker.total.limit', config.maxMemoryBytes, (bytes: number) => http.admission.setMaxMemoryBytes(bytes)),
    ], config.effectiveSettings.map((s) => ({ key: s.key, value: s.value })));
    const nodeStats = new NodeStatsService(identity, indices, pool, mlService);
    const routeSecurity = apiKeys ? { existingIndices: () => [...indices.names(), ...indices.aliases.names()], isHidden: indices.isHidden } : null;
    registerRoutes(http.app, http.routes, [
      ...rootRoutes(node, { securityEnabled: config.securityEnabled }),
      ...securityRoutes(apiKeys),
      ...clusterRoutes(indices, node),
      ...clusterSettingsRoutes(clusterSettings),
      ...indexRoutes(indices),
      ...analyzeRoutes(indices),
      ...aliasRoutes(indices),
      ...resolveIndexRoutes(indices),
      ...documentRoutes(writes),
      ...bulkRoutes(writes),
      ...ingestRoutes(ingest),
      ...reindexRoutes({ indices, writes, tasks, pool, inference: mlService, node: { id: NODE_ID, name: node.nodeName }, timings: byQueryTimings }),
      ...taskRoutes(tasks, { id: NODE_ID, name: node.nodeName }),
      ...searchRoutes(indices, search, searchContexts),
      ...scrollRoutes(searchContexts),
      ...msearchRoutes(indices, search, searchContexts),
      ...rankEvalRoutes(search),
      ...mgetRoutes(indices),
      ...dataStreamRoutes(),
      ...indexTemplateRoutes(indices.templates),
      ...explainRoutes(indices, search),
      ...fieldCapsRoutes(indices),
      ...validateQueryRoutes(indices),
      ...termVectorsRoutes(indices),
      ...mlRoutes(mlService),
      ...statsRoutes(indices, nodeStats, identity),
      ...catRoutes({ indices, search, nodeStats, ml: mlService, node: identity }),
      ...snapshotRoutes(repositories, snapshots, { id: NODE_ID, name: node.nodeName }),
    ], routeSecurity);
    const searchPool = pool;
    let closing: Promise<void> | null = null;
    return {
      http,
      indices,
      search,
      searchContexts,
      pool: searchPool,
      ml: mlService,
      ingest,
      tasks,
      snapshots,
      byQueryTimings,
      recovery,
      apiKeys,
      generatedApiKey,
      listen: async (host, port) => {
        const url = await http.app.listen({ host, port, backlog: LISTEN_BACKLOG });
        address = url.replace(/^https?:\/\//, '');
        return url;
      },
      close(opts = {}) {
        closing ??= (async () => {
          const drained = http.drain();
          const timer = setTimeout(() => http.app.server.closeAllConnections(), opts.drainMs ?? DEFAULT_DRAIN_MS);
          try {
            await drained;
          } finally {
            clearTimeout(timer);
          }
          // Running tasks stop between batches; what they wrote is flushed below.
          tasks.cancelAll('node shutting down');
          await tasks.drain();
          await snapshots.drain();
          try {
            await indices.flushAll();
          } finally {
            searchContexts.close();
            await indices.close();
            await mlService.close();
            await bodyPool.close();
            await searchPool.close();
            dataDir.unlock();
          }
        })();
        return closing;
      },
    };
  } catch (e) {
    await ml?.close();
    await pool?.close();
    dataDir.unlock();
    throw e;
  }
}
