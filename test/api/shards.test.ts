/**
 * Multi-shard indices — `index.number_of_shards`, document routing and search across shards:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/index-modules.html#index-number-of-shards
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/mapping-routing-field.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-search.html#search-type
 * A 3-shard index must answer exactly like a 1-shard index holding the same documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { ids } from './es.js';

let t: TestApp;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
/** Deterministic documents with varied lengths and term frequencies, so BM25 statistics matter. */
const DOCS: Array<[string, Record<string, unknown>]> = Array.from({ length: 90 }, (_, i) => {
  const words: string[] = [];
  for (let w = 0; w < 2 + (i % 7); w++) words.push(WORDS[(i * 7 + w * 5 + (w * w) % 3) % WORDS.length]);
  return [`doc-${i}`, { text: words.join(' '), title: WORDS[i % WORDS.length], group: `g${i % 4}`, n: (i * 37) % 101, rank: i % 5 === 0 ? null : i % 9 }];
});

/** ES Murmur3HashFunction.hash(String): murmur3_x86_32 (seed 0) over the UTF-16LE code units. */
function esMurmur3(s: string): number {
  const bytes = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    bytes[2 * i] = s.charCodeAt(i) & 0xff;
    bytes[2 * i + 1] = s.charCodeAt(i) >>> 8;
  }
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = 0;
  const tail = bytes.length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const rest = bytes.length & 3;
  if (rest >= 3) k ^= bytes[tail + 2] << 16;
  if (rest >= 2) k ^= bytes[tail + 1] << 8;
  if (rest >= 1) {
    k ^= bytes[tail];
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** ES OperationRouting: floorMod(hash, routing_num_shards) / (routing_num_shards / shards); 3 shards → 768 routing shards. */
function esShard(routing: string, shards = 3, routingNumShards = 768): number {
  const mod = ((esMurmur3(routing) % routingNumShards) + routingNumShards) % routingNumShards;
  return Math.floor(mod / (routingNumShards / shards));
}

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  const mappings = { properties: { text: { type: 'text' }, title: { type: 'text' }, group: { type: 'keyword' }, n: { type: 'long' }, rank: { type: 'long' } } };
  expect((await t.request('PUT', '/sharded', { settings: { number_of_shards: 3 }, mappings })).status).toBe(200);
  expect((await t.request('PUT', '/single', { settings: { number_of_shards: 1 }, mappings })).status).toBe(200);
  for (const index of ['sharded', 'single']) {
    const lines: unknown[] = [];
    for (const [id, doc] of DOCS) lines.push({ index: { _id: id } }, doc);
    const res = await t.bulk(`/${index}/_bulk`, lines, '?refresh=true');
    expect(res.body.errors).toBe(false);
  }
});
afterAll(async () => t.close());

/** The shard a document lives on, read from the `shard` of the 409 a create on it answers. */
async function shardOf(index: string, id: string): Promise<number> {
  const res = await t.request('PUT', `/${index}/_create/${encodeURIComponent(id)}`, { probe: true });
  expect(res.status).toBe(409);
  return Number(res.body.error.shard);
}

/** Hits without `_index`, so results from the two indices compare equal. */
function comparable(res: TestResponse) {
  expect(res.status).toBe(200);
  const { hits } = res.body;
  return {
    total: hits.total,
    max_score: hits.max_score,
    hits: hits.hits.map((h: any) => ({ _id: h._id, _score: h._score, _source: h._source, sort: h.sort })),
  };
}

async function expectSameResults(body: Record<string, unknown>, query = '') {
  const sharded = await t.request('POST', `/sharded/_search${query}`, body);
  const single = await t.request('POST', `/single/_search${query}`, body);
  expect(sharded.body._shards).toEqual({ total: 3, successful: 3, skipped: 0, failed: 0 });
  expect(single.body._shards).toEqual({ total: 1, successful: 1, skipped: 0, failed: 0 });
  const a = comparable(sharded);
  const b = comparable(single);
  expect(a.total).toEqual(b.total);
  expect(a.hits.map((h: any) => h._id)).toEqual(b.hits.map((h: any) => h._id));
  expect(a.hits).toEqual(b.hits);
  expect(a.max_score).toEqual(b.max_score);
  return a;
}

