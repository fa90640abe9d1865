/**
 * Search idle (`index.search.idle.after`, ES index modules): a shard that no search has read for
 * that long (30s by default, counted from its creation) skips its scheduled refreshes while the
 * index has no explicit `refresh_interval`; the next search refreshes it first and sees every write.
 * A `refresh=wait_for` write still gets its refresh. `_stats?level=shards` reports `search_idle`
 * and `search_idle_time` (ES 8.9+).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, expectEsError } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Past the next one-second refresh tick. */
const PAST_A_TICK = 1300;

async function shardStats(index: string) {
  const res = await t.request('GET', `/${index}/_stats/refresh,docs?level=shards`);
  expect(res.status).toBe(200);
  const shard = res.body.indices[index].shards['0'][0];
  return { idle: shard.search_idle as boolean, idleMs: shard.search_idle_time as number, refreshes: shard.refresh.total as number, docs: shard.docs.count as number };
}

describe('index.search.idle.after', () => {
  it('a search-idle shard skips its scheduled refresh; the next search refreshes first and finds the write', async () => {
    await t.request('PUT', '/idle', { settings: { number_of_shards: 1, 'index.search.idle.after': '100ms' } });
    await sleep(150);
    const before = await shardStats('idle');
    expect(before.idle).toBe(true);
    expect(before.idleMs).toBeGreaterThanOrEqual(100);

    expect((await t.request('PUT', '/idle/_doc/1', { title: 'written while idle' })).status).toBe(201);
    await sleep(PAST_A_TICK);
    const skipped = await shardStats('idle');
    expect(skipped.refreshes).toBe(before.refreshes);
    expect(skipped.docs).toBe(0);

    const res = await t.request('POST', '/idle/_search', { query: { match: { title: 'idle' } } });
    expect(res.body.hits.total).toEqual({ value: 1, relation: 'eq' });
    const after = await shardStats('idle');
    expect(after.idle).toBe(false);
    expect(after.refreshes).toBe(before.refreshes + 1);
    expect(after.docs).toBe(1);
  });

  it('_count, a point in time, a scroll, _explain and a non-realtime GET each refresh an idle shard before they read it', async () => {
    await t.request('PUT', '/idle-reads', { settings: { number_of_shards: 1, 'index.search.idle.after': '0ms' } });
    await t.request('PUT', '/idle-reads/_doc/1', { n: 1 });
    await sleep(PAST_A_TICK);
    expect((await shardStats('idle-reads')).docs).toBe(0);
    expect((await t.request('GET', '/idle-reads/_count')).body.count).toBe(1);

    await t.request('PUT', '/idle-reads/_doc/2', { n: 2 });
    await sleep(PAST_A_TICK);
    const pit = await t.request('POST', '/idle-reads/_pit?keep_alive=1m');
    expect(pit.status).toBe(200);
    const inPit = await t.request('POST', '/_search', { pit: { id: pit.body.id }, size: 10 });
    expect(inPit.body.hits.total.value).toBe(2);

    await t.request('PUT', '/idle-reads/_doc/3', { n: 3 });
    await sleep(PAST_A_TICK);
    const scroll = await t.request('POST', '/idle-reads/_search?scroll=1m', { size: 10 });
    expect(scroll.body.hits.total.value).toBe(3);

    await t.request('PUT', '/idle-reads/_doc/4', { n: 4 });
    await sleep(PAST_A_TICK);
    const explain = await t.request('POST', '/idle-reads/_explain/4', { query: { term: { n: 4 } } });
    expect(explain.body.matched).toBe(true);

    await t.request('PUT', '/idle-reads/_doc/5', { n: 5 });
    await sleep(PAST_A_TICK);
    expect((await t.request('GET', '/idle-reads/_doc/5?realtime=false')).body.found).toBe(true);
  });

  it('an explicit refresh_interval keeps the scheduled refreshes of an idle shard', async () => {
    await t.request('PUT', '/explicit', { settings: { number_of_shards: 1, refresh_interval: '1s', 'index.search.idle.after': '0ms' } });
    const before = await shardStats('explicit');
    await t.request('PUT', '/explicit/_doc/1', { n: 1 });
    await sleep(PAST_A_TICK + 200);
    const after = await shardStats('explicit');
    expect(after.refreshes).toBeGreaterThan(before.refreshes);
    expect(after.docs).toBe(1);
  });

  it('a refresh=wait_for write on an idle shard is answered by the scheduled refresh', async () => {
    await t.request('PUT', '/idle-wait', { settings: { number_of_shards: 1, 'index.search.idle.after': '0ms' } });
    const start = Date.now();
    const res = await t.request('PUT', '/idle-wait/_doc/1?refresh=wait_for', { n: 1 });
    expect(res.status).toBe(201);
    expect(res.body.forced_refresh).toBeUndefined();
    expect(Date.now() - start).toBeLessThan(5000);
    expect((await shardStats('idle-wait')).docs).toBe(1);
  });

  it('is a dynamic time setting of at least 0', async () => {
    await t.request('PUT', '/idle-settings', { settings: { number_of_shards: 1 } });
    expect((await t.request('PUT', '/idle-settings/_settings', { index: { search: { idle: { after: '5m' } } } })).status).toBe(200);
    const got = await t.request('GET', '/idle-settings/_settings/index.search.idle.after?flat_settings=true');
    expect(got.body['idle-settings'].settings['index.search.idle.after']).toBe('5m');
    expect((await shardStats('idle-settings')).idle).toBe(false);

    const minusOne = await t.request('PUT', '/idle-settings/_settings', { 'index.search.idle.after': '-1' });
    expectEsError(minusOne, 400, 'illegal_argument_exception', 'failed to parse value [-1] for setting [index.search.idle.after], must be >= [0m]');
    const negative = await t.request('PUT', '/idle-settings/_settings', { 'index.search.idle.after': '-5s' });
    expectErrorType(negative, 400, 'illegal_argument_exception', /negative durations are not supported/);
    const unitless = await t.request('PUT', '/idle-settings/_settings', { 'index.search.idle.after': '30' });
    expectErrorType(unitless, 400, 'illegal_argument_exception', /failed to parse setting \[index.search.idle.after\] with value \[30\]/);
  });
});
