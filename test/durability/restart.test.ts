/**
 * Durability inside one process: a node restarted on its data directory — after a graceful
 * shutdown, or from a copy taken while it was running (what a crash leaves on disk: every
 * acknowledged write's translog record is fsynced, nothing was flushed) — serves exactly what was
 * acknowledged. Damaged files are reported, quarantined, and cost only what they held.
 * The real SIGKILL test is crash.test.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeOp } from '../../src/storage/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let root: string;
const open: TestApp[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'durability-test-'));
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

async function start(dir = join(root, 'data')): Promise<TestApp> {
  const t = await createTestApp({ dataDir: dir });
  open.push(t);
  return t;
}

async function stop(t: TestApp): Promise<void> {
  open.splice(open.indexOf(t), 1);
  await t.close();
}

/** The on-disk image of a running node, as a crash would leave it. */
function crashImage(name = 'crashed'): string {
  const dest = join(root, name);
  cpSync(join(root, 'data'), dest, { recursive: true });
  return dest;
}

async function allDocs(t: TestApp, index: string): Promise<Record<string, unknown>> {
  await t.request('POST', `/${index}/_refresh`);
  const res = await t.request('POST', `/${index}/_search`, { size: 10_000, query: { match_all: {} }, sort: ['_doc'] });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.hits.hits.map((h: { _id: string; _source: unknown }) => [h._id, h._source]));
}

function shardDir(dataDir: string, uuid: string, shard = 0): string {
  return join(dataDir, 'indices', uuid, String(shard));
}

async function uuidOf(t: TestApp, index: string): Promise<string> {
  return (await t.request('GET', `/${index}/_settings`)).body[index].settings.index.uuid;
}

async function seed(t: TestApp, index: string, from: number, to: number, shards = 1): Promise<void> {
  if (from === 0) {
    const created = await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards, refresh_interval: '-1' } });
    expect(created.status).toBe(200);
  }
  const lines: unknown[] = [];
  for (let i = from; i < to; i++) lines.push({ index: { _id: `d${i}` } }, { n: i, text: `document number ${i}` });
  const res = await t.bulk(`/${index}/_bulk`, lines);
  expect(res.body.errors).toBe(false);
}

describe('restart after a graceful shutdown', () => {
  it('keeps indices, settings, mappings, documents, versions and sequence numbers', async () => {
    const a = await start();
    await a.request('PUT', '/books', {
      settings: { number_of_shards: 3, refresh_interval: '5s', 'index.translog.durability': 'async' },
      mappings: { date_detection: false, dynamic_date_formats: ['yyyy-MM-dd'], properties: { title: { type: 'text', analyzer: 'english' } } },
    });
    for (let i = 0; i < 30; i++) await a.request('PUT', `/books/_doc/b${i}`, { title: `running book ${i}`, year: 1990 + i, tag: `t${i % 3}` });
    await a.request('POST', '/books/_update/b1', { doc: { title: 'updated title' } });
    await a.request('DELETE', '/books/_doc/b2');
    await a.request('POST', '/books/_refresh');
    const before = {
      mapping: (await a.request('GET', '/books/_mapping')).body,
      settings: (await a.request('GET', '/books/_settings')).body,
      docs: await allDocs(a, 'books'),
      b1: (await a.request('GET', '/books/_doc/b1')).body,
      search: (await a.request('POST', '/books/_search', { query: { match: { title: 'run' } } })).body.hits,
      cluster: (await a.request('GET', '/')).body.cluster_uuid,
    };
    await stop(a);

    const b = await start();
    // A graceful shutdown flushes: nothing is left to replay.
    expect([...b.app.recovery.perIndex.values()].map((r) => r.replayed)).toEqual([0]);
    expect((await b.request('GET', '/books/_mapping')).body).toEqual(before.mapping);
    expect((await b.request('GET', '/books/_settings')).body).toEqual(before.settings);
    expect(await allDocs(b, 'books')).toEqual(before.docs);
    expect(Object.keys(before.docs)).toHaveLength(29);
    expect((await b.request('GET', '/books/_doc/b1')).body).toEqual(before.b1);
    expect((await b.request('POST', '/books/_search', { query: { match: { title: 'run' } } })).body.hits).toEqual(before.search);
    expect((await b.request('GET', '/')).body.cluster_uuid).toBe(before.cluster);
    // Writes continue the sequence: versions and seq_no never go back.
    const next = await b.request('PUT', '/books/_doc/b1', { title: 'again' });
    expect(next.body._version).toBe(before.b1._version + 1);
    expect(next.body._seq_no).toBeGreaterThan(before.b1._seq_no);
    expect((await b.request('GET', '/_cluster/health')).body.status).toBe('yellow');
  });

  it('removes a deleted index for good and lets its name be reused', async () => {
    const a = await start();
    await seed(a, 'gone', 0, 5);
    const uuid = await uuidOf(a, 'gone');
    await a.request('DELETE', '/gone');
    expect(existsSync(join(root, 'data', 'indices', uuid))).toBe(false);
    await seed(a, 'gone', 0, 2);
    await stop(a);
    const b = await start();
    expect(Object.keys(await allDocs(b, 'gone')).sort()).toEqual(['d0', 'd1']);
  });

  it('refuses a second node on the same data directory', async () => {
    await start();
    await expect(createTestApp({ dataDir: join(root, 'data') })).rejects.toThrow(/in use/);
  });
});

