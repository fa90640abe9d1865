/**
 * The `rescore` search member (ES QueryRescorer):
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/filter-search-results.html#rescore
 * The first `window_size` hits are rescored: a doc the rescore query matches scores
 * score_mode(query_weight × score, rescore_query_weight × rescore score), any other hit
 * query_weight × score, and the list is sorted again (float32 arithmetic). Here the window is the
 * global top hits, so 1 shard and 8 give the same hits and scores (ES rescores per shard).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, ids, scores, seed } from './es.js';

let t: TestApp;
const f = Math.fround;

// First-pass scores by the `tags` a doc has: a 5, b 3, c 1 (constant scores, summed).
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { tags: ['a', 'b'], body: 'quick brown fox', year: 2001 }], // 8
  ['2', { tags: ['a', 'r'], body: 'lazy dog sleeps', year: 2002 }], // 5, rescore-matched
  ['3', { tags: ['b', 'c', 'r'], body: 'quick dog runs fast', year: 2003 }], // 4, rescore-matched
  ['4', { tags: ['b'], body: 'brown bread', year: 2004 }], // 3
  ['5', { tags: ['c', 'r'], body: 'the fox and the dog', year: 2005 }], // 1, rescore-matched
  ['6', { tags: ['r'], body: 'dog dog dog', year: 2006 }], // not matched by the query
];
const MAPPINGS = { properties: { tags: { type: 'keyword' }, body: { type: 'text' }, year: { type: 'integer' } } };
const QUERY = {
  bool: {
    should: [
      { constant_score: { filter: { term: { tags: 'a' } }, boost: 5 } },
      { constant_score: { filter: { term: { tags: 'b' } }, boost: 3 } },
      { constant_score: { filter: { term: { tags: 'c' } }, boost: 1 } },
    ],
  },
};
const FIRST: Record<string, number> = { 1: 8, 2: 5, 3: 4, 4: 3, 5: 1 };
const R10 = { constant_score: { filter: { term: { tags: 'r' } }, boost: 10 } };

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  for (const [name, shards] of [['rs', 1], ['rs8', 8]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'rs') => t.request('POST', `/${index}/_search`, body);
const hitPairs = (res: any) => res.body.hits.hits.map((h: any) => [h._id, h._score]);

/** ES's combination for one hit, in float32. */
function combined(q: number, r: number | null, qw: number, rw: number, mode: string): number {
  const p = f(q * f(qw));
  if (r === null) return p;
  const s = f(r * f(rw));
  switch (mode) {
    case 'total': return f(p + s);
    case 'multiply': return f(p * s);
    case 'avg': return f(f(p + s) / 2);
    case 'max': return Math.max(p, s);
    default: return Math.min(p, s);
  }
}

/** Each hit's `_score` as the float32 it renders. */
function f32Scores(res: any): Record<string, number> {
  return Object.fromEntries(Object.entries(scores(res)).map(([id, s]) => [id, f(s)]));
}

