/**
 * Scenario (b): HTTP `_search` throughput with autocannon, 10 and 100 connections, next to a
 * fastify hello-world route measured in the same run. threadsearch runs as a child process with
 * the 200k-document synthetic corpus (force-merged); each request is a `match` query from the
 * corpus query list returning 10 hits with `_source`. Target: `_search` req/s ≥ 25% of hello-world
 * at 10 connections, ≥ 35% at 100, p99 ≤ 2 × p50 at 100. `_msearch` (10 such queries per request)
 * runs in the same run; its queries/s are compared with `_search`'s (target ≥ 2×).
 *
 *   node dist/bench/http-search.js [--duration 10] [--docs 200000]
 *   node dist/bench/http-search.js --baseline /path/to/other/dist [--baseline-name NAME] [--rounds 3] [--rate 300]
 *
 * Every run reports the server's CPU per request (all threads, and its main thread alone, from
 * /proc): on a machine the load generator shares, that cost decides req/s, and it holds up far
 * better than req/s when other work runs meanwhile. With `--baseline`, a second server from another
 * build (a `dist/` directory, e.g. main's) holds the same corpus, and the runs alternate between the
 * two builds round by round (the order flips every round, and both servers restart on their data in
 * that order, since the second-started one ran cheaper in an A/A run); the section `http-search-ab` gets the
 * medians over the rounds, the plain `http-search` section is left alone. `--rate N` offers both
 * builds the same N requests/s (autocannon's overallRate) instead of as many as they take: on a
 * machine other jobs load, a starved server batches less and pays more per request, so unpaced
 * CPU per request tracks the load of the moment; paced below what both sustain, the builds do the
 * same work at the same batching and their CPU per request compares (req/s ratios are then void).
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption } from './lib/args.js';
import autocannon from 'autocannon';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { processCpuSeconds, startCpuProbe, threadCpuSeconds } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startProcess, startThreadsearch, type ServerProcess } from './lib/server-process.js';

const USAGE = 'node dist/bench/http-search.js [--duration 10] [--docs 200000]\n       node dist/bench/http-search.js --baseline /path/to/other/dist [--baseline-name NAME] [--rounds 3] [--rate 300]';
const { values } = benchArgs(USAGE, {
  options: {
    duration: { type: 'string' }, docs: { type: 'string' }, baseline: { type: 'string' }, 'baseline-name': { type: 'string' }, rounds: { type: 'string' }, rate: { type: 'string' },
  },
});
const DURATION = numberOption(USAGE, values.duration, 'duration', 10);
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 3);
/** Offered `_search` requests/s in A/B mode (`_msearch` gets a tenth); undefined: as fast as the server answers. */
const RATE = values.rate === undefined ? undefined : numberOption(USAGE, values.rate, 'rate', Number.NaN);
const MSEARCH_QUERIES = 10;

interface Run {
  target: string;
  build: string;
  round: number;
  connections: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  otherCores: number;
  /** CPU the server process used (all its threads) per request, µs. */
  serverCpuUsPerRequest: number;
  /** The part of it on the server's main thread (HTTP, coordinator), µs. */
  mainCpuUsPerRequest: number;
}

/** CPU seconds of the whole process and of its main thread. */
function cpuNow(pid: number): { all: number; main: number } {
  return { all: processCpuSeconds(pid) ?? NaN, main: threadCpuSeconds(pid, pid) ?? NaN };
}

async function cannon(
  target: string, build: string, round: number, url: string, connections: number, body: (() => string) | null, pid: number, contentType = 'application/json',
  overallRate?: number,
): Promise<Run> {
  const probe = startCpuProbe({ pids: [pid] });
  const cpu0 = cpuNow(pid);
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: [
      body
        ? { method: 'POST', headers: { 'content-type': contentType }, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }
        : { method: 'GET' },
    ],
  } as autocannon.Options);
  const cpu = probe.stop();
  const cpu1 = cpuNow(pid);
  const n = Math.max(1, result.requests.total);
  const run: Run = {
    target, build, round, connections, rps: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors, otherCores: cpu.otherCores,
    serverCpuUsPerRequest: ((cpu1.all - cpu0.all) * 1e6) / n, mainCpuUsPerRequest: ((cpu1.main - cpu0.main) * 1e6) / n,
  };
  const who = build === '' ? '' : ` [${build}]`;
  console.log(`${target}${who}, ${connections} connections: ${Math.round(run.rps)} req/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}, server CPU ${Math.round(run.serverCpuUsPerRequest)} µs/request (main thread ${Math.round(run.mainCpuUsPerRequest)}), otherCores ${run.otherCores.toFixed(2)}`);
  return run;
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
let q = 0;
const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const msearchBody = () => {
  let out = '';
  for (let i = 0; i < MSEARCH_QUERIES; i++) out += `{}\n${searchBody()}\n`;
  return out;
};