describe('restart after a crash (the disk image of a running node)', () => {
  it('replays the translog: every acknowledged write is back, with its mapping', async () => {
    const a = await start();
    await seed(a, 'logs', 0, 50, 2);
    await a.request('POST', '/logs/_flush');
    await seed(a, 'logs', 50, 80);
    // Writes after the flush touch flushed documents too: deletes, updates, re-indexing.
    await a.request('DELETE', '/logs/_doc/d3');
    await a.request('POST', '/logs/_update/d4', { doc: { text: 'changed after flush', newfield: true } });
    await a.request('PUT', '/logs/_doc/d60', { n: -60, text: 'replaced' });
    await a.request('PUT', '/fresh/_doc/x', { created: 'by auto-create' });
    const expected = await allDocs(a, 'logs');
    const mapping = (await a.request('GET', '/logs/_mapping')).body;
    const d4 = (await a.request('GET', '/logs/_doc/d4')).body;

    const b = await start(crashImage());
    expect(b.app.recovery.perIndex.get('logs')!.replayed).toBeGreaterThan(0);
    expect(await allDocs(b, 'logs')).toEqual(expected);
    expect(expected.d3).toBeUndefined();
    expect((await b.request('GET', '/logs/_mapping')).body).toEqual(mapping);
    expect((await b.request('GET', '/logs/_doc/d4')).body).toEqual(d4);
    expect(await allDocs(b, 'fresh')).toEqual({ x: { created: 'by auto-create' } });
    expect((await b.request('GET', '/_cluster/health')).body.status).not.toBe('red');
  });

  it('removes the directory of an index whose creation was never acknowledged', async () => {
    const a = await start();
    await seed(a, 'kept', 0, 1);
    const image = crashImage();
    mkdirSync(join(image, 'indices', 'never-created-uuid', '0'), { recursive: true });
    const b = await start(image);
    expect(b.app.recovery.removedOrphans).toEqual(['never-created-uuid']);
    expect(readdirSync(join(image, 'indices'))).toEqual([await uuidOf(b, 'kept')]);
  });
});

describe('flush', () => {
  it('POST /<index>/_flush commits segments and trims the translog', async () => {
    const a = await start();
    await seed(a, 'f', 0, 20);
    const dir = shardDir(join(root, 'data'), await uuidOf(a, 'f'));
    const res = await a.request('POST', '/f/_flush');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _shards: { total: 2, successful: 1, failed: 0 } });
    const files = readdirSync(dir).sort();
    expect(files).toContain('commit.json');
    expect(files.filter((f) => f.endsWith('.tseg'))).toHaveLength(1);
    // Only the fresh generation is left, holding nothing but its header.
    const logs = files.filter((f) => f.endsWith('.tlog'));
    expect(logs).toHaveLength(1);
    expect(statSync(join(dir, logs[0])).size).toBe(16);
    expect((await a.request('GET', '/_flush')).status).toBe(200);
    expect((await a.request('POST', '/missing/_flush')).status).toBe(404);
  });

  it('rejects bad parameters and translog settings with ES errors', async () => {
    const a = await start();
    expect((await a.request('POST', '/_flush?wait_if_ongoing=maybe')).body.error.reason).toBe('Failed to parse value [maybe] only [true] or [false] are allowed.');
    expect((await a.request('POST', '/_flush?bogus=1')).status).toBe(400);
    const bad = async (settings: Record<string, unknown>) => (await a.request('PUT', '/t', { settings })).body.error.reason;
    expect(await bad({ 'index.translog.durability': 'bogus' })).toBe('No enum constant org.elasticsearch.index.translog.Translog.Durability.BOGUS');
    expect(await bad({ 'index.translog.sync_interval': '10ms' })).toBe('failed to parse value [10ms] for setting [index.translog.sync_interval], must be >= [100ms]');
    expect(await bad({ 'index.translog.sync_interval': '1x' })).toMatch(/as a time value: unit is missing or unrecognized/);
    expect(await bad({ 'index.translog.flush_threshold_size': 'lots' })).toMatch(/as a size in bytes/);
    expect((await a.request('GET', '/t')).status).toBe(404);
  });

  it('happens on its own when the translog passes index.translog.flush_threshold_size', async () => {
    const a = await start();
    await a.request('PUT', '/auto', { settings: { number_of_shards: 1, 'index.translog.flush_threshold_size': '2kb' } });
    const dir = shardDir(join(root, 'data'), await uuidOf(a, 'auto'));
    for (let i = 0; i < 40; i++) await a.request('PUT', `/auto/_doc/${i}`, { text: 'x'.repeat(100) });
    await expect.poll(() => existsSync(join(dir, 'commit.json')), { timeout: 5000 }).toBe(true);
  });
});

