/**
 * `collapse`: https://www.elastic.co/guide/en/elasticsearch/reference/8.15/collapse-search-results.html
 * — one hit per distinct value of a keyword or numeric field, the best of its group by the
 * search's order, with the value in `fields`; `hits.total` still counts documents; from/size page
 * over groups; the same hits on one shard and on several; ES's errors for what it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { ids, seed } from './es.js';

let t: TestApp;

const MAPPINGS = {
  properties: {
    user: { properties: { id: { type: 'keyword' } } },
    message: { type: 'text' },
    likes: { type: 'integer' },
    price: { type: 'double' },
    tag: { type: 'keyword' },
    nodv: { type: 'keyword', doc_values: false },
    noindex: { type: 'keyword', index: false },
    day: { type: 'date' },
  },
};

/** Five small documents for exact response shapes. */
const SMALL: Array<[string, Record<string, unknown>]> = [
  ['1', { user: { id: 'kimchy' }, message: 'coffee', likes: 5, price: 1.5 }],
  ['2', { user: { id: 'kimchy' }, message: 'coffee coffee', likes: 9, price: 2.5 }],
  ['3', { user: { id: 'elkbee' }, message: 'tea', likes: 7, price: 1.5 }],
  ['4', { message: 'coffee', likes: 1 }],
  ['5', { message: 'tea', likes: 3 }],
];

/** 60 documents over 9 users (and some without one), scores and likes with ties, seeded in 3 refreshes. */
function many(): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (let i = 0; i < 60; i++) {
    const doc: Record<string, unknown> = {
      message: Array.from({ length: 1 + (i % 4) }, () => 'coffee').join(' ') + (i % 3 === 0 ? ' tea' : ' latte'),
      likes: (i * 7) % 11, price: (i % 5) + 0.5, tag: `t${i % 3}`,
    };
    if (i % 10 !== 7) doc.user = { id: `u${(i * 5) % 9}` };
    out.push([String(i), doc]);
  }
  return out;
}

const INDICES = { one: 1, three: 3, five: 5 } as const;

beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/small', { mappings: MAPPINGS });
  await seed(t, 'small', SMALL);
  const docs = many();
  for (const [name, shards] of Object.entries(INDICES)) {
    await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS });
    for (let part = 0; part < 3; part++) await seed(t, name, docs.filter((_, i) => i % 3 === part));
  }
  await t.request('PUT', '/multi', { mappings: MAPPINGS });
  await seed(t, 'multi', [['1', { tag: ['a', 'b'] }]]);
});
afterAll(async () => t.close());

const search = (index: string, body: unknown, query = '') => t.request('POST', `/${index}/_search${query}`, body);

/** The parts of a response that must not depend on the number of shards (index names aside, inner hits' too). */
function comparable(res: TestResponse) {
  expect(res.status).toBe(200);
  const { hits, aggregations } = res.body;
  return JSON.parse(JSON.stringify({ hits, aggregations }).replace(/"_index":"(one|three|five)"/g, '"_index":"x"'));
}

/** The hits of the same body on one, three and five shards: identical; returns the one-shard response. */
async function sameOnEveryShardCount(body: Record<string, unknown>): Promise<TestResponse> {
  const one = await search('one', body);
  const expected = comparable(one);
  for (const index of ['three', 'five']) expect(comparable(await search(index, body)), `${index}: ${JSON.stringify(body)}`).toEqual(expected);
  return one;
}

/** The shard failure ES answers when every shard refuses the search with `cause`. */
function expectShardFailure(res: TestResponse, status: number, type: string, reason: string): void {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({
    type: 'search_phase_execution_exception', reason: 'all shards failed', phase: 'query',
    root_cause: [{ type, reason }], failed_shards: [{ shard: 0, reason: { type, reason } }],
  });
  expect(res.body.status).toBe(status);
}

