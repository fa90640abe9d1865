/**
 * The parent circuit breaker (`--max-memory`, issue 22): a real server process with a 300 MB budget
 * takes bulk requests until its resident memory would pass it, then answers writes with ES's 429
 * `circuit_breaking_exception` — and stays up, every acknowledged document searchable, reads served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type ServerProcess } from '../../src/cli/server-process.js';
import { findRepoRoot } from '../../src/cli/paths.js';
import { ConfigError, loadConfig, type ServerConfig } from '../../src/config/config.js';

const main = join(findRepoRoot(), 'dist', 'src', 'main.js');
const BUDGET = 300 * 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-breaker-'));
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function send(method: string, path: string, body?: string | object): Promise<{ status: number; body: any }> {
  const ndjson = typeof body === 'string';
  const res = await fetch(`${server!.url}${path}`, {
    method, headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' }, body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('parent circuit breaker (--max-memory 300mb)', () => {
  it('refuses the write that would exceed the budget with 429 circuit_breaking_exception; acknowledged docs stay searchable', async () => {
    // The unrefreshed documents are what grows here: an indexing buffer larger than the budget
    // (10% of the V8 heap limit, ~400 MB) keeps the memory controller from refreshing them first.
    server = await startProcess(main, ['--port', '0', '--no-security', '--data', dataDir, '--threads', '1', '--max-memory', '300mb', '--index-buffer-size', '10%']);
    // The filler is kept in `_source` but not indexed, so the load costs parsing and the translog,
    // not analysis: the test stays quick on a loaded machine.
    const mappings = { properties: { n: { type: 'integer' }, filler: { type: 'object', enabled: false } } };
    expect((await send('PUT', '/big', { settings: { refresh_interval: '-1' }, mappings })).status).toBe(200);
    // 4 MB bulk bodies of 40 KB documents: the unrefreshed sources grow the process until the
    // breaker trips, after a few dozen bodies.
    const filler = JSON.stringify({ text: 'lorem ipsum dolor sit amet '.repeat(1500) });
    let acknowledged = 0;
    let tripped: { status: number; body: any } | null = null;
    for (let b = 0; b < 200 && tripped === null; b++) {
      let body = '';
      for (let i = 0; i < 100; i++) body += `{"index":{"_id":"d${b}-${i}"}}\n{"n":${b * 100 + i},"filler":${filler}}\n`;
      const res = await send('POST', '/big/_bulk', body);
      if (res.status === 429) tripped = res;
      else {
        expect(res.status).toBe(200);
        expect(res.body.errors).toBe(false);
        acknowledged += res.body.items.length;
      }
    }
    expect(tripped).not.toBeNull();
    const error = tripped!.body.error;
    expect(error.type).toBe('circuit_breaking_exception');
    expect(error.reason).toMatch(/^\[parent\] Data too large, data for \[<http_request>\] would be \[\d+\/[\d.]+[kmg]?b\], which is larger than the limit of \[314572800\/300mb\]/);
    expect(error.bytes_limit).toBe(BUDGET);
    expect(error.bytes_wanted).toBeGreaterThan(BUDGET);
    expect(error.durability).toBe('TRANSIENT');
    expect(error.root_cause[0].type).toBe('circuit_breaking_exception');
    expect(tripped!.status).toBe(429);
    expect(acknowledged).toBeGreaterThan(0);

    // Reads are served (the breaker is TRANSIENT: a write may pass again once a GC lowers RSS).
    expect((await send('POST', '/big/_refresh')).status).toBe(200);
    expect((await send('GET', '/big/_count')).body.count).toBe(acknowledged);
    const first = await send('GET', '/big/_doc/d0-0');
    expect(first.body.found).toBe(true);
    const hit = await send('POST', '/big/_search', { query: { term: { n: acknowledged - 1 } } });
    expect(hit.body.hits.total.value).toBe(1);
    expect((await send('GET', '/')).status).toBe(200);
  }, 240_000);
});

describe('--max-memory', () => {
  const limit = (argv: string[], env: NodeJS.ProcessEnv = {}) => (loadConfig(argv, env) as ServerConfig).maxMemoryBytes;
  it('takes a size or a share of physical memory (default 90%), -1 for none, from the flag or THREADSEARCH_MAX_MEMORY', () => {
    expect(limit([])).toBe(Math.floor(totalmem() * 0.9));
    expect(limit(['--max-memory', '300mb'])).toBe(BUDGET);
    expect(limit(['--max-memory', '50%'])).toBe(Math.floor(totalmem() * 0.5));
    expect(limit(['--max-memory=-1'])).toBe(Infinity);
    expect(limit([], { THREADSEARCH_MAX_MEMORY: '2gb' })).toBe(2 * 1024 ** 3);
    expect(() => limit(['--max-memory', 'lots'])).toThrow(ConfigError);
    expect(() => limit(['--max-memory', 'lots'])).toThrow(/--max-memory/);
  });
});
