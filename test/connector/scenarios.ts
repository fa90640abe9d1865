/**
 * What a Search UI connector makes of our answers: every scenario runs the connector's `onSearch`
 * or `onAutocomplete` against the running server and asserts the ResponseState it returns (results
 * with raw values and snippets, totals, pages, facets with counts, suggestions), checked against
 * plain-JS answers over the catalogue. The scenarios follow the captured ones of
 * ../shared/reference/search-ui-connector.md §8. Each test file runs them with one credential and
 * one connector: Elastic's published one (`@elastic/search-ui-elasticsearch-connector` 1.24.2,
 * unmodified) or threadsearch's own; where §0 says ours differs, the scenario asserts ours.
 */
import { describe, expect, it, vi } from 'vitest';
import { SearchDriver, type AutocompleteQueryConfig, type AutocompleteResponseState, type FacetConfiguration, type Filter, type QueryConfig, type RequestState, type ResponseState, type SearchResult } from '@elastic/search-ui';
import { ELASTIC_CONNECTOR, type ConnectorFlavour, type ConnectorServer, type Exchange } from './fixture.js';
import { DATE_RANGES, FILTER_CASES, PRICE_RANGES } from './filter-cases.js';
import { BY_ID, fieldValues, ids, INDEX, inRange, PRODUCTS, termsBuckets, tokens, type Product } from './products.js';

/** The facets a shop page shows: value facets (on keywords, a keyword subfield, a number, a boolean) and range facets. */
const FACETS: Record<string, FacetConfiguration> = {
  category: { type: 'value', size: 10 },
  'brand.keyword': { type: 'value', size: 10, sort: 'value' },
  tags: { type: 'value', size: 3 },
  stock: { type: 'value', size: 4, sort: 'value', direction: 'desc' },
  in_stock: { type: 'value' },
  price: { type: 'range', ranges: PRICE_RANGES },
  release_date: { type: 'range', ranges: DATE_RANGES },
};
const TITLE_AND_PRICE = { title: { raw: {} }, price: { raw: {} } };
const ALL = PRODUCTS.length;

/** Products with a word in one of `fields` that starts with `prefix` (what phrase_prefix / bool_prefix add). */
function wordStartingWith(fields: Array<keyof Product>, prefix: string): (p: Product) => boolean {
  return (p) => fields.some((f) => tokens(String(p[f] ?? '')).some((t) => t.startsWith(prefix)));
}

/** ES's default highlight of a short field: the whole value, matched words in `<em>` tags. */
function highlighted(text: string, isMatch: (word: string) => boolean): string {
  return text.replace(/[A-Za-z0-9]+/g, (w) => (isMatch(w.toLowerCase()) ? `<em>${w}</em>` : w));
}

const byPrice = (a: Product, b: Product) => a.price - b.price;
const sortedIds = (list: string[]) => [...list].sort();
const resultIds = (r: { results: SearchResult[] } | { autocompletedResults: SearchResult[] }) =>
  ('results' in r ? r.results : r.autocompletedResults).map((x) => x.id.raw as string);

/** The facets the connector should report for `docs`: terms buckets as ES orders them, range options sorted by name. */
function expectedFacets(docs: readonly Product[], facets: Record<string, FacetConfiguration> = FACETS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, f] of Object.entries(facets)) {
    const data =
      f.type === 'value'
        ? termsBuckets(docs, field, f.size ?? 20, f.sort === 'value' ? 'key' : 'count', f.direction)
        : // Keyed `filters` buckets come back sorted by key (Java string order), not in configured order.
          [...(f.ranges ?? [])]
            .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
            .map((r) => ({ value: r, count: docs.filter((p) => inRange(p, field, r as { from?: number | string; to?: number | string })).length }));
    out[field] = [{ field, type: 'value', data }];
  }
  return out;
}

