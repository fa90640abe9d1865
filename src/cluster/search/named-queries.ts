/**
 * Named queries on the coordinator (ES MatchedQueriesPhase's setup): the search's named clauses
 * (`_name` anywhere in `query` and `post_filter`, dsl/named-queries.ts), in the order ES's hash map
 * iterates their names, each planned per index as a query of its own (as ES creates a Weight per
 * name); then each page's hits get their `matched_queries` (search/matched-queries.ts) before they
 * are rendered. Names are at most `indices.query.bool.max_clause_count`, so a page costs at most
 * hits × that many scorer advances.
 */
import { TooManyClausesError } from '../../errors/index.js';
import { hasNamedClauses, namedClauses, type QueryNode } from '../../dsl/index.js';
import { javaHashMapOrder } from '../../common/java-hash-order.js';
import { DEFAULT_MAX_CLAUSE_COUNT, matchedQueries, type NamedExec, type SegmentStatsSource } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import { shardFailure, type PageHit, type SearchPhase } from './search-phase.js';

/** Each index's named clauses, planned, in the order hits report them; with how hits render them. */
export interface NamedQueryPlans {
  readonly byIndex: ReadonlyMap<IndexService, readonly NamedExec[]>;
  /** `include_named_queries_score`: an object of name → score instead of an array of names. */
  readonly includeScore: boolean;
}

/** The plans of the named clauses of `query` and `postFilter`; null when none is named (nearly every search). */
export function planNamedQueries(
  phase: SearchPhase, indices: readonly IndexService[], query: QueryNode | null, postFilter: QueryNode | null,
  stats: SegmentStatsSource, now: number, includeScore: boolean,
): NamedQueryPlans | null {
  if (!hasNamedClauses(query, postFilter)) return null;
  const clauses = namedClauses(query, postFilter);
  const max = phase.options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT;
  if (clauses.size > max) throw shardFailure(indices, new TooManyClausesError(max));
  const byIndex = new Map<IndexService, NamedExec[]>(indices.map((index) => [index, []]));
  for (const name of javaHashMapOrder([...clauses.keys()])) {
    for (const [index, exec] of phase.plan(indices, clauses.get(name)!, stats, now)) byIndex.get(index)!.push({ name, exec });
  }
  return { byIndex, includeScore };
}

/** Each page hit's `matched_queries` value (undefined: none matches), in page order; the hits of each index matched together. */
export function pageMatchedQueries(page: readonly PageHit[], named: NamedQueryPlans): Array<string | undefined> {
  const out = new Array<string | undefined>(page.length).fill(undefined);
  for (const [index, execs] of named.byIndex) {
    const at: number[] = [];
    for (let i = 0; i < page.length; i++) if (page[i].target.index === index) at.push(i);
    if (at.length === 0) continue;
    const matched = matchedQueries(execs, at.map((i) => page[i].hit), named.includeScore);
    at.forEach((i, k) => (out[i] = matched[k]));
  }
  return out;
}
