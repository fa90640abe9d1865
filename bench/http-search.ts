/**
 * Scenario (b): HTTP `_search` throughput with autocannon, 10 and 100 connections, next to a
 * fastify hello-world route measured in the same run. threadsearch runs as a child process with
 * the 200k-document synthetic corpus (force-merged); each request is a `match` query from the
 * corpus query list returning 10 hits with `_source`. Target: `_search` req/s ≥ 25% of hello-world
 * at 10 connections, ≥ 35% at 100, p99 ≤ 2 × p50 at 100. `_msearch` (10 such queries per request)
 * runs in the same run; its queries/s are compared with `_search`'s (target ≥ 2×).
 *
 *   node dist/bench/http-search.js [--duration 10] [--docs 200000]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { processCpuSeconds, startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startProcess, startThreadsearch } from './lib/server-process.js';

const { values } = parseArgs({ options: { duration: { type: 'string' }, docs: { type: 'string' } } });
const DURATION = Number(values.duration ?? 10);
const DOCS = Number(values.docs ?? 200_000);
const MSEARCH_QUERIES = 10;

interface Run {
  target: string;
  connections: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  otherCores: number;
  /** CPU the server process used (all its threads) per request, µs. */
  serverCpuUsPerRequest: number;
}

async function cannon(target: string, url: string, connections: number, body: (() => string) | null, pids: number[], contentType = 'application/json'): Promise<Run> {
  const probe = startCpuProbe({ pids });
  const cpu0 = processCpuSeconds(pids[0]) ?? NaN;
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    requests: [
      body
        ? { method: 'POST', headers: { 'content-type': contentType }, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }
        : { method: 'GET' },
    ],
  } as autocannon.Options);
  const cpu = probe.stop();
  const serverCpu = (processCpuSeconds(pids[0]) ?? NaN) - cpu0;
  const run = {
    target, connections, rps: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors, otherCores: cpu.otherCores,
    serverCpuUsPerRequest: (serverCpu * 1e6) / Math.max(1, result.requests.total),
  };
  console.log(`${target}, ${connections} connections: ${Math.round(run.rps)} req/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}, server CPU ${Math.round(run.serverCpuUsPerRequest)} µs/request, otherCores ${run.otherCores.toFixed(2)}`);
  return run;
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
const server = await startThreadsearch();
const hello = await startProcess(new URL('../src/cli/bench/hello-world-server.js', import.meta.url).pathname, []);
try {
  await fetch(`${server.url}/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await bulkLoad(server.url, bulkBodies('bench', corpus.docs, 5000), 2);
  await fetch(`${server.url}/bench/_refresh`, { method: 'POST' });
  await fetch(`${server.url}/bench/_forcemerge?max_num_segments=1`, { method: 'POST' });
  let q = 0;
  const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
  const msearchBody = () => {
    let out = '';
    for (let i = 0; i < MSEARCH_QUERIES; i++) out += `{}\n${searchBody()}\n`;
    return out;
  };
  // Warm up both servers before measuring.
  await cannon('warm-up', `${server.url}/bench/_search`, 10, searchBody, [server.pid]);
  const runs: Run[] = [];
  for (const connections of [10, 100]) {
    runs.push(await cannon('fastify hello-world', hello.url, connections, null, [hello.pid]));
    runs.push(await cannon('threadsearch _search', `${server.url}/bench/_search`, connections, searchBody, [server.pid]));
    runs.push(await cannon(`threadsearch _msearch ×${MSEARCH_QUERIES}`, `${server.url}/bench/_msearch`, connections, msearchBody, [server.pid], 'application/x-ndjson'));
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
        ['target', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/request', 'otherCores'],
        runs.map((r) => [r.target, r.connections, Math.round(r.rps), r.p50_ms, r.p99_ms, r.non2xx, Math.round(r.serverCpuUsPerRequest), r.otherCores.toFixed(2)]),
      ),
      `autocannon (in the bench process) against threadsearch (child process, default threads) holding the 200k-doc corpus in one force-merged segment, each request a \`match\` query cycling through the 2,000 corpus queries, 10 hits with \`_source\`; fastify hello-world in another child process. ${DURATION} s per run, same run. _search / hello-world: **${formatNumber(summary.ratio_10 * 100)}%** at 10 connections (target ≥ 25%), **${formatNumber(summary.ratio_100 * 100)}%** at 100 (target ≥ 35%); p99/p50 at 100 connections **${formatNumber(summary.p99_over_p50_100)}** (target ≤ 2). \`_msearch\` of ${MSEARCH_QUERIES} such queries per request: **${formatNumber(summary.msearch_over_search_10)}×** the queries/s of single \`_search\` at 10 connections, **${formatNumber(summary.msearch_over_search_100)}×** at 100 (target ≥ 2×). server CPU µs/request is the CPU time of the server process (all threads) over the run divided by its requests — the per-request cost, which holds up better than req/s on a busy machine. otherCores counts CPU used outside the server process (autocannon itself included). Run: \`node dist/bench/http-search.js\`.`,
    );
  }
} finally {
  await server.stop();
  await hello.stop();
}
