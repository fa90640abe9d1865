/**
 * The operator's JSON views — nodes stats, nodes info, index stats, cluster stats:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-nodes-stats.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-nodes-info.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-stats.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-stats.html
 *
 * Counters are checked to move with real searches and writes, by exact deltas where ES's
 * definition gives one (one query per shard per search, one index op per document).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NODE_ID } from '../../src/cluster/index.js';
import { mallocTrimAvailable } from '../support/malloc-trim.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await t.request('PUT', '/logs', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
  await seed(t, 'logs', Array.from({ length: 30 }, (_, i) => [`l${i}`, { msg: `event ${i} ${i % 2 ? 'odd' : 'even'}` }] as [string, Record<string, unknown>]));
  await seed(t, 'books', [['1', { title: 'quick fox' }], ['2', { title: 'lazy dog' }]]);
});
afterAll(async () => t.close());

const nodeStats = async (path = '/_nodes/stats') => {
  const res = await t.request('GET', path);
  expect(res.status).toBe(200);
  return res.body.nodes[NODE_ID];
};
const indexStats = async (index: string) => (await t.request('GET', `/${index}/_stats`)).body.indices[index].primaries;

describe('GET /_nodes/stats', () => {
  it('has ES\'s envelope and the node\'s sections', async () => {
    const res = await t.request('GET', '/_nodes/stats');
    expect(res.body._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(res.body.cluster_name).toBe('threadsearch');
    const n = res.body.nodes[NODE_ID];
    expect(n).toMatchObject({ name: 'threadsearch-0', roles: expect.arrayContaining(['data', 'ingest', 'master', 'ml']) });
    expect(Object.keys(n)).toEqual(expect.arrayContaining(['timestamp', 'indices', 'os', 'process', 'jvm', 'thread_pool', 'ml']));
    expect(n.indices.docs.count).toBe(32);
    expect(Object.keys(n.indices)).toEqual(['docs', 'store', 'indexing', 'search', 'refresh', 'flush', 'merges', 'segments']);
  });

  it('shows the search pool with threads, active, queue, rejected, completed, utilisation and run/wait times', async () => {
    await t.request('POST', '/logs/_search', { query: { match: { msg: 'odd' } } });
    const pool = (await nodeStats()).thread_pool.search;
    expect(pool).toMatchObject({ threads: 2, active: 0, queue: 0, rejected: 0, largest: 2 });
    expect(pool.completed).toBeGreaterThan(0);
    expect(pool.utilization).toBeGreaterThan(0);
    expect(pool.utilization).toBeLessThanOrEqual(1);
    expect(pool.run_time_in_millis.count).toBeGreaterThan(0);
    expect(pool.run_time_in_millis.avg).toBeGreaterThan(0);
    expect(pool.wait_time_in_millis.count).toBeGreaterThan(0);
    expect(Object.keys(pool.wait_time_in_millis)).toEqual(['count', 'total', 'avg', 'p50', 'p99', 'max']);
    expect(pool.run_time_in_millis.total).toBeCloseTo(pool.run_time_in_millis.avg * pool.run_time_in_millis.count, 1);
  });

  it('counts completed search-pool tasks as searches run', async () => {
    const before = (await nodeStats()).thread_pool.search.completed;
    // Three shards, idle pool: at least one task per search.
    for (let i = 0; i < 4; i++) await t.request('POST', '/logs/_search', { query: { match_all: {} } });
    const after = (await nodeStats()).thread_pool.search.completed;
    expect(after - before).toBeGreaterThanOrEqual(4);
  });

  it('reports process memory: V8 heap, RSS and the SharedArrayBuffer bytes of each index', async () => {
    const n = await nodeStats();
    const mem = n.process.mem;
    expect(mem.resident_in_bytes).toBeGreaterThan(mem.heap_used_in_bytes);
    expect(n.jvm.mem.heap_used_in_bytes).toBeGreaterThan(0);
    expect(n.jvm.mem.heap_max_in_bytes).toBeGreaterThan(n.jvm.mem.heap_used_in_bytes);
    expect(Object.keys(mem.shared_array_buffers_per_index_in_bytes).sort()).toEqual(['books', 'logs']);
    expect(mem.shared_array_buffers_per_index_in_bytes.logs).toBe((await indexStats('logs')).store.size_in_bytes);
    expect(mem.shared_array_buffers_in_bytes).toBe(mem.shared_array_buffers_per_index_in_bytes.logs + mem.shared_array_buffers_per_index_in_bytes.books);
  });

  it('reports the heap trims of the idle collections: one follows the seeding\'s builds where glibc and koffi are there', async () => {
    const canTrim = await mallocTrimAvailable();
    // The idle collection runs 2 s after the last build; a loaded machine takes longer.
    await vi.waitFor(async () => {
      const trim = (await nodeStats('/_nodes/stats/process')).process.mem.malloc_trim;
      expect(trim.count > 0).toBe(canTrim);
      if (canTrim) expect(trim).toMatchObject({ available: true, released_in_bytes: expect.any(Number), total_time_in_millis: expect.any(Number) });
    }, { timeout: canTrim ? 30_000 : 100, interval: 250 });
  });

  it('splits segment memory by kind, and reports each search thread\'s heap', async () => {
    const n = await nodeStats();
    const seg = n.indices.segments;
    const kinds = ['terms', 'postings', 'positions', 'feature_postings', 'stored_fields', 'norms', 'points', 'doc_values', 'completion', 'vectors', 'id_map', 'seq_no_version', 'live_docs', 'other'];
    const sum = kinds.reduce((a, k) => a + seg[`${k}_memory_in_bytes`], 0);
    expect(sum).toBe(seg.memory_in_bytes);
    // Segments plus live docs are the store; every doc's `_source`, `_id` and seq_no/version are in.
    expect(seg.memory_in_bytes).toBe(n.indices.store.size_in_bytes);
    // seq_no, version and write order, packed per segment (format 4): a 16-byte header each, and
    // deltas narrower than the 3 × 8 bytes a doc they took before.
    expect(seg.seq_no_version_memory_in_bytes).toBeGreaterThanOrEqual(48);
    expect(seg.seq_no_version_memory_in_bytes).toBeLessThan((n.indices.docs.count + n.indices.docs.deleted) * 24);
    expect(seg.postings_memory_in_bytes).toBeGreaterThan(0);
    const books = (await indexStats('books')).segments;
    // `_source` in blocks (format 4: `default` keeps one doc per block, LZ4 or raw when that is not
    // smaller): at most the raw JSON plus, per doc, its block offset (4 bytes) and block header
    // (codec, length), and per segment the index's last entries and the sections' 8-byte alignment.
    const rawSource = JSON.stringify({ title: 'quick fox' }).length + JSON.stringify({ title: 'lazy dog' }).length;
    expect(books.stored_fields_memory_in_bytes).toBeGreaterThan(0);
    expect(books.stored_fields_memory_in_bytes).toBeLessThanOrEqual(rawSource + (8 + 3 + 3) * books.count + 40);
    const mem = n.process.mem;
    expect(mem.workers).toHaveLength(2);
    for (const w of mem.workers) expect(w.heap_used_in_bytes).toBeGreaterThan(0);
    expect(mem.worker_heap_used_in_bytes).toBe(mem.workers[0].heap_used_in_bytes + mem.workers[1].heap_used_in_bytes);
  });

  it('reports every worker\'s heap to each of many concurrent requests (one worker round at a time)', async () => {
    const all = await Promise.all(Array.from({ length: 8 }, () => nodeStats('/_nodes/stats/process')));
    for (const n of all) {
      expect(n.process.mem.workers).toHaveLength(2);
      expect(new Set(n.process.mem.workers.map((w: { thread_id: number }) => w.thread_id)).size).toBe(2);
    }
  });

  it('splits the main thread\'s and each worker\'s V8 heap into young and old pools (ES jvm.mem.pools)', async () => {
    const n = await nodeStats('/_nodes/stats/process,jvm');
    const check = (pools: Record<string, { used_in_bytes: number; max_in_bytes: number }>, heapTotal: number) => {
      expect(Object.keys(pools).sort()).toEqual(['old', 'young']);
      for (const p of Object.values(pools)) {
        expect(p.used_in_bytes).toBeGreaterThanOrEqual(0);
        expect(p.max_in_bytes).toBeGreaterThanOrEqual(p.used_in_bytes);
      }
      // Every space but the shared read-only one: the pools add up to the isolate's committed heap.
      expect(pools.young.max_in_bytes + pools.old.max_in_bytes).toBeLessThanOrEqual(heapTotal);
      expect(pools.young.max_in_bytes + pools.old.max_in_bytes).toBeGreaterThan(heapTotal * 0.5);
    };
    check(n.jvm.mem.pools, n.jvm.mem.heap_committed_in_bytes);
    expect(n.process.mem.workers).toHaveLength(2);
    for (const w of n.process.mem.workers) check(w.pools, w.heap_total_in_bytes);
  });

  it('filters sections by metric and refuses unknown ones as ES does', async () => {
    const n = await nodeStats('/_nodes/stats/thread_pool,jvm');
    expect(Object.keys(n)).toEqual(expect.arrayContaining(['thread_pool', 'jvm']));
    expect(n.indices).toBeUndefined();
    expect(n.os).toBeUndefined();
    expectErrorType(await t.request('GET', '/_nodes/stats/bogus'), 400, 'illegal_argument_exception', 'request [/_nodes/stats/bogus] contains unrecognized metric: [bogus]');
  });

  it('selects the node by id, name or _local, and no node for another id', async () => {
    for (const id of ['_local', '_all', NODE_ID, 'threadsearch-0']) {
      const res = await t.request('GET', `/_nodes/${id}/stats/os`);
      expect(Object.keys(res.body.nodes)).toEqual([NODE_ID]);
    }
    const none = await t.request('GET', '/_nodes/elsewhere/stats');
    expect(none.body._nodes.total).toBe(0);
    expect(none.body.nodes).toEqual({});
  });

  it('lists started model deployments as thread pools and under ml', async () => {
    const put = await t.request('PUT', '/_ml/trained_models/.sparse_model_2', { input: { field_names: ['text_field'] } });
    expect(put.status).toBe(200);
    const start = await t.request('POST', '/_ml/trained_models/.sparse_model_2/deployment/_start?wait_for=started&number_of_allocations=1&threads_per_allocation=1');
    expect(start.status).toBe(200);
    try {
      const infer = await t.request('POST', '/_ml/trained_models/.sparse_model_2/_infer', { docs: [{ text_field: 'a quick test' }, { text_field: 'another one' }] });
      expect(infer.status).toBe(200);
      const n = await nodeStats();
      const pool = n.thread_pool['ml_deployment/.sparse_model_2'];
      expect(pool).toMatchObject({ threads: 1, active: 0, queue: 0, rejected: 0, completed: 1 });
      expect(pool.utilization).toBeGreaterThan(0);
      expect(n.ml.deployments['.sparse_model_2']).toMatchObject({
        model_id: '.sparse_model_2', state: 'started', number_of_allocations: 1, threads_per_allocation: 1, request_count: 1, inference_count: 2,
      });
    } finally {
      await t.request('POST', '/_ml/trained_models/.sparse_model_2/deployment/_stop');
    }
  }, 60_000);
});

describe('GET /_nodes', () => {
  it('describes the node (ES NodeInfo) with its thread pools', async () => {
    const res = await t.request('GET', '/_nodes');
    expect(res.status).toBe(200);
    const n = res.body.nodes[NODE_ID];
    expect(n).toMatchObject({ name: 'threadsearch-0', version: '8.15.0', build_flavor: 'default', roles: expect.any(Array) });
    expect(n.thread_pool.search).toEqual({ type: 'fixed', size: 2, queue_size: expect.any(Number) });
    expect(n.os.available_processors).toBeGreaterThan(0);
  });

  it('/_nodes/<metrics> and /_nodes/<node_id>/<metrics> keep the node\'s identity and the sections asked for', async () => {
    const all = (await t.request('GET', '/_nodes')).body.nodes[NODE_ID];
    for (const path of ['/_nodes/jvm,os', '/_nodes/_all/jvm,os', '/_nodes/_local/os,jvm', `/_nodes/${NODE_ID}/jvm,os`]) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
      const n = res.body.nodes[NODE_ID];
      expect(n).toMatchObject({ name: all.name, version: all.version, roles: all.roles, jvm: all.jvm, os: all.os });
      expect(n.thread_pool).toBeUndefined();
      expect(n.settings).toBeUndefined();
    }
    expect(Object.keys((await t.request('GET', '/_nodes/_all/_all')).body.nodes[NODE_ID])).toEqual(Object.keys(all));
    expect((await t.request('GET', '/_nodes/_local')).body.nodes[NODE_ID].thread_pool).toEqual(all.thread_pool);
    expect((await t.request('GET', '/_nodes/elsewhere/jvm')).body._nodes.total).toBe(0);
    expectErrorType(await t.request('GET', '/_nodes/_all/bogus'), 400, 'illegal_argument_exception', 'request [/_nodes/_all/bogus] contains unrecognized metric: [bogus]');
  });
});

describe('GET /<index>/_stats', () => {
  it('has _shards, _all and per-index primaries and total (ES IndicesStatsResponse)', async () => {
    const res = await t.request('GET', '/logs/_stats');
    expect(res.status).toBe(200);
    expect(res.body._shards).toEqual({ total: 3, successful: 3, failed: 0 });
    const idx = res.body.indices.logs;
    expect(idx).toMatchObject({ uuid: expect.any(String), health: 'green', status: 'open' });
    expect(idx.primaries).toEqual(idx.total);
    expect(idx.primaries.docs).toMatchObject({ count: 30, deleted: 0 });
    expect(idx.primaries.segments.count).toBeGreaterThanOrEqual(3);
    expect(res.body._all.primaries.docs.count).toBe(30);
    // A replica that cannot be assigned counts in _shards.total.
    const books = await t.request('GET', '/books/_stats');
    expect(books.body._shards).toEqual({ total: 2, successful: 1, failed: 0 });
  });

  it('counts one query per shard for each search, and fetches for shards with hits on the page', async () => {
    const before = (await indexStats('logs')).search;
    await t.request('POST', '/logs/_search', { query: { match: { msg: 'odd' } } });
    await t.request('POST', '/logs/_count', { query: { match: { msg: 'even' } } });
    const after = (await indexStats('logs')).search;
    // 3 shards × (search + count).
    expect(after.query_total - before.query_total).toBe(6);
    expect(after.query_current).toBe(0);
    // 15 odd docs over 3 shards: every shard has some of the top 10.
    expect(after.fetch_total - before.fetch_total).toBe(3);
    expect(after.query_time_in_millis).toBeGreaterThanOrEqual(before.query_time_in_millis);
  });

  it('counts index and delete operations, refreshes, flushes and merges', async () => {
    const before = await indexStats('books');
    await t.request('PUT', '/books/_doc/3', { title: 'new book' });
    await t.request('PUT', '/books/_doc/4', { title: 'another book' });
    await t.request('DELETE', '/books/_doc/1');
    await t.request('POST', '/books/_refresh');
    await t.request('POST', '/books/_flush');
    let after = await indexStats('books');
    expect(after.indexing.index_total - before.indexing.index_total).toBe(2);
    expect(after.indexing.delete_total - before.indexing.delete_total).toBe(1);
    expect(after.refresh.total).toBeGreaterThan(before.refresh.total);
    expect(after.flush.total - before.flush.total).toBe(1);
    expect(after.docs.count).toBe(3);
    expect(after.docs.deleted).toBe(1);
    const forced = await t.request('POST', '/books/_forcemerge?max_num_segments=1');
    expect(forced.status).toBe(200);
    after = await indexStats('books');
    expect(after.merges.total - before.merges.total).toBe(1);
    expect(after.merges.total_docs).toBeGreaterThan(0);
    expect(after.merges.current).toBe(0);
    expect(after.segments.count).toBe(1);
    expect(after.docs.deleted).toBe(0);
  });

  it('sums every index for /_stats, filters by metric, and shows shards with level=shards', async () => {
    const all = await t.request('GET', '/_stats/docs,search');
    expect(Object.keys(all.body.indices).sort()).toEqual(['books', 'logs']);
    expect(Object.keys(all.body._all.primaries)).toEqual(['docs', 'search']);
    expect(all.body._all.primaries.docs.count).toBe(all.body.indices.books.primaries.docs.count + 30);
    const shards = await t.request('GET', '/logs/_stats/docs?level=shards');
    const perShard = shards.body.indices.logs.shards;
    expect(Object.keys(perShard)).toEqual(['0', '1', '2']);
    expect(perShard['0'][0].routing).toEqual({ state: 'STARTED', primary: true, node: NODE_ID, relocating_node: null });
    expect(perShard['0'][0].docs.count + perShard['1'][0].docs.count + perShard['2'][0].docs.count).toBe(30);
    const cluster = await t.request('GET', '/_stats?level=cluster');
    expect(cluster.body.indices).toBeUndefined();
    expectErrorType(await t.request('GET', '/_stats/nope'), 400, 'illegal_argument_exception', 'request [/_stats/nope] contains unrecognized metric: [nope]');
    expectErrorType(await t.request('GET', '/missing/_stats'), 404, 'index_not_found_exception');
  });
});

describe('GET /_cluster/stats', () => {
  it('summarises indices and the node (ES ClusterStatsResponse)', async () => {
    const res = await t.request('GET', '/_cluster/stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _nodes: { total: 1, successful: 1, failed: 0 }, cluster_name: 'threadsearch', status: 'yellow',
      indices: { count: 2, shards: { total: 4, primaries: 4 } },
      nodes: { count: { total: 1, data: 1, master: 1 }, versions: ['8.15.0'] },
    });
    expect(res.body.indices.docs.count).toBeGreaterThanOrEqual(32);
    expect(res.body.nodes.jvm.mem.heap_used_in_bytes).toBeGreaterThan(0);
  });
});