/** SERVER_NODE_ARGS of another build's `dist` (none before it had them). */
async function buildNodeArgs(dist: string): Promise<readonly string[]> {
  const mod = (await import(pathToFileURL(join(dist, 'src', 'cli', 'server-process.js')).href)) as { SERVER_NODE_ARGS?: readonly string[] };
  return mod.SERVER_NODE_ARGS ?? [];
}

/** A server of `dist` (null: this tree) on `dataDir` (its own temporary one when not given). */
async function startBuild(dist: string | null, dataDir?: string): Promise<ServerProcess> {
  if (dist === null) return startThreadsearch([], { dataDir });
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
  // With the node flags that build's own server processes get (its `npm start`), so an A/B compares builds as they run.
  const nodeArgs = await buildNodeArgs(dist);
  return startProcess(join(dist, 'src', 'main.js'), ['--port', '0', '--no-security', '--data', dir], dataDir === undefined ? () => rmSync(dir, { recursive: true, force: true }) : undefined, nodeArgs);
}

/** Loads the corpus into `server` as one force-merged segment, flushed (a restart on its data finds that one segment). */
async function loadCorpus(server: ServerProcess): Promise<void> {
  await fetch(`${server.url}/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await bulkLoad(server.url, bulkBodies('bench', corpus.docs, 5000), 2);
  await fetch(`${server.url}/bench/_refresh`, { method: 'POST' });
  await fetch(`${server.url}/bench/_forcemerge?max_num_segments=1`, { method: 'POST' });
  await fetch(`${server.url}/bench/_flush`, { method: 'POST' });
}

/** Checks `server` holds the whole corpus in one segment, then warms it up. */
async function warmUp(server: ServerProcess): Promise<void> {
  const stats = await (await fetch(`${server.url}/bench/_stats`)).json() as { indices?: { bench?: { primaries?: { docs?: { count?: number }; segments?: { count?: number } } } } };
  const p = stats.indices?.bench?.primaries;
  if (p?.docs?.count !== DOCS || p.segments?.count !== 1) throw new Error(`server ${server.url}: expected ${DOCS} docs in 1 segment, got ${JSON.stringify(p?.docs)} in ${JSON.stringify(p?.segments?.count)}`);
  await cannon('warm-up', '', 0, `${server.url}/bench/_search`, 10, searchBody, server.pid);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const hello = await startProcess(new URL('../src/cli/bench/hello-world-server.js', import.meta.url).pathname, []);
const servers: Array<{ build: string; server: ServerProcess }> = [];
const cleanups: Array<() => void> = [];
try {
  if (values.baseline === undefined) {
    const server = await startBuild(null);
    servers.push({ build: '', server });
    await loadCorpus(server);
    await warmUp(server);
    const runs: Run[] = [];
    for (const connections of [10, 100]) {
      runs.push(await cannon('fastify hello-world', '', 0, hello.url, connections, null, hello.pid));
      runs.push(await cannon('threadsearch _search', '', 0, `${server.url}/bench/_search`, connections, searchBody, server.pid));
      runs.push(await cannon(`threadsearch _msearch ×${MSEARCH_QUERIES}`, '', 0, `${server.url}/bench/_msearch`, connections, msearchBody, server.pid, 'application/x-ndjson'));
    }
    const run = (prefix: string, c: number) => runs.find((r) => r.target.startsWith(prefix) && r.connections === c)!;
    const ratio = (c: number) => run('threadsearch _search', c).rps / run('fastify', c).rps;
    const msearchRatio = (c: number) => (run('threadsearch _msearch', c).rps * MSEARCH_QUERIES) / run('threadsearch _search', c).rps;
    const search100 = run('threadsearch _search', 100);
    const summary = {
      ratio_10: ratio(10), ratio_100: ratio(100), p99_over_p50_100: search100.p99_ms / search100.p50_ms,
      msearch_queries_per_s_10: run('threadsearch _msearch', 10).rps * MSEARCH_QUERIES, msearch_queries_per_s_100: run('threadsearch _msearch', 100).rps * MSEARCH_QUERIES,
      msearch_over_search_10: msearchRatio(10), msearch_over_search_100: msearchRatio(100),
    };
    console.log(`targets: _search / hello-world req/s = ${(summary.ratio_10 * 100).toFixed(1)}% (10 conn; target ≥ 25%), ${(summary.ratio_100 * 100).toFixed(1)}% (100 conn; target ≥ 35%)`);
    console.log(`targets: _search p99 / p50 at 100 conn = ${summary.p99_over_p50_100.toFixed(2)} (target ≤ 2)`);
    console.log(`targets: _msearch queries/s / _search queries/s = ${summary.msearch_over_search_10.toFixed(2)}× (10 conn), ${summary.msearch_over_search_100.toFixed(2)}× (100 conn) (target ≥ 2×)`);
    if (DOCS === 200_000) {
      writeResult('http-search', { params: { docs: DOCS, duration_s: DURATION, hits: 10 }, runs, summary });
      updateBenchmarksMd(
        'http-search',
        markdownTable(
          ['target', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/request', 'main thread µs/request', 'otherCores'],
          runs.map((r) => [r.target, r.connections, Math.round(r.rps), r.p50_ms, r.p99_ms, r.non2xx, Math.round(r.serverCpuUsPerRequest), Math.round(r.mainCpuUsPerRequest), r.otherCores.toFixed(2)]),
        ),
        `autocannon (in the bench process) against threadsearch (child process, default threads) holding the 200k-doc corpus in one force-merged segment, each request a \`match\` query cycling through the 2,000 corpus queries, 10 hits with \`_source\`; fastify hello-world in another child process. ${DURATION} s per run, same run. _search / hello-world: **${formatNumber(summary.ratio_10 * 100)}%** at 10 connections (target ≥ 25%), **${formatNumber(summary.ratio_100 * 100)}%** at 100 (target ≥ 35%); p99/p50 at 100 connections **${formatNumber(summary.p99_over_p50_100)}** (target ≤ 2). \`_msearch\` of ${MSEARCH_QUERIES} such queries per request: **${formatNumber(summary.msearch_over_search_10)}×** the queries/s of single \`_search\` at 10 connections, **${formatNumber(summary.msearch_over_search_100)}×** at 100 (target ≥ 2×). server CPU µs/request is the CPU time of the server process (all threads) over the run divided by its requests — the per-request cost, which holds up better than req/s on a busy machine; main thread µs/request is the part of it on the event loop (HTTP, coordinator), the rest being search workers and V8's compiler and GC threads. otherCores counts CPU used outside the server process (autocannon itself included). Run: \`node dist/bench/http-search.js\`.`,
      );
    }
  } else {
    // A/B: both builds hold the same corpus, each in a data directory kept for the whole run. Every
    // round restarts both servers on their data, in the round's order (it flips every round), and
    // runs them in that order: an A/A run of one build showed the server started second spending
    // 0.86–1.02× the first's main-thread CPU per request (docs/benchmarks/issue-19-request-hot-path.md, hot-path-i19c), so a fixed
    // start order would bias every round the same way.
    const self = { build: 'this build', dist: null as string | null };
    const base = { build: values['baseline-name'] ?? 'baseline', dist: values.baseline as string | null };
    const builds = [base, self].map((b) => ({ ...b, dataDir: mkdtempSync(join(tmpdir(), 'threadsearch-bench-')) }));
    cleanups.push(() => { for (const b of builds) rmSync(b.dataDir, { recursive: true, force: true }); });
    for (const b of builds) {
      const server = await startBuild(b.dist, b.dataDir);
      try {
        await loadCorpus(server);
      } finally {
        await server.stop();
      }
    }
    const runs: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const b of order) servers.push({ build: b.build, server: await startBuild(b.dist, b.dataDir) });
      for (const { server } of servers) await warmUp(server);
      for (const connections of [10, 100]) {
        runs.push(await cannon('fastify hello-world', '', round, hello.url, connections, null, hello.pid));
        for (const { build, server } of servers) {
          runs.push(await cannon('threadsearch _search', build, round, `${server.url}/bench/_search`, connections, searchBody, server.pid, undefined, RATE));
          runs.push(await cannon(
            `threadsearch _msearch ×${MSEARCH_QUERIES}`, build, round, `${server.url}/bench/_msearch`, connections, msearchBody, server.pid, 'application/x-ndjson',
            RATE === undefined ? undefined : RATE / MSEARCH_QUERIES,
          ));
        }
      }
      for (const { server } of servers.splice(0)) await server.stop();
    }
    const pick = (target: string, build: string, c: number) => runs.filter((r) => r.target.startsWith(target) && r.build === build && r.connections === c);
    /** Per-round ratio to the same round's hello-world, then the median over rounds. */
    const perRound = (build: string, c: number, f: (search: Run, msearch: Run, hello: Run) => number) => median(
      Array.from({ length: ROUNDS }, (_, i) => i + 1).map((round) => f(
        pick('threadsearch _search', build, c).find((r) => r.round === round)!,
        pick('threadsearch _msearch', build, c).find((r) => r.round === round)!,
        pick('fastify', '', c).find((r) => r.round === round)!,
      )),
    );
    const rows: Array<Array<string | number>> = [];
    const summary: Record<string, Record<string, number>> = {};
    for (const c of [10, 100]) {
      for (const { build } of builds) {
        const s = pick('threadsearch _search', build, c);
        const m = pick('threadsearch _msearch', build, c);
        const figures = {
          search_rps: median(s.map((r) => r.rps)),
          ratio_to_hello: perRound(build, c, (sr, _m, h) => sr.rps / h.rps),
          search_cpu_us: median(s.map((r) => r.serverCpuUsPerRequest)),
          search_main_cpu_us: median(s.map((r) => r.mainCpuUsPerRequest)),
          p99_over_p50: median(s.map((r) => r.p99_ms / Math.max(1, r.p50_ms))),
          msearch_cpu_us_per_query: median(m.map((r) => r.serverCpuUsPerRequest / MSEARCH_QUERIES)),
          msearch_over_search: perRound(build, c, (sr, mr) => (mr.rps * MSEARCH_QUERIES) / sr.rps),
        };
        summary[`${build} ${c}`] = figures;
        rows.push([
          build, c, Math.round(figures.search_rps), `${formatNumber(figures.ratio_to_hello * 100)}%`, Math.round(figures.search_cpu_us), Math.round(figures.search_main_cpu_us),
          formatNumber(figures.p99_over_p50), Math.round(figures.msearch_cpu_us_per_query), `${formatNumber(figures.msearch_over_search)}×`,
        ]);
      }
    }
    const helloCpu = median(runs.filter((r) => r.target.startsWith('fastify') && r.connections === 10).map((r) => r.serverCpuUsPerRequest));
    const helloRps = median(runs.filter((r) => r.target.startsWith('fastify') && r.connections === 10).map((r) => r.rps));
    const otherCores = Math.max(...runs.map((r) => r.otherCores));
    const table = markdownTable(
      ['build', 'connections', '_search req/s', '÷ hello-world', 'server CPU µs/_search', 'main thread µs/_search', 'p99 / p50', '_msearch CPU µs/query', '_msearch ÷ _search queries/s'],
      rows,
    );
    console.log(table);
    const scenario = RATE === undefined ? 'http-search-ab' : 'http-search-ab-paced';
    writeResult(scenario, { params: { docs: DOCS, duration_s: DURATION, rounds: ROUNDS, baseline: base.dist, rate: RATE ?? null }, runs, summary, otherCores });
    const paced = RATE === undefined ? '' : `Paced: both builds were offered ${RATE} \`_search\` requests/s (and ${RATE / MSEARCH_QUERIES} \`_msearch\` requests/s), so their CPU per request compares at equal batching; the req/s columns only say whether they kept up.`;
    if (DOCS === 200_000) {
      updateBenchmarksMd(scenario, table, `This build against \`${base.build}\` (\`${base.dist}\`), both holding the 200k-doc corpus in one force-merged segment, the \`_search\` and \`_msearch\` runs of \`http-search\` (${DURATION} s each) alternated between the builds over ${ROUNDS} rounds, both servers restarted on their data every round in that round's order (it flips every round); medians over the rounds (ratios per round against that round's hello-world, ${Math.round(helloRps)} req/s and ${Math.round(helloCpu)} µs of CPU per request at 10 connections). Server CPU is every thread of the server process (/proc), the main thread's share beside it; worst otherCores ${otherCores.toFixed(2)}${otherCores > 0.5 ? ': a loaded machine, compare the builds row by row rather than the absolute figures' : ''}. ${paced}${paced === '' ? '' : ' '}Run: \`node dist/bench/http-search.js --baseline /path/to/dist${RATE === undefined ? '' : ` --rate ${RATE}`}\`.`);
    }
  }
} finally {
  for (const { server } of servers) await server.stop();
  await hello.stop();
  for (const cleanup of cleanups) cleanup();
}
