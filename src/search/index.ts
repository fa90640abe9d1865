/**
 * search/ — planning (query nodes + mapping + index-wide statistics → executable plan, on the
 * coordinator) and per-shard execution (scorers, BM25, block-max MaxScore, collectors, in workers).
 * Imports index/, dsl/, analysis/ and leaves. Invariants: execution needs only the plan and the
 * segments (no mapping, no stats); scores are float32 as in Lucene and independent of sharding.
 */
export * from './bm25.js';
export * from './plan/exec-nodes.js';
export * from './plan/context.js';
export { planQuery } from './plan/planner.js';
export { planScriptFields } from './plan/script.js';
export { resolveSortKeys } from './plan/sort-resolution.js';
export { countClauses, DEFAULT_MAX_CLAUSE_COUNT } from './plan/clause-count.js';
export { SegmentStatsSource } from './plan/stats-source.js';
export * from './shard-search.js';
export * from './rescore.js';
export { NO_DEADLINE } from './exec/deadline.js';
export * from './exec/field-sort.js';
export { maxScoreStats } from './exec/max-score.js';
export * from './fetch-render.js';
export * from './matched-queries.js';
export { resolveFetchFields, type FetchField, type FetchFields } from './fetch-fields.js';
export * from './highlight/index.js';
export * from './aggs/index.js';
export * from './suggest/index.js';
export * from './rank-eval/index.js';

export * from './explain.js';
