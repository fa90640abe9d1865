/**
 * Snapshot and restore on a shared-filesystem repository: registration under `path.repo` (and
 * ES's refusals), create/list/status/restore/delete, incremental copies (an unchanged index copies
 * no segment file again), garbage collection on delete, restores into a fresh data directory with
 * byte-identical search results, a failure just before the root swap leaving the repository as it
 * was, and ES-shaped errors for bad input.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';
import { expectErrorType } from './es.js';

let root: string;
let repoRoot: string;
const open: TestApp[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
  repoRoot = join(root, 'repos');
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

async function start(name = 'data', options: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp({ dataDir: join(root, name), config: { pathRepo: [repoRoot] }, ...options });
  open.push(t);
  return t;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

async function seed(t: TestApp, index: string, from: number, to: number, shards = 2): Promise<void> {
  if (from === 0) {
    const res = await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards, refresh_interval: '-1' },
      mappings: { properties: { title: { type: 'text' }, n: { type: 'integer' }, tag: { type: 'keyword' } } },
      aliases: { [`${index}-alias`]: {} },
    });
    expect(res.status).toBe(200);
  }
  const lines: unknown[] = [];
  for (let i = from; i < to; i++) {
    lines.push({ index: { _index: index, _id: `d${i}` } }, { title: `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} ${WORDS[(i * 3) % 10]}`, n: i, tag: WORDS[i % 3] });
  }
  const res = await t.bulk('/_bulk', lines, '?refresh=true');
  expect(res.body.errors).toBe(false);
}

async function putRepo(t: TestApp, name = 'backup', location = 'backup'): Promise<void> {
  const res = await t.request('PUT', `/_snapshot/${name}`, { type: 'fs', settings: { location } });
  expect(res.body).toEqual({ acknowledged: true });
}

async function snapshot(t: TestApp, snap: string, body: unknown = {}, repo = 'backup'): Promise<any> {
  const res = await t.request('PUT', `/_snapshot/${repo}/${snap}?wait_for_completion=true`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.snapshot;
}

async function status(t: TestApp, snap: string, repo = 'backup'): Promise<any> {
  const res = await t.request('GET', `/_snapshot/${repo}/${snap}/_status`);
  expect(res.status).toBe(200);
  return res.body.snapshots[0];
}

/** The exact response text of a few searches (scores, order, sources, aggregations). */
async function searches(t: TestApp, index: string): Promise<string[]> {
  const bodies = [
    { query: { match: { title: 'alpha charlie' } }, size: 20 },
    { query: { bool: { must: [{ match: { title: 'echo' } }], filter: [{ range: { n: { gte: 10 } } }] } }, size: 5, sort: [{ n: 'desc' }] },
    { size: 0, aggs: { tags: { terms: { field: 'tag' } }, total: { sum: { field: 'n' } } } },
  ];
  const out: string[] = [];
  for (const body of bodies) {
    const res = await t.request('POST', `/${index}/_search`, body);
    expect(res.status).toBe(200);
    const { took: _took, ...rest } = res.body;
    out.push(JSON.stringify(rest).replaceAll(`"_index":"${index}"`, '"_index":"X"'));
  }
  return out;
}

function blobCount(location = join(repoRoot, 'backup')): number {
  return readdirSync(join(location, 'blobs')).filter((f) => !f.endsWith('.tmp')).length;
}

