/**
 * The coordinator's part of `highlight`: each index's HighlightSpec, built from its planned search
 * query (and each `highlight_query`, planned once over all target indices), before the scatter, so
 * whichever thread renders the page — a worker for a single shard, the coordinator otherwise —
 * highlights with the same plain data. Highlighting itself happens only for the returned page.
 */
import type { EsError } from '../../errors/index.js';
import type { BoolExec, Exec, HighlightSpec } from '../../search/index.js';
import { buildHighlightSpec } from '../../search/index.js';
import { SearchPhaseExecutionError } from '../../errors/index.js';
import type { HighlightRequest, QueryNode } from '../../dsl/index.js';
import type { IndexService } from '../indices/index-service.js';

/** Null when the request highlights nothing. */
export function planHighlight(
  indices: readonly IndexService[],
  request: HighlightRequest | null,
  searchPlans: ReadonlyMap<IndexService, Exec>,
  plan: (query: QueryNode) => ReadonlyMap<IndexService, Exec>,
  fused: boolean,
): Map<IndexService, HighlightSpec> | null {
  if (request === null || request.fields.length === 0) return null;
  const highlightQueries = new Map<QueryNode, ReadonlyMap<IndexService, Exec>>();
  const specs = new Map<IndexService, HighlightSpec>();
  for (const index of indices) {
    specs.set(index, buildHighlightSpec({
      request, mapping: index.resolvedMapping, fused,
      plan: (q) => {
        if (q === null) return searchPlans.get(index)!;
        let planned = highlightQueries.get(q);
        if (!planned) highlightQueries.set(q, (planned = plan(q)));
        return planned.get(index)!;
      },
    }));
  }
  return specs;
}

/** A fused page highlights the terms of every list's query (ES's rrf retriever, 8.16+). */
export function unionOfPlans(indices: readonly IndexService[], lists: ReadonlyArray<ReadonlyMap<IndexService, Exec>>): Map<IndexService, Exec> {
  const out = new Map<IndexService, Exec>();
  for (const index of indices) {
    const union: BoolExec = { kind: 'bool', must: [], should: lists.map((p) => p.get(index)!), filter: [], mustNot: [], minimumShouldMatch: 1 };
    out.set(index, union);
  }
  return out;
}

/** A highlighting failure while the coordinator renders a page: ES fails the fetch of the shards involved. */
export function fetchFailure(e: EsError, shards: ReadonlyArray<{ shard: number; index: string; node: string }>): SearchPhaseExecutionError {
  return new SearchPhaseExecutionError('fetch', shards.map((s) => ({ ...s, cause: e })));
}
