/**
 * compact and aligned text (CAT) APIs:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cat.html
 * Text tables (`v`, `h`, `s`, `help`, `bytes`, `time`) and their `format=json` form, for indices,
 * shards, count, health, nodes, thread_pool, ml/trained_models, aliases, templates and master.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanBytes, humanTime } from '../../src/http/cat-table.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/alpha', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  await seed(t, 'alpha', [['a1', { n: 1 }], ['a2', { n: 2 }], ['a3', { n: 3 }]]);
  await seed(t, 'beta', [['b1', { n: 1 }]]);
});
afterAll(async () => t.close());

const cat = (path: string) => t.request('GET', path);
const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const cells = (line: string) => line.trim().split(/\s+/);

describe('_cat text and JSON forms', () => {
  it('answers text/plain, one aligned line per row, with a header under ?v', async () => {
    const res = await cat('/_cat/indices?v');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    const [header, ...rows] = lines(res.text);
    expect(cells(header)).toEqual(['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size']);
    expect(rows.map((r) => cells(r).slice(0, 8))).toEqual([
      ['green', 'open', 'alpha', expect.any(String), '2', '0', '3', '0'],
      ['yellow', 'open', 'beta', expect.any(String), '1', '1', '1', '0'],
    ]);
    // Every line is as wide as the others (columns padded, numbers right-aligned).
    const widths = new Set([header, ...rows].map((l) => l.length));
    expect(widths.size).toBe(1);
    expect(header.indexOf('docs.count') + 'docs.count'.length).toBe(rows[0].indexOf(' 3 ') + 2);
    // Without ?v: no header.
    expect(lines((await cat('/_cat/indices')).text)).toHaveLength(2);
  });

  it('renders format=json as an array of objects of strings, keyed by column name', async () => {
    const res = await cat('/_cat/indices/alpha?format=json');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([{
      health: 'green', status: 'open', index: 'alpha', uuid: expect.any(String), pri: '2', rep: '0', 'docs.count': '3', 'docs.deleted': '0',
      'store.size': expect.stringMatching(/^[\d.]+(b|kb)$/), 'pri.store.size': expect.any(String), 'dataset.size': expect.any(String),
    }]);
  });

  it('picks columns with h (names, aliases, wildcards) and sorts with s', async () => {
    let res = await cat('/_cat/indices?h=i,dc&s=docs.count:desc');
    expect(lines(res.text).map(cells)).toEqual([['alpha', '3'], ['beta', '1']]);
    res = await cat('/_cat/indices?h=index,docs.*&s=index:desc&format=json');
    expect(res.body).toEqual([{ index: 'beta', 'docs.count': '1', 'docs.deleted': '0' }, { index: 'alpha', 'docs.count': '3', 'docs.deleted': '0' }]);
    expectErrorType(await cat('/_cat/indices?s=nope'), 400, 'illegal_argument_exception', 'Unable to sort by unknown sort key `nope`');
  });

  it('prints sizes in a fixed unit with bytes= and durations with time=', async () => {
    const raw = await cat('/_cat/indices/alpha?h=store.size&bytes=b');
    const bytes = Number(raw.text.trim());
    expect(Number.isInteger(bytes) && bytes > 0).toBe(true);
    expect((await cat('/_cat/indices/alpha?h=store.size&bytes=kb')).text.trim()).toBe(String(Math.floor(bytes / 1024)));
    expect((await cat('/_cat/indices/alpha?h=store.size')).text.trim()).toBe(humanBytes(bytes));
    expect(Number((await cat('/_cat/indices/alpha?h=refresh.time&time=ms')).text.trim())).toBeGreaterThanOrEqual(0);
    expectErrorType(await cat('/_cat/indices?bytes=parsecs'), 400, 'illegal_argument_exception');
  });

  it('lists the columns with help', async () => {
    const res = await cat('/_cat/indices?help');
    expect(lines(res.text)).toContain('docs.count | dc,docsCount | available docs');
    const json = await cat('/_cat/thread_pool?help&format=json');
    expect(json.body).toContainEqual({ column: 'rejected', aliases: 'r', description: 'number of rejected tasks' });
  });

  it('formats sizes and durations as ES does', () => {
    expect(humanBytes(225)).toBe('225b');
    expect(humanBytes(4608)).toBe('4.5kb');
    expect(humanBytes(1024)).toBe('1kb');
    expect(humanBytes(5 * 1024 ** 3 + 1)).toBe('5gb');
    expect(humanTime(0)).toBe('0s');
    expect(humanTime(12)).toBe('12ms');
    expect(humanTime(1500)).toBe('1.5s');
    expect(humanTime(90_000)).toBe('1.5m');
  });

  it('refuses formats it cannot write and unknown parameters', async () => {
    expectErrorType(await cat('/_cat/indices?format=yaml'), 400, 'illegal_argument_exception');
    expectErrorType(await cat('/_cat/health?foo=1'), 400, 'illegal_argument_exception', /unrecognized parameter: \[foo\]/);
  });
});

describe('each _cat API', () => {
  it('_cat/shards: one line per shard copy, unassigned replicas included', async () => {
    const res = await cat('/_cat/shards?format=json&h=index,shard,prirep,state,docs,node');
    expect(res.body).toEqual([
      { index: 'alpha', shard: '0', prirep: 'p', state: 'STARTED', docs: expect.any(String), node: 'threadsearch-0' },
      { index: 'alpha', shard: '1', prirep: 'p', state: 'STARTED', docs: expect.any(String), node: 'threadsearch-0' },
      { index: 'beta', shard: '0', prirep: 'p', state: 'STARTED', docs: '1', node: 'threadsearch-0' },
      { index: 'beta', shard: '0', prirep: 'r', state: 'UNASSIGNED', docs: null, node: null },
    ]);
    expect(Number(res.body[0].docs) + Number(res.body[1].docs)).toBe(3);
  });

  it('_cat/count: epoch, timestamp and count, per index or for all', async () => {
    const res = await cat('/_cat/count/alpha?v');
    const [header, row] = lines(res.text);
    expect(cells(header)).toEqual(['epoch', 'timestamp', 'count']);
    expect(cells(row)[2]).toBe('3');
    expect(cells(row)[1]).toMatch(/^\d\d:\d\d:\d\d$/);
    expect((await cat('/_cat/count?format=json&h=count')).body).toEqual([{ count: '4' }]);
  });

  it('_cat/health: status and shard counts of the node', async () => {
    const res = await cat('/_cat/health?format=json&ts=false');
    expect(res.body).toEqual([{
      cluster: 'threadsearch', status: 'yellow', 'node.total': '1', 'node.data': '1', shards: '3', pri: '3', relo: '0', init: '0',
      unassign: '1', 'unassign.pri': '0', pending_tasks: '0', max_task_wait_time: '-', active_shards_percent: '75.0%',
    }]);
  });

  it('_cat/nodes: the node with heap, ram, cpu, load, roles and master', async () => {
    const res = await cat('/_cat/nodes?v&h=name,node.role,master,heap.percent,rss.current,sab.current&bytes=b');
    const [header, row] = lines(res.text).map(cells);
    expect(header).toEqual(['name', 'node.role', 'master', 'heap.percent', 'rss.current', 'sab.current']);
    expect(row.slice(0, 3)).toEqual(['threadsearch-0', 'dhilmrst', '*']);
    expect(Number(row[4])).toBeGreaterThan(0);
    expect(Number(row[5])).toBeGreaterThan(0);
  });

  it('_cat/thread_pool: the search pool with counters that move after searches', async () => {
    const before = (await cat('/_cat/thread_pool/search?format=json&h=name,completed')).body[0];
    await t.request('POST', '/alpha/_search', { query: { match_all: {} } });
    const res = await cat('/_cat/thread_pool/search?format=json&h=name,size,active,queue,rejected,completed,utilization,run_time.avg');
    expect(res.body).toEqual([{
      name: 'search', size: '1', active: '0', queue: '0', rejected: '0', completed: expect.any(String), utilization: expect.any(String), 'run_time.avg': expect.any(String),
    }]);
    expect(Number(res.body[0].completed)).toBeGreaterThan(Number(before.completed));
    expect(lines((await cat('/_cat/thread_pool?v')).text)[0].trim().split(/\s+/)).toEqual(['node_name', 'name', 'active', 'queue', 'rejected']);
  });

  it('_cat/ml/trained_models: registered models', async () => {
    await t.request('PUT', '/_ml/trained_models/.sparse_model_2', { input: { field_names: ['text_field'] } });
    const res = await cat('/_cat/ml/trained_models?format=json');
    expect(res.body).toEqual([{
      id: '.sparse_model_2', heap_size: expect.stringMatching(/(kb|mb)$/), operations: '0', create_time: expect.stringMatching(/^\d{4}-/),
      'ingest.pipelines': '0', 'data_frame.id': '__none__',
    }]);
    expect(lines((await cat('/_cat/ml/trained_models?v')).text)[0].trim().split(/\s+/)).toEqual(['id', 'heap_size', 'operations', 'create_time', 'ingest.pipelines', 'data_frame.id']);
  });
});

describe('_cat/aliases, _cat/templates and _cat/master', () => {
  beforeAll(async () => {
    await t.request('PUT', '/.hidden-idx', { settings: { 'index.hidden': true } });
    const res = await t.request('POST', '/_aliases', {
      actions: [
        { add: { index: 'alpha', alias: 'both' } },
        { add: { index: 'beta', alias: 'both', is_write_index: true } },
        { add: { index: 'alpha', alias: 'filtered', filter: { range: { n: { gte: 2 } } }, is_write_index: false } },
        { add: { index: '.hidden-idx', alias: 'quiet', is_hidden: true } },
      ],
    });
    expect(res.status).toBe(200);
    await t.request('PUT', '/_component_template/base', { template: { settings: { number_of_shards: 1 } } });
    await t.request('PUT', '/_component_template/maps', { template: { mappings: { properties: { n: { type: 'long' } } } } });
    await t.request('PUT', '/_index_template/logs', { index_patterns: ['logs-*', 'audit-*'], priority: 10, version: 3, composed_of: ['base', 'maps'] });
    await t.request('PUT', '/_index_template/metrics', { index_patterns: ['metrics-*'] });
  });

  it('_cat/aliases: one row per alias and index, ES columns, * for a filter and - for what is unset', async () => {
    const res = await cat('/_cat/aliases?v');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(lines(res.text).map(cells)).toEqual([
      ['alias', 'index', 'filter', 'routing.index', 'routing.search', 'is_write_index'],
      ['both', 'alpha', '-', '-', '-', '-'],
      ['both', 'beta', '-', '-', '-', 'true'],
      ['filtered', 'alpha', '*', '-', '-', 'false'],
      // ES GetAliasesRequest's default expands hidden indices: their aliases are listed too.
      ['quiet', '.hidden-idx', '-', '-', '-', '-'],
    ]);
    expect((await cat('/_cat/aliases/filtered?format=json')).body).toEqual([
      { alias: 'filtered', index: 'alpha', filter: '*', 'routing.index': '-', 'routing.search': '-', is_write_index: 'false' },
    ]);
  });

  it('_cat/aliases: names and patterns, none matching is an empty table; expand_wildcards narrows the indices; h and s by ES aliases', async () => {
    expect((await cat('/_cat/aliases/b*,quiet?format=json&h=a,i')).body).toEqual([
      { alias: 'both', index: 'alpha' }, { alias: 'both', index: 'beta' }, { alias: 'quiet', index: '.hidden-idx' },
    ]);
    const none = await cat('/_cat/aliases/nope');
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
    expect((await cat('/_cat/aliases?format=json&h=alias&expand_wildcards=open')).body.map((r: any) => r.alias)).toEqual(['both', 'both', 'filtered']);
    expect(lines((await cat('/_cat/aliases?h=a,i,w&s=w:desc,i')).text).map(cells)).toEqual([
      ['both', 'beta', 'true'], ['filtered', 'alpha', 'false'], ['quiet', '.hidden-idx', '-'], ['both', 'alpha', '-'],
    ]);
    expect((await cat('/_cat/aliases?help&format=json')).body.map((c: any) => [c.column, c.aliases])).toEqual([
      ['alias', 'a'], ['index', 'i,idx'], ['filter', 'f,fi'], ['routing.index', 'ri,routingIndex'], ['routing.search', 'rs,routingSearch'], ['is_write_index', 'w,isWriteIndex'],
    ]);
    expectErrorType(await cat('/_cat/aliases?expand_wildcards=opened'), 400, 'illegal_argument_exception');
    expectErrorType(await cat('/_cat/aliases?pretty_please=1'), 400, 'illegal_argument_exception', /unrecognized parameter: \[pretty_please\]/);
  });

  it('_cat/templates: composable templates with their patterns and components as [a, b], priority as order', async () => {
    const res = await cat('/_cat/templates?v');
    const [header, ...rows] = lines(res.text);
    expect(cells(header)).toEqual(['name', 'index_patterns', 'order', 'version', 'composed_of']);
    expect(rows).toHaveLength(2);
    // Cells are padded to the column's width, the last one too (ES RestTable); the absent version is blank.
    expect(rows[0]).toMatch(/^logs\s+\[logs-\*, audit-\*\]\s+10\s+3\s+\[base, maps\]$/);
    expect(rows[1]).toMatch(/^metrics\s+\[metrics-\*\]\s+0\s{2,}\[\]\s*$/);
    expect((await cat('/_cat/templates/met*?format=json')).body).toEqual([
      { name: 'metrics', index_patterns: '[metrics-*]', order: '0', version: null, composed_of: '[]' },
    ]);
    expect((await cat('/_cat/templates/logs,nope?format=json&h=n,p,c')).body).toEqual([{ name: 'logs', order: '10', composed_of: '[base, maps]' }]);
    // ES: names that match nothing are an empty table, not a 404.
    const none = await cat('/_cat/templates/nope');
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
    expect((await cat('/_cat/templates?format=json&h=name&s=order:desc')).body).toEqual([{ name: 'logs' }, { name: 'metrics' }]);
  });

  it('_cat/master: the one node, which is the master', async () => {
    const res = await cat('/_cat/master?v');
    const [header, row] = lines(res.text).map(cells);
    expect(header).toEqual(['id', 'host', 'ip', 'node']);
    const nodes = (await t.request('GET', '/_nodes')).body.nodes;
    expect(row).toEqual([Object.keys(nodes)[0], expect.any(String), expect.any(String), 'threadsearch-0']);
    expect((await cat('/_cat/master?format=json&h=n,h')).body).toEqual([{ node: 'threadsearch-0', host: row[1] }]);
    expectErrorType(await cat('/_cat/master?name=x'), 400, 'illegal_argument_exception', /unrecognized parameter: \[name\]/);
  });
});