describe('repositories', () => {
  it('registers an fs repository under path.repo and shows it as ES does', async () => {
    const t = await start();
    await putRepo(t);
    expect(existsSync(join(repoRoot, 'backup'))).toBe(true);
    expect((await t.request('GET', '/_snapshot/backup')).body).toEqual({ backup: { type: 'fs', settings: { location: 'backup' } } });
    expect((await t.request('GET', '/_snapshot')).body).toEqual({ backup: { type: 'fs', settings: { location: 'backup' } } });
    expect((await t.request('GET', '/_snapshot/_all')).body).toHaveProperty('backup');
    const verify = await t.request('POST', '/_snapshot/backup/_verify');
    expect(verify.status).toBe(200);
    expect(Object.values(verify.body.nodes)).toEqual([{ name: 'threadsearch-0' }]);
    // An absolute location under path.repo is accepted too.
    await putRepo(t, 'abs', join(repoRoot, 'abs'));
    expect((await t.request('DELETE', '/_snapshot/abs')).body).toEqual({ acknowledged: true });
    expectErrorType(await t.request('GET', '/_snapshot/abs'), 404, 'repository_missing_exception', '[abs] missing');
  });

  it('refuses a location outside path.repo (traversal included) with ES error', async () => {
    const t = await start();
    for (const location of ['/etc', '../outside', 'backup/../../outside', join(root, 'elsewhere')]) {
      const res = await t.request('PUT', '/_snapshot/bad', { type: 'fs', settings: { location } });
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({
        type: 'repository_exception',
        reason: '[bad] failed to create repository',
        caused_by: { type: 'repository_exception', reason: `[bad] location [${location}] doesn't match any of the locations specified by path.repo` },
      });
      expect(res.body.error.root_cause[0].reason).toBe(`[bad] location [${location}] doesn't match any of the locations specified by path.repo`);
    }
    expect(existsSync(join(root, 'outside'))).toBe(false);
    expectErrorType(await t.request('GET', '/_snapshot/bad'), 404, 'repository_missing_exception');
  });

  it('refuses every location when path.repo is not set', async () => {
    const t = await createTestApp({ dataDir: join(root, 'nopath') });
    open.push(t);
    const res = await t.request('PUT', '/_snapshot/r', { type: 'fs', settings: { location: '/tmp/x' } });
    expect(res.status).toBe(500);
    expect(res.body.error.caused_by.reason).toBe("[r] location [/tmp/x] doesn't match any of the locations specified by path.repo because this setting is empty");
  });

  it('answers bad repository requests with ES errors', async () => {
    const t = await start();
    expectErrorType(await t.request('PUT', '/_snapshot/r', { type: 's3', settings: { bucket: 'b' } }), 500, 'repository_exception', '[r] repository type [s3] does not exist');
    expectErrorType(await t.request('PUT', '/_snapshot/r', { settings: { location: 'x' } }), 400, 'action_request_validation_exception', 'Validation Failed: 1: type is missing;');
    expectErrorType(await t.request('PUT', '/_snapshot/r', { type: 'fs', settings: 'x' }), 400, 'illegal_argument_exception', 'Malformed settings section, should include an inner object');
    expectErrorType(await t.request('PUT', '/_snapshot/r', { type: 'fs', settings: { location: 'x' }, setings: {} }), 400, 'illegal_argument_exception', 'unknown key [setings] for a repository definition');
    expectErrorType(await t.request('PUT', '/_snapshot/r', { type: 'fs', settings: {} }), 500, 'repository_exception', '[r] failed to create repository');
    expectErrorType(await t.request('PUT', '/_snapshot/r', '{"type": "fs", '), 400, 'x_content_parse_exception');
    expectErrorType(await t.request('PUT', '/_snapshot/r', '[1]'), 400, 'parsing_exception');
    expectErrorType(await t.request('PUT', '/_snapshot/a%23b', { type: 'fs', settings: { location: 'x' } }), 500, 'repository_exception', "[a#b] must not contain '#'");
    expectErrorType(await t.request('PUT', '/_snapshot/a%2Fb', { type: 'fs', settings: { location: 'x' } }), 500, 'repository_exception', /^\[a\/b\] must not contain the following characters/);
    expectErrorType(await t.request('GET', '/_snapshot/nope'), 404, 'repository_missing_exception', '[nope] missing');
    expectErrorType(await t.request('DELETE', '/_snapshot/nope'), 404, 'repository_missing_exception', '[nope] missing');
    expectErrorType(await t.request('PUT', '/_snapshot/nope/s1?wait_for_completion=true'), 404, 'repository_missing_exception', '[nope] missing');
  });
});

