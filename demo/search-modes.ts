/**
 * The demo's three ways to search, as `postProcessRequestBodyFn` recipes over the body the
 * connector generates (so they run the same in the browser, direct mode, and in the proxy):
 * - lexical: the connector's body as it is (BM25 over name and description);
 * - semantic: the search-term part replaced by `text_expansion` with the built-in
 *   `.sparse_model_2` over `description_embedding` (filters, facets, sort, paging kept);
 * - hybrid: the README's hybrid recipe, a `linear` retriever summing the min-max normalized lexical
 *   and semantic scores with equal weights over the top 100 of each; filters (and the facet filters
 *   of `post_filter`, which fused searches do not take yet) become the retriever's `filter`, and a
 *   sort is dropped (a fused page is ranked by fusion). Disjunctive facet counts are therefore
 *   narrowed by their own filter in hybrid mode.
 * The recipes read the generated body, which may change between connector versions.
 * Pure: no Node built-ins (bundled into the page).
 */
import type { PostProcessRequestBodyFn, SearchRequestBody } from '../src/connector/index.js';

export const SEARCH_MODES = ['lexical', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const MODEL_ID = '.sparse_model_2';
export const EMBEDDING_FIELD = 'description_embedding';
/** The recipe's list depth: at least this, and always the whole requested page. */
const RANK_WINDOW = 100;

export function isSearchMode(value: unknown): value is SearchMode {
  return typeof value === 'string' && (SEARCH_MODES as readonly string[]).includes(value);
}

function textExpansion(text: string): SearchRequestBody {
  return { text_expansion: { [EMBEDDING_FIELD]: { model_id: MODEL_ID, model_text: text } } };
}

const semantic: PostProcessRequestBodyFn = (body, state) => {
  if (!state.searchTerm) return body;
  const filter = body.query?.bool?.filter;
  return { ...body, query: { bool: { must: [textExpansion(state.searchTerm)], ...(filter ? { filter } : {}) } } };
};

const hybrid: PostProcessRequestBodyFn = (body, state) => {
  if (!state.searchTerm) return body;
  const { query, sort: _relevanceOnly, post_filter: postFilter, ...rest } = body;
  const filter = [...(query?.bool?.filter ?? []), ...(postFilter ? [postFilter] : [])];
  const lexical = { bool: { must: query?.bool?.must ?? [] } };
  const end = (body.from ?? 0) + (body.size ?? 0);
  return {
    ...rest,
    retriever: {
      linear: {
        retrievers: [{ retriever: { standard: { query: lexical } } }, { retriever: { standard: { query: textExpansion(state.searchTerm) } } }],
        normalizer: 'minmax',
        rank_window_size: Math.max(RANK_WINDOW, end),
        ...(filter.length > 0 ? { filter } : {}),
      },
    },
  };
};

/** The recipe for a mode, or undefined for lexical (the connector's own body). */
export function recipeFor(mode: SearchMode): PostProcessRequestBodyFn | undefined {
  return mode === 'semantic' ? semantic : mode === 'hybrid' ? hybrid : undefined;
}
