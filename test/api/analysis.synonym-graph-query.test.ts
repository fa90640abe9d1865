/**
 * Query-time multi-word synonyms (ES "search with synonyms": synonym_graph in the search analyzer —
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/analysis-synonym-graph-tokenfilter.html,
 * and Lucene QueryBuilder's graph queries): the query text becomes a token graph and `match` /
 * `match_phrase` match any of its paths, a multi-word path as a phrase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { ids, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request('PUT', '/cities', {
    settings: {
      analysis: {
        filter: { syn: { type: 'synonym_graph', synonyms: ['ny, new york', 'usa, united states of america'] } },
        analyzer: { search_syn: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } },
      },
    },
    mappings: { properties: { body: { type: 'text', analyzer: 'standard', search_analyzer: 'search_syn' } } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await seed(t, 'cities', [
    ['1', { body: 'new york city' }],
    ['2', { body: 'ny city' }],
    ['3', { body: 'york new city' }],
    ['4', { body: 'new jersey city' }],
    ['5', { body: 'cities of the united states of america' }],
    ['6', { body: 'usa today' }],
    ['7', { body: 'the states united' }],
  ]);
});
afterAll(async () => t.close());

const hits = async (query: Record<string, unknown>): Promise<string[]> => {
  const res = await t.request('POST', '/cities/_search', { query, size: 20 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ids(res).sort();
};

describe('synonym_graph at query time', () => {
  it('_analyze shows the graph: the multi-word synonym spans two positions', async () => {
    const res = await t.request('POST', '/cities/_analyze', { analyzer: 'search_syn', text: 'ny city' });
    expect(res.body.tokens.map((x: { token: string; position: number; positionLength?: number }) => [x.token, x.position, x.positionLength ?? 1]))
      .toEqual([['new', 0, 1], ['ny', 0, 2], ['york', 1, 1], ['city', 2, 1]]);
  });

  it('match: a multi-word side path is a phrase (ES: "ny city" finds "new york city", not "york new city")', async () => {
    expect(await hits({ match: { body: { query: 'ny city', operator: 'and' } } })).toEqual(['1', '2']);
    // operator or: city alone matches too, but "new" or "york" alone never stands for "ny"
    expect(await hits({ match: { body: 'ny' } })).toEqual(['1', '2']);
  });

  it('match on the multi-word form: "new york" is (ny OR "new york"), so "new jersey" does not match', async () => {
    expect(await hits({ match: { body: 'new york' } })).toEqual(['1', '2']);
  });

  it('match with a four-word synonym', async () => {
    expect(await hits({ match: { body: 'usa' } })).toEqual(['5', '6']);
    expect(await hits({ match: { body: 'united states of america' } })).toEqual(['5', '6']);
  });

  it('match_phrase: any of the graph\'s phrases', async () => {
    expect(await hits({ match_phrase: { body: 'ny city' } })).toEqual(['1', '2']);
    expect(await hits({ match_phrase: { body: 'new york city' } })).toEqual(['1', '2']);
    expect(await hits({ match_phrase: { body: 'york city' } })).toEqual(['1']);
  });

  it('minimum_should_match counts a graph segment as one clause', async () => {
    // clauses: [ny | "new york"], [city] → 2 of 2
    expect(await hits({ match: { body: { query: 'ny city', minimum_should_match: 2 } } })).toEqual(['1', '2']);
  });

  it('auto_generate_synonyms_phrase_query: false makes a multi-word path all of its terms, not a phrase', async () => {
    // [ny | (new AND york)]: "york new city" matches now, "new jersey city" still does not
    expect(await hits({ match: { body: { query: 'ny', auto_generate_synonyms_phrase_query: false } } })).toEqual(['1', '2', '3']);
    expect(await hits({ multi_match: { query: 'ny', fields: ['body'], auto_generate_synonyms_phrase_query: false } })).toEqual(['1', '2', '3']);
    expect(await hits({ match: { body: { query: 'ny', auto_generate_synonyms_phrase_query: true } } })).toEqual(['1', '2']);
    const bad = await t.request('POST', '/cities/_search', { query: { match: { body: { query: 'ny', auto_generate_synonyms_phrase_query: 'maybe' } } } });
    expect(bad.status).toBe(400);
  });
});
