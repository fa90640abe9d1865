/**
 * Named queries (`_name` on any clause): which clauses a search reports in its hits'
 * `matched_queries`. ES registers a clause's query under its name as it builds the query
 * (SearchExecutionContext.addNamedQuery, children before their parent), first for `query`, then
 * for `post_filter` (MatchedQueriesPhase puts the post filter's names after the query's): a name
 * given twice reports the clause registered last.
 */
import { forEachClausePostOrder, someClause } from './query-walk.js';
import type { QueryNode } from './query-nodes.js';

const isNamed = (c: QueryNode): boolean => c.name !== null;

/** Whether `query` or `postFilter` names a clause (asked on every search: allocates nothing). */
export function hasNamedClauses(query: QueryNode | null, postFilter: QueryNode | null): boolean {
  return (query !== null && someClause(query, isNamed)) || (postFilter !== null && someClause(postFilter, isNamed));
}

/**
 * Each name with the clause it reports, in the order the names were first registered (a Map keeps
 * a key's place when its value is replaced, as Java's HashMap keeps a replaced entry in its bucket).
 */
export function namedClauses(query: QueryNode | null, postFilter: QueryNode | null): Map<string, QueryNode> {
  const out = new Map<string, QueryNode>();
  const register = (c: QueryNode): void => {
    if (c.name !== null) out.set(c.name, c);
  };
  if (query !== null) forEachClausePostOrder(query, register);
  if (postFilter !== null) forEachClausePostOrder(postFilter, register);
  return out;
}
