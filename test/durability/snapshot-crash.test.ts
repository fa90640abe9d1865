/**
 * SIGKILL in the middle of a snapshot: a real server process writes a snapshot of many shards and
 * is killed as soon as its first new blob appears in the repository (before the root swap). The
 * repository must stay readable by another node, the earlier snapshot restorable with identical
 * search results, and the restarted node able to snapshot again; the next deletion collects what
 * the killed run left behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProcess, type ServerProcess } from '../../src/cli/server-process.js';
import { distFile } from '../../src/cli/paths.js';

let root: string;
const servers: ServerProcess[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snapshot-crash-'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.kill('SIGKILL').catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

async function start(data: string): Promise<ServerProcess> {
  const s = await startProcess(distFile('main.js'), ['--port', '0', '--no-security', '--quiet', '--threads', '1', '--data', join(root, data), '--path-repo', join(root, 'repos')]);
  servers.push(s);
  return s;
}

async function call(s: ServerProcess, method: string, path: string, body?: unknown, ndjson = false): Promise<any> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : ndjson ? (body as string) : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200 || json.errors) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 400)}`);
  return json;
}

const INDICES = 8;

async function load(s: ServerProcess, from: number, to: number): Promise<void> {
  for (let i = 0; i < INDICES; i++) {
    let body = '';
    for (let d = from; d < to; d++) body += `{"index":{"_index":"idx-${i}","_id":"${d}"}}\n${JSON.stringify({ text: `word${d % 17} word${(d * 7) % 23} common in${i}`, n: d })}\n`;
    await call(s, 'POST', '/_bulk?refresh=true', body, true);
  }
}

async function results(s: ServerProcess, index: string): Promise<string> {
  const res = await call(s, 'POST', `/${index}/_search`, { query: { match: { text: 'word3 word5 common' } }, size: 50 });
  return JSON.stringify(res.hits);
}

const blobsDir = () => join(root, 'repos', 'backup', 'blobs');
const blobCount = () => readdirSync(blobsDir()).filter((f) => !f.endsWith('.tmp')).length;
const rootSnapshots = () => (JSON.parse(readFileSync(join(root, 'repos', 'backup', 'index.json'), 'utf8')) as { snapshots: Array<{ name: string }> }).snapshots.map((s) => s.name);

describe('snapshot crash safety', () => {
  it('a SIGKILL mid-snapshot leaves the repository readable and the earlier snapshot restorable', async () => {
    const a = await start('node-a');
    for (let i = 0; i < INDICES; i++) await call(a, 'PUT', `/idx-${i}`, { settings: { number_of_shards: 2, refresh_interval: '-1' } });
    await load(a, 0, 150);
    await call(a, 'PUT', '/_snapshot/backup', { type: 'fs', settings: { location: 'backup' } });
    await call(a, 'PUT', '/_snapshot/backup/good?wait_for_completion=true');
    const expected = await results(a, 'idx-5');
    const goodBlobs = blobCount();

    await load(a, 150, 300);
    const accepted = call(a, 'PUT', '/_snapshot/backup/doomed');
    // Kill as soon as the run has written its first new blob: it is then between blob writes and the root swap.
    let killedMidway = false;
    for (let i = 0; i < 20_000; i++) {
      if (blobCount() > goodBlobs) {
        killedMidway = rootSnapshots().length === 1;
        await a.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setImmediate(r));
    }
    await accepted.catch(() => undefined);
    servers.splice(servers.indexOf(a), 1);
    expect(killedMidway).toBe(true);
    expect(rootSnapshots()).toEqual(['good']);

    // Another node reads the repository as it was before the crash and restores the earlier snapshot.
    const b = await start('node-b');
    await call(b, 'PUT', '/_snapshot/backup', { type: 'fs', settings: { location: 'backup' } });
    expect((await call(b, 'GET', '/_snapshot/backup/_all')).snapshots.map((x: { snapshot: string }) => x.snapshot)).toEqual(['good']);
    const restored = await call(b, 'POST', '/_snapshot/backup/good/_restore?wait_for_completion=true');
    expect(restored.snapshot.shards).toEqual({ total: 2 * INDICES, failed: 0, successful: 2 * INDICES });
    expect(await results(b, 'idx-5')).toBe(expected);
    expect((await call(b, 'GET', '/idx-5/_count')).count).toBe(150);

    // The killed node restarts, snapshots again under the same name, and a deletion collects the leftovers.
    const a2 = await start('node-a');
    await call(a2, 'PUT', '/_snapshot/backup/doomed?wait_for_completion=true');
    await call(a2, 'DELETE', '/_snapshot/backup/good');
    const status = await call(a2, 'GET', '/_snapshot/backup/doomed/_status');
    // Every index holds different documents, so no two shard files share a blob.
    expect(blobCount()).toBe(status.snapshots[0].stats.total.file_count);
    await call(a2, 'DELETE', '/_snapshot/backup/doomed');
    expect(blobCount()).toBe(0);
    expect((await call(a2, 'GET', '/idx-5/_count')).count).toBe(300);
  }, 180_000);
});