describe('query rescorer', () => {
  it('combines the weighted scores in the window for each score_mode; unmatched and later hits keep query_weight × score', async () => {
    const expectedOrder: Record<string, string[]> = {
      total: ['2', '3', '1', '4', '5'], multiply: ['2', '3', '1', '4', '5'], avg: ['2', '3', '1', '4', '5'],
      // max: 2 and 3 both score 12; the tie breaks by write order.
      max: ['2', '3', '1', '4', '5'], min: ['1', '2', '3', '4', '5'],
    };
    for (const mode of ['total', 'multiply', 'avg', 'max', 'min']) {
      for (const index of ['rs', 'rs8']) {
        const res = await search({
          query: QUERY,
          rescore: { window_size: 3, query: { rescore_query: R10, query_weight: 0.7, rescore_query_weight: 1.2, score_mode: mode } },
        }, index);
        expect(res.status).toBe(200);
        expect(ids(res)).toEqual(expectedOrder[mode]);
        // Window: 1, 2, 3 (8, 5, 4); 2 and 3 match the rescore query; 5 matches too but is past the window.
        expect(f32Scores(res)).toEqual({
          1: combined(8, null, 0.7, 1.2, mode), 2: combined(5, 10, 0.7, 1.2, mode), 3: combined(4, 10, 0.7, 1.2, mode),
          4: combined(3, null, 0.7, 1.2, mode), 5: combined(1, null, 0.7, 1.2, mode),
        });
        expect(f(res.body.hits.max_score)).toBe(f32Scores(res)[expectedOrder[mode][0]]);
        expect(res.body.hits.total).toEqual({ value: 5, relation: 'eq' });
      }
    }
  });

  it('defaults to a window of 10, weights 1 and total; a score_mode is case-insensitive', async () => {
    const res = await search({ query: QUERY, rescore: { query: { rescore_query: R10 } } });
    expect(hitPairs(res)).toEqual([['2', 15], ['3', 14], ['5', 11], ['1', 8], ['4', 3]]);
    const upper = await search({ query: QUERY, rescore: { query: { rescore_query: R10, score_mode: 'TOTAL', query_weight: '1' } } });
    expect(hitPairs(upper)).toEqual(hitPairs(res));
  });

  it('pages past the window: from + size larger than window_size is allowed', async () => {
    const rescore = { window_size: 3, query: { rescore_query: R10, query_weight: 0.7, rescore_query_weight: 1.2 } };
    for (const index of ['rs', 'rs8']) {
      const page = await search({ query: QUERY, rescore, from: 3, size: 2 }, index);
      expect(ids(page)).toEqual(['4', '5']);
      expect(f32Scores(page)).toEqual({ 4: f(3 * f(0.7)), 5: f(1 * f(0.7)) });
      // A window larger than the page: doc 5 (5th by the first pass) is rescored and moves up.
      const wide = await search({ query: QUERY, rescore: { ...rescore, window_size: 5 }, from: 2, size: 2 }, index);
      expect(ids(wide)).toEqual(['5', '1']);
      expect(f32Scores(wide)).toEqual({ 5: combined(1, 10, 0.7, 1.2, 'total'), 1: combined(8, null, 0.7, 1.2, 'total') });
      const top = await search({ query: QUERY, rescore: { ...rescore, window_size: 5 }, size: 1 }, index);
      expect(ids(top)).toEqual(['2']);
      expect(f(top.body.hits.max_score)).toBe(combined(5, 10, 0.7, 1.2, 'total'));
    }
  });

  it('applies several rescorers in order, each to the first window of the previous order', async () => {
    const B100 = { constant_score: { filter: { term: { tags: 'b' } }, boost: 100 } };
    const body = {
      query: QUERY,
      rescore: [
        { window_size: 3, query: { rescore_query: R10, query_weight: 0.7, rescore_query_weight: 1.2 } },
        { window_size: 2, query: { rescore_query: B100, query_weight: 0.5 } },
      ],
    };
    // After the first: 2 (15.5), 3 (14.8), 1 (5.6), 4 (2.1), 5 (0.7). The second rescores 2 and 3; only 3 has tag b.
    const after1 = { 1: combined(8, null, 0.7, 1.2, 'total'), 2: combined(5, 10, 0.7, 1.2, 'total'), 3: combined(4, 10, 0.7, 1.2, 'total'), 4: f(3 * f(0.7)), 5: f(f(0.7)) };
    const expected = {
      3: combined(after1[3], 100, 0.5, 1, 'total'), 2: f(after1[2] * 0.5), 1: f(after1[1] * 0.5), 4: f(after1[4] * 0.5), 5: f(after1[5] * 0.5),
    };
    for (const index of ['rs', 'rs8']) {
      const res = await search(body, index);
      expect(ids(res)).toEqual(['3', '2', '1', '4', '5']);
      expect(f32Scores(res)).toEqual(expected);
    }
    // An empty array rescores nothing.
    expect(hitPairs(await search({ query: QUERY, rescore: [] }))).toEqual(hitPairs(await search({ query: QUERY })));
  });

  it('scores the rescore query with the index-wide statistics: 1 shard and 8 give the same hits and scores', async () => {
    const match = { match: { body: 'dog fox' } };
    const alone = await search({ query: match, size: 20 }, 'rs');
    const r = scores(alone);
    const bodies = [
      { query: QUERY, rescore: { window_size: 4, query: { rescore_query: match, query_weight: 0.3, rescore_query_weight: 2, score_mode: 'total' } } },
      { query: { match: { body: 'quick brown dog' } }, rescore: { window_size: 2, query: { rescore_query: match, score_mode: 'multiply' } } },
      { query: { match: { body: 'dog' } }, size: 3, rescore: [{ window_size: 1, query: { rescore_query: R10 } }, { window_size: 3, query: { rescore_query: match, score_mode: 'max' } }] },
      { query: QUERY, post_filter: { range: { year: { gte: 2002 } } }, rescore: { window_size: 2, query: { rescore_query: match, query_weight: 0 } } },
      // A negative or zero query_weight reorders the hits past the window too; a later window may reach any of them.
      { query: QUERY, from: 1, size: 3, rescore: [{ window_size: 2, query: { rescore_query: match, query_weight: -1 } }, { window_size: 4, query: { rescore_query: R10, query_weight: 0, score_mode: 'min' } }] },
      { query: { match: { body: 'dog' } }, min_score: 0.1, rescore: { window_size: 0, query: { rescore_query: match, query_weight: 2 } } },
    ];
    for (const body of bodies) {
      const one = await search(body, 'rs');
      const eight = await search(body, 'rs8');
      expect(one.status).toBe(200);
      expect(hitPairs(eight)).toEqual(hitPairs(one));
      expect(eight.body.hits.max_score).toEqual(one.body.hits.max_score);
    }
    // The first body by hand: the window is 1, 2, 3, 4 (8, 5, 4, 3); the match query scores 2, 3 (dog) and 1 (fox).
    const res = await search(bodies[0], 'rs8');
    const expected: Record<string, number> = {};
    for (const id of ['1', '2', '3', '4', '5']) {
      const inWindow = id !== '5';
      expected[id] = combined(FIRST[id], inWindow && r[id] !== undefined ? r[id] : null, 0.3, 2, 'total');
    }
    expect(f32Scores(res)).toEqual(expected);
  });

  it('explains the rescored score as ES does: primaryWeight and secondaryWeight products combined by the score mode', async () => {
    const body = {
      query: QUERY, explain: true,
      rescore: [
        { window_size: 3, query: { rescore_query: R10, query_weight: 0.7, rescore_query_weight: 1.2, score_mode: 'total' } },
        { window_size: 1, query: { rescore_query: R10, score_mode: 'max' } },
      ],
    };
    for (const index of ['rs', 'rs8']) {
      const res = await search(body, index);
      expect(res.status).toBe(200);
      for (const h of res.body.hits.hits) expect(h._explanation.value).toBe(h._score);
      const top = res.body.hits.hits[0];
      expect(top._id).toBe('2');
      // The second rescorer (max of 15.5 × 1 and 10 × 1) over the first (sum of 5 × 0.7 and 10 × 1.2).
      expect(top._explanation).toMatchObject({
        value: 15.5, description: 'max of:',
        details: [
          { value: 15.5, description: 'product of:', details: [{ value: 15.5, description: 'sum of:', details: [
            { value: 3.5, description: 'product of:', details: [{ value: 5 }, { value: 0.7, description: 'primaryWeight', details: [] }] },
            { value: 12, description: 'product of:', details: [{ value: 10 }, { value: 1.2, description: 'secondaryWeight', details: [] }] },
          ] }, { value: 1, description: 'primaryWeight' }] },
          { value: 10, description: 'product of:', details: [{ value: 10 }, { value: 1, description: 'secondaryWeight' }] },
        ],
      });
      // Doc 5 matches the rescore query but was past both windows: only the primary weights.
      const five = res.body.hits.hits.find((h: any) => h._id === '5');
      expect(five._explanation).toMatchObject({ description: 'product of:', details: [{ description: 'product of:', details: [{ value: 1 }, { value: 0.7 }] }, { value: 1 }] });
    }
  });

  it('takes `_score` descending as the only sort, and works with aggregations, highlighting and _source filtering', async () => {
    const rescore = { window_size: 3, query: { rescore_query: R10 } };
    const sorted = await search({ query: QUERY, sort: ['_score'], rescore }, 'rs8');
    expect(hitPairs(sorted)).toEqual(hitPairs(await search({ query: QUERY, rescore }, 'rs8')));
    const res = await search({
      query: QUERY, rescore, size: 1, _source: ['year'], aggs: { years: { max: { field: 'year' } } }, highlight: { fields: { body: {} } },
    }, 'rs8');
    expect(res.body.hits.hits[0]._source).toEqual({ year: 2002 });
    expect(res.body.aggregations.years.value).toBe(2005);
  });

  it('rescores `_msearch` items; a repeated body gives the same page', async () => {
    const body = { query: QUERY, rescore: { window_size: 3, query: { rescore_query: R10, query_weight: 0.7, rescore_query_weight: 1.2 } } };
    const lines = [{ index: 'rs' }, body, { index: 'rs8' }, body, { index: 'rs' }, { query: QUERY }].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const multi = await t.request('POST', '/_msearch', lines, { 'content-type': 'application/x-ndjson' });
    expect(multi.status).toBe(200);
    const single = await search(body);
    expect(hitPairs({ body: multi.body.responses[0] })).toEqual(hitPairs(single));
    expect(hitPairs({ body: multi.body.responses[1] })).toEqual(hitPairs(single));
    expect(hitPairs({ body: multi.body.responses[2] })).toEqual(hitPairs(await search({ query: QUERY })));
    // A repeated body (its parse and plans cached) gives the same page again.
    expect(hitPairs(await search(body))).toEqual(hitPairs(single));
  });
});