/** Runs every connector scenario with the key `credential` returns (the connector sends `Authorization: ApiKey <key>`). */
export function describeConnectorScenarios(server: () => ConnectorServer, credential: (s: ConnectorServer) => string, flavour: ConnectorFlavour = ELASTIC_CONNECTOR): void {
  const connector = () => flavour.create(server(), credential(server()));
  const { ours } = flavour;

  /** Ours refuses what it does not support before sending anything (reference §0). */
  async function expectRefusedBeforeSending(call: () => Promise<unknown>, message: string): Promise<void> {
    const s = server();
    s.exchanges.length = 0;
    await expect(call()).rejects.toThrow(message);
    expect(s.exchanges).toEqual([]);
  }
  const noneRefused = (field: string) => `The "none" filter type is not supported by the threadsearch connector (filter on field [${field}])`;

  /** Every request went to `POST /products/_search` with the key and was answered 200. */
  function expectAnswered(exchanges: readonly Exchange[], count: number): void {
    expect(exchanges.map((x) => `${x.method} ${new URL(x.url).pathname}`)).toEqual(Array(count).fill(`POST /${INDEX}/_search`));
    failUnlessAnswered(exchanges);
    for (const x of exchanges) expect(x.requestHeaders.authorization).toBe(`ApiKey ${credential(server())}`);
  }

  function failUnlessAnswered(exchanges: readonly Exchange[]): void {
    for (const x of exchanges) expect(x.status, `the server answered ${x.status}: ${x.responseText.slice(0, 600)}`).toBe(200);
  }

  function failWithAnswers(exchanges: readonly Exchange[], err: unknown): never {
    failUnlessAnswered(exchanges);
    throw err;
  }

  async function search(state: RequestState, config: QueryConfig): Promise<{ response: ResponseState; body: any }> {
    const s = server();
    s.exchanges.length = 0;
    // An error reply becomes a TypeError inside the connector: report the server's answer instead.
    const response = await connector().onSearch(state, config).catch((err: unknown) => failWithAnswers(s.exchanges, err));
    expectAnswered(s.exchanges, 1);
    expect(response.requestId).toBe('');
    expect(response.wasSearched).toBe(false);
    expect(response.rawResponse).toEqual(JSON.parse(s.exchanges[0].responseText));
    return { response, body: s.exchanges[0].requestBody };
  }

  async function autocomplete(searchTerm: string, config: AutocompleteQueryConfig, requests: number): Promise<{ response: AutocompleteResponseState; exchanges: Exchange[] }> {
    const s = server();
    s.exchanges.length = 0;
    const response = await connector().onAutocomplete({ searchTerm }, config).catch((err: unknown) => failWithAnswers(s.exchanges, err));
    expectAnswered(s.exchanges, requests);
    expect(response.autocompletedResultsRequestId).toBe('');
    expect(response.autocompletedSuggestionsRequestId).toBe('');
    return { response, exchanges: [...s.exchanges] };
  }

  describe('search', () => {
    it('a term over weighted search_fields returns raw values of the result_fields only, snippets where it matched, and title matches first', async () => {
      const isMatch = (w: string) => w.startsWith('laptop');
      const expected = PRODUCTS.filter(wordStartingWith(['title', 'description'], 'laptop'));
      const { response } = await search(
        { searchTerm: 'laptop', current: 1, resultsPerPage: 10 },
        {
          search_fields: { title: { weight: 3 }, description: {} },
          result_fields: { title: { raw: {}, snippet: {} }, description: { snippet: { size: 100, fallback: true } }, price: { raw: {} }, brand: { raw: {} }, url: { raw: {} } },
        },
      );
      expect(response).toMatchObject({ resultSearchTerm: 'laptop', totalResults: expected.length, totalPages: 1, pagingStart: 1, pagingEnd: expected.length });
      expect(sortedIds(resultIds(response))).toEqual(ids(expected));
      for (const r of response.results) {
        const p = BY_ID.get(r.id.raw)!;
        expect(r._meta).toMatchObject({ id: p.id, rawHit: { _index: INDEX, _id: p.id } });
        // `_source.includes` is honoured: stock, tags, category, release_date and suggest are not there.
        expect(Object.keys(r).sort()).toEqual(['_meta', 'brand', 'description', 'id', 'price', 'title', 'url']);
        expect(r.title.raw).toBe(p.title);
        expect(r.description.raw).toBe(p.description);
        expect(r.price).toEqual({ raw: p.price });
        expect(r.brand).toEqual({ raw: p.brand });
        expect(r.url).toEqual({ raw: p.url });
        const titleMatch = tokens(p.title).some(isMatch);
        const descriptionMatch = tokens(p.description).some(isMatch);
        expect(r.title.snippet).toEqual(titleMatch ? [highlighted(p.title, isMatch)] : undefined);
        expect(r.description.snippet).toEqual(descriptionMatch ? [highlighted(p.description, isMatch)] : undefined);
      }
      // title^3: every product with the word in its title ranks above those with it only in the description.
      const inTitle = response.results.map((r) => tokens(r.title.raw).some(isMatch));
      expect(inTitle).toEqual([...inTitle].sort((a, b) => Number(b) - Number(a)));
      expect(inTitle).toContain(false);
    });

    it('several words match in any field (cross_fields), and the whole phrase ranks first', async () => {
      const { response } = await search({ searchTerm: 'wireless headphones', current: 1, resultsPerPage: 10 }, { search_fields: { title: { weight: 2 }, description: {} }, result_fields: TITLE_AND_PRICE });
      const expected = PRODUCTS.filter((p) => [...tokens(p.title), ...tokens(p.description)].some((t) => t === 'wireless' || t === 'headphones'));
      expect(response.totalResults).toBe(expected.length);
      expect(sortedIds(resultIds(response))).toEqual(ids(expected));
      expect(response.results[0].id.raw).toBe('p12');
      expect(response.results[0].title).toEqual({ raw: 'Wireless Headphones' });
    });

    it('fuzziness: true finds a misspelt word (best_fields with fuzziness AUTO)', async () => {
      const { response, body } = await search({ searchTerm: 'lapptop', current: 1, resultsPerPage: 20 }, { search_fields: { title: {}, description: {} }, result_fields: TITLE_AND_PRICE, fuzziness: true });
      expect(body.query.bool.must[0].bool.should[0].multi_match.fuzziness).toBe('AUTO');
      // Two edits for a 7-letter word: "laptop" and "laptops" are both within reach.
      const expected = PRODUCTS.filter((p) => [...tokens(p.title), ...tokens(p.description)].some((t) => t === 'laptop' || t === 'laptops'));
      expect(response.totalResults).toBe(expected.length);
      expect(sortedIds(resultIds(response))).toEqual(ids(expected));
    });

    // As in ES (and reported against Search UI): the connector's phrase_prefix clause needs a text field.
    it('a keyword field in search_fields is refused as ES refuses it, so the connector throws', async () => {
      const s = server();
      s.exchanges.length = 0;
      const call = connector().onSearch({ searchTerm: 'phones', current: 1, resultsPerPage: 20 }, { search_fields: { title: {}, category: {} }, result_fields: TITLE_AND_PRICE });
      if (ours) {
        // Ours reports the answer: status, ES error type and the root cause's reason.
        await expect(call).rejects.toMatchObject({ name: 'ConnectorError', status: 400, type: 'search_phase_execution_exception' });
        await expect(call).rejects.toThrow(/answered 400 search_phase_execution_exception: .*\(query_shard_exception: failed to create query: Can only use phrase prefix queries on text fields - not on \[category\]/);
      } else {
        await expect(call).rejects.toThrow(TypeError);
      }
      expect(s.exchanges.map((x) => x.status)).toEqual([400]);
      const { error } = JSON.parse(s.exchanges[0].responseText);
      expect(error.type).toBe('search_phase_execution_exception');
      expect(error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: 'failed to create query: Can only use phrase prefix queries on text fields - not on [category] which is of type [keyword]' });
    });

    it('a term that matches nothing gives an empty page', async () => {
      const { response } = await search({ searchTerm: 'xylophone', current: 1, resultsPerPage: 10 }, { search_fields: { title: {}, description: {} }, result_fields: TITLE_AND_PRICE });
      expect(response).toMatchObject({ results: [], totalResults: 0, totalPages: 0, pagingStart: 0, pagingEnd: 0, resultSearchTerm: 'xylophone' });
    });

    it('no search term lists every product (no query: match_all)', async () => {
      const { response, body } = await search({ current: 1, resultsPerPage: 40 }, { result_fields: { title: { raw: {} } } });
      expect(body.query).toBeUndefined();
      expect(response).toMatchObject({ totalResults: ALL, totalPages: 1, pagingStart: 1, pagingEnd: ALL, resultSearchTerm: '' });
      expect(sortedIds(resultIds(response))).toEqual(ids(PRODUCTS));
      for (const r of response.results) expect(r).toEqual({ id: { raw: r._meta.id }, _meta: r._meta, title: { raw: BY_ID.get(r._meta.id)!.title } });
    });
  });

  describe('facets', () => {
    it('value facets (keyword, keyword subfield, number, boolean) and numeric and date range facets count every product', async () => {
      const { response } = await search({ current: 1, resultsPerPage: 5 }, { result_fields: TITLE_AND_PRICE, facets: FACETS });
      expect(response.totalResults).toBe(ALL);
      expect(response.results).toHaveLength(5);
      expect(response.facets).toEqual(expectedFacets(PRODUCTS));
      // Spelled out once, so a mistake in expectedFacets cannot hide one in the server.
      expect(response.facets.price[0].data).toEqual([
        { value: { name: '50 to 500', from: 50, to: 500 }, count: 14 },
        { value: { name: '500 and up', from: 500 }, count: 10 },
        { value: { name: 'Under 50', to: 50 }, count: 7 },
      ]);
      expect(response.facets.category[0].data).toEqual([
        { value: 'accessories', count: 7 },
        { value: 'audio', count: 7 },
        { value: 'laptops', count: 6 },
        { value: 'cameras', count: 5 },
        { value: 'phones', count: 5 },
      ]);
      expect(response.facets.stock[0].data.map((d: { value: unknown }) => d.value)).toEqual([400, 300, 200, 150]);
      // The ES shapes behind them: filter wrapper, terms with its error bounds, keyed filters buckets, boolean keys.
      const all = response.rawResponse.aggregations.facet_bucket_all;
      expect(all.doc_count).toBe(ALL);
      const tagBuckets = termsBuckets(PRODUCTS, 'tags', Infinity);
      expect(all.tags).toMatchObject({ doc_count_error_upper_bound: 0, sum_other_doc_count: tagBuckets.slice(3).reduce((n, b) => n + b.count, 0) });
      expect(all.in_stock.buckets).toEqual([
        { key: 1, key_as_string: 'true', doc_count: ALL - 1 },
        { key: 0, key_as_string: 'false', doc_count: 1 },
      ]);
      expect(Object.keys(all.price.buckets)).toEqual(['50 to 500', '500 and up', 'Under 50']);
    });

    it('value facets pass include and exclude through', async () => {
      const facets: Record<string, FacetConfiguration> = {
        category: { type: 'value', include: 'lap.*|pho.*' },
        tags: { type: 'value', size: 5, exclude: ['5g', 'camera', 'wireless'] },
      };
      const { response } = await search({ current: 1, resultsPerPage: 1 }, { result_fields: TITLE_AND_PRICE, facets });
      expect(response.facets).toEqual({
        category: [{ field: 'category', type: 'value', data: [{ value: 'laptops', count: 6 }, { value: 'phones', count: 5 }] }],
        tags: [{ field: 'tags', type: 'value', data: termsBuckets(PRODUCTS, 'tags', Infinity).filter((b) => !['5g', 'camera', 'wireless'].includes(b.value as string)).slice(0, 5) }],
      });
    });

    it('with a search term, facets count only the matching products', async () => {
      const matching = PRODUCTS.filter(wordStartingWith(['title', 'description'], 'wireless'));
      const { response } = await search({ searchTerm: 'wireless', current: 1, resultsPerPage: 10 }, { search_fields: { title: {}, description: {} }, result_fields: TITLE_AND_PRICE, facets: FACETS });
      expect(sortedIds(resultIds(response))).toEqual(ids(matching));
      expect(response.facets).toEqual(expectedFacets(matching));
    });

    it('a disjunctive facet counts as if its own filter were not set; the others count the filtered products', async () => {
      const filters: Filter[] = [
        { field: 'category', type: 'any', values: ['laptops', 'phones'] },
        { field: 'brand.keyword', type: 'any', values: ['Acme', 'Globex'] },
      ];
      const inCategory = (p: Product) => ['laptops', 'phones'].includes(p.category);
      const ofBrand = (p: Product) => ['Acme', 'Globex'].includes(p.brand);
      const { response, body } = await search(
        { current: 1, resultsPerPage: 20, filters, sortList: [{ field: 'price', direction: 'asc' }] },
        { result_fields: TITLE_AND_PRICE, facets: FACETS, disjunctiveFacets: ['category', 'brand.keyword'] },
      );
      expect(Object.keys(body.aggs).sort()).toEqual(['facet_bucket_all', 'facet_bucket_brand.keyword', 'facet_bucket_category']);
      const both = PRODUCTS.filter((p) => inCategory(p) && ofBrand(p));
      expect(resultIds(response)).toEqual(ids([...both].sort(byPrice)));
      expect(response.totalResults).toBe(both.length);
      expect(response.facets).toEqual({
        ...expectedFacets(both),
        ...expectedFacets(PRODUCTS.filter(ofBrand), { category: FACETS.category }),
        ...expectedFacets(PRODUCTS.filter(inCategory), { 'brand.keyword': FACETS['brand.keyword'] }),
      });
    });

    it('with every facet disjunctive, the shared wrapper is sent with no aggregations and each facet counts without its own filter', async () => {
      const facets = { category: FACETS.category, tags: FACETS.tags };
      const { response, body } = await search(
        { current: 1, resultsPerPage: 40, filters: [{ field: 'tags', type: 'all', values: ['outdoor'] }] },
        { result_fields: TITLE_AND_PRICE, facets, disjunctiveFacets: ['category', 'tags'] },
      );
      expect(body.aggs.facet_bucket_all.aggs).toEqual({});
      const outdoor = PRODUCTS.filter((p) => fieldValues(p, 'tags').includes('outdoor'));
      expect(sortedIds(resultIds(response))).toEqual(ids(outdoor));
      expect(response.facets).toEqual({ ...expectedFacets(outdoor, { category: facets.category }), ...expectedFacets(PRODUCTS, { tags: facets.tags }) });
    });
  });

  describe('where the two connectors differ (reference §0)', () => {
    it('a range-facet filter given with its own from/to: ours uses the named option, Elastic\'s the bounds given', async () => {
      const filters: Filter[] = [{ field: 'price', type: 'any', values: [{ name: '500 and up', from: 0, to: 10 }] }];
      const { response, body } = await search({ current: 1, resultsPerPage: 40, filters, sortList: [{ field: 'price', direction: 'asc' }] }, { result_fields: TITLE_AND_PRICE, facets: FACETS });
      expect(body.post_filter).toEqual({ bool: { must: [{ bool: { should: [{ range: { price: ours ? { gte: 500 } : { gte: 0, lte: 10 } } }] } }] } });
      const expected = PRODUCTS.filter((p) => (ours ? p.price >= 500 : p.price <= 10)).sort(byPrice);
      expect(resultIds(response)).toEqual(ids(expected));
    });

    it('a range-facet filter naming no configured option is refused before sending', async () => {
      const state: RequestState = { current: 1, resultsPerPage: 5, filters: [{ field: 'price', type: 'any', values: ['Nope'] }] };
      await expectRefusedBeforeSending(() => connector().onSearch(state, { result_fields: TITLE_AND_PRICE, facets: FACETS }), 'Range for price with value Nope not found in facet configuration');
    });

    it('autocomplete results without resultsPerPage: ours shows 5, Elastic\'s as many as suggestions.size', async () => {
      const { response, exchanges } = await autocomplete(
        'lap',
        { results: { search_fields: { title: { weight: 3 }, 'title._2gram': {}, 'title._3gram': {} }, result_fields: { title: { raw: {} } } }, suggestions: { size: 3, types: { documents: { fields: ['suggest'] } } } },
        2,
      );
      expect(exchanges.map((x) => x.requestBody.size)).toEqual(expect.arrayContaining([ours ? 5 : 3, 0]));
      expect(response.autocompletedResults).toHaveLength(ours ? 5 : 3);
      expect(response.autocompletedSuggestions.documents).toHaveLength(3);
    });
  });

  describe('filters', () => {
    for (const c of FILTER_CASES) {
      const expected = PRODUCTS.filter(c.matches).sort(byPrice);
      const state = (filter: Filter): RequestState => ({ current: 1, resultsPerPage: 40, filters: [filter], sortList: [{ field: 'price', direction: 'asc' }] });
      const facetFilter = { ...c.filter, values: c.facetValues ?? c.filter.values };

      if (ours && c.filter.type === 'none') {
        it(`none on ${c.filter.field}: ${c.name}; refused with an error naming the field, as a query filter and on a facet`, async () => {
          await expectRefusedBeforeSending(() => connector().onSearch(state(c.filter), { result_fields: TITLE_AND_PRICE }), noneRefused(c.filter.field));
          await expectRefusedBeforeSending(() => connector().onSearch(state(facetFilter), { result_fields: TITLE_AND_PRICE, facets: FACETS }), noneRefused(c.filter.field));
        });
        continue;
      }

      it(`${c.filter.type} on ${c.filter.field}: ${c.name}; not a facet, so a query filter`, async () => {
        const { response, body } = await search(state(c.filter), { result_fields: TITLE_AND_PRICE });
        expect(body.post_filter).toBeUndefined();
        expect(body.query.bool.filter).toHaveLength(1);
        expect(resultIds(response)).toEqual(ids(expected));
        expect(response.totalResults).toBe(expected.length);
        expect(response.results.map((r) => r.price.raw)).toEqual(expected.map((p) => p.price));
      });

      if (ours && FACETS[c.filter.field]?.type === 'range' && c.facetValues === undefined) {
        // Ours looks a range-facet value up by option name only; a range that is not an option is an error.
        it(`${c.filter.type} on ${c.filter.field}: ${c.name}; a range facet without such an option, so refused`, async () => {
          const name = (c.filter.values[0] as { name: string }).name;
          await expectRefusedBeforeSending(() => connector().onSearch(state(facetFilter), { result_fields: TITLE_AND_PRICE, facets: FACETS }), `Range for ${c.filter.field} with value ${name} not found in facet configuration`);
        });
        continue;
      }

      it(`${c.filter.type} on ${c.filter.field}: ${c.name}; a facet, so a post_filter that the facet counts follow`, async () => {
        const { response, body } = await search(state(facetFilter), { result_fields: TITLE_AND_PRICE, facets: FACETS });
        expect(body.post_filter.bool.must).toHaveLength(1);
        expect(body.query).toBeUndefined();
        expect(resultIds(response)).toEqual(ids(expected));
        expect(response.totalResults).toBe(expected.length);
        expect(response.facets).toEqual(expectedFacets(expected));
      });
    }

    it('filters of every type on several fields combine with a search term', async () => {
      const state: RequestState = {
        searchTerm: 'wireless',
        current: 1,
        resultsPerPage: 10,
        filters: [
          { field: 'tags', type: 'all', values: ['bluetooth'] },
          { field: 'brand.keyword', type: 'none', values: ['Acme'] },
          { field: 'price', type: 'all', values: [{ name: '100 and up', from: 100 }] },
        ],
      };
      const config: QueryConfig = { search_fields: { title: {}, description: {} }, result_fields: TITLE_AND_PRICE };
      if (ours) return expectRefusedBeforeSending(() => connector().onSearch(state, config), noneRefused('brand.keyword'));
      const { response } = await search(state, config);
      const expected = PRODUCTS.filter((p) => wordStartingWith(['title', 'description'], 'wireless')(p) && fieldValues(p, 'tags').includes('bluetooth') && p.brand !== 'Acme' && p.price >= 100);
      expect(ids(expected)).toEqual(['p12']);
      expect(resultIds(response)).toEqual(['p12']);
      expect(response.totalResults).toBe(1);
    });

    it('queryConfig.filters always apply, together with the state filters', async () => {
      const { response } = await search(
        { current: 1, resultsPerPage: 40, filters: [{ field: 'tags', type: 'all', values: ['bluetooth'] }], sortList: [{ field: 'price', direction: 'desc' }] },
        { result_fields: TITLE_AND_PRICE, filters: [{ field: 'category', type: 'any', values: ['audio'] }] },
      );
      const expected = PRODUCTS.filter((p) => p.category === 'audio' && fieldValues(p, 'tags').includes('bluetooth')).sort((a, b) => b.price - a.price);
      expect(resultIds(response)).toEqual(ids(expected));
      expect(response.totalResults).toBe(expected.length);
    });
  });

  describe('sorting', () => {
    const sorted = async (state: RequestState, searchTerm?: string) => {
      const { response, body } = await search({ current: 1, resultsPerPage: 40, ...state, ...(searchTerm ? { searchTerm } : {}) }, { search_fields: { title: {}, description: {} }, result_fields: { title: { raw: {} }, price: { raw: {} }, release_date: { raw: {} } } });
      return { response, body, ids: resultIds(response) };
    };
    const dateOf = (p: Product) => (p.release_date === undefined ? null : Date.parse(p.release_date));
    /** Dates in `direction`, products without a date last either way (ES's default `missing: _last`). */
    const byDate = (direction: 1 | -1) => (a: Product, b: Product) => {
      const [da, db] = [dateOf(a), dateOf(b)];
      return da === null ? (db === null ? 0 : 1) : db === null ? -1 : direction * (da - db);
    };

    it('sortList with one field sorts ascending by it (sort as an array)', async () => {
      const { response, body, ids: got } = await sorted({ sortList: [{ field: 'price', direction: 'asc' }] });
      expect(body.sort).toEqual([{ price: 'asc' }]);
      expect(got).toEqual(ids([...PRODUCTS].sort(byPrice)));
      expect(response.results.map((r) => r._meta.rawHit.sort)).toEqual([...PRODUCTS].sort(byPrice).map((p) => [p.price]));
    });

    it('sortField and sortDirection sort descending by a date (sort as an object), products without a date last', async () => {
      const { body, ids: got } = await sorted({ sortField: 'release_date', sortDirection: 'desc' });
      expect(body.sort).toEqual({ release_date: 'desc' });
      expect(got).toEqual(ids([...PRODUCTS].sort(byDate(-1))));
      expect(got[got.length - 1]).toBe('p28');
    });

    it('ascending by date also puts products without a date last', async () => {
      const { ids: got } = await sorted({ sortField: 'release_date', sortDirection: 'asc' });
      expect(got).toEqual(ids([...PRODUCTS].sort(byDate(1))));
    });

    it('sortList with two fields sorts by the first, then the second', async () => {
      const { body, ids: got } = await sorted({ sortList: [{ field: 'category', direction: 'asc' }, { field: 'price', direction: 'desc' }] });
      expect(body.sort).toEqual([{ category: 'asc' }, { price: 'desc' }]);
      const expected = [...PRODUCTS].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : b.price - a.price));
      expect(got).toEqual(ids(expected));
    });

    it('sortList on a keyword subfield and a number', async () => {
      const { ids: got } = await sorted({ sortList: [{ field: 'brand.keyword', direction: 'desc' }, { field: 'stock', direction: 'asc' }] });
      const expected = [...PRODUCTS].sort((a, b) => (a.brand < b.brand ? 1 : a.brand > b.brand ? -1 : a.stock - b.stock));
      expect(got).toEqual(ids(expected));
    });

    it('a sort replaces relevance order for a search term', async () => {
      const { ids: got } = await sorted({ sortList: [{ field: 'price', direction: 'desc' }] }, 'camera');
      const expected = PRODUCTS.filter(wordStartingWith(['title', 'description'], 'camera')).sort((a, b) => b.price - a.price);
      expect(got).toEqual(ids(expected));
    });

    it('_score first, then a field: relevance order with ties broken by the field', async () => {
      const { response, body } = await sorted({ sortList: [{ field: '_score', direction: 'desc' }, { field: 'price', direction: 'asc' }] }, 'camera');
      expect(body.sort).toEqual([{ _score: 'desc' }, { price: 'asc' }]);
      expect(sortedIds(resultIds(response))).toEqual(ids(PRODUCTS.filter(wordStartingWith(['title', 'description'], 'camera'))));
      const keys = response.results.map((r) => r._meta.rawHit.sort as [number, number]);
      for (let i = 1; i < keys.length; i++) {
        const [[s0, p0], [s1, p1]] = [keys[i - 1], keys[i]];
        expect(s0 > s1 || (s0 === s1 && p0 < p1), `sort values ${JSON.stringify(keys)}`).toBe(true);
      }
      expect(response.results.map((r) => r.price.raw)).toEqual(keys.map((k) => k[1]));
    });

    it('sortList entries without a direction are dropped (sort: [], relevance order)', async () => {
      const { response, body } = await sorted({ sortList: [{ field: 'price', direction: '' }] });
      expect(body.sort).toEqual([]);
      expect(response.totalResults).toBe(ALL);
      expect(sortedIds(resultIds(response))).toEqual(ids(PRODUCTS));
    });
  });

  describe('pagination', () => {
    const byPriceIds = ids([...PRODUCTS].sort(byPrice));
    const page = (current: number, resultsPerPage: number, filters: Filter[] = []) =>
      search({ current, resultsPerPage, filters, sortList: [{ field: 'price', direction: 'asc' }] }, { result_fields: TITLE_AND_PRICE });

    it('page 2 of 7 per page: from 7, five pages, items 8 to 14', async () => {
      const { response, body } = await page(2, 7);
      expect(body).toMatchObject({ from: 7, size: 7 });
      expect(response).toMatchObject({ totalResults: ALL, totalPages: 5, pagingStart: 8, pagingEnd: 14 });
      expect(resultIds(response)).toEqual(byPriceIds.slice(7, 14));
    });

    it('the last page holds the remainder', async () => {
      const { response } = await page(5, 7);
      expect(response).toMatchObject({ totalResults: ALL, totalPages: 5, pagingStart: 29, pagingEnd: ALL });
      expect(resultIds(response)).toEqual(byPriceIds.slice(28));
    });

    it('a page past the end is empty but still counts every product', async () => {
      const { response } = await page(6, 7);
      expect(response.results).toEqual([]);
      expect(response.totalResults).toBe(ALL);
    });

    it('pages count the filtered products', async () => {
      const portable = ids(PRODUCTS.filter((p) => fieldValues(p, 'tags').includes('portable')).sort(byPrice));
      const { response } = await page(2, 2, [{ field: 'tags', type: 'any', values: ['portable'] }]);
      expect(response).toMatchObject({ totalResults: portable.length, totalPages: Math.ceil(portable.length / 2), pagingStart: 3, pagingEnd: 4 });
      expect(resultIds(response)).toEqual(portable.slice(2, 4));
    });
  });

  describe('autocomplete', () => {
    /** Search UI's documented configuration for a search_as_you_type field. */
    const SAYT_FIELDS = { title: { weight: 3 }, 'title._2gram': {}, 'title._3gram': {} };
    const startsLap = wordStartingWith(['title'], 'lap');

    it('results: bool_prefix over a search_as_you_type field finds every title with a word starting with the typed text', async () => {
      const { response, exchanges } = await autocomplete('lap', { results: { resultsPerPage: 10, search_fields: SAYT_FIELDS, result_fields: { title: { raw: {} }, url: { raw: {} } } } }, 1);
      expect(exchanges[0].requestBody.query.bool.must[0].multi_match.type).toBe('bool_prefix');
      const expected = PRODUCTS.filter(startsLap);
      expect(expected.length).toBe(7);
      expect(sortedIds(resultIds(response))).toEqual(ids(expected));
      for (const r of response.autocompletedResults) {
        const p = BY_ID.get(r.id.raw)!;
        expect(r).toEqual({ id: { raw: p.id }, _meta: r._meta, title: { raw: p.title }, url: { raw: p.url } });
      }
      expect(response.autocompletedSuggestions).toEqual({});
    });

    it('results with snippets highlight the word being completed', async () => {
      const isMatch = (w: string) => w.startsWith('lap');
      const { response } = await autocomplete('lap', { results: { resultsPerPage: 10, search_fields: SAYT_FIELDS, result_fields: { title: { snippet: {} } } } }, 1);
      expect(response.autocompletedResults).toHaveLength(7);
      for (const r of response.autocompletedResults) {
        const p = BY_ID.get(r.id.raw)!;
        expect(r.title).toEqual({ raw: p.title, snippet: [highlighted(p.title, isMatch)] });
      }
    });

    it('results: several words match each word, the last as a prefix, best match first', async () => {
      const { response } = await autocomplete('wireless ea', { results: { resultsPerPage: 5, search_fields: SAYT_FIELDS, result_fields: { title: { raw: {} } } } }, 1);
      expect(sortedIds(resultIds(response))).toEqual(['p12', 'p13', 'p21']);
      expect(response.autocompletedResults[0].title).toEqual({ raw: 'Wireless Earbuds' });
    });

    it('results: fuzziness: true forgives a typo in the words before the one being typed', async () => {
      const { response, exchanges } = await autocomplete('wirless ea', { results: { resultsPerPage: 5, search_fields: SAYT_FIELDS, result_fields: { title: { raw: {} } }, fuzziness: true } }, 1);
      expect(exchanges[0].requestBody.query.bool.must[0].multi_match.fuzziness).toBe('AUTO');
      expect(sortedIds(resultIds(response))).toEqual(['p12', 'p13', 'p21']);
      expect(response.autocompletedResults[0].title).toEqual({ raw: 'Wireless Earbuds' });
    });

    it('results: the results filters narrow the completions', async () => {
      const config: AutocompleteQueryConfig = { results: { resultsPerPage: 10, search_fields: SAYT_FIELDS, result_fields: { title: { raw: {} } }, filters: [{ field: 'category', type: 'none', values: ['laptops'] }] } };
      if (ours) return expectRefusedBeforeSending(() => connector().onAutocomplete({ searchTerm: 'lap' }, config), noneRefused('category'));
      const { response } = await autocomplete('lap', config, 1);
      expect(sortedIds(resultIds(response))).toEqual(ids(PRODUCTS.filter((p) => startsLap(p) && p.category !== 'laptops')));
    });

    it('suggestions: the completion suggester returns inputs starting with the typed text, heaviest first', async () => {
      const { response, exchanges } = await autocomplete('lap', { suggestions: { size: 4, types: { documents: { fields: ['suggest'] } } } }, 1);
      expect(response.autocompletedSuggestions).toEqual({
        documents: [{ suggestion: 'Laptop Pro 14' }, { suggestion: 'Laptop Air 13' }, { suggestion: 'Laptop Sleeve 14' }, { suggestion: 'Laptop Lite 12' }],
      });
      expect(response.autocompletedResults).toEqual([]);
      const entry = JSON.parse(exchanges[0].responseText).suggest.suggest;
      expect(entry).toHaveLength(1);
      expect(entry[0]).toMatchObject({ text: 'lap', offset: 0, length: 3 });
      expect(entry[0].options.map((o: { _id: string }) => o._id)).toEqual(['p01', 'p02', 'p19', 'p06']);
    });

    it('suggestions skip duplicate texts (skip_duplicates) and tolerate a typo (fuzzy)', async () => {
      const { response: head } = await autocomplete('head', { suggestions: { types: { documents: { fields: ['suggest'] } } } }, 1);
      // "Headphones" is an input of p12 (weight 22) and p14 (10): it appears once.
      expect(head.autocompletedSuggestions.documents).toEqual([{ suggestion: 'Headphones' }, { suggestion: 'Headset' }]);
      const { response: typo } = await autocomplete('lsp', { suggestions: { size: 2, types: { documents: { fields: ['suggest'] } } } }, 1);
      expect(typo.autocompletedSuggestions.documents).toEqual([{ suggestion: 'Laptop Pro 14' }, { suggestion: 'Laptop Air 13' }]);
    });

    it('results, completion suggestions and result suggestions at once: three requests, one state', async () => {
      const { response } = await autocomplete(
        'lap',
        {
          results: { resultsPerPage: 2, search_fields: SAYT_FIELDS, result_fields: { title: { raw: {} }, url: { raw: {} } } },
          suggestions: {
            size: 3,
            types: {
              documents: { fields: ['suggest'] },
              popular: { queryType: 'results', search_fields: { title: {} }, result_fields: { title: { raw: {} } }, resultsPerPage: 2 },
            },
          },
        },
        3,
      );
      const candidates = ids(PRODUCTS.filter(startsLap));
      expect(response.autocompletedResults).toHaveLength(2);
      for (const id of resultIds(response)) expect(candidates).toContain(id);
      expect(response.autocompletedSuggestions.documents).toEqual([{ suggestion: 'Laptop Pro 14' }, { suggestion: 'Laptop Air 13' }, { suggestion: 'Laptop Sleeve 14' }]);
      const popular = response.autocompletedSuggestions.popular as Array<{ queryType: string; result: { title: { raw: string } } }>;
      expect(popular).toHaveLength(2);
      for (const s of popular) {
        expect(s.queryType).toBe('results');
        expect(PRODUCTS.filter(startsLap).map((p) => p.title)).toContain(s.result.title.raw);
      }
    });

    it('an empty term sends no suggest section; the connector then reports one empty suggestion (ours: no request, no suggestion)', async () => {
      if (ours) {
        const { response } = await autocomplete('', { suggestions: { types: { documents: { fields: ['suggest'] } } } }, 0);
        expect(response.autocompletedSuggestions).toEqual({ documents: [] });
        return;
      }
      const { response, exchanges } = await autocomplete('', { suggestions: { types: { documents: { fields: ['suggest'] } } } }, 1);
      expect(exchanges[0].requestBody).toEqual({ size: 0, _source: { includes: [] } });
      expect(response.autocompletedSuggestions).toEqual({ documents: [{ suggestion: undefined }] });
    });
  });

  describe('through the headless SearchDriver (what <SearchProvider> runs)', () => {
    /** A driver as a shop page configures it, without URL state (there is no browser history in Node). */
    function driver(): { d: SearchDriver; exchanges: Exchange[] } {
      const s = server();
      s.exchanges.length = 0;
      const d = new SearchDriver({
        apiConnector: connector(),
        trackUrlState: false,
        alwaysSearchOnInitialLoad: true,
        initialState: { resultsPerPage: 5 },
        searchQuery: { search_fields: { title: { weight: 3 }, description: {} }, result_fields: TITLE_AND_PRICE, facets: FACETS, disjunctiveFacets: ['category'] },
        autocompleteQuery: {
          results: { resultsPerPage: 3, search_fields: { title: { weight: 3 }, 'title._2gram': {}, 'title._3gram': {} }, result_fields: { title: { raw: {} } } },
          suggestions: { size: 2, types: { documents: { fields: ['suggest'] } } },
        },
      });
      return { d, exchanges: s.exchanges };
    }
    /** vi.waitFor's default of 1 s is too short on a busy 2-core machine. */
    const WAIT = { timeout: 20_000, interval: 20 };
    /** Waits until `count` requests were answered and the driver is no longer loading. */
    const settled = (d: SearchDriver, exchanges: Exchange[], count: number) =>
      vi.waitFor(() => {
        expect(exchanges).toHaveLength(count);
        expect(d.getState().isLoading).toBe(false);
      }, WAIT);

    it('initial load, a facet click with a sort, then clearing it and paging', async () => {
      const { d, exchanges } = driver();
      try {
        await settled(d, exchanges, 1);
        const first = d.getState();
        expect(first).toMatchObject({ wasSearched: true, error: '', totalResults: ALL, totalPages: 6, pagingStart: 1, pagingEnd: 5, current: 1 });
        expect(first.results).toHaveLength(5);
        expect(first.facets).toEqual(expectedFacets(PRODUCTS));

        d.getActions().addFilter('category', 'laptops', 'any');
        d.getActions().setSort([{ field: 'price', direction: 'asc' }], '');
        // The driver debounces its searches by a tick: two actions in a row make one request.
        await settled(d, exchanges, 2);
        const laptops = PRODUCTS.filter((p) => p.category === 'laptops').sort(byPrice);
        const filtered = d.getState();
        expect(filtered).toMatchObject({ totalResults: laptops.length, totalPages: 2, filters: [{ field: 'category', type: 'any', values: ['laptops'] }] });
        expect(resultIds(filtered)).toEqual(ids(laptops).slice(0, 5));
        // Disjunctive: the category facet still offers every category.
        expect(filtered.facets.category).toEqual(expectedFacets(PRODUCTS, { category: FACETS.category }).category);
        expect(filtered.facets.tags).toEqual(expectedFacets(laptops, { tags: FACETS.tags }).tags);

        d.getActions().removeFilter('category');
        d.getActions().setCurrent(2);
        await settled(d, exchanges, 3);
        expect(d.getState()).toMatchObject({ totalResults: ALL, current: 2, pagingStart: 6, pagingEnd: 10, filters: [] });
        expect(resultIds(d.getState())).toEqual(ids([...PRODUCTS].sort(byPrice)).slice(5, 10));
      } finally {
        d.tearDown();
      }
    });

    it('typing in the search box autocompletes results and suggestions', async () => {
      const { d, exchanges } = driver();
      try {
        await settled(d, exchanges, 1);
        d.getActions().setSearchTerm('lap', { autocompleteResults: true, autocompleteSuggestions: true, refresh: false });
        await vi.waitFor(() => expect(d.getState().autocompletedResults).toHaveLength(3), WAIT);
        expect(exchanges).toHaveLength(3);
        failUnlessAnswered(exchanges);
        const state = d.getState();
        for (const r of state.autocompletedResults) expect(PRODUCTS.filter(wordStartingWith(['title'], 'lap')).map((p) => p.title)).toContain(r.title.raw);
        expect(state.autocompletedSuggestions).toEqual({ documents: [{ suggestion: 'Laptop Pro 14' }, { suggestion: 'Laptop Air 13' }] });
      } finally {
        d.tearDown();
      }
    });
  });
}
