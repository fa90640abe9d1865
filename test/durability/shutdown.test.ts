/**
 * Graceful shutdown of the real server process: SIGTERM stops accepting, lets the request in flight
 * finish, flushes every shard and exits 0 — so the next start has nothing to replay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, type ServerProcess } from '../../src/cli/server-process.js';
import { findRepoRoot } from '../../src/cli/paths.js';

const main = join(findRepoRoot(), 'dist', 'src', 'main.js');
let dataDir: string;
let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.kill('SIGKILL');
  server = null;
  rmSync(dataDir, { recursive: true, force: true });
});

async function send(url: string, method: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('graceful shutdown', () => {
  it('finishes the request in flight, flushes, exits 0; the restart replays nothing', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-shutdown-'));
    server = await startProcess(main, ['--port', '0', '--no-security', '--data', dataDir, '--threads', '1']);
    await send(`${server.url}/s`, 'PUT', { settings: { refresh_interval: '1s' } });
    for (let i = 0; i < 20; i++) expect((await send(`${server.url}/s/_doc/${i}`, 'PUT', { i })).status).toBe(201);
    // Held until the next scheduled refresh: in flight when the signal arrives.
    const inFlight = send(`${server.url}/s/_doc/last?refresh=wait_for`, 'PUT', { i: 20 });
    await new Promise((r) => setTimeout(r, 100));
    const exit = await server.kill('SIGTERM');
    expect((await inFlight).status).toBe(201);
    expect(exit).toBe(0);
    expect(server.output()).toMatch(/SIGTERM received, shutting down/);

    server = await startProcess(main, ['--port', '0', '--no-security', '--data', dataDir, '--threads', '1']);
    // One segment, or more when a scheduled refresh fell between the writes (a slow machine).
    expect(server.output()).toMatch(/recovered 1 index, 1 shard, \d+ segments?, 0 translog operations replayed/);
    await send(`${server.url}/s/_refresh`, 'POST');
    expect((await send(`${server.url}/s/_count`, 'GET')).body.count).toBe(21);
  });
});
