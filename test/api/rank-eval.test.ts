/**
 * Ranking evaluation API — `GET|POST /_rank_eval`, `/<index>/_rank_eval`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-rank-eval.html
 *
 * The searches sort by a numeric field, so the ranked lists are known and every metric is checked
 * against values computed by hand (the arithmetic is written out next to each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'docs', [1, 2, 3, 4, 5, 6].map((n) => [`d${n}`, { pos: n, title: n % 2 === 0 ? 'even doc' : 'odd doc' }]));
  await seed(t, 'other', [['o1', { pos: 1 }]]);
});
afterAll(async () => t.close());

/** Hits d1, d2, d3, … in that order. */
const byPos = { query: { match_all: {} }, sort: [{ pos: 'asc' }] };
/** Ratings of q1: hits d1…d5 are rated [3, 0, unrated, 1, 2]; d9 is rated 2 but never retrieved. */
const q1 = {
  id: 'q1',
  request: byPos,
  ratings: [
    { _index: 'docs', _id: 'd1', rating: 3 },
    { _index: 'docs', _id: 'd2', rating: 0 },
    { _index: 'docs', _id: 'd4', rating: 1 },
    { _index: 'docs', _id: 'd5', rating: 2 },
    { _index: 'docs', _id: 'd9', rating: 2 },
  ],
};
/** q2: the first relevant document is third. */
const q2 = {
  id: 'q2',
  request: byPos,
  ratings: [{ _index: 'docs', _id: 'd1', rating: 0 }, { _index: 'docs', _id: 'd2', rating: 0 }, { _index: 'docs', _id: 'd3', rating: 1 }],
};

const rankEval = (metric: unknown, requests: unknown[] = [q1], url = '/docs/_rank_eval') => t.request('POST', url, { requests, metric });
/** log2(rank + 1), the DCG discount. */
const log2 = (rank: number) => Math.log(rank + 1) / Math.LN2;

