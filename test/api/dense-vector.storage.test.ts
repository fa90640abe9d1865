/**
 * dense_vector storage through the HTTP API: vectors written with `_bulk` land in the segments'
 * vector sections (read back from the flushed segment files, as a knn scorer sees them), survive
 * refresh, deletes with a force-merge, flush, a graceful restart and translog recovery, and are the
 * same with 1 and 3 shards. `_source` stays exactly as sent; `exists`, `fields` and segment memory
 * see the field.
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/dense-vector.html
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBit, isLive, openSegment, readId } from '../../src/index/index.js';
import { ShardStore } from '../../src/storage/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const MAPPING = {
  properties: {
    vec: { type: 'dense_vector', dims: 3 }, // cosine: magnitudes stored
    bv: { type: 'dense_vector', dims: 2, element_type: 'byte', similarity: 'l2_norm' },
    tag: { type: 'keyword' },
  },
};

const DOCS = 30;
const DELETED = ['d3', 'd10', 'd11', 'd24'];

/** Doc k's source: every third without `vec`, every fifth with a null `bv`. */
function source(k: number): Record<string, unknown> {
  const doc: Record<string, unknown> = { tag: `t${k % 4}` };
  if (k % 3 !== 2) doc.vec = [k + 0.5, 0 - k / 8, 1];
  doc.bv = k % 5 === 4 ? null : [k - 15, (k * 7) % 128];
  return doc;
}

/** The vectors the live docs hold, by field and id (floats as Float32 stores them). */
function expected(field: 'vec' | 'bv', ids: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const id of ids) {
    const v = source(Number(id.slice(1)))[field] as number[] | null | undefined;
    if (v) out.set(id, v.map((x) => (field === 'vec' ? Math.fround(x) : x)));
  }
  return out;
}

const liveIds = (extra: readonly string[] = []) => [...Array.from({ length: DOCS }, (_, k) => `d${k}`).filter((id) => !DELETED.includes(id)), ...extra];

interface DiskVectors {
  readonly vectors: Map<string, number[]>;
  readonly magnitudes: Map<string, number>;
  readonly segments: number;
}

/** Every live doc's vector of `field` in the shards' committed (flushed) segment files. */
async function diskVectors(dataDir: string, uuid: string, shards: number, field: string): Promise<DiskVectors> {
  const vectors = new Map<string, number[]>();
  const magnitudes = new Map<string, number>();
  let segments = 0;
  for (let shard = 0; shard < shards; shard++) {
    const store = new ShardStore(join(dataDir, 'indices', uuid, String(shard)));
    const commit = await store.readCommit();
    for (const c of commit?.segments ?? []) {
      segments++;
      const segment = openSegment(c.file, await store.readSegment(c.file));
      const live = c.liveDocsFile === null ? null : await store.readLiveDocs(c.liveDocsFile);
      const f = segment.fields.get(field);
      if (!f) continue;
      const { dims, values } = f.vectors!;
      expect(f.info.dims).toBe(dims);
      for (let d = 0; d < segment.maxDoc; d++) {
        if (!isLive(live, d) || !getBit(f.docsWithField, d)) continue;
        vectors.set(readId(segment, d), [...values.subarray(d * dims, (d + 1) * dims)]);
        if (f.vectors!.magnitudes) magnitudes.set(readId(segment, d), f.vectors!.magnitudes[d]);
      }
    }
  }
  return { vectors, magnitudes, segments };
}

function sorted(m: Map<string, number[]>): Array<[string, number[]]> {
  return [...m].sort(([a], [b]) => a.localeCompare(b));
}

