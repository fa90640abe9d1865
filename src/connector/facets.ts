/**
 * Facets → aggregations (reference §3.3) and aggregations → Search UI facets (§5.3). Every facet
 * sits under a `filter` aggregation named `facet_bucket_…`: disjunctive facets (when some state
 * filter is set) get their own wrapper that applies every facet filter except their own, the
 * rest share `facet_bucket_all`, filtered like the hits' `post_filter`.
 */
import { filterClause, rangeClause, type Clause } from './filters.js';
import type { Facet, FacetConfiguration, Filter, QueryConfig, RequestState } from './types.js';

const BUCKET_PREFIX = 'facet_bucket_';

export function facetFiltersOf(state: RequestState, config: QueryConfig): Filter[] {
  const facets = config.facets ?? {};
  return (state.filters ?? []).filter((f) => Object.hasOwn(facets, f.field));
}

/** The hits' `post_filter`: every filter on a facet field, or undefined when there is none. */
export function postFilter(facetFilters: readonly Filter[], config: QueryConfig): Clause | undefined {
  if (facetFilters.length === 0) return undefined;
  return { bool: { must: facetFilters.map((f) => filterClause(f, config.facets?.[f.field])) } };
}

export function facetAggregations(state: RequestState, config: QueryConfig, facetFilters: readonly Filter[]): Clause | undefined {
  const facets = Object.entries(config.facets ?? {});
  if (facets.length === 0) return undefined;
  const disjunctive = new Set(config.disjunctiveFacets ?? []);
  // As Elastic's connector: wrappers of their own only once a filter other than the always-on ones is set.
  const alwaysOn = new Set((config.filters ?? []).map((f) => f.field));
  const filtered = (state.filters ?? []).some((f) => !alwaysOn.has(f.field));
  const all: Record<string, Clause> = {};
  const aggs: Record<string, Clause> = { facet_bucket_all: { aggs: all, filter: postFilter(facetFilters, config) ?? { bool: { must: [] } } } };
  for (const [field, facet] of facets) {
    if (disjunctive.has(field) && filtered) {
      const others = facetFilters.filter((f) => f.field !== field).map((f) => filterClause(f, config.facets?.[f.field]));
      aggs[`${BUCKET_PREFIX}${field}`] = { aggs: { [field]: facetAggregation(field, facet) }, filter: { bool: { must: others } } };
    } else {
      all[field] = facetAggregation(field, facet);
    }
  }
  return aggs;
}

function facetAggregation(field: string, facet: FacetConfiguration): Clause {
  if (facet.type === 'value') {
    const order = facet.sort === 'value' ? { _key: facet.direction ?? 'asc' } : { _count: facet.direction ?? 'desc' };
    const terms: Record<string, unknown> = { field, size: facet.size || 20, order };
    if (facet.include !== undefined) terms.include = facet.include;
    if (facet.exclude !== undefined) terms.exclude = facet.exclude;
    return { terms };
  }
  if (facet.type === 'range') {
    if (facet.center !== undefined) throw new Error(`Geo distance facet [${field}] is not supported by the threadsearch connector`);
    const filters: Record<string, Clause> = {};
    for (const option of facet.ranges ?? []) filters[option.name] = rangeClause(field, option);
    return { filters: { filters } };
  }
  throw new Error(`Facet [${field}] has unknown type [${String((facet as { type?: unknown }).type).slice(0, 40)}]: expected "value" or "range"`);
}

/** Reads every `facet_bucket_*` wrapper; facets come out in the order the aggregations came back. */
export function facetsOf(aggregations: Record<string, Record<string, any>> | undefined, config: QueryConfig): Record<string, Facet[]> {
  const facets: Record<string, Facet[]> = {};
  for (const [name, wrapper] of Object.entries(aggregations ?? {})) {
    if (!name.startsWith(BUCKET_PREFIX) || wrapper === null || typeof wrapper !== 'object') continue;
    for (const [field, agg] of Object.entries(wrapper)) {
      const facet = config.facets?.[field];
      if (field === 'meta' || field === 'doc_count' || facet === undefined) continue;
      facets[field] = [{ field, type: 'value', data: facetData(agg?.buckets, facet) }];
    }
  }
  return facets;
}

function facetData(buckets: unknown, facet: FacetConfiguration): Facet['data'] {
  const entries: Array<[unknown, { doc_count?: number } | undefined]> = Array.isArray(buckets)
    ? buckets.map((b: { key: unknown; doc_count?: number }) => [b.key, b])
    : Object.entries((buckets ?? {}) as Record<string, { doc_count?: number }>);
  return entries.map(([key, b]) => ({
    value: facet.type === 'range' ? { ...facet.ranges?.find((r) => r.name === key), name: String(key) } : (key as string | number),
    count: b?.doc_count || 0,
  }));
}