describe('collapse: shapes', () => {
  it('keeps the top hit per user, with the value in fields; hits.total counts every document', async () => {
    const res = await search('small', { collapse: { field: 'user.id' }, sort: [{ likes: 'desc' }] });
    expect(res.status).toBe(200);
    expect(res.body.hits).toEqual({
      total: { value: 5, relation: 'eq' },
      max_score: null,
      hits: [
        { _index: 'small', _id: '2', _score: null, _source: SMALL[1][1], fields: { 'user.id': ['kimchy'] }, sort: [9] },
        { _index: 'small', _id: '3', _score: null, _source: SMALL[2][1], fields: { 'user.id': ['elkbee'] }, sort: [7] },
        // Documents without a value are one group, shown with a null value.
        { _index: 'small', _id: '5', _score: null, _source: SMALL[4][1], fields: { 'user.id': [null] }, sort: [3] },
      ],
    });
  });

  it('ranks groups by their best score', async () => {
    const res = await search('small', { query: { match: { message: 'coffee' } }, collapse: { field: 'user.id' } });
    expect(res.body.hits.total).toEqual({ value: 3, relation: 'eq' });
    expect(ids(res)).toEqual(['2', '4']);
    expect(res.body.hits.max_score).toBe(res.body.hits.hits[0]._score);
    expect(res.body.hits.hits.map((h: { fields: unknown }) => h.fields)).toEqual([{ 'user.id': ['kimchy'] }, { 'user.id': [null] }]);
  });

  it('collapses on a numeric field, its value typed as the field', async () => {
    const res = await search('small', { collapse: { field: 'price' }, sort: [{ likes: 'asc' }], _source: false });
    expect(res.body.hits.hits).toEqual([
      { _index: 'small', _id: '4', _score: null, fields: { price: [null] }, sort: [1] },
      { _index: 'small', _id: '1', _score: null, fields: { price: [1.5] }, sort: [5] },
      { _index: 'small', _id: '2', _score: null, fields: { price: [2.5] }, sort: [9] },
    ]);
    const likes = await search('small', { collapse: { field: 'likes' }, size: 1, sort: [{ likes: 'desc' }], _source: false });
    expect(likes.body.hits.hits[0].fields).toEqual({ likes: [9] });
  });

  it('the collapse value replaces the same field asked for in fields; other fields stay', async () => {
    const res = await search('small', { collapse: { field: 'user.id' }, sort: [{ likes: 'desc' }], size: 1, _source: ['likes'], fields: ['user.id', 'likes'], docvalue_fields: ['price'] });
    expect(res.body.hits.hits[0]).toEqual({
      _index: 'small', _id: '2', _score: null, _source: { likes: 9 }, fields: { 'user.id': ['kimchy'], likes: [9], price: [2.5] }, sort: [9],
    });
  });

  it('accepts max_concurrent_group_searches and an empty inner_hits list', async () => {
    const res = await search('small', { collapse: { field: 'user.id', max_concurrent_group_searches: 4, inner_hits: [] }, sort: [{ likes: 'desc' }] });
    expect(ids(res)).toEqual(['2', '3', '5']);
  });
});

