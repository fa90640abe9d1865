/**
 * http/ — the REST surface: one file per ES API family, plus the fastify server (media types,
 * product header, errors, 400/405 for unknown routes). No business logic: handlers translate
 * requests into calls on cluster/ services and render results. Imported only by app.ts.
 */
export * from './server.js';
export { dropFreeBuffers } from './free-buffers.js';
export * from './rest.js';
export * from './root.js';
export * from './indices.js';
export * from './documents.js';
export * from './bulk.js';
export * from './search.js';
export * from './cluster.js';
export * from './cluster-settings.js';
export * from './security.js';
export * from './authorization.js';
export * from './ml.js';
export * from './ingest.js';
export * from './tasks.js';
export * from './reindex.js';
export * from './aliases.js';
export * from './resolve-index.js';
export * from './msearch.js';
export * from './mget.js';
export * from './analyze.js';
export * from './rank-eval.js';
export * from './stats.js';
export * from './cat.js';
export * from './cat-table.js';

export * from './data-streams.js';
export * from './index-templates.js';
export * from './explain.js';
export * from './field-caps.js';
export * from './validate-query.js';
export * from './termvectors.js';
export * from './scroll.js';
export * from './snapshot.js';
