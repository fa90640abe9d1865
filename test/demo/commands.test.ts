/**
 * `npm run demo:load` and `npm run demo` as a user runs them (the compiled commands in a child
 * process): --help, and failures that say what to do in one line — a bad flag (exit 2), an
 * unreachable server, a refused key (exit 1) — instead of "fetch failed" or a whole error body.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../cli/cli-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOAD = join(ROOT, 'dist/demo/sample/load.js');
const SERVE = join(ROOT, 'dist/demo/server.js');

function run(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [file, ...args], { env: { ...process.env, THREADSEARCH_URL: '', THREADSEARCH_API_KEY: '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : Number((error as { code?: unknown }).code ?? -1), stdout, stderr });
    });
  });
}

/** Answers every request as a secured ES answers one without credentials. */
let refusing: http.Server;
let refusingUrl: string;
beforeAll(async () => {
  refusing = http.createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'ApiKey' });
    res.end(JSON.stringify({ error: { type: 'security_exception', reason: `missing authentication credentials for REST request [${req.url}]` }, status: 401 }));
  });
  await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((r) => refusing.close(() => r())));

describe.each([['demo:load', LOAD], ['demo', SERVE]])('npm run %s', (name, file) => {
  it('--help prints the options and exits 0', async () => {
    const r = await run(file, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run demo/);
    expect(r.stdout).toContain('--es <url>');
    expect(r.stdout).toContain('THREADSEARCH_URL');
  });

  it('an unknown flag: one line pointing at --help, exit 2', async () => {
    const r = await run(file, ['--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`${name} failed: Unknown option '--bogus' (--help lists the options)`);
  });

  it('an unreachable server is named, with where its URL comes from', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await run(file, ['--es', url, '--api-key', 'a2V5OnNlY3JldA==']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${name} failed: cannot reach ${url}: ECONNREFUSED (is the server running? pass its URL with --es or THREADSEARCH_URL)`);
  });

  it('a refused key: ES\'s reason and how to pass the key; THREADSEARCH_URL is read', async () => {
    const r = await run(file, [], { THREADSEARCH_URL: refusingUrl });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${name} failed: ${refusingUrl} refused the credentials (401 security_exception: missing authentication credentials for REST request [`);
    expect(r.stderr).toContain('pass --api-key or set THREADSEARCH_API_KEY');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

it('npm run demo: an index that is not there (demo:load not run) is named before the page is served', async () => {
  const es = http.createServer((req, res) => {
    req.resume();
    const body = req.url === '/_security/api_key'
      ? [200, { id: 'k', name: 'demo', api_key: 's', encoded: 'aWQ6c2VjcmV0' }]
      : [404, { error: { type: 'index_not_found_exception', reason: 'no such index [web-features]' }, status: 404 }];
    res.writeHead(body[0] as number, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body[1]));
  });
  await new Promise<void>((r) => es.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(es.address() as AddressInfo).port}`;
    const r = await run(SERVE, ['--es', url, '--api-key', 'a2V5OnNlY3JldA==', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`demo failed: ${url} has no index [web-features]: load the sample first (npm run demo:load), or pass the --index to search`);
  } finally {
    await new Promise<void>((r) => es.close(() => r()));
  }
});

it('npm run demo: a bad --port is refused before anything is sent', async () => {
  const r = await run(SERVE, ['--port', '80x']);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('demo failed: --port must be an integer between 0 and 65535, got [80x]');
});
