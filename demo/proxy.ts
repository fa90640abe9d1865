/**
 * The demo's search proxy: `POST /search` and `POST /autocomplete` with the body
 * `{query: <request state>, options: <query config>, mode?}` answer what the connector's
 * `onSearch` / `onAutocomplete` return. The connector runs here, server-side, with the proxy's
 * API key and headers, so the browser holds no key; and the proxy adds a filter the browser
 * cannot remove (`restrict`, e.g. only `visibility: public` documents) to every search and every
 * autocomplete results request. Bad bodies get a 400 with a clear message.
 */
import type { FastifyInstance } from 'fastify';
import { ConnectorError, ThreadsearchConnector, type AutocompleteQueryConfig, type Filter, type QueryConfig, type RequestState } from '../src/connector/index.js';
import { isSearchMode, recipeFor, SEARCH_MODES, type SearchMode } from './search-modes.js';

export interface ProxyOptions {
  /** The search server, e.g. http://127.0.0.1:9200. */
  readonly es: string;
  readonly index: string;
  /** The proxy's own key (read on `index` is enough); never sent to the browser. */
  readonly apiKey?: string;
  /** Extra headers for every request to the search server. */
  readonly headers?: Record<string, string>;
  /** Filters added to every request (Search UI filters; `all`/`any`). */
  readonly restrict?: readonly Filter[];
}

/** Hides the sample's internal (discouraged) documents. */
export const PUBLIC_ONLY: readonly Filter[] = [{ field: 'visibility', type: 'all', values: ['public'] }];

class BadRequest extends Error {}

export function registerProxyRoutes(app: FastifyInstance, options: ProxyOptions): void {
  const connectors = new Map<SearchMode, ThreadsearchConnector>(
    SEARCH_MODES.map((mode) => [
      mode,
      new ThreadsearchConnector({ host: options.es, index: options.index, apiKey: options.apiKey, connectionOptions: { headers: options.headers ?? {} } }, recipeFor(mode)),
    ]),
  );
  const restrict = options.restrict ?? [];

  app.post('/search', async (req, reply) => {
    const { query, options: config, mode } = readBody(req.body);
    const restricted: QueryConfig = { ...config, filters: [...arrayOr(config.filters, 'options.filters'), ...restrict] };
    return answer(reply, () => connectors.get(mode)!.onSearch(query, restricted));
  });

  app.post('/autocomplete', async (req, reply) => {
    const { query, options: config } = readBody(req.body);
    const autocomplete = config as AutocompleteQueryConfig;
    const restricted: AutocompleteQueryConfig = {
      ...(autocomplete.results ? { results: { ...autocomplete.results, filters: [...arrayOr(autocomplete.results.filters, 'options.results.filters'), ...restrict] } } : {}),
      ...(autocomplete.suggestions
        ? {
            suggestions: {
              ...autocomplete.suggestions,
              types: Object.fromEntries(
                Object.entries(autocomplete.suggestions.types ?? {}).map(([name, t]) => [name, t.queryType === 'results' ? { ...t, filters: [...arrayOr(t.filters, `options.suggestions.types.${name}.filters`), ...restrict] } : t]),
              ),
            },
          }
        : {}),
    };
    return answer(reply, () => connectors.get('lexical')!.onAutocomplete(query, restricted));
  });

  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err instanceof BadRequest || (err.statusCode ?? 500) < 500 ? 400 : 500;
    const type = status === 400 ? 'illegal_argument_exception' : 'exception';
    void reply.code(status).send({ error: { type, reason: err.message.slice(0, 500) }, status });
  });
}

function readBody(body: unknown): { query: RequestState; options: QueryConfig; mode: SearchMode } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('the body must be a JSON object {query, options[, mode]}');
  const { query, options, mode = 'lexical', ...extra } = body as Record<string, unknown>;
  const unknown = Object.keys(extra);
  if (unknown.length > 0) throw new BadRequest(`unknown field [${unknown[0].slice(0, 40)}] in the body: expected query, options, mode`);
  if (query === null || typeof query !== 'object' || Array.isArray(query)) throw new BadRequest('[query] must be an object (the Search UI request state)');
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) throw new BadRequest('[options] must be an object (the Search UI query config)');
  if (!isSearchMode(mode)) throw new BadRequest(`[mode] must be one of ${SEARCH_MODES.join(', ')}`);
  return { query: query as RequestState, options: (options ?? {}) as QueryConfig, mode };
}

function arrayOr<T>(value: readonly T[] | undefined, name: string): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new BadRequest(`[${name}] must be an array`);
  return value;
}

/** The connector's answer; its refusals (none filter, unknown range, …) and the server's 400s are the client's fault, anything else a 502. */
async function answer(reply: { code(n: number): unknown }, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ConnectorError) {
      const status = err.status === 400 ? 400 : 502;
      reply.code(status);
      return { error: { type: status === 400 ? (err.type ?? 'illegal_argument_exception') : 'bad_gateway', reason: err.message.slice(0, 500) }, status };
    }
    throw new BadRequest(err instanceof Error ? err.message : String(err));
  }
}
