/**
 * Named queries (query-dsl/query-dsl-bool-query.html#named-queries, ES 8 MatchedQueriesPhase):
 * every clause's `_name`, anywhere in `query` or `post_filter` (a `knn` section's and query's too),
 * is reported in each hit's `matched_queries` when the clause matches the hit, in the order ES's
 * hash map of names iterates them; `?include_named_queries_score=true` renders an object of name →
 * the clause's own score. A hit no named clause matches has no `matched_queries`. The same with 1
 * shard and 3, in `_msearch`, scroll, `top_hits` and collapse `inner_hits`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError, seed } from './es.js';

let t: TestApp;

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'quick brown fox', tag: 'a', n: 1, v: [0, 0] }],
  ['2', { title: 'lazy dog', tag: 'b', n: 2, v: [1, 0] }],
  ['3', { title: 'quick dog', tag: 'a', n: 3, v: [0, 1] }],
  ['4', { title: 'slow turtle', tag: 'c', n: 4, v: [2, 2] }],
  ['5', { title: 'brown dog barks', tag: 'b', n: 5, v: [3, 0] }],
];
const MAPPINGS = {
  properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' }, v: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' } },
};

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['nq1', 1], ['nq3', 3]] as const) {
    expect((await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, index, DOCS);
  }
});
afterAll(async () => t.close());

type Hit = { _index: string; _id: string; _score: number | null; matched_queries?: string[] | Record<string, number> };

/** The search on the 1-shard and the 3-shard index; the hits (but `_index`) must be identical. Returns the 1-shard answer. */
async function both(body: unknown, params = ''): Promise<TestResponse> {
  const one = await t.request('POST', `/nq1/_search${params}`, body);
  const three = await t.request('POST', `/nq3/_search${params}`, body);
  expect(one.status, JSON.stringify(one.body).slice(0, 300)).toBe(200);
  expect(three.status).toBe(200);
  // Inner hits name their index too.
  const strip = (r: TestResponse) => JSON.parse(JSON.stringify(r.body.hits.hits).replaceAll('"_index":"nq3"', '"_index":"nq1"'));
  expect(strip(three)).toEqual(strip(one));
  return one;
}

/** Each hit's `matched_queries` by id; null where the hit has no such member. */
function matched(res: TestResponse): Record<string, unknown> {
  return Object.fromEntries(res.body.hits.hits.map((h: Hit) => [h._id, 'matched_queries' in h ? h.matched_queries : null]));
}

/** The `_score` of every document the clause alone matches, by id. */
async function alone(clause: unknown, index = 'nq1'): Promise<Record<string, number>> {
  const res = await t.request('POST', `/${index}/_search`, { query: clause, size: 100 });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.hits.hits.map((h: Hit) => [h._id, h._score]));
}

// Names whose Java String hashes fall in distinct buckets of a 16-bucket HashMap, listed in
// bucket order: decayed 0, never 1, title_dog 2, constant 3, title_quick 4, dm 9, tag_a 12, tag_b 13.
const TITLE_QUICK = { match: { title: { query: 'quick', _name: 'title_quick' } } };
const TITLE_DOG = { match: { title: { query: 'dog', _name: 'title_dog' } } };
const TAG_A = { term: { tag: { value: 'a', _name: 'tag_a' } } };
const TAG_B = { term: { tag: { value: 'b', _name: 'tag_b' } } };
const CONSTANT = { constant_score: { _name: 'constant', boost: 3, filter: TAG_B } };
const DM = { dis_max: { _name: 'dm', queries: [TITLE_QUICK, CONSTANT] } };
const DECAYED = { function_score: { _name: 'decayed', query: TITLE_DOG, functions: [{ filter: TAG_A, weight: 2 }] } };
const NEVER = { term: { tag: { value: 'c', _name: 'never' } } };
const NESTED = { bool: { should: [DM, DECAYED], must_not: [NEVER] } };
const NESTED_CLAUSES: Record<string, unknown> = {
  title_quick: TITLE_QUICK, title_dog: TITLE_DOG, tag_a: TAG_A, tag_b: TAG_B, constant: CONSTANT, dm: DM, decayed: DECAYED, never: NEVER,
};

