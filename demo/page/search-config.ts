/**
 * What the demo page asks for (Search UI's `searchQuery` and `autocompleteQuery`): the same with
 * either connector, since the proxy receives it as `options`.
 */
import type { AutocompleteQueryConfig, SearchQuery } from '@elastic/search-ui';

export const BASELINE_SINCE = [
  { from: '2024-01-01', name: '2024 or later' },
  { from: '2020-01-01', to: '2023-12-31', name: '2020 to 2023' },
  { from: '2015-01-01', to: '2019-12-31', name: '2015 to 2019' },
  { to: '2014-12-31', name: 'Before 2015' },
];

export const SEARCH_QUERY: SearchQuery = {
  search_fields: { name: { weight: 3 }, description: {} },
  result_fields: {
    name: { snippet: { size: 100, fallback: true } },
    description: { snippet: { size: 200, fallback: true } },
    area: { raw: {} },
    baseline: { raw: {} },
    baseline_date: { raw: {} },
    chrome_version: { raw: {} },
    url: { raw: {} },
  },
  facets: {
    area: { type: 'value', size: 8 },
    baseline: { type: 'value' },
    baseline_date: { type: 'range', ranges: BASELINE_SINCE },
  },
  disjunctiveFacets: ['area', 'baseline'],
};

export const AUTOCOMPLETE_QUERY: AutocompleteQueryConfig = {
  results: {
    resultsPerPage: 5,
    search_fields: { name: { weight: 3 }, 'name._2gram': {}, 'name._3gram': {} },
    result_fields: { name: { snippet: { size: 100, fallback: true } }, url: { raw: {} } },
  },
  suggestions: { size: 4, types: { documents: { fields: ['suggest'] } } },
};

export const SORT_OPTIONS = [
  { name: 'Relevance', value: [] },
  { name: 'Newest Baseline', value: [{ field: 'baseline_date', direction: 'desc' as const }] },
  { name: 'Oldest Baseline', value: [{ field: 'baseline_date', direction: 'asc' as const }] },
  { name: 'Chrome version', value: [{ field: 'chrome_version', direction: 'asc' as const }] },
];
