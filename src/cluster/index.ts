/**
 * cluster/ — the coordinator's state and flows: the indices on this node (metadata, routing,
 * shards with their indexing buffers, published segment snapshots, refresh and merges), the search
 * pool (the only importer of piscina), and the search flow (statistics, plan, scatter, merge,
 * fetch). Imports search/, index/, storage/, ml/, tasks/ and leaves, plus workers/protocol.ts
 * (the message types). Invariant: the coordinator never scores documents; workers never own state.
 */
export * from './search-pool.js';
export * from './body-pool.js';
export * from './indices/index-service.js';
export * from './indices/indices-service.js';
export * from './indices/index-shard.js';
export * from './search/search-service.js';
export * from './indices/index-resolver.js';

export * from './search/rank-eval.js';
export * from './search-pool-stats.js';
export * from './stats/index-stats.js';
export * from './stats/health.js';
export * from './stats/node-stats.js';
export { segmentViews, type SegmentView } from './stats/segment-views.js';
export * from './cluster-settings.js';

export { IndexTemplateService, type IndexTemplateSummary } from './indices/index-templates.js';
export { explainDocument, locateDocument, planForIndex } from './search/explain.js';
export { fieldCapabilities, fieldMappings } from './indices/field-capabilities.js';
export { validateQuery } from './search/validate-query.js';
export { termVectors } from './search/term-vectors.js';
export { SearchContexts, DEFAULT_SEARCH_CONTEXT_LIMITS, type SearchContextLimits } from './search/search-contexts.js';
export { SLICE_OUTSIDE_CONTEXT } from './search/search-slice.js';
export * from './ml/ml-service.js';
export * from './reindex/doc-scan.js';
export * from './reindex/bulk-by-scroll.js';
export * from './indices/aliases.js';
export * from './indices/resolve-index.js';
export * from './writes/write-flow.js';
export { SlowLog } from './slow-log.js';
export * from './snapshots/repositories.js';
export * from './snapshots/snapshots-service.js';
export * from './snapshots/snapshot-metadata.js';
