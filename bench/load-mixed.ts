/**
 * Scenario: overload and faults. threadsearch (50k synthetic docs, 2 shards) under a mixed load
 * of `_search` (4 of every 5 requests: a corpus `match` query, 10 hits) and `_bulk` (50 docs that
 * re-index existing ids, so the index keeps 50k live docs while deletes and merges churn) from
 * autocannon:
 *
 *   overload: 60 s at 1,000 connections, far past what 2 cores serve, default limits.
 *   faults:   30 s at 100 connections, one search worker thread terminated every 5 s.
 *
 * What must hold: the server stays up; every answer is 2xx or 429 (es_rejected_execution) —
 * during faults also ES-shaped 500s for the shard searches a dying worker took down twice; RSS
 * stays under 2 GB (peak reported, with the largest sample of each half of the run to show the
 * trend); afterwards all 50k documents are there exactly once (a dead worker loses no data).
 *
 *   node dist/bench/load-mixed.js [--duration 60] [--connections 1000]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import autocannon from 'autocannon';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startProcess, type ServerProcess } from './lib/server-process.js';

const USAGE = 'node dist/bench/load-mixed.js [--duration 60] [--connections 1000]';
const { values } = benchArgs(USAGE, { options: { duration: { type: 'string' }, connections: { type: 'string' } } });
const DURATION = numberOption(USAGE, values.duration, 'duration', 60);
const CONNECTIONS = numberOption(USAGE, values.connections, 'connections', 1000);
const DOCS = 50_000;
const BULK_DOCS = 50;
/** The bound RSS must stay under: GC timing makes within-run growth noisy, a hard cap is not. */
const RSS_LIMIT_MB = 2048;

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });

function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

interface PhaseResult {
  phase: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  statuses: Record<string, number>;
  socket_errors: number;
  timeouts: number;
  p50_ms: number;
  p99_ms: number;
  rss_peak_mb: number;
  rss_first_half_max_mb: number;
  rss_second_half_max_mb: number;
  acked_bulks: number;
  worker_kills: number;
  /** The server's own view: headers parsed → response sent (all statuses), and client aborts. */
  server_p99_ms: number;
  server_max_ms: number;
  server_aborted: number;
  server_connections: number;
  server_loop_delay_max_ms: number;
  /** process.memoryUsage() of the server's main thread at the end of the phase, MB. */
  server_memory_mb: Record<string, number>;
  otherCores: number;
}

interface ServerStats {
  readonly p99_ms: number;
  readonly max_ms: number;
  readonly aborted: number;
  readonly connections: number;
  readonly loop_delay_max_ms: number;
  readonly memory_mb: Record<string, number>;
}

/** Asks the fault server for its counters since the last call (SIGUSR1 → a `stats {…}` line). */
async function serverStats(server: ServerProcess): Promise<ServerStats> {
  const before = server.output().length;
  process.kill(server.pid, 'SIGUSR1');
  for (;;) {
    const m = /stats (\{.*\})\n/.exec(server.output().slice(before));
    if (m) return JSON.parse(m[1]) as ServerStats;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function phase(name: string, server: ServerProcess, connections: number, seconds: number, killEveryMs: number): Promise<PhaseResult> {
  let acked = 0;
  let q = 0;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssKb(server.pid, 'VmRSS')), 500);
  let kills = 0;
  const killer = killEveryMs > 0 ? setInterval(() => {
    process.kill(server.pid, 'SIGUSR2');
    kills++;
  }, killEveryMs) : null;
  const probe = startCpuProbe({ pids: [server.pid] });
  const search = {
    method: 'POST', path: '/load/_search', headers: { 'content-type': 'application/json' },
    setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } } }) }),
  };
  const bulk = {
    method: 'POST', path: '/load/_bulk', headers: { 'content-type': 'application/x-ndjson' },
    setupRequest: (req: Record<string, unknown>) => {
      const docs = Array.from({ length: BULK_DOCS }, () => corpus.docs[Math.floor(Math.random() * DOCS)]);
      return { ...req, body: bulkBodies('load', docs, BULK_DOCS)[0] };
    },
    onResponse: (status: number, body: string) => {
      if (status === 200 && !(JSON.parse(body) as { errors: boolean }).errors) acked++;
    },
  };
  const result = await autocannon({
    url: server.url, connections, duration: seconds, timeout: 30,
    requests: [search, search, search, search, bulk],
  } as unknown as autocannon.Options);
  const cpu = probe.stop();
  const server_ = await serverStats(server);
  clearInterval(sampler);
  if (killer) clearInterval(killer);
  const half = Math.floor(samples.length / 2);
  const statuses: Record<string, number> = {};
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (v as { count: number }).count;
  const r: PhaseResult = {
    phase: name, connections, seconds, requests: result.requests.total, rps: result.requests.average, statuses,
    socket_errors: result.errors, timeouts: result.timeouts, p50_ms: result.latency.p50, p99_ms: result.latency.p99,
    rss_peak_mb: rssKb(server.pid, 'VmHWM') / 1024,
    rss_first_half_max_mb: Math.max(...samples.slice(0, half)) / 1024,
    rss_second_half_max_mb: Math.max(...samples.slice(half)) / 1024,
    acked_bulks: acked, worker_kills: kills, otherCores: cpu.otherCores,
    server_p99_ms: server_.p99_ms, server_max_ms: server_.max_ms, server_aborted: server_.aborted, server_connections: server_.connections,
    server_loop_delay_max_ms: server_.loop_delay_max_ms, server_memory_mb: server_.memory_mb,
  };
  console.log(`${name}: ${r.requests} requests (${Math.round(r.rps)}/s), statuses ${JSON.stringify(statuses)}, socket errors ${r.socket_errors}, timeouts ${r.timeouts}, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms (2xx only), RSS peak ${Math.round(r.rss_peak_mb)} MB (halves ${Math.round(r.rss_first_half_max_mb)} → ${Math.round(r.rss_second_half_max_mb)} MB), bulks acknowledged ${acked}, worker kills ${kills}; server side: p99 ${Math.round(r.server_p99_ms)} ms, max ${Math.round(r.server_max_ms)} ms, ${r.server_aborted} aborted by the client, ${r.server_connections} connections, event loop delay max ${Math.round(r.server_loop_delay_max_ms)} ms, memory ${JSON.stringify(r.server_memory_mb)} MB`);
  return r;
}

