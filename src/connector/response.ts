/**
 * ES responses → Search UI state (reference §5): each hit becomes `{id, _meta, <field>: {raw?,
 * snippet?}}` over its `_source` and `highlight` keys; totals and paging from `hits.total` and the
 * request's `from`/`size`; facets from the `facet_bucket_*` wrappers; suggestions from
 * `suggest.suggest[0].options`. A missing part reads as empty, never as a TypeError.
 */
import { facetsOf } from './facets.js';
import type { AutocompletedSuggestion, EsHit, EsSearchResponse, QueryConfig, ResponseState, SearchRequestBody, SearchResult } from './types.js';

export function resultOf(hit: EsHit): SearchResult {
  const source = hit._source ?? {};
  const highlight = hit.highlight ?? {};
  const result: SearchResult = { id: { raw: hit._id }, _meta: { id: hit._id, rawHit: hit } };
  for (const field of new Set([...Object.keys(source), ...Object.keys(highlight)])) {
    const value: { raw?: unknown; snippet?: string[] } = {};
    if (field in source) value.raw = source[field];
    if (field in highlight) value.snippet = highlight[field];
    result[field] = value;
  }
  return result;
}

export function hitsOf(response: EsSearchResponse): SearchResult[] {
  return (response.hits?.hits ?? []).map(resultOf);
}

export function totalOf(response: EsSearchResponse): number {
  const total = response.hits?.total;
  return typeof total === 'object' && total !== null ? total.value : total || 0;
}

export function searchResponseState(response: EsSearchResponse, body: SearchRequestBody, searchTerm: string, config: QueryConfig): ResponseState {
  const size: number = body.size || 0;
  const from: number = body.from || 0;
  const totalResults = totalOf(response);
  const page = Math.floor(from / size);
  const end = (page + 1) * size;
  return {
    resultSearchTerm: searchTerm,
    totalPages: Math.ceil(totalResults / size),
    pagingStart: totalResults && page * size + 1,
    pagingEnd: end > totalResults ? totalResults : end,
    wasSearched: false,
    totalResults,
    facets: facetsOf(response.aggregations, config),
    results: hitsOf(response),
    requestId: '',
    rawResponse: response,
  };
}

export function suggestionsOf(response: EsSearchResponse): AutocompletedSuggestion[] {
  const options = response.suggest?.suggest?.[0]?.options ?? [];
  return options.map((o) => ({ suggestion: o.text }));
}