describe('POST /<index>/_rank_eval', () => {
  it('answers with metric_score, details per request (unrated_docs, hits with ratings, metric_details) and failures', async () => {
    const res = await rankEval({ precision: { k: 5 } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['metric_score', 'details', 'failures']);
    expect(res.body.failures).toEqual({});
    const d = res.body.details.q1;
    expect(Object.keys(d)).toEqual(['metric_score', 'unrated_docs', 'hits', 'metric_details']);
    expect(d.unrated_docs).toEqual([{ _index: 'docs', _id: 'd3' }]);
    expect(d.hits.map((h: any) => [h.hit._index, h.hit._id, h.rating])).toEqual([
      ['docs', 'd1', 3], ['docs', 'd2', 0], ['docs', 'd3', null], ['docs', 'd4', 1], ['docs', 'd5', 2],
    ]);
    // No _source unless summary_fields asks for it (ES fetchSource(false)).
    expect(d.hits[0].hit._source).toBeUndefined();
  });

  it('precision@k counts unrated hits as irrelevant unless ignore_unlabeled, relevant at rating ≥ threshold', async () => {
    // 3 of 5 hits rated ≥ 1 (d1, d4, d5).
    let res = await rankEval({ precision: { k: 5 } });
    expect(res.body.metric_score).toBe(0.6);
    expect(res.body.details.q1.metric_details).toEqual({ precision: { relevant_docs_retrieved: 3, docs_retrieved: 5 } });
    // The unrated d3 no longer counts: 3 / 4.
    res = await rankEval({ precision: { k: 5, ignore_unlabeled: true } });
    expect(res.body.metric_score).toBe(0.75);
    // Rating ≥ 2: d1 and d5, 2 / 5.
    res = await rankEval({ precision: { k: 5, relevant_rating_threshold: 2 } });
    expect(res.body.metric_score).toBe(0.4);
    // k = 2: d1 relevant, d2 not.
    res = await rankEval({ precision: { k: 2 } });
    expect(res.body.metric_score).toBe(0.5);
    expect(res.body.details.q1.hits).toHaveLength(2);
  });

  it('recall@k divides the relevant hits by every relevant rated document, retrieved or not', async () => {
    // Relevant (≥ 1): d1, d4, d5, d9; retrieved in the top 5: d1, d4, d5 → 3 / 4.
    let res = await rankEval({ recall: { k: 5 } });
    expect(res.body.metric_score).toBe(0.75);
    expect(res.body.details.q1.metric_details).toEqual({ recall: { relevant_docs_retrieved: 3, relevant_docs: 4 } });
    // Relevant (≥ 2): d1, d5, d9; retrieved d1, d5 → 2 / 3.
    res = await rankEval({ recall: { k: 5, relevant_rating_threshold: 2 } });
    expect(res.body.metric_score).toBeCloseTo(2 / 3, 15);
  });

  it('mean_reciprocal_rank averages 1 / rank of the first relevant hit over the requests', async () => {
    const res = await rankEval({ mean_reciprocal_rank: { k: 5 } }, [q1, q2]);
    // q1: d1 at rank 1 → 1; q2: d3 at rank 3 → 1/3; mean 2/3.
    expect(res.body.details.q1.metric_score).toBe(1);
    expect(res.body.details.q2.metric_score).toBeCloseTo(1 / 3, 15);
    expect(res.body.details.q2.metric_details).toEqual({ mean_reciprocal_rank: { first_relevant: 3 } });
    expect(res.body.metric_score).toBeCloseTo(2 / 3, 15);
    // Nothing relevant in the top 2 of q2: 0 and first_relevant -1.
    const cut = await rankEval({ mean_reciprocal_rank: { k: 2 } }, [q2]);
    expect(cut.body.metric_score).toBe(0);
    expect(cut.body.details.q2.metric_details).toEqual({ mean_reciprocal_rank: { first_relevant: -1 } });
    // Threshold 2 in q1: d1 (3) is still first.
    const strict = await rankEval({ mean_reciprocal_rank: { k: 5, relevant_rating_threshold: 2 } }, [q1]);
    expect(strict.body.metric_score).toBe(1);
  });

  it('dcg sums (2^rating − 1) / log2(rank + 1); normalize divides by the ideal order of the rated documents', async () => {
    // Hits rated [3, 0, –, 1, 2]: 7/log2(2) + 0 + (skipped) + 1/log2(5) + 3/log2(6) = 8.591234979777017.
    const dcg = 7 / log2(1) + 1 / log2(4) + 3 / log2(5);
    expect(dcg).toBeCloseTo(8.591234979777017, 12);
    let res = await rankEval({ dcg: { k: 5 } });
    expect(res.body.metric_score).toBeCloseTo(8.591234979777017, 12);
    expect(res.body.details.q1.metric_details).toEqual({ dcg: { dcg: res.body.metric_score, unrated_docs: 1 } });
    // Ideal: ratings [3, 2, 2, 1, 0] cut at the 5 hits = 7 + 3/log2(3) + 3/log2(4) + 1/log2(5) = 10.823465818787765.
    res = await rankEval({ dcg: { k: 5, normalize: true } });
    expect(res.body.metric_score).toBeCloseTo(8.591234979777017 / 10.823465818787765, 12);
    expect(res.body.metric_score).toBeCloseTo(0.7937600694284116, 12);
    const detail = res.body.details.q1.metric_details.dcg;
    expect(detail.ideal_dcg).toBeCloseTo(10.823465818787765, 12);
    expect(detail.normalized_dcg).toBe(res.body.metric_score);
    expect(detail.unrated_docs).toBe(1);
    // unknown_doc_rating 1 rates d3 at rank 3: + 1/log2(4) = + 0.5.
    res = await rankEval({ dcg: { k: 5, unknown_doc_rating: 1 } });
    expect(res.body.metric_score).toBeCloseTo(9.091234979777017, 12);
  });

  it('expected_reciprocal_rank follows Chapelle et al. with P(relevant) = (2^rating − 1) / 2^maximum_relevance', async () => {
    // R = [7/8, 0, –, 1/8, 3/8]: 7/8 + (1/8)(1/8)/4 + (1/8)(7/8)(3/8)/5 = 0.875 + 1/256 + 21/2560 = 0.887109375.
    const res = await rankEval({ expected_reciprocal_rank: { maximum_relevance: 3, k: 5 } });
    expect(res.body.metric_score).toBeCloseTo(0.887109375, 15);
    expect(res.body.details.q1.metric_details).toEqual({ expected_reciprocal_rank: { unrated_docs: 1 } });
  });

  it('defaults k to 10 and returns summary_fields from _source', async () => {
    const res = await rankEval({ precision: {} }, [{ ...q1, summary_fields: ['title'] }]);
    expect(res.body.details.q1.hits).toHaveLength(6);
    // 3 relevant of 6 hits.
    expect(res.body.metric_score).toBe(0.5);
    expect(res.body.details.q1.hits[0].hit._source).toEqual({ title: 'odd doc' });
  });

  it('joins hits and ratings by index and id, across the indices searched', async () => {
    const res = await rankEval({ precision: { k: 10 } }, [{
      id: 'both',
      request: byPos,
      ratings: [{ _index: 'other', _id: 'o1', rating: 1 }, { _index: 'other', _id: 'd1', rating: 1 }],
    }], '/docs,other/_rank_eval');
    const rated = res.body.details.both.hits.filter((h: any) => h.rating !== null).map((h: any) => `${h.hit._index}/${h.hit._id}`);
    // d1 is in docs, not other: only o1 is rated.
    expect(rated).toEqual(['other/o1']);
    expect(res.body.details.both.unrated_docs).toHaveLength(6);
  });

  it('also answers GET /_rank_eval over every index', async () => {
    const res = await t.request('GET', '/_rank_eval', { requests: [q1], metric: { recall: { k: 20 } } });
    expect(res.status).toBe(200);
    expect(res.body.details.q1.hits).toHaveLength(7);
  });

  it('lists a request whose search fails under failures, by id, and averages over the others', async () => {
    const bad = { id: 'bad', request: { query: { match_all: {} }, sort: [{ title: 'asc' }] }, ratings: [] };
    const res = await rankEval({ mean_reciprocal_rank: { k: 5 } }, [q2, bad]);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.details)).toEqual(['q2']);
    expect(res.body.metric_score).toBeCloseTo(1 / 3, 15);
    expect(res.body.failures.bad.error.type).toBe('search_phase_execution_exception');
    expect(res.body.failures.bad.error.root_cause[0].type).toBe('illegal_argument_exception');
  });

  it('reports a missing index per request, as the multi search underneath does', async () => {
    const res = await rankEval({ precision: {} }, [q1], '/nope/_rank_eval');
    expect(res.status).toBe(200);
    expect(res.body.details).toEqual({});
    expect(res.body.failures.q1.error.type).toBe('index_not_found_exception');
  });
});

