/**
 * Issue 15, items 1 and 2: does `GET /` keep answering while hostile requests run? A server runs
 * as a child process (so this client never shares its thread); `GET /` is probed every 20 ms over
 * its own keep-alive connection while N hostile requests are in flight at once:
 *
 * - `gzip-95mb`: a ~97 KB gzip body that expands to a 95 MB query (a 95 MB string as a date bound),
 *   as in the crash; answered 400 with a prefix of the value;
 * - `gzip-95mb-forged`: the same body with its gzip trailer rewritten to state 1 KB, so the server
 *   cannot refuse it from the stated size and must inflate it up to its limit;
 * - `token-2mb`: a `match` query whose text is one 2 MB token (8,000+ tokens of 255 characters);
 * - `terms-95mb`: a ~93 KB gzip body that expands to a 95 MB `terms` query of 24 million values,
 *   whose parsed value costs far more to copy than one string of the same size;
 * - `string-9mb`: the largest query string `http.max_query_content_length` (10mb) lets through, a
 *   9 MB date bound in a gzip body: what the main thread still receives at the limit;
 * - `terms-65k`: a legitimate `terms` query at ES's `index.max_terms_count` (65,536 values, 1.2 MB),
 *   near `http.max_query_token_count` (100,000): the most values a query body brings the main thread;
 * - `msearch-95mb`: the 95 MB query as one `_msearch` item, gzip: NDJSON bodies are inflated as they
 *   stream in and read on the main thread.
 *
 * Reported per scenario and server build: `GET /` latency p50/p99/max while the hostile requests
 * ran, and how long they took. As a yardstick of the machine's state, each run also times one copy
 * of 95 MB in this process: the least the server's main thread must spend on a 95 MB query is one
 * such copy (the worker's parsed value arriving), so `GET /` max near it is the design's floor. `--baseline DIST` runs another build too (e.g. main's `dist/`,
 * built in a copy of the tree) in the same run, alternating, so before/after share the machine's
 * conditions. All request bodies are built before probing starts.
 *
 *   npm run build && node dist/bench/hostile-latency.js [--baseline /path/to/dist [--baseline-name NAME]] [--rounds 2]
 */
import { request, Agent } from 'node:http';
import { gzipSync } from 'node:zlib';
import { benchArgs, numberOption } from './lib/args.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { startProcess, type ServerProcess } from '../src/cli/server-process.js';
import { distFile } from '../src/cli/paths.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/hostile-latency.js [--baseline /path/to/dist [--baseline-name NAME]] [--rounds 2]';
const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, 'baseline-name': { type: 'string' }, rounds: { type: 'string' }, gzipN: { type: 'string' }, tokenN: { type: 'string' }, only: { type: 'string' } } });
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 2);
const PROBE_EVERY_MS = 20;

interface Hostile {
  readonly name: string;
  readonly n: number;
  readonly index: { name: string; mappings: object };
  readonly body: Buffer;
  readonly headers: Record<string, string>;
  readonly describe: string;
  /** Under the index (default `_search`). */
  readonly endpoint?: string;
}

