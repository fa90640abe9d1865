/**
 * The `boosting` query:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-boosting-query.html
 * ES builds it as Lucene's FunctionScoreQuery.boostByQuery: the `positive` query's matches, each
 * score multiplied by `negative_boost` where `negative` matches too (a float product), times `boost`;
 * documents `negative` matches are demoted, never removed.
 */
import { describe, expect, it } from 'vitest';
import { bm25, expectErrorType, ids, queryRunner, scores } from './es.js';
import { shortTitleApp, SHORT_TITLE_STATS } from './short-titles-fixture.js';

const app = shortTitleApp();
const TITLE = SHORT_TITLE_STATS;

const { search, q } = queryRunner(app);

describe('boosting query', () => {
  it('multiplies the positive score by negative_boost where the negative query matches', async () => {
    // "brown" is in docs 1, 2, 4, 6 (document frequency 4); docs 1, 2 and 6 are tagged animal.
    const query = { boosting: { positive: { match: { title: 'brown' } }, negative: { term: { tag: 'animal' } }, negative_boost: 0.5, boost: 2 } };
    for (const index of ['books', 'books3']) {
      const res = await q(query, index);
      const plain = bm25({ ...TITLE, docFreq: 4, freq: 1, dl: 4 });
      expect(ids(res)).toEqual(['4', '1', '2', '6']);
      expect(scores(res)['4']).toBeCloseTo(2 * plain, 5);
      expect(scores(res)['1']).toBeCloseTo(Math.fround(Math.fround(plain) * 0.5) * 2, 5);
    }
  });

  it('keeps every positive match, and a negative that matches nothing changes nothing', async () => {
    const positive = { match: { title: 'quick' } };
    const same = await q({ boosting: { positive, negative: { term: { tag: 'none' } }, negative_boost: 0.1 } });
    expect(scores(same)).toEqual(scores(await q(positive)));
    const all = await q({ boosting: { positive, negative: { match_all: {} }, negative_boost: 0 } });
    expect(ids(all).sort()).toEqual(ids(await q(positive)).sort());
    expect(Object.values(scores(all)).every((s) => s === 0)).toBe(true);
  });

  it('explains the product, highlights the positive query\'s terms, and works under a bool', async () => {
    const query = { boosting: { positive: { match: { title: 'bread' } }, negative: { term: { tag: 'food' } }, negative_boost: 0.25 } };
    const explained = await app().request('POST', '/books/_explain/4', { query });
    expect(explained.body.matched).toBe(true);
    expect(explained.body.explanation.description).toBe('product of:');
    expect(explained.body.explanation.details[1]).toMatchObject({ value: 0.25 });
    const res = await search({ query: { bool: { must: [query] } }, highlight: { fields: { title: {} } } });
    expect(res.body.hits.hits[0].highlight).toEqual({ title: ['Brown <em>bread</em> and butter'] });
  });

  it('answers ES\'s parsing errors', async () => {
    for (const [body, reason] of [
      [{ negative: { match_all: {} }, negative_boost: 0.5 }, "[boosting] query requires 'positive' query to be set'"],
      [{ positive: { match_all: {} }, negative_boost: 0.5 }, "[boosting] query requires 'negative' query to be set'"],
      [{ positive: { match_all: {} }, negative: { match_all: {} } }, "[boosting] query requires 'negative_boost' to be set to be a positive value'"],
      [{ positive: { match_all: {} }, negative: { match_all: {} }, negative_boost: 0.5, nope: 1 }, '[boosting] query does not support [nope]'],
    ] as const) {
      expectErrorType(await search({ query: { boosting: body } }), 400, 'parsing_exception', reason);
    }
  });
});
