/**
 * Authorization of the operator views and `_rank_eval`, as ES authorizes them: node and cluster
 * stats (and reading templates) need the `monitor` cluster privilege; index stats and `_cat/indices|shards` the `monitor`
 * index privilege (wildcards narrowed to the indices it covers); `_rank_eval` reads (`read`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
beforeAll(async () => {
  t = await createSecureTestApp();
  for (const index of ['docs', 'secret']) await t.request('PUT', `/${index}/_doc/1?refresh=true`, { title: `doc in ${index}` });
});
afterAll(async () => t.close());

const rankEval = { requests: [{ id: 'q', request: { query: { match_all: {} } }, ratings: [{ _index: 'docs', _id: '1', rating: 1 }] }], metric: { precision: {} } };

describe('operator views and _rank_eval under security', () => {
  it('a reader of docs may rank_eval docs only, and sees no stats', async () => {
    const { encoded: key } = await t.createKey('reader', role('docs', ['read']));
    const ok = await t.as(key, 'POST', '/docs/_rank_eval', rankEval);
    expect(ok.status).toBe(200);
    expect(ok.body.metric_score).toBe(1);
    expect((await t.as(key, 'POST', '/secret/_rank_eval', rankEval)).status).toBe(403);
    for (const url of ['/_nodes/stats', '/_nodes', '/_cluster/stats', '/_cat/nodes', '/_cat/thread_pool', '/_cat/health', '/_cat/master', '/_cat/templates', '/docs/_stats', '/_cat/indices/docs']) {
      const res = await t.as(key, 'GET', url);
      expect(res.status, url).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
    }
  });

  it('cluster monitor opens node and cluster stats; index monitor opens the stats of its indices only', async () => {
    const { encoded: key } = await t.createKey('monitor', role('docs', ['monitor'], ['monitor']));
    // ES 8.15's monitor reads templates as well (its MONITOR_PATTERN).
    for (const url of ['/_nodes/stats', '/_nodes', '/_cluster/stats', '/_cat/nodes', '/_cat/thread_pool', '/_cat/health', '/_cat/master', '/_cat/templates', '/_index_template', '/docs/_stats']) {
      expect((await t.as(key, 'GET', url)).status, url).toBe(200);
    }
    expect((await t.as(key, 'PUT', '/_index_template/t', { index_patterns: ['t-*'] })).status).toBe(403);
    expect((await t.as(key, 'GET', '/secret/_stats')).status).toBe(403);
    const all = await t.as(key, 'GET', '/_stats');
    expect(Object.keys(all.body.indices)).toEqual(['docs']);
    const catIndices = await t.as(key, 'GET', '/_cat/indices?format=json&h=index');
    expect(catIndices.body).toEqual([{ index: 'docs' }]);
    // Monitoring is not reading: no rank_eval.
    expect((await t.as(key, 'POST', '/docs/_rank_eval', rankEval)).status).toBe(403);
  });
});
