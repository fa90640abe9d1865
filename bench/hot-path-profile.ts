/**
 * Where a request's time goes, by phase (issue 19): threadsearch runs under `node --cpu-prof` (one
 * profile per thread), and the samples taken while the load runs are attributed to phases by
 * bench/lib/profile-phases.ts, then divided by the number of requests.
 *
 * - `_search`: the 200k-doc corpus is loaded and force-merged by an unprofiled server, which then
 *   restarts on the same data under the profiler (so recovery stays out of the window); autocannon
 *   sends `match` queries (10 hits with `_source`) at 10 connections for `--duration` seconds.
 * - `_bulk`: a profiled server takes the 200k short docs as 5,000-doc `_bulk` requests, 2 in flight,
 *   then `_refresh`; the window spans the load and the refresh.
 *
 *   node dist/bench/hot-path-profile.js [--duration 10] [--docs 200000] [--label before] [--keep dir]
 *
 * `--keep dir` leaves the `.cpuprofile` files there (search/, bulk/; each with window.json, the
 * measured window and request count) for Chrome DevTools; `--analyze dir` makes the tables from
 * such a directory again without running anything (after a change to the phase rules).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import autocannon from 'autocannon';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { IDLE, monotonicUs, profilePhases, type ThreadPhases } from './lib/profile-phases.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startThreadsearch } from './lib/server-process.js';

const USAGE = 'node dist/bench/hot-path-profile.js [--duration 10] [--docs 200000] [--label before] [--keep dir]';
const { values } = benchArgs(USAGE, { options: { duration: { type: 'string' }, docs: { type: 'string' }, label: { type: 'string' }, keep: { type: 'string' }, analyze: { type: 'string' } } });
const DURATION = numberOption(USAGE, values.duration, 'duration', 10);
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const LABEL = values.label ?? 'current';
const BATCH = 5000;

interface Breakdown {
  readonly requests: number;
  /** µs per request by phase: on the main thread, and summed over the worker threads. */
  readonly main: Record<string, number>;
  readonly workers: Record<string, number>;
  readonly extra: Record<string, number>;
}

interface Window {
  /** V8 monotonic µs. */
  readonly from: number;
  readonly to: number;
  readonly requests: number;
  readonly extra: Record<string, number>;
}

/** The breakdown of the profiles in `dir` over `w`, which is saved beside them. */
function analyzed(dir: string, w: Window): Breakdown {
  writeFileSync(join(dir, 'window.json'), JSON.stringify(w));
  return { requests: w.requests, ...perRequest(profilePhases(dir, w.from, w.to), w.requests), extra: w.extra };
}

function reanalyzed(dir: string): Breakdown {
  const w = JSON.parse(readFileSync(join(dir, 'window.json'), 'utf8')) as Window;
  return { requests: w.requests, ...perRequest(profilePhases(dir, w.from, w.to), w.requests), extra: w.extra };
}

function perRequest(threads: readonly ThreadPhases[], requests: number): Pick<Breakdown, 'main' | 'workers'> {
  // Node numbers a process's profiles by thread: the main thread's is written first (…​.0.001).
  const [main, ...workers] = threads;
  const sum = (list: readonly ThreadPhases[]) => {
    const out: Record<string, number> = {};
    for (const t of list) for (const [phase, ms] of t.ms) out[phase] = (out[phase] ?? 0) + (ms * 1000) / requests;
    return out;
  };
  return { main: sum([main]), workers: sum(workers) };
}

function profileDir(name: string): string {
  if (values.keep === undefined) return mkdtempSync(join(tmpdir(), 'threadsearch-cpuprof-'));
  const dir = join(values.keep, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

const corpus = values.analyze === undefined ? generateBm25Corpus({ docs: DOCS, queries: 2000 }) : { docs: [], queries: [] };
const bodies = bulkBodies('bench', corpus.docs, BATCH);
const createIndex = (url: string) => fetch(`${url}/bench`, {
  method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }),
});