describe('matched_queries', () => {
  it('ES\'s REST test: names of matching should clauses, without scores and with them', async () => {
    for (const [index, shards] of [['test_1', 1], ['test_3', 3]] as const) {
      expect((await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards } })).status).toBe(200);
      await seed(t, index, [['1', { field: 1 }], ['2', { field: [1, 2] }]]);
      const query = {
        bool: { should: [{ match: { field: { query: 1, _name: 'match_field_1' } } }, { match: { field: { query: 2, _name: 'match_field_2', boost: 10 } } }] },
      };
      const res = await t.request('POST', `/${index}/_search`, { query });
      expect(res.status).toBe(200);
      expect(res.body.hits.total.value).toBe(2);
      expect(res.body.hits.hits).toEqual([
        { _index: index, _id: '2', _score: 11, _source: { field: [1, 2] }, matched_queries: ['match_field_1', 'match_field_2'] },
        { _index: index, _id: '1', _score: 1, _source: { field: 1 }, matched_queries: ['match_field_1'] },
      ]);
      // The member follows `_source` (ES SearchHit.toXContent: … sort, matched_queries, _explanation).
      expect(Object.keys(res.body.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source', 'matched_queries']);
      const scored = await t.request('POST', `/${index}/_search?include_named_queries_score=true`, { query });
      expect(scored.status).toBe(200);
      expect(scored.body.hits.hits.map((h: Hit) => h.matched_queries)).toEqual([{ match_field_1: 1, match_field_2: 10 }, { match_field_1: 1 }]);
      expect(scored.text).toContain('"matched_queries":{"match_field_1":1,"match_field_2":10}');
    }
  });

  it('names in bool must, should and filter; a hit no named clause matches has no member', async () => {
    const res = await both({
      query: {
        bool: {
          must: [{ match_all: {} }],
          should: [{ match: { title: { query: 'quick', _name: 'title_quick' } } }, { match: { title: { query: 'dog', _name: 'title_dog' } } }],
          filter: [{ range: { n: { lte: 4, _name: 'in_filter' } } }],
        },
      },
    });
    expect(matched(res)).toEqual({
      1: ['title_quick', 'in_filter'], 2: ['title_dog', 'in_filter'], 3: ['title_dog', 'title_quick', 'in_filter'], 4: ['in_filter'],
    });
    const none = await both({ query: { bool: { must: [{ match_all: {} }], should: [TAG_A] } } });
    for (const h of none.body.hits.hits as Hit[]) {
      if (h._id === '1' || h._id === '3') expect(h.matched_queries).toEqual(['tag_a']);
      else expect(h).not.toHaveProperty('matched_queries');
    }
    // No named clause at all: no member anywhere.
    const plain = await both({ query: { match: { title: 'dog' } } });
    expect(plain.text).not.toContain('matched_queries');
  });

  it('names nested in compound queries, in ES\'s order; a must_not clause never matches a hit', async () => {
    const res = await both({ query: NESTED });
    expect(matched(res)).toEqual({
      1: ['title_quick', 'dm', 'tag_a'],
      2: ['decayed', 'title_dog', 'constant', 'dm', 'tag_b'],
      3: ['decayed', 'title_dog', 'title_quick', 'dm', 'tag_a'],
      5: ['decayed', 'title_dog', 'constant', 'dm', 'tag_b'],
    });
  });

  it('include_named_queries_score: each name\'s score is its clause\'s own, as a query alone (boost included, filter context too)', async () => {
    const query = { bool: { must: [NESTED], filter: [{ match: { title: { query: 'brown', _name: 'in_filter', boost: 2 } } }] } };
    const clauses = { ...NESTED_CLAUSES, in_filter: query.bool.filter[0] };
    for (const index of ['nq1', 'nq3']) {
      const res = await t.request('POST', `/${index}/_search?include_named_queries_score=true`, { query });
      expect(res.status).toBe(200);
      expect(res.body.hits.hits.map((h: Hit) => h._id).sort()).toEqual(['1', '5']);
      const expected = new Map<string, Record<string, number>>();
      for (const [name, clause] of Object.entries(clauses)) {
        for (const [id, score] of Object.entries(await alone(clause, index))) {
          if (!expected.has(id)) expected.set(id, {});
          expected.get(id)![name] = score;
        }
      }
      for (const h of res.body.hits.hits as Hit[]) {
        // The same names as without scores, in the same order, each with its clause's own score.
        expect(h.matched_queries).toEqual(expected.get(h._id));
        const names = await t.request('POST', `/${index}/_search`, { query });
        expect(Object.keys(h.matched_queries!)).toEqual(names.body.hits.hits.find((x: Hit) => x._id === h._id).matched_queries);
      }
      // The filter clause scores nothing in the hit's _score, yet reports its own (boosted) score.
      const brown = await alone({ match: { title: 'brown' } }, index);
      const hit5 = res.body.hits.hits.find((h: Hit) => h._id === '5');
      // Rendered scores are float32s' shortest digits: read back as float32s they are exact.
      expect(Math.fround((hit5.matched_queries as Record<string, number>).in_filter)).toBe(Math.fround(2 * brown['5']));
      expect((hit5.matched_queries as Record<string, number>).constant).toBe(3);
    }
    const bad = await t.request('POST', '/nq1/_search?include_named_queries_score=maybe', { query });
    expectEsError(bad, 400, 'illegal_argument_exception', 'Failed to parse value [maybe] only [true] or [false] are allowed.');
  });

  it('post_filter names are reported, evaluated on each hit', async () => {
    const res = await both({ query: { match: { title: { query: 'dog', _name: 'title_dog' } } }, post_filter: { bool: { _name: 'pf', should: [TAG_A, { term: { n: { value: 5, _name: 'n5' } } }] } } });
    expect(matched(res)).toEqual({ 3: ['title_dog', 'pf', 'tag_a'], 5: ['title_dog', 'pf', 'n5'] });
  });

  it('a name given twice reports the clause registered last (a parent after its children, post_filter after query)', async () => {
    const res = await both({
      query: { bool: { _name: 'x', should: [{ term: { tag: { value: 'a', _name: 'x' } } }, { term: { tag: 'b' } }] } },
    }, '?include_named_queries_score=true');
    const scoresOfBool = await alone({ bool: { should: [{ term: { tag: 'a' } }, { term: { tag: 'b' } }] } });
    for (const h of res.body.hits.hits as Hit[]) expect(h.matched_queries).toEqual({ x: scoresOfBool[h._id] });
    // The query's `x` (tag a) does not match doc 2; the post filter's `x`, which replaced it, does.
    const post = await both({ query: { bool: { should: [{ match_all: {} }, { term: { tag: { value: 'a', _name: 'x' } } }] } }, post_filter: { term: { n: { value: 2, _name: 'x' } } } });
    expect(matched(post)).toEqual({ 2: ['x'] });
  });

  it('sorted searches, paging and explain show the same names', async () => {
    const body = { query: NESTED, sort: [{ n: 'desc' }], from: 1, size: 2 };
    const res = await both(body);
    expect(matched(res)).toEqual({ 3: ['decayed', 'title_dog', 'title_quick', 'dm', 'tag_a'], 2: ['decayed', 'title_dog', 'constant', 'dm', 'tag_b'] });
    expect(Object.keys(res.body.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source', 'sort', 'matched_queries']);
    const explained = await t.request('POST', '/nq3/_search', { query: NESTED, explain: true, size: 1 });
    expect(Object.keys(explained.body.hits.hits[0]).slice(-2)).toEqual(['matched_queries', '_explanation']);
  });

  it('kNN: a top-level section\'s and a knn query\'s `_name` report the kNN score × boost', async () => {
    // The 2 nearest to [0, 0] (l2_norm: 1 / (1 + d²)): doc 1 (1) and doc 2 (0.5, before doc 3 by write order).
    const res = await both({
      query: TITLE_DOG, knn: { field: 'v', query_vector: [0, 0], k: 2, num_candidates: 10, boost: 2, _name: 'kn' },
    }, '?include_named_queries_score=true');
    const dog = await alone(TITLE_DOG);
    expect(matched(res)).toEqual({
      1: { kn: 2 }, 2: { title_dog: dog['2'], kn: 1 }, 3: { title_dog: dog['3'] }, 5: { title_dog: dog['5'] },
    });
    const query = await both({ query: { bool: { should: [TITLE_DOG, { knn: { field: 'v', query_vector: [0, 0], k: 2, _name: 'kq' } }] } } });
    expect(matched(query)).toEqual({ 1: ['kq'], 2: ['title_dog', 'kq'], 3: ['title_dog'], 5: ['title_dog'] });
  });
});

describe('matched_queries beyond _search', () => {
  it('_msearch items show names as _search does; the score parameter is not one of _msearch\'s (as in ES)', async () => {
    const body = { query: NESTED };
    const ndjson = [{ index: 'nq3' }, body, { index: 'nq1' }, { query: TAG_A }].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const multi = await t.request('POST', '/_msearch', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(multi.status).toBe(200);
    const direct = await both(body);
    expect(multi.body.responses[0].hits.hits.map(({ _index, ...h }: Hit) => h)).toEqual(direct.body.hits.hits.map(({ _index, ...h }: Hit) => h));
    expect(multi.body.responses[1].hits.hits.map((h: Hit) => [h._id, h.matched_queries])).toEqual([['1', ['tag_a']], ['3', ['tag_a']]]);
    const refused = await t.request('POST', '/_msearch?include_named_queries_score=true', ndjson, { 'content-type': 'application/x-ndjson' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.type).toBe('illegal_argument_exception');
    expect(refused.body.error.reason).toMatch(/^request \[\/_msearch\] contains unrecognized parameter: \[include_named_queries_score\]/);
  });

  it('scroll pages show names; scores only on the page whose request asked for them', async () => {
    const first = await t.request('POST', '/nq3/_search?scroll=1m&include_named_queries_score=true', { query: NESTED, size: 2, sort: ['n'] });
    expect(first.status).toBe(200);
    const dm = await alone(DM, 'nq3');
    expect(first.body.hits.hits.map((h: Hit) => [h._id, Object.keys(h.matched_queries!)])).toEqual([['1', ['title_quick', 'dm', 'tag_a']], ['2', ['decayed', 'title_dog', 'constant', 'dm', 'tag_b']]]);
    expect((first.body.hits.hits[0].matched_queries as Record<string, number>).dm).toBe(dm['1']);
    const next = await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: first.body._scroll_id });
    expect(next.status).toBe(200);
    expect(next.body.hits.hits.map((h: Hit) => [h._id, h.matched_queries])).toEqual([['3', ['decayed', 'title_dog', 'title_quick', 'dm', 'tag_a']], ['5', ['decayed', 'title_dog', 'constant', 'dm', 'tag_b']]]);
    await t.request('DELETE', '/_search/scroll', { scroll_id: first.body._scroll_id });
  });

  it('a point in time\'s searches show names, with scores when asked', async () => {
    const pit = (await t.request('POST', '/nq3/_pit?keep_alive=1m')).body.id;
    const direct = await t.request('POST', '/nq3/_search?include_named_queries_score=true', { query: NESTED, size: 10 });
    const res = await t.request('POST', '/_search?include_named_queries_score=true', { query: NESTED, size: 10, pit: { id: pit } });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits.map((h: Hit) => [h._id, h.matched_queries])).toEqual(direct.body.hits.hits.map((h: Hit) => [h._id, h.matched_queries]));
    await t.request('DELETE', '/_pit', { id: pit });
  });

  it('top_hits hits carry the search\'s names, as its hits do', async () => {
    const body = { query: NESTED, size: 0, aggs: { by_tag: { terms: { field: 'tag' }, aggs: { top: { top_hits: { size: 2, sort: [{ n: 'asc' }] } } } } } };
    for (const index of ['nq1', 'nq3']) {
      const res = await t.request('POST', `/${index}/_search`, body);
      expect(res.status).toBe(200);
      const tops = Object.fromEntries(res.body.aggregations.by_tag.buckets.map((b: { key: string; top: { hits: { hits: Hit[] } } }) => [b.key, b.top.hits.hits.map((h) => [h._id, h.matched_queries])]));
      expect(tops).toEqual({
        a: [['1', ['title_quick', 'dm', 'tag_a']], ['3', ['decayed', 'title_dog', 'title_quick', 'dm', 'tag_a']]],
        b: [['2', ['decayed', 'title_dog', 'constant', 'dm', 'tag_b']], ['5', ['decayed', 'title_dog', 'constant', 'dm', 'tag_b']]],
      });
    }
  });

  it('collapse inner_hits carry names too (their group searches run the same query)', async () => {
    const res = await both({ query: NESTED, collapse: { field: 'tag', inner_hits: { name: 'g', size: 2, sort: [{ n: 'asc' }] } } }, '?include_named_queries_score=true');
    for (const h of res.body.hits.hits as Array<Hit & { inner_hits: { g: { hits: { hits: Hit[] } } } }>) {
      expect(Object.keys(h.matched_queries!).length).toBeGreaterThan(0);
      for (const inner of h.inner_hits.g.hits.hits) expect(typeof (inner.matched_queries as Record<string, number>).dm).toBe('number');
    }
  });
});

