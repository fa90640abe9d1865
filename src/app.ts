/**
 * The composition root: the one place that wires configuration, the search pool, the indices and
 * the HTTP routes together. Tests build an app here and drive it with `app.inject`.
 */
import { mkdirSync } from 'node:fs';
import { randomBase64Uuid } from './common/ids.js';
import type { ServerConfig } from './config/config.js';
import { IndicesService, SearchPool, SearchService } from './cluster/index.js';
import {
  bulkRoutes, clusterRoutes, createHttpServer, documentRoutes, indexRoutes, registerRoutes, rootRoutes, searchRoutes,
  type HttpServer,
} from './http/index.js';

export interface App {
  readonly http: HttpServer;
  readonly indices: IndicesService;
  readonly search: SearchService;
  readonly pool: SearchPool;
  close(): Promise<void>;
}

/** Compiled worker modules live in dist/workers whether we run from dist/ or from sources. */
export function workerDir(): URL {
  const here = new URL('.', import.meta.url);
  return here.pathname.includes('/dist/src/') ? new URL('../workers/', here) : new URL('../dist/workers/', here);
}

export function buildApp(config: ServerConfig, options: { logger?: boolean | object } = {}): App {
  mkdirSync(config.dataDir, { recursive: true });
  const pool = new SearchPool({ threads: config.threads, maxQueue: config.searchQueueSize, workerDir: workerDir() });
  const indices = new IndicesService(pool);
  const search = new SearchService(indices, pool);
  const http = createHttpServer({ logger: options.logger ?? false });
  const node = { nodeName: 'threadsearch-0', clusterName: 'threadsearch', clusterUuid: randomBase64Uuid() };
  registerRoutes(http.app, http.routes, [
    ...rootRoutes(node),
    ...clusterRoutes(indices, node),
    ...indexRoutes(indices),
    ...documentRoutes(indices),
    ...bulkRoutes(indices),
    ...searchRoutes(search),
  ]);
  let closed = false;
  return {
    http,
    indices,
    search,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await http.app.close();
      indices.close();
      await pool.close();
    },
  };
}