async function profileSearch(): Promise<Breakdown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-profile-'));
  const profDir = profileDir('search');
  try {
    const loader = await startThreadsearch([], { dataDir });
    await createIndex(loader.url);
    await bulkLoad(loader.url, bodies, 2);
    await fetch(`${loader.url}/bench/_refresh`, { method: 'POST' });
    await fetch(`${loader.url}/bench/_forcemerge?max_num_segments=1`, { method: 'POST' });
    await fetch(`${loader.url}/bench/_flush`, { method: 'POST' });
    await loader.stop();
    const server = await startThreadsearch([], { dataDir, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] });
    let q = 0;
    const run = (duration: number) => autocannon({
      url: `${server.url}/bench/_search`, connections: 10, duration,
      requests: [{
        method: 'POST', headers: { 'content-type': 'application/json' },
        setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 }) }),
      }],
    } as autocannon.Options);
    await run(3); // JIT warm-up, outside the window
    const from = monotonicUs();
    const result = await run(DURATION);
    const to = monotonicUs();
    await server.stop();
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`_search failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const requests = result.requests.total;
    console.log(`_search under the profiler: ${requests} requests in ${DURATION} s (${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms)`);
    return analyzed(profDir, { from, to, requests, extra: { rps: result.requests.average } });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (values.keep === undefined) rmSync(profDir, { recursive: true, force: true });
  }
}

async function profileBulk(): Promise<Breakdown> {
  const profDir = profileDir('bulk');
  try {
    const server = await startThreadsearch([], { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] });
    await createIndex(server.url);
    const from = monotonicUs();
    const t0 = performance.now();
    await bulkLoad(server.url, bodies, 2);
    await fetch(`${server.url}/bench/_refresh`, { method: 'POST' });
    const seconds = (performance.now() - t0) / 1000;
    const to = monotonicUs();
    await server.stop();
    console.log(`_bulk under the profiler: ${bodies.length} requests of ${BATCH} docs, ${Math.round(DOCS / seconds)} docs/s until searchable`);
    return analyzed(profDir, { from, to, requests: bodies.length, extra: { docs_per_s: DOCS / seconds } });
  } finally {
    if (values.keep === undefined) rmSync(profDir, { recursive: true, force: true });
  }
}

function table(b: Breakdown, unit: 'µs' | 'ms'): string {
  const scale = unit === 'ms' ? 1 / 1000 : 1;
  const phases = [...new Set([...Object.keys(b.main), ...Object.keys(b.workers)])]
    .sort((x, y) => (x === IDLE ? 1 : y === IDLE ? -1 : (b.main[y] ?? 0) + (b.workers[y] ?? 0) - (b.main[x] ?? 0) - (b.workers[x] ?? 0)));
  const busy = (r: Record<string, number>) => Object.entries(r).reduce((s, [p, v]) => (p === IDLE ? s : s + v), 0);
  const cell = (v: number | undefined) => (v === undefined ? '' : formatNumber(v * scale));
  return markdownTable(
    ['phase', `main thread ${unit}/request`, `search workers ${unit}/request`],
    [...phases.map((p) => [p, cell(b.main[p]), cell(b.workers[p])]), ['**busy total**', cell(busy(b.main)), cell(busy(b.workers))]],
  );
}

const search = values.analyze !== undefined ? reanalyzed(join(values.analyze, 'search')) : await profileSearch();
const bulk = values.analyze !== undefined ? reanalyzed(join(values.analyze, 'bulk')) : await profileBulk();
const searchTable = table(search, 'µs');
const bulkTable = table(bulk, 'ms');
console.log(`\n_search (${LABEL})\n${searchTable}\n\n_bulk of ${BATCH} docs (${LABEL})\n${bulkTable}`);
if (DOCS === 200_000) {
  writeResult(`hot-path-profile-${LABEL}`, { params: { docs: DOCS, duration_s: DURATION, connections: 10, batch: BATCH }, search, bulk, otherCores: NaN });
  updateBenchmarksMd(
    `hot-path-profile-${LABEL}`,
    `### one \`_search\` (µs per request)\n\n${searchTable}\n\n### one \`_bulk\` of ${BATCH} docs (ms per request)\n\n${bulkTable}`,
    `Time per request by phase from \`node --cpu-prof\` profiles of the server (every thread), samples attributed to the innermost frame a phase rule recognises (bench/lib/profile-phases.ts), only while the load ran. \`_search\`: ${search.requests} requests (${Math.round(search.extra.rps)} req/s under the profiler), match query, 10 hits with \`_source\`, 200k docs in one segment, 10 connections. \`_bulk\`: ${bulk.requests} requests of ${BATCH} short docs, 2 in flight, until \`_refresh\` returned (${Math.round(bulk.extra.docs_per_s)} docs/s under the profiler). V8 samples on wall-clock time, so on a loaded machine a descheduled thread's ticks land where it stopped (a futex wake in Piscina's \`Atomics.notify\` shows up as dispatch); compare phases within one run. Run: \`node dist/bench/hot-path-profile.js --label ${LABEL}\`.`,
  );
}