describe('snapshots', () => {
  it('creates, lists, restores (with a rename) and deletes; an unchanged index copies no segment file again', async () => {
    const t = await start();
    await seed(t, 'books', 0, 60);
    await putRepo(t);

    const first = await snapshot(t, 'snap-1', { indices: 'books', metadata: { taken_by: 'test' } });
    expect(first).toMatchObject({
      snapshot: 'snap-1', repository: 'backup', indices: ['books'], data_streams: [], include_global_state: true, state: 'SUCCESS',
      metadata: { taken_by: 'test' }, failures: [], shards: { total: 2, failed: 0, successful: 2 }, feature_states: [],
    });
    expect(first.uuid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.end_time_in_millis).toBeGreaterThanOrEqual(first.start_time_in_millis);
    const s1 = await status(t, 'snap-1');
    expect(s1).toMatchObject({ snapshot: 'snap-1', repository: 'backup', state: 'SUCCESS', shards_stats: { done: 2, total: 2, failed: 0 } });
    expect(s1.stats.incremental.file_count).toBeGreaterThan(0);
    expect(s1.stats.incremental).toEqual(s1.stats.total);
    expect(s1.indices.books.shards['0'].stage).toBe('DONE');
    const blobsAfterFirst = blobCount();
    expect(blobsAfterFirst).toBe(s1.stats.total.file_count);

    // The second snapshot of the unchanged index copies nothing.
    await snapshot(t, 'snap-2', { indices: ['books'] });
    const s2 = await status(t, 'snap-2');
    expect(s2.stats.incremental).toEqual({ file_count: 0, size_in_bytes: 0 });
    expect(s2.stats.total).toEqual(s1.stats.total);
    expect(blobCount()).toBe(blobsAfterFirst);

    // New documents: only the new segments are copied.
    await seed(t, 'books', 60, 70);
    await snapshot(t, 'snap-3', { indices: 'books' });
    const s3 = await status(t, 'snap-3');
    expect(s3.stats.incremental.file_count).toBeGreaterThan(0);
    expect(s3.stats.incremental.file_count).toBeLessThan(s3.stats.total.file_count);
    expect(blobCount()).toBe(blobsAfterFirst + s3.stats.incremental.file_count);

    const list = await t.request('GET', '/_snapshot/backup/_all');
    expect(list.body.snapshots.map((s: any) => s.snapshot)).toEqual(['snap-1', 'snap-2', 'snap-3']);
    expect(list.body).toMatchObject({ total: 3, remaining: 0 });
    expect((await t.request('GET', '/_snapshot/backup/snap-*?order=desc')).body.snapshots.map((s: any) => s.snapshot)).toEqual(['snap-3', 'snap-2', 'snap-1']);
    expect((await t.request('GET', '/_snapshot/backup/snap-1?verbose=false')).body.snapshots[0]).toEqual({
      snapshot: 'snap-1', uuid: first.uuid, repository: 'backup', indices: ['books'], data_streams: [], state: 'SUCCESS',
    });
    const cat = await t.request('GET', '/_cat/snapshots/backup?h=id,repository,status,indices,successful_shards,total_shards');
    expect(cat.text.trim().split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['snap-1', 'backup', 'SUCCESS', '1', '2', '2'], ['snap-2', 'backup', 'SUCCESS', '1', '2', '2'], ['snap-3', 'backup', 'SUCCESS', '1', '2', '2'],
    ]);

    // Restore snap-1 under a new name: its 60 documents, with its alias renamed along.
    const before = await searches(t, 'books');
    const restored = await t.request('POST', '/_snapshot/backup/snap-1/_restore?wait_for_completion=true', {
      indices: 'books', rename_pattern: '(.+)', rename_replacement: 'restored_$1', include_aliases: false,
    });
    expect(restored.body).toEqual({ snapshot: { snapshot: 'snap-1', indices: ['restored_books'], shards: { total: 2, failed: 0, successful: 2 } } });
    expect((await t.request('GET', '/restored_books/_count')).body.count).toBe(60);
    expect((await t.request('GET', '/restored_books/_alias')).body).toEqual({ restored_books: { aliases: {} } });
    // The restored index takes writes after the restored ones (seq_no continues).
    const write = await t.request('PUT', '/restored_books/_doc/new?refresh=true', { title: 'zulu', n: 1000 });
    expect(write.status).toBe(201);
    expect(write.body._seq_no).toBeGreaterThan(0);

    // Restoring over an open index is refused as ES does.
    const clash = await t.request('POST', '/_snapshot/backup/snap-3/_restore?wait_for_completion=true', { indices: 'books' });
    expectErrorType(clash, 500, 'snapshot_restore_exception');
    const uuid3 = (await t.request('GET', '/_snapshot/backup/snap-3')).body.snapshots[0].uuid;
    expect(clash.body.error.reason).toBe(`[backup:snap-3/${uuid3}] cannot restore index [books] because an open index with same name already exists in the cluster. Either close or delete the existing index or restore the index under a different name by providing a rename pattern and replacement name`);

    // Delete the live index and restore snap-3: identical search results, aliases back.
    expect((await t.request('DELETE', '/books')).status).toBe(200);
    const back = await t.request('POST', '/_snapshot/backup/snap-3/_restore?wait_for_completion=true');
    expect(back.body.snapshot.indices).toEqual(['books']);
    expect(await searches(t, 'books')).toEqual(before);
    expect((await t.request('GET', '/books/_alias')).body).toEqual({ books: { aliases: { 'books-alias': {} } } });

    // Deleting snapshots keeps the others restorable and removes blobs no snapshot references.
    expect((await t.request('DELETE', '/_snapshot/backup/snap-1')).body).toEqual({ acknowledged: true });
    expect(blobCount()).toBe(s3.stats.total.file_count);
    await t.request('DELETE', '/restored_books');
    const again = await t.request('POST', '/_snapshot/backup/snap-2/_restore?wait_for_completion=true', { rename_pattern: 'books', rename_replacement: 'books2' });
    expect(again.body.snapshot.indices).toEqual(['books2']);
    expect((await t.request('GET', '/books2/_count')).body.count).toBe(60);
    expect((await t.request('DELETE', '/_snapshot/backup/snap-2,snap-3')).body).toEqual({ acknowledged: true });
    expect(blobCount()).toBe(0);
    expect((await t.request('GET', '/_snapshot/backup/_all')).body).toEqual({ snapshots: [], total: 0, remaining: 0 });
    expectErrorType(await t.request('GET', '/_snapshot/backup/snap-1'), 404, 'snapshot_missing_exception', '[backup:snap-1] is missing');
  });

  it('runs in the background without wait_for_completion and reports progress through GET and _status', async () => {
    const t = await start();
    await seed(t, 'logs', 0, 30, 1);
    await putRepo(t);
    const res = await t.request('PUT', '/_snapshot/backup/bg');
    expect(res.body).toEqual({ accepted: true });
    let state = '';
    for (let i = 0; i < 200 && state !== 'SUCCESS'; i++) {
      const got = await t.request('GET', '/_snapshot/backup/bg');
      state = got.body.snapshots[0].state;
      expect(['IN_PROGRESS', 'SUCCESS']).toContain(state);
      if (state !== 'SUCCESS') await new Promise((r) => setTimeout(r, 10));
    }
    expect(state).toBe('SUCCESS');
    expect((await t.request('GET', '/_snapshot/_status')).body).toEqual({ snapshots: [] });
    await t.request('DELETE', '/logs');
    expect((await t.request('POST', '/_snapshot/backup/bg/_restore')).body).toEqual({ accepted: true });
    await t.app.snapshots.drain();
    expect((await t.request('GET', '/logs/_count')).body.count).toBe(30);
  });

  it('restores into a fresh data directory with byte-identical search results, pipelines with the global state', async () => {
    const a = await start('node-a');
    expect((await a.request('PUT', '/_ingest/pipeline/tagger', { processors: [{ set: { field: 'tag', value: 'piped' } }] })).status).toBe(200);
    await seed(a, 'books', 0, 80);
    // Deletes and updates leave live-docs files in the commit: they must survive too.
    await a.request('DELETE', '/books/_doc/d3?refresh=true');
    await a.request('PUT', '/books/_doc/d4?refresh=true', { title: 'alpha alpha', n: 4, tag: 'x' });
    await putRepo(a);
    await snapshot(a, 'full');
    const expected = await searches(a, 'books');
    await a.close();
    open.splice(open.indexOf(a), 1);

    const b = await start('node-b');
    await putRepo(b);
    expect((await b.request('GET', '/_snapshot/backup/_all')).body.snapshots.map((s: any) => s.snapshot)).toEqual(['full']);
    const res = await b.request('POST', '/_snapshot/backup/full/_restore?wait_for_completion=true', { include_global_state: true });
    expect(res.body.snapshot.indices).toEqual(['books']);
    expect(await searches(b, 'books')).toEqual(expected);
    expect((await b.request('GET', '/books/_count')).body.count).toBe(79);
    expect((await b.request('GET', '/_ingest/pipeline/tagger')).body.tagger.processors).toEqual([{ set: { field: 'tag', value: 'piped' } }]);
    // The restored index survives a restart of node b (it is durable like any other).
    await b.close();
    open.splice(open.indexOf(b), 1);
    const b2 = await start('node-b');
    expect(await searches(b2, 'books')).toEqual(expected);
  });

  it('a failure after the blobs are written and before the root swap leaves the repository readable and older snapshots restorable', async () => {
    let failNext = false;
    const t = await start('data', {
      appOptions: {
        snapshots: {
          beforeRootSwap: () => {
            if (failNext) throw new Error('injected crash before the root swap');
          },
        },
      },
    });
    await seed(t, 'books', 0, 50);
    await putRepo(t);
    await snapshot(t, 'good');
    const expected = await searches(t, 'books');
    const goodBlobs = blobCount();
    await seed(t, 'books', 50, 90);
    failNext = true;
    const crashed = await t.request('PUT', '/_snapshot/backup/crashed?wait_for_completion=true');
    expect(crashed.status).toBe(500);
    failNext = false;
    // The crashed run's blobs and metadata are on disk, but the root does not name them.
    expect(blobCount()).toBeGreaterThan(goodBlobs);
    expect(readdirSync(join(repoRoot, 'backup')).filter((f) => f.startsWith('snap-'))).toHaveLength(2);

    // A node that never saw the crash (a fresh data directory) reads the repository as before it.
    const other = await start('other');
    await putRepo(other);
    const listed = await other.request('GET', '/_snapshot/backup/_all');
    expect(listed.body.snapshots.map((s: any) => s.snapshot)).toEqual(['good']);
    expectErrorType(await other.request('GET', '/_snapshot/backup/crashed'), 404, 'snapshot_missing_exception');
    await other.request('POST', '/_snapshot/backup/good/_restore?wait_for_completion=true');
    expect(await searches(other, 'books')).toEqual(expected);

    // The name is free again, and the next deletion collects what the crashed run left.
    await snapshot(t, 'crashed');
    await t.request('DELETE', '/_snapshot/backup/crashed');
    expect(blobCount()).toBe(goodBlobs);
    expect(readdirSync(join(repoRoot, 'backup')).filter((f) => f.startsWith('snap-'))).toHaveLength(1);
  });

  it('answers bad snapshot requests with ES errors', async () => {
    const t = await start();
    await seed(t, 'books', 0, 5, 1);
    await putRepo(t);
    const invalid = async (snap: string, why: string) => {
      const res = await t.request('PUT', `/_snapshot/backup/${encodeURIComponent(snap)}?wait_for_completion=true`);
      expectErrorType(res, 400, 'invalid_snapshot_name_exception', `[backup:${snap}] Invalid snapshot name [${snap}], ${why}`);
    };
    await invalid('Upper', 'must be lowercase');
    await invalid('_under', "must not start with '_'");
    await invalid('a b', 'must not contain whitespace');
    await invalid('a#b', "must not contain '#'");
    await invalid('a,b', "must not contain ','");
    await invalid('../x', 'must not contain the following characters [\\, /, *, ?, ", <, >, |,  , ,]');
    await snapshot(t, 's1');
    await invalid('s1', 'snapshot with the same name already exists');

    const bad = (body: unknown) => t.request('PUT', '/_snapshot/backup/s2?wait_for_completion=true', body);
    expectErrorType(await bad({ indices: 5 }), 400, 'illegal_argument_exception', 'malformed indices section, should be an array of strings');
    expectErrorType(await bad({ metadata: 'x' }), 400, 'illegal_argument_exception', 'malformed metadata, should be an object');
    expectErrorType(await bad({ include_global_state: 'yes' }), 400, 'illegal_argument_exception', 'Could not convert [include_global_state] to boolean');
    expectErrorType(await bad({ indeces: 'books' }), 400, 'illegal_argument_exception', 'unknown key [indeces] for a create snapshot request');
    expectErrorType(await bad({ metadata: { big: 'x'.repeat(2000) } }), 400, 'action_request_validation_exception', /^Validation Failed: 1: metadata must be smaller than 1024 bytes/);
    expectErrorType(await bad({ indices: 'nope' }), 404, 'index_not_found_exception', 'no such index [nope]');
    expectErrorType(await bad('{"indices": '), 400, 'x_content_parse_exception');
    expectErrorType(await t.request('PUT', '/_snapshot/backup/s2?wait_for_completion=maybe'), 400, 'illegal_argument_exception');
    expectErrorType(await t.request('PUT', '/_snapshot/backup/s2?wait_for_complet=true'), 400, 'illegal_argument_exception', /contains unrecognized parameter: \[wait_for_complet\]/);

    const restore = (body: unknown, snap = 's1') => t.request('POST', `/_snapshot/backup/${snap}/_restore?wait_for_completion=true`, body);
    expectErrorType(await restore({ renamed: true }), 400, 'illegal_argument_exception', 'Unknown parameter renamed');
    expectErrorType(await restore({ rename_pattern: 5, rename_replacement: 'x' }), 400, 'illegal_argument_exception', 'malformed rename_pattern');
    expectErrorType(await restore({ rename_pattern: '(a)\\1', rename_replacement: 'x' }), 400, 'illegal_argument_exception', /A back-reference/);
    expectErrorType(await restore({ rename_pattern: '(.+)', rename_replacement: '$2' }), 400, 'illegal_argument_exception', 'No group 2');
    expectErrorType(await restore({ indices: 'other' }), 404, 'index_not_found_exception', 'no such index [other]');
    expectErrorType(await restore({ rename_pattern: '.+', rename_replacement: 'BAD' }), 400, 'invalid_index_name_exception', 'Invalid index name [BAD], must be lowercase');
    expectErrorType(await restore({}, 'nope'), 404, 'snapshot_missing_exception', '[backup:nope] is missing');
    expectErrorType(await restore({ index_settings: { 'index.number_of_shards': 3 }, rename_pattern: 'books', rename_replacement: 'b3' }), 500, 'snapshot_restore_exception', /cannot modify setting \[index.number_of_shards\] on restore$/);
    expectErrorType(await t.request('DELETE', '/_snapshot/backup/nope'), 404, 'snapshot_missing_exception', '[backup:nope] is missing');
    expectErrorType(await t.request('GET', '/_snapshot/backup/nope'), 404, 'snapshot_missing_exception', '[backup:nope] is missing');
    expect((await t.request('GET', '/_snapshot/backup/nope?ignore_unavailable=true')).body).toEqual({ snapshots: [], total: 0, remaining: 0 });
    // Nothing half-restored was left behind by the refusals.
    expect((await t.request('GET', '/_cat/indices?h=index')).text.trim()).toBe('books');
    // index_settings apply to the restored copy.
    const ok = await restore({ rename_pattern: 'books', rename_replacement: 'copy', index_settings: { 'index.number_of_replicas': 0 } });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', '/copy/_settings')).body.copy.settings.index.number_of_replicas).toBe('0');
  });
});

