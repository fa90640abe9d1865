/**
 * `index.codec` (ES index setting): how stored `_source` is compressed — `default` (LZ4 blocks) or
 * `best_compression` (DEFLATE blocks). Whatever the codec, `_source` comes back byte for byte as
 * sent, through search (with and without source filtering), get, mget, update, reindex, scroll
 * over segments a force-merge replaced, and a restart that reads the segments from disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType } from './es.js';

const RAW = [
  '{"title":  "Grüße aus Köln 🦊",  "n": 1, "tags": ["東京", "tower"]}',
  '{"title":"naïve café ß","n":2,"nested":{"deep":[1,2],"x":"y"}}',
  `{"title":"${'large '.repeat(20_000)}","n":3}`,
  ...Array.from({ length: 60 }, (_, i) => `{"title":"filler ${i} ${'ab'.repeat(i)}","n":${10 + i}}`),
];
const ID = (i: number) => `d${i}`;

async function load(t: TestApp, index: string, codec: string): Promise<void> {
  expect((await t.request('PUT', `/${index}`, { settings: { 'index.codec': codec, number_of_shards: 1 } })).status).toBe(200);
  // Two refreshes make two segments, so the force-merge below has something to merge.
  const half = RAW.length >> 1;
  for (const [from, to] of [[0, half], [half, RAW.length]]) {
    const body = RAW.slice(from, to).map((src, k) => `{"index":{"_id":"${ID(from + k)}"}}\n${src}\n`).join('');
    const res = await t.request('POST', `/${index}/_bulk?refresh=true`, body, { 'content-type': 'application/x-ndjson' });
    expect(res.body.items.filter((i: { index: { error?: unknown } }) => i.index.error).map((i: { index: { error?: unknown } }) => i.index.error)).toEqual([]);
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('index.codec', () => {
  it('rejects an unknown codec as ES does', async () => {
    const t = await createTestApp();
    try {
      const res = await t.request('PUT', '/bad', { settings: { 'index.codec': 'zstd9' } });
      expectErrorType(res, 400, 'illegal_argument_exception', 'unknown value for [index.codec] must be one of [default, best_compression, lucene_default, legacy_default, legacy_best_compression] but was: zstd9');
      expect((await t.request('PUT', '/ok', { settings: { index: { codec: 'best_compression' } } })).status).toBe(200);
      expect((await t.request('GET', '/ok/_settings')).body.ok.settings.index.codec).toBe('best_compression');
    } finally {
      await t.close();
    }
  });

  it.each(['default', 'best_compression'])('%s: _source is returned byte for byte by get, mget, search, scroll and after a restart', async (codec) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-codec-'));
    dirs.push(dataDir);
    let t = await createTestApp({ dataDir });
    try {
      await load(t, 'c', codec);
      // A scroll opened before the force-merge keeps reading the segments it replaced.
      const scroll = await t.request('POST', '/c/_search?scroll=1m', { size: 5, sort: ['n'] });
      expect(scroll.status).toBe(200);
      expect((await t.request('POST', '/c/_forcemerge?max_num_segments=1')).status).toBe(200);
      let seen = scroll.body.hits.hits.map((h: { _id: string }) => h._id);
      for (let id = scroll.body._scroll_id; ;) {
        const next = await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
        if (next.body.hits.hits.length === 0) break;
        seen = seen.concat(next.body.hits.hits.map((h: { _id: string }) => h._id));
        id = next.body._scroll_id;
      }
      expect(seen).toEqual(RAW.map((_, i) => ID(i)));
      for (const i of [0, 1, 2, 40]) expect((await t.request('GET', `/c/_doc/${ID(i)}`)).text).toContain(`"_source":${RAW[i]}`);
      const mget = await t.request('POST', '/c/_mget', { ids: [ID(1), ID(0), 'missing'] });
      expect(mget.text).toContain(`"_source":${RAW[1]}`);
      expect(mget.text).toContain(`"_source":${RAW[0]}`);
      const search = await t.request('POST', '/c/_search', { query: { match: { title: 'köln' } } });
      expect(search.text).toContain(`"_source":${RAW[0]}`);
      const filtered = await t.request('POST', '/c/_search', { query: { term: { n: 2 } }, _source: ['nested.deep'] });
      expect(filtered.body.hits.hits[0]._source).toEqual({ nested: { deep: [1, 2] } });
      const none = await t.request('POST', '/c/_search', { query: { term: { n: 2 } }, _source: false });
      expect(none.body.hits.hits[0]._source).toBeUndefined();
      expect((await t.request('POST', '/c/_flush')).status).toBe(200);
      await t.close();
      t = await createTestApp({ dataDir });
      for (const i of [0, 2, 62]) expect((await t.request('GET', `/c/_doc/${ID(i)}`)).text).toContain(`"_source":${RAW[i]}`);
    } finally {
      await t.close();
    }
  });

  it('update and reindex read the compressed source', async () => {
    const t = await createTestApp();
    try {
      await load(t, 'src', 'best_compression');
      const upd = await t.request('POST', '/src/_update/d0?refresh=true', { doc: { n: 100 } });
      expect(upd.status).toBe(200);
      expect((await t.request('GET', '/src/_doc/d0')).body._source).toEqual({ ...JSON.parse(RAW[0]), n: 100 });
      const re = await t.request('POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'dst' } });
      expect(re.body.created).toBe(RAW.length);
      for (const i of [1, 2]) expect((await t.request('GET', `/dst/_doc/${ID(i)}`)).body._source).toEqual(JSON.parse(RAW[i]));
    } finally {
      await t.close();
    }
  });
});