describe('matched_queries: hostile input', () => {
  it('many named clauses (up to the clause limit) and long names', async () => {
    const long = 'n'.repeat(10_000);
    const should = Array.from({ length: 1000 }, (_, i) => ({ term: { tag: { value: i % 2 === 0 ? 'a' : 'b', _name: `c${i}` } } }));
    const res = await both({ query: { bool: { should: [...should, { match: { title: { query: 'quick', _name: long } } }] } }, size: 5 });
    const got = matched(res) as Record<string, string[]>;
    expect(got['1'].length).toBe(501);
    expect(got['1']).toContain(long);
    expect(got['2'].length).toBe(500);
    expect(got['2']).not.toContain(long);
    expect(got['1'].filter((n) => n !== long).every((n) => Number(n.slice(1)) % 2 === 0)).toBe(true);
  });
});

describe('matched_queries: deep nesting', () => {
  it('named bools nested as deep as queries may (max_nested_depth), each around 1,000 named leaves, answer promptly', async () => {
    // Each level is planned again as a query of its own: at most max_nested_depth × the clause limit leaves.
    const leaves = Array.from({ length: 1000 }, (_, i) => ({ term: { n: { value: i, _name: `leaf${i}` } } }));
    let q: unknown = { bool: { _name: 'level0', should: [...leaves, { term: { tag: { value: 'a', _name: 'leaf' } } }] } };
    for (let i = 1; i < 29; i++) q = { bool: { _name: `level${i}`, must: [q] } };
    const started = performance.now();
    const res = await both({ query: q });
    expect(performance.now() - started).toBeLessThan(5000);
    // Doc 1 (n 1, tag a) and doc 3 (n 3, tag a): every level, its `leafN` and `leaf`; docs 2, 4 and 5 their `leafN`.
    expect(res.body.hits.hits.map((h: Hit) => [h._id, (h.matched_queries as string[]).length]).sort()).toEqual([['1', 31], ['2', 30], ['3', 31], ['4', 30], ['5', 30]]);
  });
});

describe('matched_queries: the clause limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ config: { maxClauseCount: 16 } });
    expect((await small.request('PUT', '/few', { mappings: MAPPINGS })).status).toBe(200);
    await seed(small, 'few', DOCS);
  });
  afterAll(async () => small.close());

  /** `depth` bools, each named, nested in one another around one named term: a single clause in all. */
  const nested = (depth: number): unknown => {
    let q: unknown = { term: { tag: { value: 'a', _name: 'leaf' } } };
    for (let i = 0; i < depth; i++) q = { bool: { _name: `b${i}`, must: [q] } };
    return q;
  };

  it('as many names as max_clause_count are matched; one more fails as too many clauses do', async () => {
    const ok = await small.request('POST', '/few/_search', { query: nested(15) });
    expect(ok.status).toBe(200);
    expect(ok.body.hits.hits.map((h: Hit) => (h.matched_queries as string[]).length)).toEqual([16, 16]);
    const res = await small.request('POST', '/few/_search', { query: nested(16) });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.failed_shards[0].reason.caused_by).toEqual({
      type: 'too_many_nested_clauses', reason: 'Query contains too many nested clauses; maxClauseCount is set to 16',
    });
  });
});
