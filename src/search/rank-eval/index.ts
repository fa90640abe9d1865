/** search/rank-eval/ — the ranking quality metrics of `_rank_eval` (pure; imports dsl/ types only). */
export * from './metrics.js';