const MB = 1024 * 1024;
const gzipBody = gzipSync(JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(95 * MB) } } } }), { level: 9 });
/** The body with its gzip trailer's ISIZE (the inflated size it states) set to `size`. */
function withStatedSize(gzip: Buffer, size: number): Buffer {
  const forged = Buffer.from(gzip);
  forged.writeUInt32LE(size, forged.length - 4);
  return forged;
}
const forgedBody = withStatedSize(gzipBody, 1024);
const termsBomb = gzipSync(`{"query":{"terms":{"tag":[${'"a",'.repeat((95 * MB) / 4)}"a"]}}}`, { level: 9 });
const string9 = gzipSync(JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(9 * MB) } } } }), { level: 9 });
const msearchBomb = gzipSync(`{}\n${JSON.stringify({ query: { range: { d: { gte: 'y'.repeat(95 * MB) } } } })}\n`, { level: 9 });
const terms65k = Buffer.from(JSON.stringify({ query: { terms: { tag: Array.from({ length: 65_536 }, (_, i) => `tag-${String(i).padStart(11, '0')}`) } } }));
const ALL_SCENARIOS: Hostile[] = [
  {
    name: 'gzip-95mb', n: numberOption(USAGE, values.gzipN, 'gzipN', 2), index: { name: 'nums', mappings: { properties: { d: { type: 'date' } } } },
    body: gzipBody, headers: { 'content-encoding': 'gzip' }, describe: `${(gzipBody.length / 1024).toFixed(0)} KB gzip → 95 MB range query`,
  },
  {
    name: 'gzip-95mb-forged', n: numberOption(USAGE, values.gzipN, 'gzipN', 2), index: { name: 'numsf', mappings: { properties: { d: { type: 'date' } } } },
    body: forgedBody, headers: { 'content-encoding': 'gzip' }, describe: `the same, its gzip trailer stating 1 KB`,
  },
  {
    name: 'token-2mb', n: numberOption(USAGE, values.tokenN, 'tokenN', 4), index: { name: 'texts', mappings: { properties: { body: { type: 'text' } } } },
    body: Buffer.from(JSON.stringify({ query: { match: { body: 'a'.repeat(2 * 1024 * 1024) } } })), headers: {}, describe: 'match on one 2 MB token',
  },
  {
    name: 'terms-95mb', n: 2, index: { name: 'tags', mappings: { properties: { tag: { type: 'keyword' } } } },
    body: termsBomb, headers: { 'content-encoding': 'gzip' }, describe: `${(termsBomb.length / 1024).toFixed(0)} KB gzip → 95 MB terms query (24M values)`,
  },
  {
    name: 'string-9mb', n: 2, index: { name: 'nums9', mappings: { properties: { d: { type: 'date' } } } },
    body: string9, headers: { 'content-encoding': 'gzip' }, describe: `${(string9.length / 1024).toFixed(0)} KB gzip → 9 MB range query`,
  },
  {
    name: 'terms-65k', n: 2, index: { name: 'tags65k', mappings: { properties: { tag: { type: 'keyword' } } } },
    body: terms65k, headers: {}, describe: `terms query of 65,536 values (${(terms65k.length / MB).toFixed(1)} MB)`,
  },
  {
    name: 'msearch-95mb', n: 2, index: { name: 'numsm', mappings: { properties: { d: { type: 'date' } } } }, endpoint: '_msearch',
    body: msearchBomb, headers: { 'content-encoding': 'gzip', 'content-type': 'application/x-ndjson' }, describe: `${(msearchBomb.length / 1024).toFixed(0)} KB gzip → 95 MB _msearch item`,
  },
];
const SCENARIOS = values.only ? ALL_SCENARIOS.filter((s) => values.only!.split(',').includes(s.name)) : ALL_SCENARIOS;
/** Whitespace-padded past the 1 MiB from which the body worker reads a body: warms that worker. */
const WARM_BODY = Buffer.from(`{"size":0${' '.repeat(MB)}}`);

function send(url: string, method: string, path: string, body: Buffer | null, headers: Record<string, string>, agent?: Agent): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

interface Run {
  readonly build: string;
  readonly scenario: string;
  readonly n: number;
  readonly probes: number;
  readonly rootP50: number;
  readonly rootP99: number;
  readonly rootMax: number;
  readonly hostileStatuses: number[];
  readonly hostileMaxMs: number;
  /** One 95 MB copy in this process just before the run (fresh pages, as the server's are). */
  readonly copy95Ms: number;
}

function copy95Ms(): number {
  const src = Buffer.alloc(95 * 1024 * 1024, 1);
  const t0 = performance.now();
  Buffer.from(src);
  return performance.now() - t0;
}

async function measure(build: string, server: ServerProcess, s: Hostile): Promise<Run> {
  const copyMs = copy95Ms();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // Warm: the route, the body reader's worker, the probe connection.
  await send(server.url, 'GET', '/', null, {}, agent);
  await send(server.url, 'POST', `/${s.index.name}/_search`, WARM_BODY, {});
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      latencies.push((await send(server.url, 'GET', '/', null, {}, agent)).ms);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  await new Promise((r) => setTimeout(r, 100));
  const hostile = await Promise.all(Array.from({ length: s.n }, () => send(server.url, 'POST', `/${s.index.name}/${s.endpoint ?? '_search'}`, s.body, s.headers)));
  done = true;
  await probe;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    build, scenario: s.name, n: s.n, probes: sorted.length, rootP50: quantile(sorted, 0.5), rootP99: quantile(sorted, 0.99), rootMax: sorted[sorted.length - 1],
    hostileStatuses: hostile.map((h) => h.status), hostileMaxMs: Math.max(...hostile.map((h) => h.ms)), copy95Ms: copyMs,
  };
}

