/** Boolean query nodes for the query builders. */
import type { BoolExec, Exec } from './exec-nodes.js';

/** One clause of several alternatives (any may match). */
export function disjunction(clauses: Exec[]): Exec {
  return clauses.length === 1 ? clauses[0] : boolOf([], clauses, 1);
}

export function boolOf(must: Exec[], should: Exec[], minimumShouldMatch: number, filter: Exec[] = [], mustNot: Exec[] = []): BoolExec {
  return { kind: 'bool', must, should, filter, mustNot, minimumShouldMatch };
}
