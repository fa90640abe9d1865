/**
 * The Search UI shapes the connector reads and returns, written out so the connector has no
 * dependency at all (not even on `@elastic/search-ui`): they are structurally the types of
 * `@elastic/search-ui` 1.24 (`RequestState`, `QueryConfig`, `ResponseState`, …), so an app passes
 * this connector wherever Search UI expects an `APIConnector` (test/connector/types checks that).
 */

export type SortDirection = 'asc' | 'desc' | '';
export type FilterType = 'all' | 'any' | 'none';

/** A range option of a range facet, or a range value of a filter. */
export interface FilterValueRange {
  readonly name: string;
  readonly from?: FieldValue;
  readonly to?: FieldValue;
}
/** An array is accepted as Search UI types it, and sent as it is (a `term` query with an array value). */
export type FieldValue = string | number | boolean | Array<string | number | boolean>;
export type FilterValue = FieldValue | FilterValueRange;

export interface Filter {
  readonly field: string;
  readonly type?: FilterType;
  readonly values: FilterValue[];
  readonly persistent?: boolean;
}

export interface SortOption {
  readonly field: string;
  readonly direction: SortDirection;
}

export interface RequestState {
  readonly current?: number;
  readonly resultsPerPage?: number;
  readonly searchTerm?: string;
  readonly filters?: Filter[];
  readonly sortField?: string;
  readonly sortDirection?: SortDirection;
  readonly sortList?: SortOption[];
}

export interface FacetConfiguration {
  /** `value` or `range`; anything else is refused. */
  readonly type: string;
  readonly size?: number;
  readonly sort?: 'count' | 'value';
  readonly direction?: 'asc' | 'desc';
  readonly include?: string | string[];
  readonly exclude?: string | string[];
  readonly ranges?: FilterValueRange[];
  /** Geo distance facets: not supported (the server has no geo_point). */
  readonly center?: string;
  readonly unit?: string;
}

export interface SearchFieldConfiguration {
  readonly weight?: number;
}
export interface ResultFieldConfiguration {
  readonly raw?: object;
  readonly snippet?: { readonly size?: number; readonly fallback?: boolean };
}

export interface QueryConfig extends RequestState {
  readonly search_fields?: Record<string, SearchFieldConfiguration>;
  readonly result_fields?: Record<string, ResultFieldConfiguration>;
  readonly facets?: Record<string, FacetConfiguration>;
  readonly disjunctiveFacets?: string[];
  readonly fuzziness?: boolean;
}

export interface ResultsQueryConfig {
  readonly resultsPerPage?: number;
  readonly search_fields?: Record<string, SearchFieldConfiguration>;
  readonly result_fields?: Record<string, ResultFieldConfiguration>;
  readonly filters?: Filter[];
  readonly fuzziness?: boolean;
}
export interface SuggestionsTypeConfig {
  readonly queryType?: 'suggestions';
  readonly fields: string[];
}
export interface ResultsSuggestionsTypeConfig extends ResultsQueryConfig {
  readonly queryType: 'results';
}
export interface AutocompleteQueryConfig {
  readonly results?: ResultsQueryConfig;
  readonly suggestions?: {
    readonly size?: number;
    readonly types?: Record<string, SuggestionsTypeConfig | ResultsSuggestionsTypeConfig>;
  };
}

/** One result: every returned field as `{raw?, snippet?}`, plus its id and the raw hit. */
export interface SearchResult {
  id: { raw: string };
  _meta: { id: string; rawHit: EsHit };
  [field: string]: any;
}

export interface FacetValue {
  value: FilterValue;
  count: number;
}
export interface Facet {
  field: string;
  type: 'value';
  data: FacetValue[];
}

export interface ResponseState {
  resultSearchTerm: string;
  totalPages: number;
  pagingStart: number;
  pagingEnd: number;
  wasSearched: boolean;
  totalResults: number;
  facets: Record<string, Facet[]>;
  results: SearchResult[];
  requestId: string;
  rawResponse: EsSearchResponse;
}

export interface AutocompletedSuggestion {
  suggestion: string;
}
/** A result-type suggestion: the hit's result fields, each `{raw?, snippet?}`. */
export interface AutocompletedResultSuggestion {
  queryType: 'results';
  result: Record<string, any>;
}

export interface AutocompleteResponseState {
  autocompletedResults: SearchResult[];
  autocompletedSuggestions: Record<string, AutocompletedSuggestion[] | AutocompletedResultSuggestion[]>;
  autocompletedResultsRequestId: string;
  autocompletedSuggestionsRequestId: string;
}

/** The parts of an ES hit and search response the connector reads. */
export interface EsHit {
  _id: string;
  _index?: string;
  _score?: number | null;
  _source?: Record<string, unknown>;
  highlight?: Record<string, string[]>;
  sort?: unknown[];
  [key: string]: unknown;
}
export interface EsSearchResponse {
  hits?: { total?: number | { value: number; relation: string }; hits?: EsHit[] };
  aggregations?: Record<string, Record<string, any>>;
  suggest?: Record<string, Array<{ text: string; options?: Array<{ text: string }> }>>;
  [key: string]: unknown;
}

/** An Elasticsearch request body: plain JSON, built here and possibly rewritten by the app. */
export type SearchRequestBody = Record<string, any>;

/**
 * Rewrites the body before it is sent (the documented hook of Elastic's connector). The body the
 * connector generates may change between versions: a function that edits it in place should
 * check what it finds.
 */
export type PostProcessRequestBodyFn = (requestBody: SearchRequestBody, requestState: RequestState, queryConfig: QueryConfig) => SearchRequestBody;