describe('an index with number_of_shards 3', () => {
  it('reports three shards in its settings, refresh and search responses', async () => {
    expect((await t.request('GET', '/sharded/_settings')).body.sharded.settings.index.number_of_shards).toBe('3');
    expect((await t.request('POST', '/sharded/_refresh')).body).toEqual({ _shards: { total: 6, successful: 3, failed: 0 } });
    expect((await t.request('GET', '/sharded/_count')).body).toEqual({ count: 90, _shards: { total: 3, successful: 3, skipped: 0, failed: 0 } });
  });

  it('routes documents with ES\'s murmur3 hash of the _id (checked against ES\'s own test vectors)', async () => {
    expect(esMurmur3('hell')).toBe(0x5a0cb7c3 | 0);
    expect(esMurmur3('hello')).toBe(0xd7c31989 | 0);
    expect(esMurmur3('The quick brown fox jumps over the lazy dog')).toBe(0xe07db09c | 0);
    for (const id of ['doc-0', 'doc-1', 'doc-2', 'doc-17', 'doc-42', 'doc-89']) expect(await shardOf('sharded', id)).toBe(esShard(id));
  });

  it('spreads the documents over all three shards', async () => {
    const counts = [0, 0, 0];
    for (const [id] of DOCS.slice(0, 30)) counts[await shardOf('sharded', id)]++;
    expect(counts.every((c) => c > 0)).toBe(true);
    expect(counts.reduce((a, b) => a + b)).toBe(30);
  });

  it('a 1-shard index keeps every document on shard 0', async () => {
    for (const id of ['doc-0', 'doc-1', 'doc-2']) expect(await shardOf('single', id)).toBe(0);
  });

  it('gets documents from whichever shard holds them', async () => {
    for (const id of ['doc-3', 'doc-4', 'doc-5', 'doc-6']) {
      const res = await t.request('GET', `/sharded/_doc/${id}`);
      expect(res.body).toMatchObject({ _index: 'sharded', _id: id, found: true, _source: DOCS.find(([i]) => i === id)![1] });
    }
  });

  it('indexes, updates and deletes on every shard in real time', async () => {
    await t.request('PUT', '/sharded-rw', { settings: { number_of_shards: 3 } });
    // Two ids per shard.
    const moving: string[] = [];
    for (let shard = 0; shard < 3; shard++) {
      moving.push(...Array.from({ length: 50 }, (_, i) => `m-${i}`).filter((id) => esShard(id) === shard).slice(0, 2));
    }
    expect(moving).toHaveLength(6);
    for (const id of moving) {
      expect((await t.request('PUT', `/sharded-rw/_doc/${id}`, { v: 1 })).status).toBe(201);
      expect((await t.request('POST', `/sharded-rw/_update/${id}`, { doc: { v: 2 } })).body.result).toBe('updated');
      expect((await t.request('GET', `/sharded-rw/_doc/${id}`)).body._source).toEqual({ v: 2 });
    }
    await t.request('POST', '/sharded-rw/_refresh');
    expect((await t.request('GET', '/sharded-rw/_count')).body.count).toBe(6);
    for (const id of moving) expect((await t.request('DELETE', `/sharded-rw/_doc/${id}`)).body.result).toBe('deleted');
    for (const id of moving) expect((await t.request('GET', `/sharded-rw/_doc/${id}`)).status).toBe(404);
  });

  it('?routing places a document by the routing value, and the same routing finds it', async () => {
    const put = await t.request('PUT', '/sharded-rw/_doc/routed?routing=user-7&refresh=true', { v: 1 });
    expect(put.status).toBe(201);
    const get = await t.request('GET', '/sharded-rw/_doc/routed?routing=user-7');
    expect(get.body.found).toBe(true);
    const conflict = await t.request('PUT', '/sharded-rw/_create/routed?routing=user-7', { v: 2 });
    expect(conflict.body.error.shard).toBe(String(esShard('user-7')));
    const search = await t.request('POST', '/sharded-rw/_search', { query: { ids: { values: ['routed'] } } });
    expect(ids(search)).toEqual(['routed']);
  });
});

