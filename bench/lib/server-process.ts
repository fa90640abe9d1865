/**
 * Starting servers as child processes for HTTP scenarios, so the load generator (this process)
 * and the server under test never share a JS thread: threadsearch from dist/, or any compiled
 * script that prints "listening on http://host:port".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot } from './report.js';

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Graceful stop (SIGTERM); resolves when the process has exited. */
  stop(): Promise<void>;
  /** Sends `signal` (e.g. SIGKILL) and resolves with the exit code or signal once it has exited. */
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

export function startProcess(script: string, args: readonly string[], cleanup?: () => void): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let listening = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = listening ? null : /listening on (http:\/\/[0-9.]+:\d+)/.exec(out);
      if (m) {
        listening = true;
        const exited = new Promise<number | string | null>((done) => child.once('exit', (code, signal) => done(code ?? signal)));
        const kill = async (signal: NodeJS.Signals) => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          const result = await exited;
          cleanup?.();
          return result;
        };
        resolve({
          url: m[1],
          pid: child.pid!,
          output: () => out,
          stop: async () => {
            await kill('SIGTERM');
          },
          kill,
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      if (!listening) reject(new Error(`${script} exited with ${code} before listening:\n${out}`));
    });
  });
}

/**
 * threadsearch on a free port with a fresh data directory; security off unless `apiKey` (an
 * encoded bootstrap key) is given, so scenarios that are not about security measure the engine.
 */
export function startThreadsearch(extraArgs: readonly string[] = [], options: { apiKey?: string } = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
  const main = join(findRepoRoot(), 'dist', 'src', 'main.js');
  const security = options.apiKey !== undefined ? ['--api-key', options.apiKey] : ['--no-security'];
  return startProcess(main, ['--port', '0', '--quiet', ...security, '--data', dataDir, ...extraArgs], () => rmSync(dataDir, { recursive: true, force: true }));
}

/** POSTs NDJSON bulk bodies with `concurrency` requests in flight; throws on any item error. */
export async function bulkLoad(url: string, bodies: readonly string[], concurrency: number, headers: Record<string, string> = {}): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...headers }, body });
      const json = (await res.json()) as { errors?: boolean };
      if (res.status !== 200 || json.errors) throw new Error(`bulk failed: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** NDJSON bulk bodies of `batch` index actions each. */
export function bulkBodies(index: string, docs: ReadonlyArray<{ id: string; text: string }>, batch: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < docs.length; i += batch) {
    let body = '';
    for (const d of docs.slice(i, i + batch)) body += `{"index":{"_index":"${index}","_id":"${d.id}"}}\n${JSON.stringify({ text: d.text })}\n`;
    out.push(body);
  }
  return out;
}

export type JsonCall = (method: string, path: string, body?: unknown, ndjson?: boolean) => Promise<any>;

/** A JSON (or NDJSON) request helper against `url` that throws on any non-200 answer or bulk item error. */
export function jsonCaller(url: string): JsonCall {
  return async (method, path, body, ndjson = false) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
      body: body === undefined ? undefined : ndjson ? (body as string) : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status !== 200 || json.errors === true) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 400)}`);
    return json;
  };
}

/**
 * Creates `index` with `mappings`, bulk-loads `count` documents (`doc(i)`) in batches of `batch`
 * with two requests in flight, refreshes, and force-merges it to one segment, as the engine-level
 * halves of the scenarios measure one segment. Returns the load time in ms.
 */
export async function loadOneSegmentIndex(
  url: string, index: string, mappings: unknown, count: number, doc: (i: number) => { id: string; source: unknown }, batch = 2_000,
): Promise<number> {
  const call = jsonCaller(url);
  await call('PUT', `/${index}`, { mappings });
  const bodies: string[] = [];
  for (let i = 0; i < count; i += batch) {
    let body = '';
    for (let d = i; d < Math.min(count, i + batch); d++) {
      const { id, source } = doc(d);
      body += `{"index":{"_index":${JSON.stringify(index)},"_id":${JSON.stringify(id)}}}\n${JSON.stringify(source)}\n`;
    }
    bodies.push(body);
  }
  const start = performance.now();
  await bulkLoad(url, bodies, 2);
  await call('POST', `/${index}/_refresh`);
  await call('POST', `/${index}/_forcemerge?max_num_segments=1`);
  return performance.now() - start;
}
