/**
 * Counting the leaf clauses of an executable query, as Lucene's IndexSearcher does before running
 * it (ES `indices.query.bool.max_clause_count`): every scoring term and every matching-only leaf is
 * one clause, a phrase one per term. Compound nodes add nothing of their own.
 */
import type { Exec } from './exec-nodes.js';

/**
 * `indices.query.bool.max_clause_count` when the node does not set it (ES 8 computes its limit
 * from heap and search threads; this is a fixed, documented default).
 */
export const DEFAULT_MAX_CLAUSE_COUNT = 4096;

export function countClauses(exec: Exec): number {
  switch (exec.kind) {
    case 'bool':
      return [...exec.must, ...exec.should, ...exec.filter, ...exec.mustNot].reduce((n, c) => n + countClauses(c), 0);
    case 'dis_max':
      return exec.clauses.reduce((n, c) => n + countClauses(c), 0);
    case 'constant':
      return countClauses(exec.filter);
    case 'boosting':
      return countClauses(exec.positive) + countClauses(exec.negative);
    case 'script_score':
      return countClauses(exec.query);
    case 'function_score':
      return exec.functions.reduce((n, f) => n + (f.filter ? countClauses(f.filter) : 0), countClauses(exec.query));
    case 'phrase':
      return exec.terms.length + (exec.prefixExpansions?.length ?? 0);
    case 'match_none':
      return 0;
    default:
      return 1;
  }
}
