/**
 * Search timeout — the `timeout` body member and URL parameter, `search.default_search_timeout`
 * (server flag `--search-timeout`) and `allow_partial_search_results`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-search.html#search-search-api-query-params
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-your-data.html#search-timeout
 * A search that runs out of time answers 200 with the hits collected so far and `"timed_out": true`.
 *
 * Shards see one absolute wall-clock deadline set by the coordinator. To make a deadline that has
 * already passed when the shards start, deterministically, the tests move the coordinator's clock
 * (this process's Date.now) an hour back for the request: the deadline it sets is then an hour in
 * the past for the worker threads, whose clock is untouched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError, ids } from './es.js';

let t: TestApp;
let withDefault: TestApp;

const DOCS = Array.from({ length: 60 }, (_, i) => ({ _id: `d${i}`, title: i % 2 === 0 ? 'quick fox' : 'lazy dog', n: i }));

async function seedIndex(app: TestApp, index: string, shards: number): Promise<void> {
  expect((await app.request('PUT', `/${index}`, { settings: { number_of_shards: shards } })).status).toBe(200);
  const lines: unknown[] = [];
  for (const { _id, ...doc } of DOCS) lines.push({ index: { _id } }, doc);
  const res = await app.bulk(`/${index}/_bulk`, lines, '?refresh=true');
  expect(res.body.errors).toBe(false);
}

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seedIndex(t, 'one', 1);
  await seedIndex(t, 'three', 3);
  withDefault = await createTestApp({ config: { searchTimeoutMs: 60_000 } });
  await seedIndex(withDefault, 'one', 1);
});
afterAll(async () => {
  await t?.close();
  await withDefault?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `request` with the coordinator's clock an hour behind, so any deadline it sets has passed for the workers. */
async function withExpiredDeadlines(request: () => Promise<TestResponse>): Promise<TestResponse> {
  const now = Date.now.bind(Date);
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
  try {
    return await request();
  } finally {
    spy.mockRestore();
  }
}

const QUERY = { query: { match: { title: 'fox' } } };

describe('timeout in the search body and URL', () => {
  it('is false in every response without a timeout', async () => {
    const res = await t.request('POST', '/three/_search', QUERY);
    expect(res.status).toBe(200);
    expect(res.body.timed_out).toBe(false);
    expect(res.body.hits.total).toEqual({ value: 30, relation: 'eq' });
  });

  it('does not time out a search that finishes in time', async () => {
    for (const target of ['one', 'three']) {
      const plain = await t.request('POST', `/${target}/_search`, QUERY);
      const body = await t.request('POST', `/${target}/_search`, { ...QUERY, timeout: '1m' });
      const param = await t.request('POST', `/${target}/_search?timeout=30s`, QUERY);
      for (const res of [body, param]) {
        expect(res.status).toBe(200);
        expect(res.body.timed_out).toBe(false);
        expect(res.body.hits).toEqual(plain.body.hits);
      }
    }
  });

  it('answers 200 with timed_out true and the hits collected in time when the deadline passes', async () => {
    for (const target of ['one', 'three']) {
      const shards = target === 'one' ? 1 : 3;
      const res = await withExpiredDeadlines(() => t.request('POST', `/${target}/_search`, { ...QUERY, timeout: '10s' }));
      expect(res.status).toBe(200);
      // The deadline had passed before any segment was searched: nothing was collected.
      expect(res.body).toMatchObject({
        timed_out: true,
        _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
        hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
      });
    }
  });

  it('times out field-sorted and size-0 searches the same way', async () => {
    const sorted = await withExpiredDeadlines(() => t.request('POST', '/three/_search', { ...QUERY, sort: [{ n: 'asc' }], timeout: '5s' }));
    expect(sorted.status).toBe(200);
    expect(sorted.body.timed_out).toBe(true);
    expect(sorted.body.hits.hits).toEqual([]);
    const counting = await withExpiredDeadlines(() => t.request('POST', '/three/_search', { ...QUERY, size: 0, timeout: '5s' }));
    expect(counting.body.timed_out).toBe(true);
    expect(counting.body.hits.total).toEqual({ value: 0, relation: 'eq' });
  });

  it('takes the URL parameter over the body, as ES does', async () => {
    const none = await withExpiredDeadlines(() => t.request('POST', '/three/_search?timeout=-1', { ...QUERY, timeout: '5s' }));
    expect(none.body.timed_out).toBe(false);
    expect(none.body.hits.total.value).toBe(30);
    const param = await withExpiredDeadlines(() => t.request('GET', '/three/_search?timeout=5s&q=title:fox'));
    expect(param.body.timed_out).toBe(true);
  });

  it('rejects values that are not time values with illegal_argument_exception', async () => {
    const cases: Array<[unknown, string]> = [
      ['abc', 'failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized'],
      [1000, 'failed to parse setting [timeout] with value [1000] as a time value: unit is missing or unrecognized'],
      ['-5s', 'failed to parse setting [timeout] with value [-5s] as a time value: negative durations are not supported'],
      ['1.5s', 'failed to parse [1.5s], fractional time values are not supported'],
    ];
    for (const [value, reason] of cases) {
      expectEsError(await t.request('POST', '/one/_search', { ...QUERY, timeout: value }), 400, 'illegal_argument_exception', reason);
      expectEsError(await t.request('GET', `/one/_search?timeout=${encodeURIComponent(String(value))}`), 400, 'illegal_argument_exception', reason);
    }
  });

  it('accepts every ES time unit, 0 and -1', async () => {
    for (const value of ['1d', '2h', '3m', '4s', '500ms', '1000micros', '1000000nanos', '0', '-1']) {
      const res = await t.request('POST', '/one/_search', { ...QUERY, timeout: value });
      expect(res.status).toBe(200);
      expect(typeof res.body.timed_out).toBe('boolean');
    }
  });
});

