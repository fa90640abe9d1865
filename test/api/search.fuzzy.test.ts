/**
 * The `fuzzy` query:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-fuzzy-query.html
 * Terms within `fuzziness` edits of the value — which is not analyzed (a keyword field's normalizer
 * applies) — as Lucene's FuzzyQuery with the `top_terms_blended_freqs_<max_expansions>` rewrite:
 * each expansion is scored as BM25 with the largest document frequency among them, times its
 * similarity 1 − edits / min(term length, value length). The same expansion `match` uses for
 * `fuzziness`, so a one-term match scores identically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bm25, expectErrorType, ids, scores, seed } from './es.js';
import { SHORT_TITLE_STATS, SHORT_TITLES } from './short-titles-fixture.js';

let t: TestApp;

// Document 1's tag is capitalised here, for the keyword normalizer cases.
const DOCS = SHORT_TITLES.map(([id, d]): [string, Record<string, unknown>] => [id, id === '1' ? { ...d, tag: 'Animal' } : { ...d }]);
const TITLE = SHORT_TITLE_STATS;

beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/books', {
    settings: { analysis: { normalizer: { lower: { type: 'custom', filter: ['lowercase'] } } } },
    mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword', normalizer: 'lower' }, plain: { type: 'keyword' }, price: { type: 'long' } } },
  });
  await seed(t, 'books', DOCS.map(([id, d]) => [id, { ...d, plain: d.tag }]));
});
afterAll(async () => t.close());

const search = (query: unknown) => t.request('POST', '/books/_search', { query });

describe('fuzzy query', () => {
  it('scores an expansion as BM25 times its similarity, in the short and the long form', async () => {
    // "brwn" is one edit from "brown" (AUTO: 1 edit for 3–5 characters): boost 1 − 1/4.
    const expected = bm25({ ...TITLE, docFreq: 4, freq: 1, dl: 4, boost: 0.75 });
    for (const query of [{ fuzzy: { title: 'brwn' } }, { fuzzy: { title: { value: 'brwn', fuzziness: 'AUTO', boost: 1 } } }]) {
      const res = await search(query);
      expect(ids(res).sort()).toEqual(['1', '2', '4', '6']);
      expect(scores(res)['1']).toBeCloseTo(expected, 5);
    }
  });

  it('blends several expansions exactly as match with fuzziness does', async () => {
    const fuzzy = await search({ fuzzy: { title: { value: 'quack', boost: 2 } } });
    const match = await search({ match: { title: { query: 'quack', fuzziness: 'AUTO', boost: 2 } } });
    expect(fuzzy.body.hits.hits.length).toBeGreaterThan(0);
    expect(scores(fuzzy)).toEqual(scores(match));
  });

  it('does not analyze the value, but applies a keyword normalizer', async () => {
    // "Brwn" stays capitalised on a text field, two edits from "brown": too many for AUTO.
    expect(ids(await search({ fuzzy: { title: 'Brwn' } }))).toEqual([]);
    expect(ids(await search({ fuzzy: { tag: { value: 'ANIMAL', fuzziness: 0 } } })).sort()).toEqual(['1', '2', '6']);
    expect(ids(await search({ fuzzy: { plain: { value: 'Animal', fuzziness: 0 } } }))).toEqual(['1']);
    expect(ids(await search({ fuzzy: { plain: { value: 'animel', fuzziness: 1 } } })).sort()).toEqual(['2', '6']);
  });

  it('honours prefix_length, transpositions and max_expansions', async () => {
    expect(ids(await search({ fuzzy: { title: { value: 'qiuck' } } })).sort()).toEqual(['1', '2', '3']);
    expect(ids(await search({ fuzzy: { title: { value: 'qiuck', transpositions: false } } }))).toEqual([]);
    expect(ids(await search({ fuzzy: { title: { value: 'brwn', prefix_length: 3 } } }))).toEqual([]);
    // "foxe" (AUTO: 1 edit) reaches "fox" and "foxes"; one expansion keeps the better of the two.
    const one = await search({ fuzzy: { title: { value: 'foxe', max_expansions: 1 } } });
    const two = await search({ fuzzy: { title: { value: 'foxe', max_expansions: 2 } } });
    expect(ids(two).sort()).toEqual(['1', '2']);
    expect(ids(one).length).toBe(1);
    const blended = await search({ fuzzy: { title: { value: 'foxe', rewrite: 'top_terms_blended_freqs_1' } } });
    expect(scores(blended)).toEqual(scores(one));
  });

  it('answers ES\'s errors for other field types, bad options and unsupported rewrites', async () => {
    const numeric = await search({ fuzzy: { price: '10' } });
    expect(numeric.status).toBe(400);
    expect(numeric.body.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception', reason: 'Can only use fuzzy queries on keyword and text fields - not on [price] which is of type [long]',
    });
    expectErrorType(await search({ fuzzy: { title: { value: 'fox', max_expansions: 0 } } }), 400, 'illegal_argument_exception', 'maxExpansions must be positive.');
    expectErrorType(await search({ fuzzy: { title: { value: 'fox', prefix_length: -1 } } }), 400, 'illegal_argument_exception', 'prefixLength cannot be negative.');
    expectErrorType(await search({ fuzzy: { title: { valu: 'fox' } } }), 400, 'parsing_exception', '[fuzzy] query does not support [valu]');
    expectErrorType(await search({ fuzzy: { title: { fuzziness: 1 } } }), 400, 'parsing_exception', '[fuzzy] query value cannot be null');
    expectErrorType(await search({ fuzzy: { title: { value: 'fox', rewrite: 'constant_score' } } }), 400, 'illegal_argument_exception',
      '[fuzzy] rewrite [constant_score] is not supported by this server yet (only top_terms_blended_freqs_<n>, the default)');
    // An unmapped field matches nothing, as in ES.
    expect(ids(await search({ fuzzy: { nope: 'fox' } }))).toEqual([]);
  });
});
