/**
 * Index segments and cat segments APIs:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-segments.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cat-segments.html
 * One row per segment searches read, with Lucene's name for its generation, live and deleted docs,
 * size, and whether the last flush committed it (which survives a restart).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

type ShardCopy = { routing: Record<string, unknown>; num_committed_segments: number; num_search_segments: number; segments: Record<string, Record<string, unknown>> };
const copies = (body: any, index: string): ShardCopy[] => Object.values(body.indices[index].shards).flat() as ShardCopy[];
const segmentsOf = (body: any, index: string) => copies(body, index).flatMap((c) => Object.entries(c.segments));

describe('GET /{index}/_segments', () => {
  it('lists each shard copy with its segments, committed once flushed', async () => {
    t = await createTestApp();
    await t.request('PUT', '/books', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    await seed(t, 'books', [['1', { t: 'a' }], ['2', { t: 'b' }], ['3', { t: 'c' }], ['4', { t: 'd' }]]);
    let res = await t.request('GET', '/books/_segments');
    expect(res.status).toBe(200);
    // Replicas count in `total` but one node holds primaries only, as in `_stats`.
    expect(res.body._shards).toEqual({ total: 4, successful: 2, failed: 0 });
    expect(Object.keys(res.body.indices.books.shards).sort()).toEqual(['0', '1']);
    for (const copy of copies(res.body, 'books')) {
      expect(copy.routing).toEqual({ state: 'STARTED', primary: true, node: expect.any(String) });
      expect(copy.num_search_segments).toBe(Object.keys(copy.segments).length);
      expect(copy.num_committed_segments).toBe(0);
    }
    const segments = segmentsOf(res.body, 'books');
    expect(segments.reduce((n, [, s]) => n + (s.num_docs as number), 0)).toBe(4);
    for (const [name, s] of segments) {
      expect(name).toBe(`_${(s.generation as number).toString(36)}`);
      expect(s).toEqual({
        generation: expect.any(Number), num_docs: expect.any(Number), deleted_docs: 0, size_in_bytes: expect.any(Number),
        committed: false, search: true, version: '9.11.1', compound: true,
      });
      expect(s.size_in_bytes).toBeGreaterThan(0);
    }

    await t.request('POST', '/books/_flush');
    res = await t.request('GET', '/books/_segments?human=true');
    for (const copy of copies(res.body, 'books')) expect(copy.num_committed_segments).toBe(copy.num_search_segments);
    for (const [, s] of segmentsOf(res.body, 'books')) {
      expect(s.committed).toBe(true);
      expect(s.size).toMatch(/^[\d.]+(b|kb)$/);
    }
  });

  it('shows deletes, a refresh\'s new segment and a force-merge\'s single one', async () => {
    t = await createTestApp();
    await seed(t, 'log', [['1', { n: 1 }], ['2', { n: 2 }], ['3', { n: 3 }]]);
    await t.request('POST', '/log/_flush');
    await t.request('DELETE', '/log/_doc/2?refresh=true');
    await t.request('PUT', '/log/_doc/4?refresh=true', { n: 4 });
    let res = await t.request('GET', '/log/_segments');
    const [first, second] = segmentsOf(res.body, 'log');
    expect(first[1]).toMatchObject({ num_docs: 2, deleted_docs: 1, committed: true });
    expect(second[1]).toMatchObject({ num_docs: 1, deleted_docs: 0, committed: false });
    expect(second[1].generation as number).toBeGreaterThan(first[1].generation as number);

    await t.request('POST', '/log/_forcemerge?max_num_segments=1');
    res = await t.request('GET', '/log/_segments');
    const merged = segmentsOf(res.body, 'log');
    expect(merged).toHaveLength(1);
    expect(merged[0][1]).toMatchObject({ num_docs: 3, deleted_docs: 0, committed: false });
  });

  it('reports the recovered segments as committed after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-segments-'));
    t = await createTestApp({ dataDir });
    await seed(t, 'kept', [['1', { n: 1 }], ['2', { n: 2 }]]);
    await t.request('POST', '/kept/_flush');
    const before = segmentsOf((await t.request('GET', '/kept/_segments')).body, 'kept').map(([name]) => name);
    await t.close();
    t = await createTestApp({ dataDir });
    const after = segmentsOf((await t.request('GET', '/kept/_segments')).body, 'kept');
    expect(after.map(([name]) => name)).toEqual(before);
    expect(after.every(([, s]) => s.committed === true)).toBe(true);
  });

  it('covers every index without a name, and answers ES errors for bad targets and parameters', async () => {
    t = await createTestApp();
    await seed(t, 'one', [['1', { n: 1 }]]);
    await seed(t, 'two', [['1', { n: 1 }]]);
    const res = await t.request('GET', '/_segments');
    expect(Object.keys(res.body.indices).sort()).toEqual(['one', 'two']);
    expect(Object.keys((await t.request('GET', '/t*/_segments')).body.indices)).toEqual(['two']);
    expectErrorType(await t.request('GET', '/missing/_segments'), 404, 'index_not_found_exception', 'no such index [missing]');
    expect((await t.request('GET', '/missing/_segments?ignore_unavailable=true')).body.indices).toEqual({});
    expectErrorType(await t.request('GET', '/one/_segments?nope=1'), 400, 'illegal_argument_exception', 'request [/one/_segments] contains unrecognized parameter: [nope]');
  });
});

describe('GET /_cat/segments', () => {
  it('renders ES\'s default columns, one row per segment, and picks columns by alias', async () => {
    t = await createTestApp();
    await seed(t, 'cats', [['1', { n: 1 }], ['2', { n: 2 }]]);
    let res = await t.request('GET', '/_cat/segments?v');
    expect(res.status).toBe(200);
    const [header, ...rows] = res.text.split('\n').filter((l) => l !== '');
    expect(header.trim().split(/\s+/)).toEqual([
      'index', 'shard', 'prirep', 'ip', 'segment', 'generation', 'docs.count', 'docs.deleted', 'size', 'size.memory', 'committed', 'searchable', 'version', 'compound',
    ]);
    expect(rows).toHaveLength(1);
    res = await t.request('GET', '/_cat/segments/cats?h=i,seg,dc,dd,ic&format=json');
    expect(res.body).toEqual([{ index: 'cats', segment: expect.stringMatching(/^_[0-9a-z]+$/), 'docs.count': '2', 'docs.deleted': '0', committed: 'false' }]);
    res = await t.request('GET', '/_cat/segments?h=size&bytes=b&format=json');
    expect(Number(res.body[0].size)).toBeGreaterThan(0);
    expectErrorType(await t.request('GET', '/_cat/segments/missing'), 404, 'index_not_found_exception', 'no such index [missing]');
  });
});
