/**
 * Servers as child processes for HTTP scenarios (src/cli/server-process.ts, shared with the
 * `capacity` command), and loading them over HTTP.
 */
export { startProcess, startThreadsearch, type ServerProcess } from '../../src/cli/server-process.js';

/** `K=V,K=V` (a bench's `--env` option) as an object. */
export function parseEnvList(list: string | undefined): Record<string, string> {
  return Object.fromEntries((list ?? '').split(',').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

/**
 * Runs `start` with `env` added to this process's environment, which a server started meanwhile
 * inherits over the server defaults (SERVER_MALLOC_ENV), then restores the environment.
 */
export async function withEnv<T>(env: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** POSTs NDJSON bulk bodies with `concurrency` requests in flight; throws on any item error. */
export async function bulkLoad(url: string, bodies: readonly string[], concurrency: number, headers: Record<string, string> = {}): Promise<void> {
  await bulkLoadEach(url, bodies.length, (i) => bodies[i], concurrency, headers);
}

/**
 * Creates index `bench` (one `text` field), loads `docs` into it with two `_bulk` requests in flight,
 * force-merges it to one segment and refreshes it: the index the security benches search.
 */
export async function loadBenchIndex(url: string, docs: ReadonlyArray<{ id: string; text: string }>, headers: Record<string, string> = {}): Promise<void> {
  const json = { 'content-type': 'application/json', ...headers };
  await fetch(`${url}/bench`, { method: 'PUT', headers: json, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await bulkLoad(url, bulkBodies('bench', docs, 5000), 2, headers);
  await fetch(`${url}/bench/_forcemerge?max_num_segments=1`, { method: 'POST', headers });
  await fetch(`${url}/bench/_refresh`, { method: 'POST', headers });
}

/** `bulkLoad` over `count` bodies made on demand (a corpus too large to hold as NDJSON at once). */
export async function bulkLoadEach(
  url: string, count: number, body: (i: number) => string, concurrency: number, headers: Record<string, string> = {},
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...headers }, body: body(next++) });
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

/**
 * `_flush` of `index`, a check that it holds `docs` documents, then 3 s for the workers to drop the
 * merged-away segments and the idle collector to run, before a memory bench reads RSS.
 */
export async function flushAndSettle(call: JsonCall, index: string, docs: number): Promise<void> {
  await call('POST', `/${index}/_flush`);
  const count = (await call('GET', `/${index}/_count`)).count as number;
  if (count !== docs) throw new Error(`expected ${docs} docs, found ${count}`);
  await new Promise((r) => setTimeout(r, 3000));
}
