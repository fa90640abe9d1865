/**
 * `onSearch`'s request body (reference §3), key for key what Elastic's connector 1.24.2 sends, so
 * a `postProcessRequestBodyFn` written for that connector finds the same shape here: paging,
 * `_source.includes`, sort, highlight, facet aggregations, the `post_filter` of facet filters, and
 * the search term as four `multi_match` clauses with the other filters in `query.bool.filter`.
 */
import { facetAggregations, facetFiltersOf, postFilter } from './facets.js';
import { filterClause, type Clause } from './filters.js';
import type { QueryConfig, RequestState, SearchFieldConfiguration, SearchRequestBody } from './types.js';

export function buildSearchBody(state: RequestState, config: QueryConfig): SearchRequestBody {
  const body: SearchRequestBody = { size: 0, _source: { includes: Object.keys(config.result_fields ?? {}) } };
  if (state.current && state.resultsPerPage) {
    body.from = (state.current - 1) * state.resultsPerPage;
    body.size = state.resultsPerPage;
  }
  body.sort = sortOf(state);
  const highlight = highlightOf(config);
  if (highlight) body.highlight = highlight;
  const facetFilters = facetFiltersOf(state, config);
  const aggs = facetAggregations(state, config, facetFilters);
  if (aggs) body.aggs = aggs;
  const post = postFilter(facetFilters, config);
  if (post) body.post_filter = post;
  const query = queryOf(state, config);
  if (query) body.query = query;
  return body;
}

/** `"_score"`, `{field: dir}` from sortField, or `[{field: dir}, …]` from sortList (entries without a direction dropped). */
function sortOf(state: RequestState): unknown {
  if (state.sortList?.length) return state.sortList.filter((s) => s.direction).map((s) => ({ [s.field]: s.direction }));
  if (state.sortField && state.sortDirection) return { [state.sortField]: state.sortDirection };
  return '_score';
}

/** ES default highlighting on every result field with a snippet (size and fallback are the views' business). */
export function highlightOf(config: { result_fields?: QueryConfig['result_fields'] }): Clause | undefined {
  const fields: Record<string, object> = {};
  for (const [name, f] of Object.entries(config.result_fields ?? {})) if (f?.snippet) fields[name] = {};
  return Object.keys(fields).length > 0 ? { fields } : undefined;
}

/** `field^weight` for each search field, weight 1 by default. */
export function weightedFields(searchFields: Record<string, SearchFieldConfiguration> | undefined): string[] {
  return Object.entries(searchFields ?? {}).map(([field, f]) => `${field}^${f?.weight || 1}`);
}

function queryOf(state: RequestState, config: QueryConfig): Clause | undefined {
  const facets = config.facets ?? {};
  const filters = [...(state.filters ?? []).filter((f) => !Object.hasOwn(facets, f.field)), ...(config.filters ?? [])].map((f) => filterClause(f, undefined));
  const term = state.searchTerm;
  if (!term && filters.length === 0) return undefined;
  const bool: Record<string, unknown> = {};
  if (term) {
    const fields = weightedFields(config.search_fields);
    const bestFields: Record<string, unknown> = { query: term, fields, type: 'best_fields', operator: 'and' };
    if (config.fuzziness) bestFields.fuzziness = 'AUTO';
    bool.must = [
      {
        bool: {
          minimum_should_match: 1,
          should: [
            { multi_match: bestFields },
            { multi_match: { query: term, fields, type: 'cross_fields' } },
            { multi_match: { query: term, fields, type: 'phrase' } },
            { multi_match: { query: term, fields, type: 'phrase_prefix' } },
          ],
        },
      },
    ];
  }
  if (filters.length > 0) bool.filter = filters;
  return { bool };
}