describe('rescore with a learned-sparse model (BM25 first, the model on the top hits)', () => {
  const MODEL = '.sparse_model_2';
  const stats = async () => (await t.request('GET', `/_ml/trained_models/${MODEL}/_stats`)).body.trained_model_stats[0].deployment_stats?.inference_count ?? 0;

  it('encodes the text once and rescores the window on every shard alike', async () => {
    for (const [name, shards] of [['sp', 1], ['sp8', 8]] as const) {
      const mappings = { properties: { body: { type: 'text' }, 'ml.tokens': { type: 'sparse_vector' } } };
      expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings })).status).toBe(200);
      await seed(t, name, [
        ['1', { body: 'octopus in the sea', ml: { tokens: { octopus: 2, sea: 1 } } }],
        ['2', { body: 'the sea is wide', ml: { tokens: { sea: 2, wide: 1 } } }],
        ['3', { body: 'octopus ink', ml: { tokens: { octopus: 3, ink: 1 } } }],
        ['4', { body: 'the sea the sea', ml: { tokens: { sea: 0.5 } } }],
      ]);
    }
    expect((await t.request('PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } })).status).toBe(200);
    expect((await t.request('POST', `/_ml/trained_models/${MODEL}/deployment/_start?wait_for=started`)).status).toBe(200);
    const before = await stats();
    const text = 'octopus sea';
    const body = (rescoreQuery: unknown) => ({
      query: { match: { body: 'sea octopus' } },
      rescore: { window_size: 3, query: { rescore_query: rescoreQuery, query_weight: 0.1, rescore_query_weight: 1 } },
    });
    const one = await search(body({ text_expansion: { 'ml.tokens': { model_id: MODEL, model_text: text } } }), 'sp');
    expect(one.status).toBe(200);
    expect(await stats()).toBe(before + 1);
    const eight = await search(body({ sparse_vector: { field: 'ml.tokens', inference_id: MODEL, query: text } }), 'sp8');
    expect(await stats()).toBe(before + 2);
    expect(hitPairs(eight)).toEqual(hitPairs(one));
    // The same as rescoring with the model's tokens given as a query vector.
    const inferred = await t.request('POST', `/_ml/trained_models/${MODEL}/_infer`, { docs: [{ text_field: text }] });
    const tokens = inferred.body.inference_results[0].predicted_value as Record<string, number>;
    const byVector = await search(body({ sparse_vector: { field: 'ml.tokens', query_vector: tokens } }), 'sp8');
    expect(hitPairs(byVector)).toEqual(hitPairs(one));
  });
});

