/**
 * Scenario (b): HTTP `_search` throughput with autocannon, 10 and 100 connections, next to a
 * fastify hello-world route measured in the same run. threadsearch runs as a child process with
 * the 200k-document synthetic corpus (force-merged); each request is a `match` query from the
 * corpus query list returning 10 hits with `_source`. Target: `_search` req/s ≥ 25% of hello-world.
 *
 *   node dist/bench/http-search.js [--duration 10] [--docs 200000]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startProcess, startThreadsearch } from './lib/server-process.js';

const { values } = parseArgs({ options: { duration: { type: 'string' }, docs: { type: 'string' } } });
const DURATION = Number(values.duration ?? 10);
const DOCS = Number(values.docs ?? 200_000);

interface Run {
  target: string;
  connections: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  otherCores: number;
}

async function cannon(target: string, url: string, connections: number, body: (() => string) | null, pids: number[]): Promise<Run> {
  const probe = startCpuProbe({ pids });
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    requests: [
      body
        ? { method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }
        : { method: 'GET' },
    ],
  } as autocannon.Options);
  const cpu = probe.stop();
  const run = {
    target, connections, rps: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors, otherCores: cpu.otherCores,
  };
  console.log(`${target}, ${connections} connections: ${Math.round(run.rps)} req/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}, otherCores ${run.otherCores.toFixed(2)}`);
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
  // Warm up both servers before measuring.
  await cannon('warm-up', `${server.url}/bench/_search`, 10, searchBody, [server.pid]);
  const runs: Run[] = [];
  for (const connections of [10, 100]) {
    runs.push(await cannon('fastify hello-world', hello.url, connections, null, [hello.pid]));
    runs.push(await cannon('threadsearch _search', `${server.url}/bench/_search`, connections, searchBody, [server.pid]));
  }
  const ratio = (c: number) => runs.find((r) => r.target.startsWith('threadsearch') && r.connections === c)!.rps / runs.find((r) => r.target.startsWith('fastify') && r.connections === c)!.rps;
  const summary = { ratio_10: ratio(10), ratio_100: ratio(100) };
  console.log(`targets: _search / hello-world req/s = ${(summary.ratio_10 * 100).toFixed(0)}% (10 conn), ${(summary.ratio_100 * 100).toFixed(0)}% (100 conn); target ≥ 25%`);
  if (DOCS === 200_000) {
    writeResult('http-search', { params: { docs: DOCS, duration_s: DURATION, hits: 10 }, runs, summary });
    updateBenchmarksMd(
      'http-search',
      markdownTable(
        ['target', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'otherCores'],
        runs.map((r) => [r.target, r.connections, Math.round(r.rps), r.p50_ms, r.p99_ms, r.non2xx, r.otherCores.toFixed(2)]),
      ),
      `autocannon (in the bench process) against threadsearch (child process, default threads) holding the 200k-doc corpus in one force-merged segment, each request a \`match\` query cycling through the 2,000 corpus queries, 10 hits with \`_source\`; fastify hello-world in another child process. ${DURATION} s per run, same run. _search / hello-world: **${formatNumber(summary.ratio_10 * 100)}%** at 10 connections, **${formatNumber(summary.ratio_100 * 100)}%** at 100 (target ≥ 25%). otherCores counts CPU used outside the server process (autocannon itself included). Run: \`node dist/bench/http-search.js\`.`,
    );
  }
} finally {
  await server.stop();
  await hello.stop();
}
