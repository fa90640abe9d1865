/**
 * Counting the leaf clauses of an executable query, as Lucene's IndexSearcher does before running
 * it (ES `indices.query.bool.max_clause_count`): every scoring term and every matching-only leaf is
 * one clause, a phrase one per term. Compound nodes add nothing of their own.
 */
import type { Exec } from './exec-nodes.js';

export function countClauses(exec: Exec): number {
  switch (exec.t) {
    case 'bool':
      return [...exec.must, ...exec.should, ...exec.filter, ...exec.mustNot].reduce((n, c) => n + countClauses(c), 0);
    case 'dis_max':
      return exec.clauses.reduce((n, c) => n + countClauses(c), 0);
    case 'constant':
      return countClauses(exec.filter);
    case 'phrase':
      return exec.terms.length + (exec.prefixExpansions?.length ?? 0);
    case 'match_none':
      return 0;
    default:
      return 1;
  }
}