describe('rescore errors', () => {
  const R = { query: { rescore_query: R10 } };

  /** A request error wrapped as every shard's failure (ES's DefaultSearchContext.preProcess). */
  function expectShardError(res: any, reason: string) {
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.reason).toBe('all shards failed');
    expect(res.body.error.root_cause).toEqual([{ type: 'illegal_argument_exception', reason }]);
  }

  it('refuses a field sort, a window past index.max_rescore_window, a scroll, rank and a retriever', async () => {
    for (const sort of [[{ year: 'asc' }], ['_score', 'year'], [{ _score: 'asc' }]]) {
      expectShardError(await search({ query: QUERY, sort, rescore: R }, 'rs8'), 'Cannot use [sort] option in conjunction with [rescore].');
    }
    const tooLarge = (w: number, max: number) => `Rescore window [${w}] is too large. It must be less than [${max}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.`;
    expectShardError(await search({ query: QUERY, rescore: { ...R, window_size: 10001 } }), tooLarge(10001, 10000));
    expectShardError(await search({ query: QUERY, rescore: [R, { ...R, window_size: 2147483647 }] }), tooLarge(2147483647, 10000));
    await t.request('PUT', '/rs/_settings', { index: { max_rescore_window: 4 } });
    try {
      expectShardError(await search({ query: QUERY, rescore: { ...R, window_size: 5 } }), tooLarge(5, 4));
      expect((await search({ query: QUERY, rescore: { ...R, window_size: 4 } })).status).toBe(200);
    } finally {
      await t.request('PUT', '/rs/_settings', { index: { max_rescore_window: null } });
    }
    // A point in time sorts by its implicit `_shard_doc` tiebreaker after `_score`.
    const pit = (await t.request('POST', '/rs8/_pit?keep_alive=1m')).body.id;
    expectShardError(await t.request('POST', '/_search', { query: QUERY, pit: { id: pit }, rescore: R }), 'Cannot use [sort] option in conjunction with [rescore].');
    await t.request('DELETE', '/_pit', { id: pit });
    expectErrorType(await t.request('POST', '/rs/_search?scroll=1m', { query: QUERY, rescore: R }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: using [rescore] is not allowed in a scroll context;');
    const rank = await search({ query: QUERY, rank: { rrf: {} }, rescore: R });
    expect(rank.status).toBe(400);
    expect(JSON.stringify(rank.body.error)).toContain('rescore');
    expectErrorType(await search({ retriever: { standard: { query: QUERY } }, rescore: R }), 400, 'illegal_argument_exception', 'cannot specify [retriever] and [rescore]');
  });

  it('answers ES\'s parse errors for unknown fields, wrong types and bad values', async () => {
    const cases: Array<[unknown, string, string | RegExp]> = [
      [{ ...R, window_size: -1 }, 'illegal_argument_exception', '[window_size] parameter cannot be negative, found [-1]'],
      [{ ...R, foo: 1 }, 'parsing_exception', "rescore doesn't support [foo]"],
      [{ ...R, window_size: null }, 'parsing_exception', 'unexpected token [VALUE_NULL] after [window_size]'],
      [{ ...R, window_size: [1] }, 'parsing_exception', 'unexpected token [START_ARRAY] after [window_size]'],
      [{ window_size: 5 }, 'parsing_exception', 'missing rescore type'],
      [{}, 'parsing_exception', 'missing rescore type'],
      [{ bar: {} }, 'named_object_not_found_exception', /unknown field \[bar\]$/],
      [{ ...R, script: {} }, 'parsing_exception', 'you can either define [query] or [script], not both.'],
      [{ query: { rescore_query: R10, foo: 1 } }, 'x_content_parse_exception', /\[query\] unknown field \[foo\]$/],
      [{ query: {} }, 'illegal_argument_exception', 'rescore_query cannot be null'],
      [{ query: { query_weight: 2 } }, 'illegal_argument_exception', 'rescore_query cannot be null'],
      [{ query: { rescore_query: R10, score_mode: 'sum' } }, 'x_content_parse_exception', /\[query\] failed to parse field \[score_mode\]$/],
      [{ query: { rescore_query: R10, score_mode: 1 } }, 'x_content_parse_exception', /\[query\] score_mode doesn't support values of type: VALUE_NUMBER$/],
      [{ query: { rescore_query: R10, query_weight: true } }, 'x_content_parse_exception', /\[query\] query_weight doesn't support values of type: VALUE_BOOLEAN$/],
      [{ query: { rescore_query: R10, rescore_query_weight: 'x' } }, 'x_content_parse_exception', /\[query\] failed to parse field \[rescore_query_weight\]$/],
      [{ query: { rescore_query: 'x' } }, 'x_content_parse_exception', /\[query\] rescore_query doesn't support values of type: VALUE_STRING$/],
      [{ query: { rescore_query: { nope: {} } } }, 'x_content_parse_exception', /\[query\] failed to parse field \[rescore_query\]$/],
      [{ query: 'x' }, 'parsing_exception', "rescore doesn't support [query]"],
      [[R, 5], 'parsing_exception', /START_OBJECT/],
    ];
    for (const [rescore, type, reason] of cases) {
      const res = await search({ query: QUERY, rescore });
      expectErrorType(res, 400, type, reason);
    }
    const bad = await search({ query: QUERY, rescore: { query: { rescore_query: R10, score_mode: 'sum' } } });
    expect(bad.body.error.caused_by).toMatchObject({ type: 'illegal_argument_exception', reason: 'illegal score_mode [sum]' });
    expectErrorType(await search({ query: QUERY, rescore: 'x' }), 400, 'parsing_exception', 'Unknown key for a VALUE_STRING in [rescore].');
  });

  it('bounds hostile input: huge windows and more than 100 rescorers are refused', async () => {
    expectErrorType(await search({ query: QUERY, rescore: { ...R, window_size: 1e12 } }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ query: QUERY, rescore: { ...R, window_size: '99999999999' } }), 400, 'illegal_argument_exception');
    const many = Array.from({ length: 100 }, (_, i) => ({ window_size: 10000, query: { rescore_query: { match: { body: `dog ${i}` } }, query_weight: 1 } }));
    const res = await search({ query: QUERY, rescore: many }, 'rs8');
    expect(res.status).toBe(200);
    expect(ids(res).length).toBe(5);
    expect(hitPairs(res)).toEqual(hitPairs(await search({ query: QUERY, rescore: many })));
    expectErrorType(await search({ query: QUERY, rescore: [...many, many[0]] }), 400, 'illegal_argument_exception', '[rescore] may have at most [100] rescorers, found [101]');
  });
});
