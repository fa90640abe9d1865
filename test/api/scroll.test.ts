/**
 * Scroll (paginate-search-results.html#scroll-search-results, clear-scroll-api.html) and point in
 * time (point-in-time-api.html, search_after with the implicit `_shard_doc` tiebreaker): pages see
 * the snapshot their context opened on, whatever is written, refreshed or merged meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, ids } from './es.js';

let t: TestApp;
const WORDS = ['alpha', 'beta', 'gamma', 'delta'];

beforeAll(async () => {
  t = await createTestApp({ config: { maxOpenScrollContexts: 3 } });
  await t.request('PUT', '/logs', { settings: { number_of_shards: 2 }, mappings: { properties: { msg: { type: 'text' }, n: { type: 'integer' } } } });
  const lines: unknown[] = [];
  for (let i = 0; i < 25; i++) lines.push({ index: { _id: String(i) } }, { msg: `${WORDS[i % 4]} ${WORDS[(i * 3) % 4]} ${i % 5 === 0 ? 'alpha' : ''}`, n: i });
  expect((await t.bulk('/logs/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
});
afterAll(async () => t.close());

async function scrollAll(first: any): Promise<{ pages: any[]; hits: any[] }> {
  const pages = [first];
  let res = first;
  while (res.hits.hits.length > 0) {
    res = (await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: res._scroll_id })).body;
    pages.push(res);
  }
  return { pages, hits: pages.flatMap((p) => p.hits.hits) };
}

describe('scroll', () => {
  it('pages through every hit in the order a search ranks them, with the whole total on every page', async () => {
    const query = { match: { msg: 'alpha gamma' } };
    const all = (await t.request('POST', '/logs/_search', { query, size: 100 })).body.hits;
    const first = await t.request('POST', '/logs/_search?scroll=1m', { query, size: 4 });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)[0]).toBe('_scroll_id');
    const { pages, hits } = await scrollAll(first.body);
    expect(hits.map((h: any) => h._id)).toEqual(all.hits.map((h: any) => h._id));
    expect(hits.map((h: any) => h._score)).toEqual(all.hits.map((h: any) => h._score));
    expect(hits[0].sort).toBeUndefined();
    for (const p of pages) expect(p.hits.total).toEqual(all.total);
    expect(new Set(pages.map((p) => p._scroll_id)).size).toBe(1);
    expect((await t.request('DELETE', '/_search/scroll', { scroll_id: first.body._scroll_id })).body).toEqual({ succeeded: true, num_freed: 1 });
  });

  it('sees the snapshot of its first page while documents are added, deleted, refreshed and merged', async () => {
    const first = (await t.request('POST', '/logs/_search?scroll=1m', { sort: ['_doc'], size: 5 })).body;
    await t.request('DELETE', '/logs/_doc/3?refresh=true');
    const lines: unknown[] = [];
    for (let i = 100; i < 130; i++) lines.push({ index: { _id: String(i) } }, { msg: 'alpha', n: i });
    await t.bulk('/logs/_bulk', lines, '?refresh=true');
    await t.request('POST', '/logs/_forcemerge?max_num_segments=1');
    const { hits } = await scrollAll(first);
    expect(hits.map((h: any) => h._id).sort((a: string, b: string) => Number(a) - Number(b))).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    expect(hits[0].sort).toEqual([expect.any(Number)]);
    expect((await t.request('DELETE', '/_search/scroll', { scroll_id: first._scroll_id })).body.num_freed).toBe(1);
    // Restore the index for the other tests.
    for (let i = 100; i < 130; i++) await t.request('DELETE', `/logs/_doc/${i}`);
    await t.request('PUT', '/logs/_doc/3?refresh=true', { msg: 'alpha delta', n: 3 });
    // `refresh=true` on doc 3 refreshes its shard only: the other shard's deletes need their own.
    await t.request('POST', '/logs/_refresh');
  });

  it('clearing frees a scroll: later pages fail with search_context_missing_exception (404); _all clears every one', async () => {
    const a = (await t.request('POST', '/logs/_search?scroll=1m', { size: 2 })).body._scroll_id;
    const b = (await t.request('POST', '/logs/_search?scroll=1m', { size: 2 })).body._scroll_id;
    expect((await t.request('DELETE', `/_search/scroll/${a}`)).body).toEqual({ succeeded: true, num_freed: 1 });
    const gone = await t.request('POST', '/_search/scroll', { scroll_id: a });
    expect(gone.status).toBe(404);
    expect(gone.body.error.type).toBe('search_phase_execution_exception');
    expect(gone.body.error.root_cause[0].type).toBe('search_context_missing_exception');
    expect(gone.body.error.root_cause[0].reason).toMatch(/^No search context found for id \[\d+\]$/);
    const again = await t.request('DELETE', '/_search/scroll', { scroll_id: [a] });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ succeeded: true, num_freed: 0 });
    expect((await t.request('DELETE', '/_search/scroll/_all')).body).toEqual({ succeeded: true, num_freed: 1 });
    expect((await t.request('POST', '/_search/scroll', { scroll_id: b })).status).toBe(404);
    expectEsError(await t.request('POST', '/_search/scroll', { scroll_id: 'not-an-id' }), 400, 'illegal_argument_exception', 'Cannot parse scroll id');
  });

  it('a scroll expires keep_alive after its last use', async () => {
    const id = (await t.request('POST', '/logs/_search?scroll=300ms', { size: 2 })).body._scroll_id;
    expect((await t.request('POST', '/_search/scroll', { scroll_id: id, scroll: '300ms' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect((await t.request('POST', '/_search/scroll', { scroll_id: id })).status).toBe(404);
  });

  it('search.max_open_scroll_context bounds open scrolls with ES\'s error', async () => {
    const opened = [];
    for (let i = 0; i < 3; i++) opened.push((await t.request('POST', '/logs/_search?scroll=1m', { size: 1 })).body._scroll_id);
    const res = await t.request('POST', '/logs/_search?scroll=1m', { size: 1 });
    expect(res.status).toBe(429);
    expect(res.body.error.root_cause[0]).toEqual({
      type: 'too_many_scroll_contexts_exception',
      reason: 'Trying to create too many scroll contexts. Must be less than or equal to: [3]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
    });
    expect((await t.request('DELETE', '/_search/scroll', { scroll_id: opened })).body.num_freed).toBe(3);
    expect((await t.request('POST', '/logs/_search?scroll=1m', { size: 1 })).status).toBe(200);
    await t.request('DELETE', '/_search/scroll/_all');
  });

  it('ES\'s request validation for scrolls', async () => {
    expectEsError(await t.request('POST', '/logs/_search?scroll=1m', { from: 5 }), 400, 'action_request_validation_exception', 'Validation Failed: 1: using [from] is not allowed in a scroll context;');
    expectEsError(await t.request('POST', '/logs/_search?scroll=1m', { size: 0 }), 400, 'action_request_validation_exception', 'Validation Failed: 1: [size] cannot be [0] in a scroll context;');
    expectEsError(await t.request('POST', '/logs/_search?scroll=1m', { track_total_hits: false }), 400, 'action_request_validation_exception', 'Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;');
    expectEsError(await t.request('POST', '/logs/_search?scroll=2d'), 400, 'illegal_argument_exception',
      'Keep alive for request (2d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.');
  });
});

describe('point in time', () => {
  it('search_after over a PIT with the implicit _shard_doc tiebreaker returns every document once, at the PIT\'s snapshot', async () => {
    const open = await t.request('POST', '/logs/_pit?keep_alive=1m');
    expect(open.status).toBe(200);
    expect(open.body._shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
    const pit = open.body.id;
    await t.request('PUT', '/logs/_doc/new?refresh=true', { msg: 'alpha', n: 999 });
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await t.request('POST', '/_search', { size: 4, sort: [{ n: 'desc' }], pit: { id: pit, keep_alive: '1m' }, ...(after ? { search_after: after } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.pit_id).toBe(pit);
      if (res.body.hits.hits.length === 0) break;
      for (const h of res.body.hits.hits) expect(h.sort).toHaveLength(2);
      seen.push(...ids(res));
      after = res.body.hits.hits.at(-1).sort;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => String(24 - i)));
    expect((await t.request('DELETE', '/_pit', { id: pit })).body).toEqual({ succeeded: true, num_freed: 1 });
    const closed = await t.request('DELETE', '/_pit', { id: pit });
    expect(closed.status).toBe(404);
    expect(closed.body).toEqual({ succeeded: true, num_freed: 0 });
    expect((await t.request('POST', '/_search', { pit: { id: pit } })).status).toBe(404);
    await t.request('DELETE', '/logs/_doc/new?refresh=true');
  });

  it('ES\'s errors: keep_alive required, no index with a pit, _shard_doc only with a pit', async () => {
    expectEsError(await t.request('POST', '/logs/_pit'), 400, 'action_request_validation_exception', 'Validation Failed: 1: [keep_alive] is not specified;');
    const pit = (await t.request('POST', '/logs/_pit?keep_alive=1m')).body.id;
    expectEsError(await t.request('POST', '/logs/_search', { pit: { id: pit } }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;');
    expectEsError(await t.request('POST', '/logs/_search', { sort: ['_shard_doc'] }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: [_shard_doc] sort field cannot be used without [point in time];');
    const explicit = await t.request('POST', '/_search', { pit: { id: pit }, sort: [{ _shard_doc: 'desc' }], size: 2 });
    expect(explicit.body.hits.hits[0].sort).toHaveLength(1);
    await t.request('DELETE', '/_pit', { id: pit });
  });

  it('_msearch items search a pit (an index beside it is refused), and a pit over a filtered alias keeps the filter', async () => {
    const pit = (await t.request('POST', '/logs/_pit?keep_alive=1m')).body.id;
    const body = `{}\n${JSON.stringify({ pit: { id: pit }, size: 3, sort: [{ n: 'asc' }] })}\n{"index":"logs"}\n${JSON.stringify({ pit: { id: pit } })}\n`;
    const res = await t.request('POST', '/_msearch', body);
    expect(res.status).toBe(200);
    const [ok, refused] = res.body.responses;
    expect(ok.status).toBe(200);
    expect(ok.pit_id).toBe(pit);
    expect(ok.hits.hits.map((h: any) => h._id)).toEqual(['0', '1', '2']);
    expect(refused.status).toBe(400);
    expect(refused.error.reason).toBe('Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;');
    await t.request('DELETE', '/_pit', { id: pit });

    await t.request('POST', '/_aliases', { actions: [{ add: { index: 'logs', alias: 'small-logs', filter: { range: { n: { lt: 5 } } } } }] });
    const filtered = (await t.request('POST', '/small-logs/_pit?keep_alive=1m')).body.id;
    const all = await t.request('POST', '/_search', { pit: { id: filtered }, size: 100, sort: [{ n: 'asc' }] });
    expect(all.body.hits.hits.map((h: any) => h._id)).toEqual(['0', '1', '2', '3', '4']);
    expect(all.body.hits.total.value).toBe(5);
    const scroll = await t.request('POST', '/small-logs/_search?scroll=1m', { size: 2, sort: [{ n: 'asc' }] });
    const { hits } = await scrollAll(scroll.body);
    expect(hits.map((h: any) => h._id)).toEqual(['0', '1', '2', '3', '4']);
    await t.request('DELETE', '/_search/scroll', { scroll_id: scroll.body._scroll_id });
    await t.request('DELETE', '/_pit', { id: filtered });
  });
});