describe('the server default search timeout (search.default_search_timeout)', () => {
  it('applies to searches without a timeout', async () => {
    const inTime = await withDefault.request('POST', '/one/_search', QUERY);
    expect(inTime.body.timed_out).toBe(false);
    expect(ids(inTime).length).toBe(10);
    const late = await withExpiredDeadlines(() => withDefault.request('POST', '/one/_search', QUERY));
    expect(late.status).toBe(200);
    expect(late.body.timed_out).toBe(true);
    expect(late.body.hits.hits).toEqual([]);
  });

  it('follows PUT /_cluster/settings while the node runs, and returns to the node\'s value on reset', async () => {
    expect((await withExpiredDeadlines(() => t.request('POST', '/one/_search', QUERY))).body.timed_out).toBe(false);
    expect((await t.request('PUT', '/_cluster/settings', { persistent: { 'search.default_search_timeout': '30s' } })).status).toBe(200);
    try {
      expect((await withExpiredDeadlines(() => t.request('POST', '/one/_search', QUERY))).body.timed_out).toBe(true);
    } finally {
      await t.request('PUT', '/_cluster/settings', { persistent: { 'search.default_search_timeout': null } });
    }
    expect((await withExpiredDeadlines(() => t.request('POST', '/one/_search', QUERY))).body.timed_out).toBe(false);
  });

  it('gives way to the request timeout, -1 included', async () => {
    const none = await withExpiredDeadlines(() => withDefault.request('POST', '/one/_search', { ...QUERY, timeout: '-1' }));
    expect(none.body.timed_out).toBe(false);
    expect(none.body.hits.total.value).toBe(30);
  });

  it('bounds _count as well, which reports what it counted (ES count has no timed_out)', async () => {
    const inTime = await withDefault.request('POST', '/one/_count', QUERY);
    expect(inTime.body).toEqual({ count: 30, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    const late = await withExpiredDeadlines(() => withDefault.request('POST', '/one/_count', QUERY));
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ count: 0, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
  });

  it('is not a _count URL parameter in ES', async () => {
    const res = await t.request('POST', '/one/_count?timeout=1s', QUERY);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('illegal_argument_exception');
    expect(res.body.error.reason).toContain('contains unrecognized parameter: [timeout]');
  });
});

describe('allow_partial_search_results=false', () => {
  it('turns a timed-out shard into a shard failure: "Time exceeded"', async () => {
    const res = await withExpiredDeadlines(() => t.request('POST', '/three/_search?allow_partial_search_results=false', { ...QUERY, timeout: '5s' }));
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({
      root_cause: [{ type: 'query_phase_execution_exception', reason: 'Time exceeded' }],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [{
        shard: 0, index: 'three', node: expect.any(String),
        reason: { type: 'query_phase_execution_exception', reason: 'Failed to execute main query', caused_by: { type: 'query_phase_execution_exception', reason: 'Time exceeded' } },
      }],
    });
    expect(res.body.status).toBe(500);
  });

  it('changes nothing for a search that finishes in time', async () => {
    const res = await t.request('POST', '/three/_search?allow_partial_search_results=false', { ...QUERY, timeout: '1m' });
    expect(res.status).toBe(200);
    expect(res.body.timed_out).toBe(false);
    expect(res.body.hits.total.value).toBe(30);
  });

  it('must be a boolean', async () => {
    expectEsError(
      await t.request('POST', '/one/_search?allow_partial_search_results=maybe', QUERY), 400, 'illegal_argument_exception',
      'Failed to parse value [maybe] only [true] or [false] are allowed.',
    );
  });
});