describe('_rank_eval errors (ES RankEvalSpec, RatedRequest and the metric parsers)', () => {
  const cause = (res: any) => res.body.error.caused_by;

  it('needs a body, requests and a metric', async () => {
    expectErrorType(await t.request('POST', '/docs/_rank_eval'), 400, 'parse_exception', 'request body or source parameter is required');
    expectErrorType(await t.request('POST', '/docs/_rank_eval', {}), 400, 'illegal_argument_exception', 'Required [requests, metric]');
    expectErrorType(await t.request('POST', '/docs/_rank_eval', { requests: [q1] }), 400, 'illegal_argument_exception', 'Required [metric]');
    expectErrorType(await rankEval({ precision: {} }, []), 400, 'illegal_argument_exception',
      'Cannot evaluate ranking if no search requests with rated results are provided. Seen: []');
  });

  it('rejects unknown members and unknown metrics', async () => {
    expectErrorType(await t.request('POST', '/docs/_rank_eval', { requests: [q1], metric: { precision: {} }, extra: 1 }), 400,
      'x_content_parse_exception', /\[rank_eval\] unknown field \[extra\]$/);
    const unknownMetric = await rankEval({ ndcg: {} });
    expectErrorType(unknownMetric, 400, 'x_content_parse_exception', /\[rank_eval\] failed to parse field \[metric\]$/);
    expect(cause(unknownMetric)).toMatchObject({ type: 'named_object_not_found_exception', reason: expect.stringMatching(/unknown field \[ndcg\]$/) });
  });

  it('checks each metric\'s parameters as ES does', async () => {
    let res = await rankEval({ precision: { k: 0 } });
    expectErrorType(res, 400, 'x_content_parse_exception', /failed to parse field \[metric\]$/);
    expect(cause(res)).toMatchObject({ type: 'illegal_argument_exception', reason: 'Window size k must be positive.' });
    res = await rankEval({ recall: { relevant_rating_threshold: -1 } });
    expect(cause(res)).toMatchObject({ reason: 'Relevant rating threshold for precision must be positive integer.' });
    // dcg and expected_reciprocal_rank take no threshold.
    res = await rankEval({ dcg: { relevant_rating_threshold: 1 } });
    expect(cause(res)).toMatchObject({ type: 'x_content_parse_exception', reason: expect.stringMatching(/\[dcg\] unknown field \[relevant_rating_threshold\]$/) });
    res = await rankEval({ expected_reciprocal_rank: { k: 3 } });
    expect(cause(res)).toMatchObject({ type: 'illegal_argument_exception', reason: 'Required [maximum_relevance]' });
    res = await rankEval({ precision: { k: 'ten' } });
    expectErrorType(res, 400, 'x_content_parse_exception');
    res = await rankEval({ dcg: { normalize: 'yes' } });
    expectErrorType(res, 400, 'x_content_parse_exception');
  });

  it('checks each rated request: id and ratings required, no duplicate ratings, hits-only searches', async () => {
    const requestsError = async (request: unknown, reason: string | RegExp) => {
      const res = await rankEval({ precision: {} }, [request]);
      expectErrorType(res, 400, 'x_content_parse_exception', /\[rank_eval\] failed to parse field \[requests\]$/);
      if (typeof reason === 'string') expect(cause(res).reason).toBe(reason);
      else expect(cause(res).reason).toMatch(reason);
    };
    await requestsError({ request: byPos }, 'Required [id, ratings]');
    await requestsError({ id: 'x', ratings: [] }, 'Need to set at least test request or test request template parameters.');
    await requestsError({ id: 'x', request: byPos, ratings: [{ _index: 'docs', _id: 'd1', rating: 1 }, { _index: 'docs', _id: 'd1', rating: 2 }] },
      'Found duplicate rated document key [{"_index":"docs","_id":"d1"}] in evaluation request [x]');
    // A rated document's own error is nested one level deeper, as ConstructingObjectParser nests it.
    const noRating = await rankEval({ precision: {} }, [{ id: 'x', request: byPos, ratings: [{ _index: 'docs', _id: 'd1' }] }]);
    expect(cause(noRating).reason).toMatch(/\[request\] failed to parse field \[ratings\]$/);
    expect(cause(noRating).caused_by).toMatchObject({ type: 'illegal_argument_exception', reason: 'Required [rating]' });
    await requestsError({ id: 'x', request: { ...byPos, aggs: { p: { max: { field: 'pos' } } } }, ratings: [] }, 'Query in rated requests should not contain aggregations.');
    await requestsError({ id: 'x', request: { ...byPos, highlight: { fields: { title: {} } } }, ratings: [] }, 'Query in rated requests should not contain a highlighter section.');
    await requestsError({ id: 'x', request: { ...byPos, explain: true }, ratings: [] }, 'Query in rated requests should not use explain.');
    const badQuery = await rankEval({ precision: {} }, [{ id: 'x', request: { query: { nope: {} } }, ratings: [] }]);
    expect(cause(badQuery).reason).toMatch(/\[request\] failed to parse field \[request\]$/);
    expect(cause(badQuery).caused_by.reason).toMatch(/unknown query \[nope\]/);
  });

  it('refuses search templates clearly', async () => {
    let res = await rankEval({ precision: {} }, [{ id: 'x', template_id: 'tpl', params: { q: 'a' }, ratings: [] }]);
    expect(cause(res).reason).toMatch(/search templates are not supported by this server/);
    // ES's own ambiguity check comes first.
    res = await rankEval({ precision: {} }, [{ id: 'x', request: byPos, template_id: 'tpl', ratings: [] }]);
    expect(cause(res).reason).toBe('Ambiguous rated request: Set both, verbatim test request and test request template parameters.');
    res = await t.request('POST', '/docs/_rank_eval', { requests: [q1], metric: { precision: {} }, templates: [{ id: 'tpl', template: { source: {} } }] });
    expectErrorType(res, 400, 'illegal_argument_exception', /search templates are not supported by this server/);
  });

  it('rejects unknown URL parameters and search types', async () => {
    expectErrorType(await t.request('POST', '/docs/_rank_eval?size=3', { requests: [q1], metric: { precision: {} } }), 400, 'illegal_argument_exception',
      /contains unrecognized parameter: \[size\]/);
    expectErrorType(await t.request('POST', '/docs/_rank_eval?search_type=scan', { requests: [q1], metric: { precision: {} } }), 400, 'illegal_argument_exception',
      'No search type for [scan]');
  });
});