describe('path.repo', () => {
  it('is read from --path-repo or THREADSEARCH_PATH_REPO, comma-separated, made absolute', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    const fromFlag = loadConfig(['--path-repo', '/mnt/a, rel/b'], {});
    expect(fromFlag !== 'help' && fromFlag.pathRepo).toEqual(['/mnt/a', join(process.cwd(), 'rel/b')]);
    const fromEnv = loadConfig([], { THREADSEARCH_PATH_REPO: '/mnt/c' });
    expect(fromEnv !== 'help' && fromEnv.pathRepo).toEqual(['/mnt/c']);
    const none = loadConfig([], {});
    expect(none !== 'help' && none.pathRepo).toEqual([]);
  });

  it('accepts only locations inside one of its directories', async () => {
    const { resolveRepoLocation } = await import('../../src/cluster/index.js');
    expect(resolveRepoLocation(['/mnt/repos'], 'nightly')).toBe('/mnt/repos/nightly');
    expect(resolveRepoLocation(['/mnt/repos'], '/mnt/repos')).toBe('/mnt/repos');
    expect(resolveRepoLocation(['/mnt/repos', '/srv/b'], '/srv/b/x/../y')).toBe('/srv/b/y');
    expect(resolveRepoLocation(['/mnt/repos'], '/mnt/repos-evil/x')).toBeNull();
    expect(resolveRepoLocation(['/mnt/repos'], '../repos-evil')).toBeNull();
    expect(resolveRepoLocation(['/mnt/repos'], 'a/../../etc')).toBeNull();
    expect(resolveRepoLocation(['/mnt/repos'], 'x\0y')).toBeNull();
    expect(resolveRepoLocation([], 'x')).toBeNull();
  });
});
