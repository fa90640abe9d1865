/**
 * The threadsearch Search UI connector: the public interface of Elastic's
 * `ElasticsearchAPIConnector` (1.24.2), so a Search UI app swaps it in unchanged, talking straight
 * to the server with `POST <host>/<index>/_search`. Pure: global `fetch` only, no Node built-ins.
 */
import { buildCompletionBody, buildResultsBody, DEFAULT_AUTOCOMPLETE_SIZE } from './autocomplete-request.js';
import { resolveConnection, type ConnectorConfig, type ResolvedConnection } from './config.js';
import { hitsOf, searchResponseState, suggestionsOf } from './response.js';
import { buildSearchBody } from './search-request.js';
import { postJson } from './transport.js';
import type {
  AutocompleteQueryConfig,
  AutocompleteResponseState,
  EsSearchResponse,
  PostProcessRequestBodyFn,
  QueryConfig,
  RequestState,
  ResponseState,
  ResultsSuggestionsTypeConfig,
  SearchRequestBody,
  SuggestionsTypeConfig,
} from './types.js';

export class ThreadsearchConnector {
  private readonly connection: ResolvedConnection;

  /**
   * @param config `host` or `cloud` (exactly one), `index`, optional `apiKey` and
   *   `connectionOptions.headers`; a mistake throws `ConnectorConfigError` here.
   * @param postProcessRequestBodyFn rewrites each search body before it is sent (README has a
   *   `multi_match` example); the generated body may change between versions.
   */
  constructor(
    config: ConnectorConfig,
    private readonly postProcessRequestBodyFn?: PostProcessRequestBodyFn,
  ) {
    this.connection = resolveConnection(config);
    if (postProcessRequestBodyFn !== undefined && typeof postProcessRequestBodyFn !== 'function') {
      throw new TypeError('threadsearch connector: postProcessRequestBodyFn must be a function');
    }
  }

  async onSearch(requestState: RequestState, queryConfig: QueryConfig): Promise<ResponseState> {
    const generated = buildSearchBody(requestState, queryConfig);
    const body = this.postProcessRequestBodyFn ? this.postProcessRequestBodyFn(generated, requestState, queryConfig) : generated;
    const response = await this.search(body);
    return searchResponseState(response, body, requestState.searchTerm ?? '', queryConfig);
  }

  async onAutocomplete(requestState: RequestState, queryConfig: AutocompleteQueryConfig): Promise<AutocompleteResponseState> {
    const term = requestState.searchTerm ?? '';
    const state: AutocompleteResponseState = { autocompletedResults: [], autocompletedSuggestions: {}, autocompletedResultsRequestId: '', autocompletedSuggestionsRequestId: '' };
    const pending: Array<Promise<void>> = [];
    const { results, suggestions } = queryConfig;
    if (results) {
      const body = buildResultsBody(term, results, results.resultsPerPage ?? DEFAULT_AUTOCOMPLETE_SIZE);
      pending.push(this.search(body).then((r) => void state.autocompletedResults.push(...hitsOf(r))));
    }
    for (const [name, type] of Object.entries(suggestions?.types ?? {})) {
      const size = suggestions?.size ?? DEFAULT_AUTOCOMPLETE_SIZE;
      if (type.queryType === 'results') pending.push(this.resultSuggestions(term, name, type, size, state));
      else pending.push(this.completionSuggestions(term, name, type, size, state));
    }
    await Promise.all(pending);
    return state;
  }

  onResultClick(): void {}

  onAutocompleteResultClick(): void {}

  private search(body: SearchRequestBody): Promise<EsSearchResponse> {
    return postJson<EsSearchResponse>(this.connection.searchUrl, body, this.connection.headers);
  }

  /** Each hit as `{queryType: "results", result: {<result field>: {raw, snippet?}}}`. */
  private async resultSuggestions(term: string, name: string, type: ResultsSuggestionsTypeConfig, size: number, into: AutocompleteResponseState): Promise<void> {
    const response = await this.search(buildResultsBody(term, type, type.resultsPerPage ?? size));
    const fields = Object.keys(type.result_fields ?? {});
    into.autocompletedSuggestions[name] = hitsOf(response).map((hit) => ({
      queryType: 'results' as const,
      result: Object.fromEntries(fields.map((f) => [f, hit[f]])),
    }));
  }

  /** No request for an empty term: there is nothing to complete (Elastic's sends one and reports `[{suggestion: undefined}]`). */
  private async completionSuggestions(term: string, name: string, type: SuggestionsTypeConfig, size: number, into: AutocompleteResponseState): Promise<void> {
    const field = type.fields?.[0];
    if (typeof field !== 'string') throw new Error(`Autocomplete suggestion type [${name}] needs [fields] with a completion field`);
    if (term === '') {
      into.autocompletedSuggestions[name] = [];
      return;
    }
    into.autocompletedSuggestions[name] = suggestionsOf(await this.search(buildCompletionBody(term, field, size)));
  }
}
