/**
 * dsl/ — request JSON → typed, immutable nodes: queries (one parser per clause in queries/), sort,
 * `_source` filtering, whole search (with its hybrid forms: retrievers, `sub_searches` + `rank`), count
 * and update requests, and the `query_string` syntax.
 * Pure: imports only errors/ and common/, no Node APIs. Invariant: nothing after this layer reads
 * raw request JSON, and every malformed input becomes an ES-shaped error here — except the
 * `query_string` syntax, which planning parses per index because ES reports it as a shard failure.
 * Parse errors carry the JSON path of what they point at; positions are computed only on the
 * error path (`locateJsonPath`).
 */
export * from './json-body.js';
export * from './json-limits.js';
export * from './parse-helpers.js';
export * from './query-nodes.js';
export * from './query-walk.js';
export * from './named-queries.js';
export { NUM_CANDIDATES_LIMIT } from './knn.js';
export * from './sort.js';
export * from './source-filter.js';
export * from './search-request.js';
export type { ScriptFieldRequest } from './script-fields.js';
export * from './rescore.js';
export * from './collapse.js';
export * from './slice.js';
export * from './indices-boost.js';
export type { CollapseInnerHits } from './collapse-inner-hits.js';
export * from './update-request.js';
export * from './retriever.js';
export * from './rank.js';
export * from './minimum-should-match.js';
export { parseQuery, SUPPORTED_QUERIES } from './queries/registry.js';
export { DEFAULT_TOKEN_PRUNING } from './queries/token-pruning.js';
export * from './by-query-request.js';
export * from './alias-actions.js';
export * from './mget-request.js';
export * from './highlight.js';
export * from './suggest/index.js';
export * from './analyze-request.js';
export * from './rank-eval-request.js';
export * from './url-params.js';
export * from './wildcard-states.js';
export * from './bulk-request.js';
export * from './msearch-request.js';
export * from './snapshot-request.js';
export * from './ml-model-request.js';
export * from './ml-deployment-request.js';
export * from './script/index.js';