describe('search on 3 shards answers exactly like 1 shard', () => {
  it('match_all: same total, ids and scores', async () => {
    const res = await expectSameResults({ size: 100 });
    expect(res.total).toEqual({ value: 90, relation: 'eq' });
  });

  it('match: same BM25 scores and ranking', async () => {
    const res = await expectSameResults({ query: { match: { text: 'alpha delta golf' } }, size: 50 });
    expect(res.hits.length).toBeGreaterThan(10);
  });

  it('match with operator and, and a single term', async () => {
    await expectSameResults({ query: { match: { text: { query: 'bravo echo', operator: 'and' } } }, size: 50 });
    await expectSameResults({ query: { match: { title: 'kilo' } }, size: 50 });
  });

  it('multi_match best_fields with a boost and tie_breaker, and most_fields', async () => {
    await expectSameResults({ query: { multi_match: { query: 'alpha hotel', fields: ['text', 'title^2'], tie_breaker: 0.3 } }, size: 50 });
    await expectSameResults({ query: { multi_match: { query: 'alpha hotel', fields: ['text', 'title'], type: 'most_fields' } }, size: 50 });
  });

  it('match_phrase', async () => {
    await expectSameResults({ query: { match_phrase: { text: DOCS[10][1].text as string } }, size: 50 });
  });

  it('query_string with operators and fields', async () => {
    await expectSameResults({ query: { query_string: { query: '(alpha OR charlie) AND NOT group:g1', fields: ['text', 'title'] } }, size: 50 });
  });

  it('bool with must, should, filter and must_not', async () => {
    await expectSameResults({
      query: {
        bool: {
          must: { match: { text: 'india' } },
          should: [{ match: { title: 'india' } }, { range: { n: { gte: 50 } } }],
          filter: { terms: { group: ['g0', 'g2', 'g3'] } },
          must_not: { term: { rank: 3 } },
        },
      },
      size: 50,
    });
  });

  it('pagination with from and size returns the same page', async () => {
    for (const from of [0, 7, 20, 85]) await expectSameResults({ query: { match: { text: 'alpha bravo charlie' } }, from, size: 7 });
  });

  it('sorting by a numeric field, with missing values and a tie-breaking second key', async () => {
    await expectSameResults({ sort: [{ rank: { order: 'desc' } }, { n: 'asc' }], size: 100 });
    await expectSameResults({ sort: [{ rank: { order: 'asc', missing: '_first' } }, { n: 'desc' }], from: 10, size: 20 });
  });

  it('sorting by a keyword field then _score', async () => {
    await expectSameResults({ query: { match: { text: 'lima' } }, sort: [{ group: 'asc' }, '_score'], track_scores: true, size: 100 });
  });

  it('min_score filters the same hits and total', async () => {
    const all = comparable(await t.request('POST', '/single/_search', { query: { match: { text: 'juliet kilo' } }, size: 100 }));
    const median = all.hits[Math.floor(all.hits.length / 2)]._score;
    await expectSameResults({ query: { match: { text: 'juliet kilo' } }, min_score: median, size: 100 });
  });

  it('track_total_hits thresholds give the same total', async () => {
    const res = await expectSameResults({ query: { match_all: {} }, track_total_hits: 10, size: 0 });
    expect(res.total).toEqual({ value: 10, relation: 'gte' });
  });

  it('search_type=dfs_query_then_fetch gives the same results too', async () => {
    await expectSameResults({ query: { match: { text: 'alpha delta golf' } }, size: 50 }, '?search_type=dfs_query_then_fetch');
  });

  it('_count agrees', async () => {
    for (const query of [{ match: { text: 'foxtrot' } }, { range: { n: { lt: 30 } } }, { exists: { field: 'rank' } }]) {
      const a = (await t.request('POST', '/sharded/_count', { query })).body.count;
      const b = (await t.request('POST', '/single/_count', { query })).body.count;
      expect(a).toBe(b);
    }
  });

  it('searching both indices together returns every hit once per index', async () => {
    const res = await t.request('POST', '/sharded,single/_search', { query: { term: { title: 'alpha' } }, size: 100 });
    expect(res.body._shards.total).toBe(4);
    const single = ids(await t.request('POST', '/single/_search', { query: { term: { title: 'alpha' } }, size: 100 }));
    expect(res.body.hits.total.value).toBe(2 * single.length);
  });
});
