/**
 * `indices_boost` (ES TransportSearchAction.resolveIndexBoosts): each entry's expression — an
 * index, alias or wildcard — is resolved as the search resolves its targets (its indices options;
 * a name matching nothing is ES's index_not_found_exception), and a concrete index keeps the boost
 * of the first entry that names it. A shard's query is then wrapped as ES's DefaultSearchContext
 * does: FunctionScoreQuery(query, WeightFactorFunction(boost)), so each score is
 * float(score × boost) — `max_score`, `min_score` and score sorts see the boosted scores, and the
 * same on 1 shard or several (the boost is per index, never per shard).
 */
import type { IndexBoost } from '../../dsl/index.js';
import type { Exec } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';

/** Lucene's Float.MAX_VALUE: FunctionScoreQuery's default max_boost. */
const FLOAT_MAX = 3.4028234663852886e38;

export function resolveIndexBoosts(boosts: readonly IndexBoost[], resolve: (expression: string) => readonly IndexService[]): ReadonlyMap<IndexService, number> {
  const out = new Map<IndexService, number>();
  for (const { index, boost } of boosts) {
    for (const concrete of resolve(index)) if (!out.has(concrete)) out.set(concrete, boost);
  }
  return out;
}

/** The shard query of an index boosted by `boost` (unchanged at 1, as ES skips DEFAULT_BOOST). */
export function boostedQuery(exec: Exec, boost: number): Exec {
  if (boost === 1 || exec.kind === 'match_none') return exec;
  return {
    kind: 'function_score', query: exec, functions: [{ filter: null, weight: boost, fn: { kind: 'weight' } }],
    scoreMode: 'first', boostMode: 'multiply', maxBoost: FLOAT_MAX, minScore: null, boost: 1,
  };
}