const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-load-'));
const server = await startProcess(new URL('./lib/fault-server.js', import.meta.url).pathname, ['--port', '0', '--quiet', '--no-security', '--data', dataDir, '--threads', '2']);
const problems: string[] = [];
const phases: PhaseResult[] = [];
try {
  await fetch(`${server.url}/load`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { number_of_shards: 2 }, mappings: { properties: { text: { type: 'text' } } } }),
  });
  await bulkLoad(server.url, bulkBodies('load', corpus.docs, 5000), 2);
  await serverStats(server); // start the server's counters with the load
  phases.push(await phase('overload', server, CONNECTIONS, DURATION, 0));
  phases.push(await phase('worker faults', server, 100, Math.max(10, Math.round(DURATION / 2)), 5000));

  // Still up, and no document is missing or doubled.
  await fetch(`${server.url}/load/_refresh`, { method: 'POST' });
  const count = ((await (await fetch(`${server.url}/load/_count`)).json()) as { count: number }).count;
  if (count !== DOCS) problems.push(`_count is ${count}, expected ${DOCS}`);
  for (const p of phases) {
    const bad = Object.keys(p.statuses).filter((c) => !(c.startsWith('2') || c === '429' || (p.phase === 'worker faults' && c === '500')));
    if (bad.length > 0) problems.push(`${p.phase}: unexpected statuses ${bad.join(', ')}`);
    if (p.rss_peak_mb > RSS_LIMIT_MB) problems.push(`${p.phase}: RSS peaked at ${Math.round(p.rss_peak_mb)} MB, over ${RSS_LIMIT_MB} MB`);
  }
  console.log(`after the load: _count ${count} of ${DOCS}; ${problems.length === 0 ? 'all checks passed' : problems.join('; ')}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

if (DURATION === 60 && CONNECTIONS === 1000) {
  writeResult('load-mixed', { params: { duration: DURATION, connections: CONNECTIONS, docs: DOCS, bulkDocs: BULK_DOCS }, phases, problems });
  updateBenchmarksMd(
    'load-mixed',
    markdownTable(
      ['phase', 'connections', 'seconds', 'req/s', '2xx', '429', '500', 'client timeouts', 'p50 ms', 'p99 ms', 'server p99 / max ms', 'RSS peak MB', 'RSS max 1st → 2nd half MB', 'bulks acked', 'worker kills'],
      phases.map((p) => {
        const twoxx = Object.entries(p.statuses).filter(([c]) => c.startsWith('2')).reduce((n, [, v]) => n + v, 0);
        return [
          p.phase, p.connections, p.seconds, Math.round(p.rps), twoxx, p.statuses['429'] ?? 0, p.statuses['500'] ?? 0, p.timeouts,
          p.p50_ms, p.p99_ms, `${Math.round(p.server_p99_ms)} / ${Math.round(p.server_max_ms)}`, Math.round(p.rss_peak_mb), `${Math.round(p.rss_first_half_max_mb)} → ${Math.round(p.rss_second_half_max_mb)}`, p.acked_bulks, p.worker_kills,
        ];
      }),
    ),
    `Mixed load from autocannon: 4 \`_search\` (corpus \`match\` queries) to 1 \`_bulk\` (50 docs re-indexing existing ids) over a 50k-doc, 2-shard index; server with 2 search threads and default limits, load generator on the same 2 cores. Client latencies are autocannon's, for 2xx answers only; server latencies run from headers parsed to response sent, for every answer. A client timeout is a request autocannon gave up on after 30 s. Checks: only 2xx/429 answers, peak RSS under ${RSS_LIMIT_MB} MB, and after both phases \`_count\` still 50,000: ${problems.length === 0 ? 'passed' : 'FAILED: ' + problems.join('; ')}. Run: \`node dist/bench/load-mixed.js\`.`,
  );
}
if (problems.length > 0) process.exit(1);