describe('damaged files', () => {
  /** One index, one shard: 10 documents flushed into a segment, 5 more only in the translog. */
  async function damagedSetup(): Promise<{ image: string; dir: string }> {
    const a = await start();
    await seed(a, 'idx', 0, 10);
    await a.request('POST', '/idx/_flush');
    await seed(a, 'idx', 10, 15);
    const uuid = await uuidOf(a, 'idx');
    const image = crashImage();
    return { image, dir: shardDir(image, uuid) };
  }

  const ids = (docs: Record<string, unknown>) => Object.keys(docs).sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)));
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `d${from + i}`);

  it('a segment file with a flipped byte: reported, quarantined, red; the translog is still replayed', async () => {
    const { image, dir } = await damagedSetup();
    const seg = readdirSync(dir).find((f) => f.endsWith('.tseg'))!;
    const bytes = readFileSync(join(dir, seg));
    bytes[bytes.length >> 1] ^= 0x40;
    writeFileSync(join(dir, seg), bytes);

    const b = await start(image);
    const r = b.app.recovery.perIndex.get('idx')!;
    expect(r.lostDocs).toBe(10);
    expect(r.problems.join('\n')).toMatch(new RegExp(`corrupt file \\[${seg}\\]: checksum mismatch.*10 documents cannot be recovered`));
    expect(ids(await allDocs(b, 'idx'))).toEqual(range(10, 15));
    expect((await b.request('GET', '/_cluster/health')).body.status).toBe('red');
    expect(existsSync(join(dir, 'corrupted', seg))).toBe(true);
    await stop(b);

    // What was recovered was committed: the next start is clean (and green).
    const c = await start(image);
    expect(c.app.recovery.perIndex.get('idx')!.problems).toEqual([]);
    expect(ids(await allDocs(c, 'idx'))).toEqual(range(10, 15));
    expect((await c.request('GET', '/_cluster/health')).body.status).not.toBe('red');
  });

  it('a truncated segment file is reported as truncated', async () => {
    const { image, dir } = await damagedSetup();
    const seg = readdirSync(dir).find((f) => f.endsWith('.tseg'))!;
    truncateSync(join(dir, seg), statSync(join(dir, seg)).size - 100);
    const b = await start(image);
    expect(b.app.recovery.perIndex.get('idx')!.problems.join()).toMatch(/truncated/);
    expect(ids(await allDocs(b, 'idx'))).toEqual(range(10, 15));
  });

  it('a torn last translog record (a write that never completed) is discarded with no loss', async () => {
    const { image, dir } = await damagedSetup();
    const log = readdirSync(dir).filter((f) => f.endsWith('.tlog')).sort().at(-1)!;
    // Cut into the last record, as a crash during its write would.
    truncateSync(join(dir, log), statSync(join(dir, log)).size - 7);
    const b = await start(image);
    const r = b.app.recovery.perIndex.get('idx')!;
    expect(r.lostOps).toBe(0);
    expect(r.problems.join()).toMatch(/torn last record/);
    expect(ids(await allDocs(b, 'idx'))).toEqual(range(0, 14));
    expect((await b.request('GET', '/_cluster/health')).body.status).not.toBe('red');
  });

  it('a damaged translog record in the middle costs that write only, and is reported', async () => {
    const { image, dir } = await damagedSetup();
    const log = readdirSync(dir).filter((f) => f.endsWith('.tlog')).sort().at(-1)!;
    const bytes = readFileSync(join(dir, log));
    // The second record (d11) of the generation: header, first record, then its frame.
    const first = encodeOp({ op: 'index', seqNo: 10, version: 1, indexOrder: 10, id: 'd10', source: '{"n":10,"text":"document number 10"}' }).length;
    bytes[16 + first + 8 + 5] ^= 0xff;
    writeFileSync(join(dir, log), bytes);
    const b = await start(image);
    const r = b.app.recovery.perIndex.get('idx')!;
    expect(r.lostOps).toBe(1);
    expect(ids(await allDocs(b, 'idx'))).toEqual([...range(0, 11), ...range(12, 15)]);
    expect((await b.request('GET', '/_cluster/health')).body.status).toBe('red');
  });

  it('an unreadable commit point: segment files are set aside, the translog is replayed, red', async () => {
    const { image, dir } = await damagedSetup();
    writeFileSync(join(dir, 'commit.json'), '{"version":1,"checkpoint":9,"segm');
    const b = await start(image);
    const r = b.app.recovery.perIndex.get('idx')!;
    expect(r.problems.join()).toMatch(/commit\.json.*moved to corrupted/);
    expect(ids(await allDocs(b, 'idx'))).toEqual(range(10, 15));
    expect(readdirSync(join(dir, 'corrupted')).some((f) => f.endsWith('.tseg'))).toBe(true);
    expect((await b.request('GET', '/_cluster/health')).body.status).toBe('red');
  });
});