describe('collapse: multi-shard equality, paging, interplay', () => {
  const bodies: Array<Record<string, unknown>> = [
    { collapse: { field: 'user.id' } },
    { query: { match: { message: 'coffee tea' } }, collapse: { field: 'user.id' }, size: 20 },
    { query: { match: { message: 'coffee' } }, collapse: { field: 'user.id' }, size: 4, from: 3 },
    { collapse: { field: 'user.id' }, sort: [{ likes: 'desc' }], size: 20 },
    { collapse: { field: 'user.id' }, sort: [{ likes: 'asc' }, { price: 'desc' }], size: 3, from: 2 },
    { collapse: { field: 'likes' }, sort: [{ price: 'asc' }], size: 20 },
    { collapse: { field: 'tag' }, query: { match: { message: 'latte' } }, track_scores: true, sort: ['likes'] },
    { collapse: { field: 'user.id' }, sort: [{ 'user.id': 'desc' }], size: 20 },
    { collapse: { field: 'price' }, query: { match: { message: 'coffee' } }, size: 20 },
  ];

  it('gives the same groups, best hits, totals and scores on 1, 3 and 5 shards', async () => {
    for (const body of bodies) await sameOnEveryShardCount(body);
  });

  it('keeps each group\'s best hit and the groups in order', async () => {
    const all = await search('three', { size: 100, sort: [{ likes: 'desc' }], _source: ['user.id', 'likes'] });
    const best = new Map<unknown, { _id: string; sort: number[] }>();
    for (const h of all.body.hits.hits) {
      const key = h._source.user?.id ?? null;
      if (!best.has(key)) best.set(key, h);
    }
    const collapsed = await search('three', { size: 100, sort: [{ likes: 'desc' }], collapse: { field: 'user.id' } });
    expect(ids(collapsed)).toEqual([...best.values()].map((h) => h._id));
    expect(collapsed.body.hits.total).toEqual({ value: 60, relation: 'eq' });
  });

  it('from/size page over groups: the pages put together are the whole list', async () => {
    for (const sort of [undefined, [{ likes: 'desc' }]]) {
      const body = { query: { match: { message: 'coffee' } }, collapse: { field: 'user.id' }, ...(sort ? { sort } : {}) };
      const whole = ids(await sameOnEveryShardCount({ ...body, size: 50 }));
      expect(whole.length).toBe(10);
      const pages: string[] = [];
      for (let from = 0; from < 12; from += 3) pages.push(...ids(await sameOnEveryShardCount({ ...body, from, size: 3 })));
      expect(pages).toEqual(whole);
    }
  });

  it('search_after pages when sorting on the collapse field', async () => {
    const body = { collapse: { field: 'user.id' }, sort: [{ 'user.id': 'asc' }], size: 4 };
    const first = await sameOnEveryShardCount(body);
    const last = first.body.hits.hits.at(-1).sort;
    expect(last).toEqual(['u3']);
    const next = await sameOnEveryShardCount({ ...body, search_after: last });
    expect(next.body.hits.hits.map((h: { fields: Record<string, unknown> }) => h.fields['user.id'])).toEqual([['u4'], ['u5'], ['u6'], ['u7']]);
    // Documents after the marker still count in hits.total.
    expect(next.body.hits.total.value).toBeLessThan(60);
  });

  it('track_total_hits, aggregations and post_filter work as without collapse', async () => {
    const capped = await sameOnEveryShardCount({ collapse: { field: 'user.id' }, track_total_hits: 10 });
    expect(capped.body.hits.total).toEqual({ value: 10, relation: 'gte' });
    expect(ids(capped).length).toBe(10);
    const uncounted = await search('three', { collapse: { field: 'user.id' }, track_total_hits: false });
    expect(uncounted.body.hits.total).toBeUndefined();

    const aggs = { users: { terms: { field: 'user.id', size: 20 } } };
    const withCollapse = await sameOnEveryShardCount({ collapse: { field: 'user.id' }, aggs, size: 2 });
    const without = await search('one', { aggs, size: 2 });
    expect(withCollapse.body.aggregations).toEqual(without.body.aggregations);

    const filtered = await sameOnEveryShardCount({ collapse: { field: 'user.id' }, post_filter: { term: { tag: 't1' } }, aggs, size: 20 });
    expect(filtered.body.aggregations).toEqual(without.body.aggregations);
    expect(filtered.body.hits.total.value).toBe(20);
    for (const h of filtered.body.hits.hits) expect(h._source.tag).toBe('t1');
  });

  it('a standard retriever collapses as the top-level member does; compound retrievers refuse it', async () => {
    const body = { query: { match: { message: 'coffee' } }, collapse: { field: 'user.id' }, size: 20 };
    const direct = comparable(await search('three', body));
    const viaRetriever = await search('three', { retriever: { standard: { query: body.query, collapse: body.collapse } }, size: 20 });
    expect(comparable(viaRetriever)).toEqual(direct);
    const topLevel = await search('three', { retriever: { standard: { query: body.query } }, collapse: body.collapse, size: 20 });
    expect(comparable(topLevel)).toEqual(direct);
    const child = await search('three', { retriever: { rrf: { retrievers: [{ standard: { query: body.query, collapse: body.collapse } }, { standard: { query: { match_all: {} } } }] } } });
    expect(child.status).toBe(400);
    expect(child.body.error.reason).toBe('[collapse] in children of compound retrievers is not supported by this server yet');
    const fused = await search('three', { retriever: { rrf: { retrievers: [{ standard: { query: body.query } }, { standard: { query: { match_all: {} } } }] } }, collapse: body.collapse });
    expect(fused.status).toBe(400);
    expect(fused.body.error.reason).toBe('[collapse] is not supported by this server yet');
  });

  it('collapses a point in time\'s search and _msearch items as plain searches', async () => {
    const body = { query: { match: { message: 'coffee' } }, collapse: { field: 'user.id', inner_hits: { name: 'a', size: 2 } }, size: 5 };
    const plain = await search('three', body);
    const pit = (await t.request('POST', '/three/_pit?keep_alive=1m')).body.id;
    const inPit = await t.request('POST', '/_search', { ...body, pit: { id: pit } });
    expect(inPit.status).toBe(200);
    expect(ids(inPit)).toEqual(ids(plain));
    expect(inPit.body.hits.hits.map((h: { inner_hits: unknown }) => h.inner_hits)).toEqual(plain.body.hits.hits.map((h: { inner_hits: unknown }) => h.inner_hits));
    await t.request('DELETE', '/_pit', { id: pit });
    const ndjson = [{ index: 'three' }, body, { index: 'small' }, { collapse: { field: 'message' } }].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const multi = await t.request('POST', '/_msearch', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(multi.status).toBe(200);
    expect(comparable({ ...multi, status: 200, body: multi.body.responses[0] } as TestResponse)).toEqual(comparable(plain));
    expect(multi.body.responses[1].error.root_cause[0].reason).toBe('collapse is not supported for the field [message] of the type [text]');
  });

  it('searches several indices at once', async () => {
    const res = await search('one,small', { collapse: { field: 'user.id' }, sort: [{ likes: 'desc' }], size: 50 });
    expect(res.status).toBe(200);
    const values = res.body.hits.hits.map((h: { fields: Record<string, unknown[]> }) => h.fields['user.id'][0]);
    expect(new Set(values).size).toBe(values.length);
    expect(res.body.hits.total.value).toBe(65);
  });
});

describe('collapse: errors', () => {
  it('refuses fields it cannot collapse on, as ES does per shard', async () => {
    expectShardFailure(await search('small', { collapse: { field: 'message' } }), 400, 'illegal_argument_exception', 'collapse is not supported for the field [message] of the type [text]');
    expectShardFailure(await search('small', { collapse: { field: 'day' } }), 400, 'illegal_argument_exception', 'collapse is not supported for the field [day] of the type [date]');
    expectShardFailure(await search('small', { collapse: { field: 'nodv' } }), 400, 'illegal_argument_exception', 'cannot collapse on field `nodv` without `doc_values`');
    expectShardFailure(await search('small', { collapse: { field: 'nope' } }), 400, 'illegal_argument_exception', 'no mapping found for `nope` in order to collapse on');
    expectShardFailure(await search('small', { collapse: {} }), 400, 'illegal_argument_exception', 'no collapse field specified');
  });

  it('refuses a document with several values', async () => {
    expectShardFailure(await search('multi', { collapse: { field: 'tag' } }), 500, 'illegal_state_exception', 'failed to collapse 0, the collapse field must be single valued');
  });

  it('search_after needs the sort to be the collapse field alone', async () => {
    const reason = 'collapse field and sort field must be the same when use `collapse` in conjunction with `search_after`';
    expectShardFailure(await search('small', { collapse: { field: 'user.id' }, sort: ['likes'], search_after: [3] }), 500, 'search_exception', reason);
    expectShardFailure(await search('small', { collapse: { field: 'user.id' }, sort: ['user.id', 'likes'], search_after: ['a', 3] }), 500, 'search_exception', reason);
  });

  it('refuses rescore and scroll with ES\'s messages, and rank as a validation error', async () => {
    const rescore = { query: { rescore_query: { match_all: {} } } };
    expectShardFailure(await search('small', { collapse: { field: 'user.id' }, rescore }), 500, 'search_exception', 'cannot use `collapse` in conjunction with `rescore`');
    expectShardFailure(await search('small', { collapse: { field: 'user.id' } }, '?scroll=1m'), 500, 'search_exception', 'cannot use `collapse` in a scroll context');
    const rank = await search('small', { query: { match_all: {} }, rank: { rrf: {} }, collapse: { field: 'user.id' } });
    expect(rank.status).toBe(400);
    expect(rank.body.error.reason).toContain('[rank] cannot be used with [collapse]');
  });

  it('refuses inner_hits it cannot build or bound', async () => {
    const notYet = await search('small', { collapse: { field: 'user.id', inner_hits: { name: 'recent', highlight: { fields: { message: {} } } } } });
    expect(notYet.status).toBe(400);
    expect(notYet.body.error).toMatchObject({ type: 'illegal_argument_exception', reason: '[collapse.inner_hits.highlight] is not supported by this server yet' });
    expectShardFailure(await search('small', { collapse: { field: 'user.id', inner_hits: [{ name: 'a' }, { name: 'big', from: 90, size: 11 }] } }), 400, 'illegal_argument_exception',
      "Inner result window is too large, the inner hit definition's [big]'s from + size must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_inner_result_window] index level setting.");
    expectShardFailure(await search('small', { collapse: { field: 'noindex', inner_hits: { name: 'a' } } }), 400, 'illegal_argument_exception',
      'cannot expand `inner_hits` for collapse field `noindex`, only indexed field can retrieve `inner_hits`');
    // Expansion is bounded: page size × definitions group searches, and the hits they hold.
    const many = Array.from({ length: 2 }, (_, i) => ({ name: `d${i}`, size: 100 }));
    const tooMany = await search('small', { collapse: { field: 'user.id', inner_hits: many }, size: 600 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.root_cause[0].reason).toBe('[inner_hits] of [collapse] would run 1200 group searches returning up to 120000 hits for a page of [600]; this server allows at most [10000] group searches and [100000] hits per page');
    const longName = await search('small', { collapse: { field: 'user.id', inner_hits: { name: 'n'.repeat(100_000) } }, size: 101 });
    expect(longName.status).toBe(400);
    expect(longName.body.error.root_cause[0].reason).toBe('[inner_hits] of [collapse] would repeat 10100000 characters of definition names for a page of [101]; this server allows at most [10000000]');
    // Without inner_hits a field that is not indexed collapses on its doc values.
    expect((await search('small', { collapse: { field: 'noindex' } })).status).toBe(200);
  });

  it('answers hostile collapse bodies with 400s', async () => {
    const cases: Array<[unknown, string, string]> = [
      ['user.id', 'parsing_exception', 'Unknown key for a VALUE_STRING in [collapse].'],
      [['user.id'], 'parsing_exception', 'Unknown key for a START_ARRAY in [collapse].'],
      [{ field: 'user.id', size: 3 }, 'x_content_parse_exception', '[collapse] unknown field [size]'],
      [{ field: '' }, 'x_content_parse_exception', '[collapse] failed to parse field [field]'],
      [{ field: { a: 1 } }, 'x_content_parse_exception', "[collapse] field doesn't support values of type: START_OBJECT"],
      [{ field: null }, 'x_content_parse_exception', "[collapse] field doesn't support values of type: VALUE_NULL"],
      [{ field: 7 }, 'x_content_parse_exception', "[collapse] field doesn't support values of type: VALUE_NUMBER"],
      [{ field: 'user.id', max_concurrent_group_searches: 0 }, 'x_content_parse_exception', '[collapse] failed to parse field [max_concurrent_group_searches]'],
      [{ field: 'user.id', max_concurrent_group_searches: 'many' }, 'x_content_parse_exception', '[collapse] failed to parse field [max_concurrent_group_searches]'],
      [{ field: 'user.id', max_concurrent_group_searches: 1e12 }, 'x_content_parse_exception', '[collapse] failed to parse field [max_concurrent_group_searches]'],
      [{ field: 'user.id', inner_hits: {} }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: [1] }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: 'x' }, 'x_content_parse_exception', "[collapse] inner_hits doesn't support values of type: VALUE_STRING"],
      [{ field: 'user.id', inner_hits: { name: 'a', size: -1 } }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: { name: 'a', from: 'x' } }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: { name: 'a', query: {} } }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: { name: 7 } }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      [{ field: 'user.id', inner_hits: { name: 'a', sort: 5 } }, 'x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
    ];
    for (const [collapse, type, reason] of cases) {
      const res = await search('small', { collapse });
      expect(res.status, JSON.stringify(collapse)).toBe(400);
      expect(res.body.error.type, JSON.stringify(collapse)).toBe(type);
      expect(res.body.error.reason, JSON.stringify(collapse)).toContain(reason);
    }
    expect((await search('small', { collapse: { field: 'user.id', inner_hits: {} } })).body.error.caused_by.reason)
      .toBe('inner_hits must have a [name]; set the [name] field in the inner_hits definition');
    expect((await search('small', { collapse: { field: '' } })).body.error.caused_by.reason).toBe('field name is null or empty');
    expect((await search('small', { collapse: { field: 'user.id', inner_hits: [1] } })).body.error.caused_by).toMatchObject({ type: 'parsing_exception', reason: 'Invalid token in inner_hits array' });
    expect((await search('small', { collapse: { field: 'user.id', inner_hits: { name: 'a', size: -1 } } })).body.error.caused_by.caused_by.reason)
      .toBe('illegal size value, at least 0 or higher');
    expect((await search('small', { collapse: { field: 'user.id', inner_hits: { name: 'a', query: {} } } })).body.error.caused_by.reason).toMatch(/\[inner_hits\] unknown field \[query\]$/);
    expect((await search('small', { collapse: { field: 'user.id', max_concurrent_group_searches: 'many' } })).body.error.caused_by.type).toBe('number_format_exception');
    expect((await search('small', { collapse: { field: 'user.id', max_concurrent_group_searches: -1 } })).body.error.caused_by.reason)
      .toBe('maxConcurrentGroupRequests` must be positive');
  });

  it('a long field name or a large page stays bounded', async () => {
    const long = 'f'.repeat(100_000);
    const unmapped = await search('small', { collapse: { field: long } });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(unmapped.body.error.root_cause[0].reason.startsWith('no mapping found for `fff')).toBe(true);
    const window = await search('small', { collapse: { field: 'user.id' }, from: 9_000, size: 1_001 });
    expect(window.status).toBe(400);
    const big = await search('one', { collapse: { field: 'user.id' }, size: 10_000 });
    expect(ids(big).length).toBe(10);
  });
});

