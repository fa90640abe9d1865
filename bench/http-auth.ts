/**
 * Scenario: what authentication and authorization cost per request. The same `_search` load (a
 * `match` query, 10 hits with `_source`) against two threadsearch child processes started in the
 * same run: one with `--no-security`, one with security on, queried with the superuser key and
 * with a read-only key for the index (which takes the index-expression narrowing path). Cases are
 * interleaved in rounds so machine drift hits them alike. Reported as ratios to the no-security
 * server. Also: the cost of a wrong key (one scrypt verification each).
 *
 *   node dist/bench/http-auth.js [--duration 5] [--docs 50000] [--rounds 2]
 */
import { benchArgs, numberOption } from './lib/args.js';
import autocannon from 'autocannon';
import { encodeApiKey } from '../src/security/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { processCpuSeconds, startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startThreadsearch, type ServerProcess } from './lib/server-process.js';

const USAGE = 'node dist/bench/http-auth.js [--duration 5] [--docs 50000] [--rounds 2]';
const { values } = benchArgs(USAGE, { options: { duration: { type: 'string' }, docs: { type: 'string' }, rounds: { type: 'string' } } });
const DURATION = numberOption(USAGE, values.duration, 'duration', 5);
const DOCS = numberOption(USAGE, values.docs, 'docs', 50_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 2);
const CONNECTIONS = 50;
const SUPERUSER = encodeApiKey({ id: 'bench-superuser', secret: 'bench-superuser-secret' });

async function load(server: ServerProcess, headers: Record<string, string>): Promise<void> {
  const json = { 'content-type': 'application/json', ...headers };
  await fetch(`${server.url}/bench`, { method: 'PUT', headers: json, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await bulkLoad(server.url, bulkBodies('bench', corpus.docs, 5000), 2, headers);
  await fetch(`${server.url}/bench/_forcemerge?max_num_segments=1`, { method: 'POST', headers });
  await fetch(`${server.url}/bench/_refresh`, { method: 'POST', headers });
}

interface Case {
  readonly name: string;
  readonly server: ServerProcess;
  readonly authorization: string | null;
  readonly rps: number[];
  readonly p99: number[];
  /** the server's CPU µs per request in each round (all its threads, /proc) */
  readonly cpuUs: number[];
  non2xx: number;
}

async function cannon(c: Case, body: () => string): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (c.authorization) headers.authorization = c.authorization;
  const cpu0 = processCpuSeconds(c.server.pid) ?? NaN;
  const result = await autocannon({
    url: `${c.server.url}/bench/_search`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: 'POST' as const, headers, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }],
  } as unknown as autocannon.Options);
  const cpuUs = (((processCpuSeconds(c.server.pid) ?? NaN) - cpu0) * 1e6) / result.requests.total;
  c.rps.push(result.requests.average);
  c.p99.push(result.latency.p99);
  c.cpuUs.push(cpuUs);
  c.non2xx += result.non2xx;
  console.log(`${c.name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, server CPU ${Math.round(cpuUs)} µs/request, non-2xx ${result.non2xx}`);
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
const open = await startThreadsearch();
const secure = await startThreadsearch([], { apiKey: SUPERUSER });
try {
  await load(open, {});
  await load(secure, { authorization: `ApiKey ${SUPERUSER}` });
  const created = await fetch(`${secure.url}/_security/api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `ApiKey ${SUPERUSER}` },
    body: JSON.stringify({ name: 'bench-reader', role_descriptors: { r: { indices: [{ names: ['bench'], privileges: ['read'] }] } } }),
  });
  const reader = ((await created.json()) as { encoded: string }).encoded;
  const cases: Case[] = [
    { name: 'no security', server: open, authorization: null, rps: [], p99: [], cpuUs: [], non2xx: 0 },
    { name: 'superuser key', server: secure, authorization: `ApiKey ${SUPERUSER}`, rps: [], p99: [], cpuUs: [], non2xx: 0 },
    { name: 'read-only key for the index', server: secure, authorization: `ApiKey ${reader}`, rps: [], p99: [], cpuUs: [], non2xx: 0 },
  ];
  let q = 0;
  const body = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
  for (const c of cases) await cannon({ ...c, rps: [], p99: [], cpuUs: [] }, body); // warm-up
  const probe = startCpuProbe({ pids: [open.pid, secure.pid] });
  // Each round starts at a different case, so no case always runs right after the same one.
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < cases.length; j++) await cannon(cases[(j + round) % cases.length], body);
  }
  const cpu = probe.stop();

  // Wrong keys: each costs a scrypt verification; measured sequentially, one connection.
  const wrong = `ApiKey ${encodeApiKey({ id: 'bench-superuser', secret: 'not-the-secret' })}`;
  const t0 = performance.now();
  const WRONG = 200;
  for (let i = 0; i < WRONG; i++) await (await fetch(`${secure.url}/bench/_search`, { method: 'POST', headers: { authorization: wrong } })).text();
  const wrongMs = (performance.now() - t0) / WRONG;

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const base = mean(cases[0].rps);
  const baseCpu = median(cases[0].cpuUs);
  const rows = cases.map((c) => ({
    case: c.name,
    rps: mean(c.rps),
    p99_ms: Math.max(...c.p99),
    ratio: mean(c.rps) / base,
    cpu_us: median(c.cpuUs),
    // CPU per request is what security adds; on a shared machine it is steadier than req/s.
    cpu_ratio: baseCpu / median(c.cpuUs),
    non2xx: c.non2xx,
  }));
  console.log(`wrong key: ${wrongMs.toFixed(2)} ms per request (sequential)`);
  writeResult('http-auth', { params: { docs: DOCS, duration_s: DURATION, rounds: ROUNDS, connections: CONNECTIONS }, rows, wrong_key_ms: wrongMs, otherCores: cpu.otherCores });
  updateBenchmarksMd(
    'http-auth',
    markdownTable(
      ['case', 'req/s', 'ratio to no security', 'server CPU µs/request (median)', 'no-security CPU ÷ this CPU', 'worst p99 ms', 'non-2xx'],
      rows.map((r) => [r.case, Math.round(r.rps), r.ratio.toFixed(3), Math.round(r.cpu_us), r.cpu_ratio.toFixed(3), r.p99_ms, r.non2xx]),
    ),
    `The cost of security per request: \`_search\` (\`match\`, 10 hits with \`_source\`, ${formatNumber(DOCS)} docs, one force-merged segment) at ${CONNECTIONS} connections against a \`--no-security\` server and a secured one (superuser key; read-only key for the index, which narrows the index expression), ${ROUNDS} interleaved rounds of ${DURATION} s, same run. Server CPU per request is every thread of the server's process (/proc) over each run, the median over the rounds: the throughput a CPU-bound server would reach, as a ratio, without the other processes' share of the cores. A valid key costs a salted SHA-256 and a permission check; a wrong key costs one scrypt verification: **${formatNumber(wrongMs)} ms** per request, sequential. otherCores ${cpu.otherCores.toFixed(2)}. Run: \`node dist/bench/http-auth.js\`.`,
  );
} finally {
  await open.stop();
  await secure.stop();
}
