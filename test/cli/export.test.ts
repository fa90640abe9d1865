/**
 * `threadsearch export` between two secured threadsearch servers started for this file (the
 * target speaks the same API as Elasticsearch): settings, mappings, aliases, pipelines and counts
 * equal on the target; existing targets refused, skipped or overwritten; bad URLs and keys; and a
 * kill in the middle of a copy followed by --resume: no duplicates, no gaps.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distFile } from '../../src/cli/paths.js';
import { startThreadsearch, type ServerProcess } from '../../src/cli/server-process.js';
import { call, cli, closedPort, SUPERUSER_KEY, tempFiles } from './cli-harness.js';
import { allIds, BOOKS_MAPPINGS, createSource, ELSER_PIPELINE } from './export-fixture.js';

const BOOKS = 300;
let source: ServerProcess;
let target: ServerProcess;
let dir: string;

beforeAll(async () => {
  [source, target] = await Promise.all([
    startThreadsearch(['--threads', '1'], { apiKey: SUPERUSER_KEY }),
    startThreadsearch(['--threads', '1'], { apiKey: SUPERUSER_KEY }),
  ]);
  await createSource(source.url, BOOKS);
  dir = tempFiles({});
}, 60_000);
afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const exportArgs = (...more: string[]) => ['export', '--from', source.url, '--to', target.url, '--api-key', SUPERUSER_KEY, ...more];
const settingsOf = async (url: string, index: string) => {
  const s = (await call(url, 'GET', `/${index}/_settings?flat_settings=true`)).body[index].settings;
  for (const k of ['index.uuid', 'index.creation_date', 'index.version.created']) delete s[k];
  return s;
};

describe('threadsearch export to a second threadsearch server', () => {
  it('copies settings, mappings, aliases, pipelines and every document, and verifies the counts', async () => {
    const checkpoint = join(dir, 'full.json');
    const r = await cli(exportArgs('--checkpoint', checkpoint, '--batch-size', '64'), { cwd: dir });
    expect(r.stderr).toContain(`exporting 2 indices and 1 pipeline(s) from ${source.url}`);
    expect(r.stdout).toMatch(new RegExp(`\\[books\\] ${BOOKS} documents copied in [\\d.]+ s \\([^)]+ docs/s\\); count verified: ${BOOKS} on both`));
    expect(r.stdout).toMatch(/\[notes\] 30 documents copied .*count verified: 30 on both/);
    expect(r.stdout).toContain('note: [.internal]: skipped (a system or hidden index)');
    expect(r.stdout).not.toContain('.sparse_model_2, which'); // the target has the model: nothing to report
    expect(r.code).toBe(0);
    expect(existsSync(checkpoint)).toBe(false); // a finished export leaves no checkpoint behind

    expect((await call(target.url, 'GET', '/books/_mapping')).body.books.mappings).toEqual(BOOKS_MAPPINGS);
    expect((await call(target.url, 'GET', '/books/_mapping')).body).toEqual((await call(source.url, 'GET', '/books/_mapping')).body);
    expect(await settingsOf(target.url, 'books')).toEqual(await settingsOf(source.url, 'books'));
    expect((await call(target.url, 'GET', '/books/_alias')).body).toEqual((await call(source.url, 'GET', '/books/_alias')).body);
    expect((await call(target.url, 'GET', '/_ingest/pipeline/elser-v2')).body).toEqual({ 'elser-v2': ELSER_PIPELINE });
    expect((await call(target.url, 'GET', '/.internal')).status).toBe(404);
    for (const index of ['books', 'notes']) {
      expect((await call(target.url, 'GET', `/${index}/_count`)).body.count).toBe((await call(source.url, 'GET', `/${index}/_count`)).body.count);
    }
    // The documents are the same, vectors included, and the filtered alias filters on the target.
    expect((await call(target.url, 'GET', '/books/_doc/b42')).body._source).toEqual((await call(source.url, 'GET', '/books/_doc/b42')).body._source);
    const q = { query: { sparse_vector: { field: 'emb', query_vector: { book: 1, n3: 1 } } }, size: 5 };
    const ids = (r: any) => r.body.hits.hits.map((h: any) => h._id);
    expect(ids(await call(target.url, 'POST', '/books/_search', q))).toEqual(ids(await call(source.url, 'POST', '/books/_search', q)));
    expect((await call(target.url, 'GET', '/old-books/_count')).body.count).toBe((await call(source.url, 'GET', '/old-books/_count')).body.count);
  }, 120_000);

  it('refuses a target that already has the index (nothing written); --skip-existing leaves it; --overwrite replaces it', async () => {
    const refused = await cli(exportArgs('--index', 'notes', '--checkpoint', join(dir, 'c1.json')), { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^threadsearch export: the target already has index \[notes\]: pass --skip-existing .* or --overwrite .*\(nothing was written\)\n$/);

    await call(target.url, 'POST', '/notes/_doc/extra?refresh=true', { body: 'only on the target' });
    const skipped = await cli(exportArgs('--index', 'notes', '--skip-existing', '--checkpoint', join(dir, 'c2.json')), { cwd: dir });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('note: [notes]: exists on the target; left as it is (--skip-existing)');
    expect((await call(target.url, 'GET', '/notes/_count')).body.count).toBe(31);

    const over = await cli(exportArgs('--index', 'notes', '--overwrite', '--checkpoint', join(dir, 'c3.json')), { cwd: dir });
    expect(over.code).toBe(0);
    expect(over.stdout).toMatch(/\[notes\] 30 documents copied .*count verified: 30 on both/);
    expect((await call(target.url, 'GET', '/notes/_doc/extra')).status).toBe(404);
  }, 120_000);

  it('names the side that is unreachable or refuses the key, and a pattern that matches nothing', async () => {
    const port = await closedPort();
    const down = await cli(['export', '--from', source.url, '--api-key', SUPERUSER_KEY, '--to', `http://127.0.0.1:${port}`], { cwd: dir });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`threadsearch export: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`);
    const badKey = await cli(['export', '--from', source.url, '--from-api-key', SUPERUSER_KEY, '--to', target.url, '--to-api-key', 'bm9wZTpub3Bl'], { cwd: dir });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toMatch(new RegExp(`^threadsearch export: ${target.url} refused the credentials \\(401 security_exception: .*\\); pass a valid --to-api-key or --to-user`));
    const none = await cli(exportArgs('--index', 'nothing-*'), { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`threadsearch export: no index on ${source.url} matches [nothing-*]\n`);
    const same = await cli(['export', '--from', source.url, '--to', `${source.url}/`], { cwd: dir });
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--from and --to are the same server');
  }, 60_000);

  it('resumes after a kill in the middle: no duplicates, no gaps', async () => {
    await call(target.url, 'DELETE', '/books');
    const checkpoint = join(dir, 'killed.json');
    // Throttled to 8 pages of 20 documents a second so the kill lands in the middle whatever the load.
    const args = exportArgs('--index', 'books', '--checkpoint', checkpoint, '--batch-size', '20', '--concurrency', '2', '--requests-per-second', '8');
    const child = spawn(process.execPath, [distFile('main.js'), ...args], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise((done) => child.once('exit', done));
    let before = 0;
    for (let waited = 0; waited < 60_000 && before < 60; waited += 25) {
      await new Promise((r) => setTimeout(r, 25));
      try {
        before = JSON.parse(readFileSync(checkpoint, 'utf8')).indices.books?.indexed ?? 0;
      } catch {
        // not written yet (or being replaced: the rename is atomic, the read may race the first write)
      }
    }
    child.kill('SIGKILL');
    await exited;
    const killedAt = JSON.parse(readFileSync(checkpoint, 'utf8')).indices.books;
    expect(killedAt.state).toBe('copying');
    expect(killedAt.indexed).toBeGreaterThanOrEqual(60);
    expect(killedAt.indexed).toBeLessThan(BOOKS);
    // Its point in time is gone too (as after a keep-alive longer than the pause): the resumed run
    // reads a new one after the same _shard_doc values.
    expect((await call(source.url, 'DELETE', '/_pit', { id: killedAt.pitId })).body.succeeded).toBe(true);

    const resumed = await cli(exportArgs('--index', 'books', '--checkpoint', checkpoint, '--batch-size', '20', '--resume'), { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('note: [books]: the point in time expired; reading continues in a new one after the last copied document');
    expect(resumed.stdout).toMatch(new RegExp(`\\[books\\] ${BOOKS} documents copied \\((\\d+) in this run\\).*count verified: ${BOOKS} on both`));
    const inThisRun = Number(/\((\d+) in this run\)/.exec(resumed.stdout)![1]);
    expect(inThisRun).toBe(BOOKS - killedAt.indexed); // it went on from the checkpoint, not from the start
    const ids = await allIds(target.url, 'books');
    expect(ids.length).toBe(BOOKS);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: BOOKS }, (_, i) => `b${i}`)));
    expect((await call(target.url, 'GET', '/books/_count')).body.count).toBe(BOOKS);
    expect(existsSync(checkpoint)).toBe(false);
  }, 120_000);
});