async function startServer(dist: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-hostile-'));
  return startProcess(join(dist, 'src', 'main.js'), ['--port', '0', '--quiet', '--no-security', '--data', dataDir, '--threads', '1'], () => rmSync(dataDir, { recursive: true, force: true }));
}

const builds: Array<{ name: string; dist: string }> = [{ name: 'this build', dist: join(distFile('main.js'), '..', '..') }];
if (values.baseline) builds.push({ name: values['baseline-name'] ?? 'baseline', dist: values.baseline });

const cpu = startCpuProbe();
const runs: Run[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
    const server = await startServer(b.dist);
    try {
      for (const s of SCENARIOS) {
        await send(server.url, 'PUT', `/${s.index.name}`, Buffer.from(JSON.stringify({ mappings: s.index.mappings })), {});
        const run = await measure(b.name, server, s);
        runs.push(run);
        console.log(`${b.name} ${s.name} ×${s.n}: GET / p50 ${run.rootP50.toFixed(1)} p99 ${run.rootP99.toFixed(1)} max ${run.rootMax.toFixed(1)} ms (${run.probes} probes); hostile ${run.hostileStatuses.join(',')} in ≤ ${run.hostileMaxMs.toFixed(0)} ms; 95 MB copy ${run.copy95Ms.toFixed(0)} ms`);
      }
    } finally {
      await server.stop();
    }
  }
}
const { otherCores } = cpu.stop();

/** Per build and scenario: the median over rounds of each figure. */
function summary(build: string, scenario: string) {
  const rs = runs.filter((r) => r.build === build && r.scenario === scenario);
  const med = (f: (r: Run) => number) => quantile([...rs.map(f)].sort((a, b) => a - b), 0.5);
  return { p50: med((r) => r.rootP50), p99: med((r) => r.rootP99), max: med((r) => r.rootMax), hostile: med((r) => r.hostileMaxMs), copy: med((r) => r.copy95Ms), statuses: [...new Set(rs.flatMap((r) => r.hostileStatuses))].join(', ') };
}

const rows = SCENARIOS.flatMap((s) => builds.map((b) => {
  const m = summary(b.name, s.name);
  return [`${s.describe}, ×${s.n} at once`, b.name, formatNumber(m.p50), formatNumber(m.p99), formatNumber(m.max), formatNumber(m.hostile), m.statuses, formatNumber(m.copy)];
}));
const table = markdownTable(['hostile requests', 'server', 'GET / p50 ms', 'p99 ms', 'max ms', 'hostile done ms', 'hostile status', '95 MB copy ms'], rows, ['left', 'left', 'right', 'right', 'right', 'right', 'left', 'right']);
const notes = `\`GET /\` probed every ${PROBE_EVERY_MS} ms over its own connection while the hostile requests ran (server in a child process, 1 search thread); medians of ${ROUNDS} rounds, builds alternated; the body worker warmed first in each. otherCores ${otherCores.toFixed(2)}: ${otherCores > 1 ? 'a loaded machine, read the ratios between rows rather than the absolute figures' : 'a quiet machine'}. Large JSON bodies (≥ 1 MiB) are decoded and parsed in a worker (\`cluster/body-pool.ts\`), compressed ones inflated there too; the main thread receives the parsed value by structured clone, which for a 95 MB query costs about the *95 MB copy* column (one copy into fresh memory, timed in the bench process just before the run). Query DSL bodies (\`_search\`, \`_msearch\`, \`_count\`, by-query, …) are now held to \`http.max_query_content_length\` (10mb, 413) and \`http.max_query_token_count\` (100,000, Jackson's maxTokenCount), which ES does not have: the worker stops inflating at the limit and checks tokens and nesting on the bytes before decoding, so the main thread never receives more than a 10 MB value; the *9 MB* and *65,536 values* rows are what it still pays at the limits. A gzip body whose trailer states more than the limit is refused before inflating (the *95 MB range query* row); the forged-trailer row is the worst case, inflating up to the limit. Query text analysis stops at \`max_clause_count\` tokens. Run: \`node dist/bench/hostile-latency.js --baseline /tmp/base83/dist --baseline-name main@83617aa\` (a built copy of that commit).`;
writeResult('hostile-latency', { rounds: ROUNDS, otherCores, probeEveryMs: PROBE_EVERY_MS, runs });
updateBenchmarksMd('hostile-latency', table, notes);
console.log(table);
