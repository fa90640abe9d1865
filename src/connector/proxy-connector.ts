/**
 * The browser side of a search proxy: sends `{query: <request state>, options: <query config>}`
 * to `<basePath>/search` and `<basePath>/autocomplete` and returns what the proxy answers (the
 * proxy runs `ThreadsearchConnector` server-side, holding the API key, so the browser holds
 * none). The demo application (demo/) serves these routes.
 */
import { postJson } from './transport.js';
import type { AutocompleteQueryConfig, AutocompleteResponseState, QueryConfig, RequestState, ResponseState } from './types.js';

export interface ProxyConnectorConfig {
  /** Where the routes are: `/api` → `POST /api/search`. Default: `''` (the page's own origin root). */
  readonly basePath?: string;
  readonly headers?: Record<string, string>;
  /** Extra top-level fields for each request (e.g. the demo's `{mode: "hybrid"}`), read at send time. */
  readonly extraBody?: () => Record<string, unknown>;
}

export class ProxyConnector {
  private readonly basePath: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly config: ProxyConnectorConfig = {}) {
    this.basePath = (config.basePath ?? '').replace(/\/+$/, '');
    this.headers = { 'content-type': 'application/json', ...config.headers };
  }

  onSearch(requestState: RequestState, queryConfig: QueryConfig): Promise<ResponseState> {
    return this.post<ResponseState>('/search', requestState, queryConfig);
  }

  onAutocomplete(requestState: RequestState, queryConfig: AutocompleteQueryConfig): Promise<AutocompleteResponseState> {
    return this.post<AutocompleteResponseState>('/autocomplete', requestState, queryConfig);
  }

  onResultClick(): void {}

  onAutocompleteResultClick(): void {}

  private post<T>(route: string, query: RequestState, options: unknown): Promise<T> {
    return postJson<T>(`${this.basePath}${route}`, { ...this.config.extraBody?.(), query, options }, this.headers);
  }
}
