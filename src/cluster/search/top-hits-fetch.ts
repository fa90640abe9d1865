/**
 * The fetch of `top_hits` aggregations: each hit the reduce kept is rendered as the search renders
 * its hits (`renderHit`: `_index`, `_id`, `_score`, `_source` from the stored bytes, filtered as
 * the aggregation asks, `sort`), from the coordinator-owned segments of the shard that found it.
 * Fetch specs are built once per aggregation and index.
 */
import { EsError } from '../../errors/index.js';
import { fielddataError, matchedQueries, renderHit, resolveFetchFields, type ExecTopHits, type FetchSpec, type ReducedTopHit, type TopHitsFetch } from '../../search/index.js';
import type { IndexService } from '../indices/index-service.js';
import { fetchFailure } from './search-highlight.js';
import { distinctShards, missingStyles, type ShardTarget } from './search-phase.js';
import type { NamedQueryPlans } from './named-queries.js';

interface IndexFetch {
  readonly spec: FetchSpec;
  readonly indexJson: string;
}

/** `named`: the search's named clauses, whose matches each hit shows as the search's hits do (ES runs the fetch sub-phases for top_hits too). */
export function topHitsFetch(targets: readonly ShardTarget[], named: NamedQueryPlans | null = null): TopHitsFetch {
  const specs = new Map<ExecTopHits, Map<IndexService, IndexFetch>>();
  return {
    hit(agg: ExecTopHits, h: ReducedTopHit): string {
      const target = targets[h.target];
      let byIndex = specs.get(agg);
      if (byIndex === undefined) specs.set(agg, (byIndex = new Map()));
      try {
        let fetch = byIndex.get(target.index);
        if (fetch === undefined) byIndex.set(target.index, (fetch = { spec: topHitsSpec(agg, target.index), indexJson: JSON.stringify(target.index.name) }));
        const segment = target.snapshot.segments[h.segment].reader;
        const matched = named === null ? undefined : matchedQueries(named.byIndex.get(target.index) ?? [], [{ segment, doc: h.doc }], named.includeScore)[0];
        return renderHit({ segment, doc: h.doc, score: h.score, sortValues: h.sortValues, matchedQueries: matched }, fetch.spec, fetch.indexJson);
      } catch (e) {
        if (e instanceof EsError) throw fetchFailure(e, distinctShards([target]));
        throw e;
      }
    },
  };
}

function topHitsSpec(agg: ExecTopHits, index: IndexService): FetchSpec {
  const req = agg.fetch;
  return {
    index: index.name, source: req.source, storedFieldsNone: req.storedFieldsNone, version: req.version, seqNoPrimaryTerm: req.seqNoPrimaryTerm,
    tracksScores: agg.tracksScores, sortKeys: agg.sort, missingStyles: missingStyles(agg.sort, index), highlight: null,
    fields: resolveFetchFields(req.fields, req.docvalueFields, index.resolvedMapping.fields, (f) => fielddataError(f, index.name)),
  };
}
