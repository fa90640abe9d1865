/**
 * `onAutocomplete`'s request bodies (reference §4): results (and result-type suggestions) are a
 * `bool_prefix` multi_match over the configured fields (the app lists a search_as_you_type
 * field's `._2gram`/`._3gram` subfields itself); completion suggestions use the `completion`
 * suggester on the first listed field, named `suggest`.
 */
import { filterClause } from './filters.js';
import { highlightOf, weightedFields } from './search-request.js';
import type { ResultsQueryConfig, SearchRequestBody } from './types.js';

/** Autocomplete results per request when the config gives none (reference §0: always 5). */
export const DEFAULT_AUTOCOMPLETE_SIZE = 5;

export function buildResultsBody(searchTerm: string, config: ResultsQueryConfig, size: number): SearchRequestBody {
  const body: SearchRequestBody = { size, _source: { includes: Object.keys(config.result_fields ?? {}) } };
  const highlight = highlightOf(config);
  if (highlight) body.highlight = highlight;
  const filters = (config.filters ?? []).map((f) => filterClause(f, undefined));
  if (searchTerm || filters.length > 0) {
    const bool: Record<string, unknown> = {};
    if (searchTerm) {
      const multiMatch: Record<string, unknown> = { query: searchTerm, type: 'bool_prefix', fields: weightedFields(config.search_fields) };
      if (config.fuzziness) multiMatch.fuzziness = 'AUTO';
      bool.must = [{ multi_match: multiMatch }];
    }
    if (filters.length > 0) bool.filter = filters;
    body.query = { bool };
  }
  return body;
}

export function buildCompletionBody(searchTerm: string, field: string, size: number): SearchRequestBody {
  return {
    size: 0,
    _source: { includes: [] },
    suggest: { suggest: { prefix: searchTerm, completion: { size, skip_duplicates: true, field, fuzzy: { fuzziness: 1 } } } },
  };
}