const roots: string[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close().catch(() => undefined);
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<TestApp> {
  const t = await createTestApp({ dataDir });
  apps.push(t);
  return t;
}

async function stop(t: TestApp): Promise<void> {
  apps.splice(apps.indexOf(t), 1);
  await t.close();
}

describe.each([1, 3])('with %i shard(s)', (shards) => {
  let root: string;
  let dataDir: string;
  let t: TestApp;
  let uuid: string;
  const count = async (query: unknown) => (await t.request('POST', '/vectors/_count', { query })).body.count;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dense-vector-storage-'));
    roots.push(root);
    dataDir = join(root, 'data');
    t = await start(dataDir);
    const created = await t.request('PUT', '/vectors', { settings: { number_of_shards: shards, refresh_interval: '-1' }, mappings: MAPPING });
    expect(created.status).toBe(200);
    uuid = (await t.request('GET', '/vectors/_settings')).body.vectors.settings.index.uuid;
    // Two bulks, two refreshes: two segments per shard to merge.
    for (const [from, to] of [[0, 18], [18, DOCS]]) {
      const lines: unknown[] = [];
      for (let k = from; k < to; k++) lines.push({ index: { _id: `d${k}` } }, source(k));
      const res = await t.bulk('/vectors/_bulk', lines, '?refresh=true');
      expect(res.body.errors).toBe(false);
    }
  });

  it('keeps `_source` exactly as sent, in realtime GET and in search', async () => {
    const text = '{"vec":[1.0, 2.50,  -3e0],"tag":"raw"}';
    expect((await t.request('PUT', '/vectors/_doc/raw', text)).status).toBe(201);
    expect((await t.request('GET', '/vectors/_doc/raw')).text).toContain(`"_source":${text}`);
    await t.request('POST', '/vectors/_refresh');
    const hit = await t.request('POST', '/vectors/_search', { query: { term: { tag: 'raw' } }, fields: ['vec'] });
    expect(hit.text).toContain(`"_source":${text}`);
    expect(hit.body.hits.hits[0].fields).toEqual({ vec: [1.0, 2.5, -3] });
    expect((await t.request('DELETE', '/vectors/_doc/raw?refresh=true')).status).toBe(200);
  });

  it('answers `exists` from the docs with a vector, and `fields` from `_source`', async () => {
    expect(await count({ exists: { field: 'vec' } })).toBe(expected('vec', liveIds(DELETED)).size);
    expect(await count({ exists: { field: 'bv' } })).toBe(expected('bv', liveIds(DELETED)).size);
    const res = await t.request('POST', '/vectors/_search', { query: { ids: { values: ['d0', 'd4'] } }, fields: ['vec', 'bv'], sort: ['_doc'], _source: false });
    const byId = Object.fromEntries(res.body.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields]));
    expect(byId).toEqual({ d0: { vec: [0.5, 0, 1], bv: [-15, 0] }, d4: { vec: [4.5, -0.5, 1] } });
  });

  it('copies the live docs\' vectors when deletes are merged away, and flushes them', async () => {
    for (const id of DELETED) expect((await t.request('DELETE', `/vectors/_doc/${id}`)).status).toBe(200);
    expect((await t.request('POST', '/vectors/_forcemerge?max_num_segments=1')).status).toBe(200);
    expect((await t.request('POST', '/vectors/_flush')).status).toBe(200);
    const vec = await diskVectors(dataDir, uuid, shards, 'vec');
    expect(vec.segments).toBe(shards);
    expect(sorted(vec.vectors)).toEqual(sorted(expected('vec', liveIds())));
    for (const [id, v] of vec.vectors) expect(vec.magnitudes.get(id)).toBeCloseTo(Math.hypot(...v), 5);
    const bv = await diskVectors(dataDir, uuid, shards, 'bv');
    expect(bv.magnitudes.size).toBe(0); // l2_norm: no magnitudes
    expect(sorted(bv.vectors)).toEqual(sorted(expected('bv', liveIds())));
    expect(await count({ exists: { field: 'vec' } })).toBe(expected('vec', liveIds()).size);
    if (shards === 1) {
      // One segment of 26 docs: 26 × 3 floats + 26 magnitudes, and 26 × 2 bytes.
      const segments = (await t.request('GET', '/vectors/_stats/segments')).body._all.primaries.segments;
      expect(segments.vectors_memory_in_bytes).toBe(26 * 3 * 4 + 26 * 4 + 26 * 2);
    }
  });

  it('serves the same vectors after a graceful restart and after translog recovery', async () => {
    // Written after the flush: only in the translog.
    const lines: unknown[] = [];
    for (let k = DOCS; k < DOCS + 4; k++) lines.push({ index: { _id: `d${k}` } }, source(k));
    expect((await t.bulk('/vectors/_bulk', lines)).body.errors).toBe(false);
    const newIds = ['d30', 'd31', 'd32', 'd33'];

    // A crash image (translog fsynced, nothing flushed since), then a graceful stop.
    const crashed = join(root, 'crashed');
    cpSync(dataDir, crashed, { recursive: true });
    await stop(t);

    for (const dir of [dataDir, crashed]) {
      t = await start(dir);
      await t.request('POST', '/vectors/_refresh');
      expect(await count({ exists: { field: 'vec' } })).toBe(expected('vec', liveIds(newIds)).size);
      expect((await t.request('GET', '/vectors/_doc/d31')).body._source).toEqual(source(31));
      expect((await t.request('GET', '/vectors/_mapping')).body.vectors.mappings).toEqual({
        properties: {
          bv: { type: 'dense_vector', element_type: 'byte', dims: 2, index: true, similarity: 'l2_norm' },
          tag: { type: 'keyword' },
          vec: { type: 'dense_vector', dims: 3, index: true, similarity: 'cosine', index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 } },
        },
      });
      expect((await t.request('POST', '/vectors/_flush')).status).toBe(200);
      expect(sorted((await diskVectors(dir, uuid, shards, 'vec')).vectors)).toEqual(sorted(expected('vec', liveIds(newIds))));
      expect(sorted((await diskVectors(dir, uuid, shards, 'bv')).vectors)).toEqual(sorted(expected('bv', liveIds(newIds))));
      if (dir === dataDir) await stop(t);
    }
  });
});

describe('dims set by the first document', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dense-vector-dims-'));
    roots.push(root);
    t = await start(join(root, 'data'));
  });

  it('become part of the mapping, kept across a restart, and bind later documents', async () => {
    expect((await t.request('PUT', '/later', { settings: { number_of_shards: 2 }, mappings: { properties: { v: { type: 'dense_vector', similarity: 'l2_norm' } } } })).status).toBe(200);
    expect((await t.request('GET', '/later/_mapping')).body.later.mappings.properties.v)
      .toEqual({ type: 'dense_vector', index: true, similarity: 'l2_norm', index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 } });
    expect((await t.request('PUT', '/later/_doc/1?refresh=true', { v: [0, 0, 1, 2] })).status).toBe(201);
    const v = { type: 'dense_vector', dims: 4, index: true, similarity: 'l2_norm', index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 } };
    expect((await t.request('GET', '/later/_mapping')).body.later.mappings.properties.v).toEqual(v);
    expect(await (async () => (await t.request('POST', '/later/_count', { query: { exists: { field: 'v' } } })).body.count)()).toBe(1);
    await stop(t);
    t = await start(join(root, 'data'));
    expect((await t.request('GET', '/later/_mapping')).body.later.mappings.properties.v).toEqual(v);
    const res = await t.request('PUT', '/later/_doc/2', { v: [1, 2, 3] });
    expect(res.status).toBe(400);
    expect(res.body.error.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: "The [dense_vector] field [v] in doc [document with id '2'] has a different number of dimensions [3] than defined in the mapping [4]",
    });
  });
});