describe('collapse: inner_hits', () => {
  it('expands each group with its own search, by definition name', async () => {
    const res = await search('small', {
      collapse: { field: 'user.id', inner_hits: { name: 'most_liked', size: 2, sort: [{ likes: 'desc' }], _source: ['likes'] } },
      sort: [{ likes: 'desc' }], _source: false,
    });
    expect(res.status).toBe(200);
    const inner = (hits: unknown[], total: number) => ({ most_liked: { hits: { total: { value: total, relation: 'eq' }, max_score: null, hits } } });
    expect(res.body.hits.hits).toEqual([
      {
        _index: 'small', _id: '2', _score: null, fields: { 'user.id': ['kimchy'] }, sort: [9],
        inner_hits: inner([
          { _index: 'small', _id: '2', _score: null, _source: { likes: 9 }, sort: [9] },
          { _index: 'small', _id: '1', _score: null, _source: { likes: 5 }, sort: [5] },
        ], 2),
      },
      {
        _index: 'small', _id: '3', _score: null, fields: { 'user.id': ['elkbee'] }, sort: [7],
        inner_hits: inner([{ _index: 'small', _id: '3', _score: null, _source: { likes: 7 }, sort: [7] }], 1),
      },
      {
        // The group of documents without a value: `must_not exists`.
        _index: 'small', _id: '5', _score: null, fields: { 'user.id': [null] }, sort: [3],
        inner_hits: inner([
          { _index: 'small', _id: '5', _score: null, _source: { likes: 3 }, sort: [3] },
          { _index: 'small', _id: '4', _score: null, _source: { likes: 1 }, sort: [1] },
        ], 2),
      },
    ]);
  });

  it('scores group hits with the request query, filtered by post_filter; several definitions, from and size', async () => {
    const query = { match: { message: 'coffee' } };
    const plain = await search('small', { query });
    const score = (id: string) => plain.body.hits.hits.find((h: { _id: string }) => h._id === id)._score;
    const res = await search('small', {
      query, post_filter: { range: { likes: { gte: 5 } } },
      collapse: { field: 'user.id', inner_hits: [{ name: 'best', size: 1, _source: false }, { name: 'rest', from: 1, version: true }] },
    });
    expect(ids(res)).toEqual(['2']);
    const { best, rest } = res.body.hits.hits[0].inner_hits;
    expect(best.hits).toEqual({ total: { value: 2, relation: 'eq' }, max_score: score('2'), hits: [{ _index: 'small', _id: '2', _score: score('2') }] });
    expect(rest.hits.hits).toEqual([{ _index: 'small', _id: '1', _version: 1, _score: score('1'), _source: SMALL[0][1] }]);
    // A later definition of the same name replaces an earlier one.
    const twice = await search('small', { collapse: { field: 'user.id', inner_hits: [{ name: 'a', size: 0 }, { name: 'a', size: 1 }] }, size: 1, sort: [{ likes: 'desc' }] });
    expect(Object.keys(twice.body.hits.hits[0].inner_hits)).toEqual(['a']);
    expect(twice.body.hits.hits[0].inner_hits.a.hits.hits.length).toBe(1);
  });

  it('gives the same expansions on 1, 3 and 5 shards, on numeric fields too, and totals as integers when asked', async () => {
    const inner_hits = [{ name: 'top', size: 4 }, { name: 'cheap', size: 3, sort: [{ price: 'asc' }, { likes: 'desc' }] }];
    await sameOnEveryShardCount({ query: { match: { message: 'coffee tea' } }, collapse: { field: 'user.id', inner_hits, max_concurrent_group_searches: 2 }, size: 20 });
    await sameOnEveryShardCount({ collapse: { field: 'likes', inner_hits }, sort: ['likes'], size: 5, from: 2 });
    const asInt = await search('three', { collapse: { field: 'user.id', inner_hits: { name: 'a' } }, size: 1 }, '?rest_total_hits_as_int=true');
    expect(typeof asInt.body.hits.hits[0].inner_hits.a.hits.total).toBe('number');
  });
});
