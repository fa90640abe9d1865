/// <reference lib="dom" />
/**
 * The demo search page: React Search UI (SearchProvider, SearchBox with autocomplete results and
 * suggestions, facets, sorting, paging, highlighted snippets) with threadsearch's connector, and
 * a switch between lexical, semantic and hybrid search. `?via=proxy` (default) sends everything
 * to this origin's proxy routes, holding no key; `?via=direct` talks to the search server on its
 * own origin with the read-only key from /config.json.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary, Facet, Paging, PagingInfo, Results, SearchBox, SearchProvider, Sorting, WithSearch } from '@elastic/react-search-ui';
import { Layout } from '@elastic/react-search-ui-views';
import '@elastic/react-search-ui-views/lib/styles/styles.css';
import { ProxyConnector, ThreadsearchConnector } from '../../src/connector/index.js';
import { recipeFor, SEARCH_MODES, type SearchMode } from '../search-modes.js';
import { AUTOCOMPLETE_QUERY, SEARCH_QUERY, SORT_OPTIONS } from './search-config.js';

interface PageConfig {
  readonly index: string;
  readonly direct: { readonly host: string; readonly apiKey: string } | null;
}

/** Read when each request is built, so switching needs no new connector. */
let mode: SearchMode = 'lexical';

function connectorFor(config: PageConfig, via: string) {
  if (via === 'direct') {
    if (!config.direct) throw new Error('direct mode is off: start the demo with a browser key');
    const { host, apiKey } = config.direct;
    return new ThreadsearchConnector({ host, index: config.index, apiKey }, (body, state, queryConfig) => recipeFor(mode)?.(body, state, queryConfig) ?? body);
  }
  return new ProxyConnector({ extraBody: () => ({ mode }) });
}

function ModeSwitch({ onChange }: { onChange: () => void }) {
  const [current, setCurrent] = useState<SearchMode>(mode);
  return (
    <fieldset className="mode-switch" data-testid="mode-switch">
      <legend>Search</legend>
      {SEARCH_MODES.map((m) => (
        <label key={m}>
          <input
            type="radio"
            name="mode"
            value={m}
            checked={current === m}
            onChange={() => {
              mode = m;
              setCurrent(m);
              onChange();
            }}
          />
          {m}
        </label>
      ))}
    </fieldset>
  );
}

function App({ config, via }: { config: PageConfig; via: string }) {
  const [hybrid, setHybrid] = useState(false);
  return (
    <SearchProvider
      config={{
        apiConnector: connectorFor(config, via),
        searchQuery: SEARCH_QUERY,
        autocompleteQuery: AUTOCOMPLETE_QUERY,
        alwaysSearchOnInitialLoad: true,
        initialState: { resultsPerPage: 10 },
        trackUrlState: false,
      }}
    >
      <WithSearch mapContextToProps={({ setCurrent, current }) => ({ setCurrent, current })}>
        {({ setCurrent }) => (
          <div className="App" data-via={via}>
            <ErrorBoundary>
              <Layout
                header={
                  <div>
                    <SearchBox autocompleteResults={{ titleField: 'name', urlField: 'url', sectionTitle: 'Features', linkTarget: '_blank' }} autocompleteSuggestions={{ sectionTitle: 'Suggestions' }} debounceLength={100} />
                    <ModeSwitch
                      onChange={() => {
                        setHybrid(mode === 'hybrid');
                        setCurrent?.(1);
                      }}
                    />
                  </div>
                }
                sideContent={
                  <div>
                    <Sorting label={hybrid ? 'Sort (hybrid ranks by RRF)' : 'Sort by'} sortOptions={SORT_OPTIONS} />
                    <Facet field="area" label="Area" filterType="any" />
                    <Facet field="baseline" label="Baseline" filterType="any" />
                    <Facet field="baseline_date" label="Baseline since" filterType="any" />
                  </div>
                }
                bodyContent={<Results titleField="name" urlField="url" shouldTrackClickThrough={false} />}
                bodyHeader={<PagingInfo />}
                bodyFooter={<Paging />}
              />
            </ErrorBoundary>
          </div>
        )}
      </WithSearch>
    </SearchProvider>
  );
}

async function start(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as PageConfig;
  const via = new URLSearchParams(location.search).get('via') ?? 'proxy';
  createRoot(document.getElementById('root')!).render(<App config={config} via={via} />);
}

void start();
