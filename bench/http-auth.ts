/**
 * Scenario: what authentication and authorization cost per request. The same `_search` load (a
 * `match` query, 10 hits with `_source`) against two threadsearch child processes started in the
 * same run: one with `--no-security`, one with security on, queried with the superuser key and
 * with a read-only key for the index (which takes the index-expression narrowing path). Both are
 * restarted on copies of one load every round, in rotated start order; the no-security server runs
 * twice per round so both servers serve alternate runs (open, secured, open, secured), and the
 * runs rotate within a round, so start order, place in a round, idle time and drift hit them alike.
 * Reported as per-round ratios to the no-security server's two runs (median over rounds). Also: the cost of a wrong key (one scrypt each).
 * After every restart each case first runs `--warmup` seconds unmeasured: a freshly started server
 * spends its first thousands of requests compiling (JIT) the request path, about 1.5 s of CPU, which
 * otherwise lands on whichever case runs first on that server (docs/benchmarks/issue-19-request-hot-path.md, security-i19s).
 * With `--baseline <dist>` (a built copy of another tree, e.g. /tmp/base04/dist) the baseline's two
 * servers run in the same rounds as this build's, all four restarted every round in rotated order,
 * so each build's ratio to its own no-security server is measured under the same load; the run
 * then writes bench/results/http-auth-ab.json only (BENCHMARKS.md's section is this build's alone).
 *
 *
 * `--aa open` / `--aa secure` is the bench's A/A control: both servers of the run get the same
 * security setting (both `--no-security`, or both secured) and are measured exactly as the real
 * cases are — the first server as "no security" (sent no header when open, the superuser key when
 * secured), the second with the superuser header and with a read-only-shaped header (on an open
 * server a made-up key of an issued key's length: the same bytes on the wire, ignored). What it
 * reads is the design's own floor: the ratio the bench reports when nothing differs. It writes
 * bench/results/http-auth-aa-<mode>.json only.
 *
 *   node dist/bench/http-auth.js [--duration 5] [--docs 50000] [--rounds 2] [--warmup 2] [--baseline /tmp/base04/dist] [--aa open|secure]
 */
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { encodeApiKey } from '../src/security/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { processCpuSeconds, startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { loadBenchIndex, startProcess, startThreadsearch, type ServerProcess } from './lib/server-process.js';
import { SERVER_NODE_ARGS } from '../src/cli/server-process.js';

const USAGE = 'node dist/bench/http-auth.js [--duration 5] [--docs 50000] [--rounds 2] [--warmup 2] [--baseline /tmp/base04/dist] [--aa open|secure]';
const { values } = benchArgs(USAGE, {
  options: { duration: { type: 'string' }, docs: { type: 'string' }, rounds: { type: 'string' }, warmup: { type: 'string' }, baseline: { type: 'string' }, aa: { type: 'string' } },
});
const AA = values.aa === undefined ? null : values.aa;
if (AA !== null && AA !== 'open' && AA !== 'secure') usageError(USAGE, `--aa must be open or secure, got '${AA.slice(0, 40)}'`);
if (AA !== null && values.baseline !== undefined) usageError(USAGE, '--aa and --baseline do not go together');
const BASELINE = values.baseline === undefined ? null : resolve(values.baseline);
const DURATION = numberOption(USAGE, values.duration, 'duration', 5);
const DOCS = numberOption(USAGE, values.docs, 'docs', 50_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 2);
const WARMUP = numberOption(USAGE, values.warmup, 'warmup', 2, 0);
const CONNECTIONS = 50;
const SUPERUSER = encodeApiKey({ id: 'bench-superuser', secret: 'bench-superuser-secret' });

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

async function cannon(c: Case, body: () => string, duration = DURATION, record = true): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (c.authorization) headers.authorization = c.authorization;
  const cpu0 = processCpuSeconds(c.server.pid) ?? NaN;
  const result = await autocannon({
    url: `${c.server.url}/bench/_search`,
    connections: CONNECTIONS,
    duration,
    requests: [{ method: 'POST' as const, headers, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }],
  } as unknown as autocannon.Options);
  const cpuUs = (((processCpuSeconds(c.server.pid) ?? NaN) - cpu0) * 1e6) / result.requests.total;
  if (!record) return;
  c.rps.push(result.requests.average);
  c.p99.push(result.latency.p99);
  c.cpuUs.push(cpuUs);
  c.non2xx += result.non2xx;
  console.log(`${c.name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, server CPU ${Math.round(cpuUs)} µs/request, non-2xx ${result.non2xx}`);
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
let q = 0;
const body = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Each server's data lives in a directory kept for the whole run. Every round restarts the servers on
// their data, in the round's start order (it rotates every round), and rotates which case runs first:
// a server's start order and a case's place in a round both move its figures a few per cent on a
// shared machine (hot-path-i19c in docs/benchmarks/issue-19-request-hot-path.md; BENCHMARKS.md http-search-ab), so neither may favour one side.
interface Build {
  /** '' for this build, 'baseline ' for the baseline's: prefixes the case names */
  readonly label: string;
  readonly startOpen: () => Promise<ServerProcess>;
  readonly startSecure: () => Promise<ServerProcess>;
  readonly dirs: readonly string[];
}
function build(label: string, main: string | null): Build {
  const openDir = mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
  const secureDir = mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
  // The baseline's main.js, started as startThreadsearch starts this build's.
  const startMain = (args: string[], dataDir: string) => startProcess(main!, ['--port', '0', ...args, '--data', dataDir], undefined, SERVER_NODE_ARGS);
  if (AA !== null) {
    // The A/A control: both servers this build's, with the same setting.
    const start = (dataDir: string) => startThreadsearch([], AA === 'secure' ? { apiKey: SUPERUSER, dataDir } : { dataDir });
    return { label, startOpen: () => start(openDir), startSecure: () => start(secureDir), dirs: [openDir, secureDir] };
  }
  return {
    label,
    startOpen: () => (main === null ? startThreadsearch([], { dataDir: openDir }) : startMain(['--no-security'], openDir)),
    startSecure: () => (main === null ? startThreadsearch([], { apiKey: SUPERUSER, dataDir: secureDir }) : startMain(['--api-key', SUPERUSER], secureDir)),
    dirs: [openDir, secureDir],
  };
}
const builds: Build[] = [build('', null), ...(BASELINE === null ? [] : [build('baseline ', join(BASELINE, 'src/main.js'))])];
const superuser = `ApiKey ${SUPERUSER}`;

/** A read-only API key for the `bench` index (created again after every restart: cheap, and no reliance on key persistence here). */
async function readerKey(server: ServerProcess): Promise<string> {
  // An open server has no keys to make: a header of an issued key's shape (a 20-character id, a
  // 22-character secret), so the bytes on the wire are the real case's.
  if (AA === 'open') return `ApiKey ${encodeApiKey({ id: 'aaaaaaaaaaaaaaaaaaaa', secret: 'bbbbbbbbbbbbbbbbbbbbbb' })}`;
  const created = await fetch(`${server.url}/_security/api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: superuser },
    body: JSON.stringify({ name: 'bench-reader', role_descriptors: { r: { indices: [{ names: ['bench'], privileges: ['read'] }] } } }),
  });
  return `ApiKey ${((await created.json()) as { encoded: string }).encoded}`;
}

// Four measured runs per build and round: the no-security server twice, the secured one with each
// key. Every server serves the same number of runs per round, and the runs alternate between the
// servers (open, secured, open, secured), so every measured run follows one run on the other server:
// the same idle time before it, the same requests served before it. (The earlier layout ran the
// no-security server once per round, after 4–20 s idle, while the secured server was often measured
// straight after its own other case, and it started the no-security server first in every round; its
// A/A control read the no-security slot 5–7% dearer per request in every round: docs/benchmarks/issue-19-request-hot-path.md, security-i19w.)
const names = AA === null
  ? ['no security', 'no security, second run', 'superuser key', 'read-only key for the index']
  : [`A/A ${AA}: server A${AA === 'secure' ? ', superuser key' : ''}`, `A/A ${AA}: server A, second run`, 'A/A: server B, superuser key', 'A/A: server B, read-only key'];
const OPEN = 0, OPEN_AGAIN = 1, SUPERUSER_CASE = 2, READER_CASE = 3;
const PER_BUILD = names.length;
// Per build, in build order: [no security, no security again, superuser, read-only].
const cases: Case[] = builds.flatMap((b) => names.map((name) => ({ name: b.label + name, server: null as unknown as ServerProcess, authorization: null, rps: [], p99: [], cpuUs: [], non2xx: 0 })));
// The measured order within a round before its rotation: open, secured, open, secured, each step
// across the builds, so a server's runs are always builds.length × 2 runs apart.
const slots: number[] = [OPEN, SUPERUSER_CASE, OPEN_AGAIN, READER_CASE].flatMap((c) => builds.map((_, b) => b * PER_BUILD + c));
let wrongMs = NaN;
let otherCores = 0;
const loadDir = mkdtempSync(join(tmpdir(), 'threadsearch-bench-'));
try {
  // One load, copied to every server's directory: two servers loaded apart (two bulk requests
  // in flight) order their documents differently, and one force-merged segment against another
  // made a server several per cent dearer per query for the whole run, whichever case it served.
  // The loading server's own directory is copied too, not served from: every server starts on a copy.
  const server = await startThreadsearch([], { dataDir: loadDir });
  try {
    await loadBenchIndex(server.url, corpus.docs);
    await fetch(`${server.url}/bench/_flush`, { method: 'POST' });
  } finally {
    await server.stop();
  }
  for (const b of builds) for (const d of b.dirs) cpSync(loadDir, d, { recursive: true });
  // Every server of the run: [open, secure] per build.
  const starts = builds.flatMap((b) => [b.startOpen, b.startSecure]);
  for (let round = 0; round <= ROUNDS; round++) {
    // Round 0 warms the servers up and is not counted. The start order rotates every round, so each
    // server starts first in 1 of starts.length rounds. (It used to be reversed on odd rounds too,
    // which with two servers undid the rotation: the no-security server started first every round.)
    const order = starts.map((_, i) => (i + round) % starts.length);
    const servers: ServerProcess[] = new Array(starts.length);
    for (const i of order) servers[i] = await starts[i]();
    try {
      const roundCases: Case[] = [];
      for (let b = 0; b < builds.length; b++) {
        const [open, secure] = [servers[2 * b], servers[2 * b + 1]];
        const reader = await readerKey(secure);
        const openAuthorization = AA === 'secure' ? superuser : null;
        roundCases.push(
          { ...cases[PER_BUILD * b + OPEN], server: open, authorization: openAuthorization },
          { ...cases[PER_BUILD * b + OPEN_AGAIN], server: open, authorization: openAuthorization },
          { ...cases[PER_BUILD * b + SUPERUSER_CASE], server: secure, authorization: superuser },
          { ...cases[PER_BUILD * b + READER_CASE], server: secure, authorization: reader },
        );
      }
      // The round's order: the slots rotated by the round, so each run takes each place in turn.
      const runOrder = slots.map((_, j) => slots[(j + round) % slots.length]);
      // Warm every case up on the freshly started servers (JIT of the whole request path, both key
      // kinds), in the measured order, so the measured runs below all meet a warm server whatever
      // their place in the round and each server is warmed by as many requests as the other.
      if (WARMUP > 0) for (const k of runOrder) await cannon(roundCases[k], body, WARMUP, false);
      const probe = startCpuProbe({ pids: servers.map((s) => s.pid) });
      for (const k of runOrder) {
        const c = roundCases[k];
        if (round === 0) {
          await cannon({ ...c, rps: [], p99: [], cpuUs: [] }, body);
        } else {
          await cannon(c, body);
          cases[k].non2xx = c.non2xx;
        }
      }
      otherCores = Math.max(otherCores, probe.stop().otherCores);
      if (round === ROUNDS) {
        // Wrong keys: each costs a scrypt verification; measured sequentially, one connection (this build).
        const secure = servers[1];
        const wrong = `ApiKey ${encodeApiKey({ id: 'bench-superuser', secret: 'not-the-secret' })}`;
        const t0 = performance.now();
        const WRONG = 200;
        for (let i = 0; i < WRONG; i++) await (await fetch(`${secure.url}/bench/_search`, { method: 'POST', headers: { authorization: wrong } })).text();
        wrongMs = (performance.now() - t0) / WRONG;
      }
    } finally {
      for (const server of servers) await server?.stop();
    }
  }
} finally {
  rmSync(loadDir, { recursive: true, force: true });
  for (const b of builds) for (const d of b.dirs) rmSync(d, { recursive: true, force: true });
}

// Ratios are paired by round (a case against the no-security server in the same round: the mean
// of its two runs), then the median over rounds: drift between rounds cancels instead of adding to one side.
const perRound = (c: Case, f: (c: Case, i: number) => number) => median(c.rps.map((_, i) => f(c, i)));
const mean2 = (a: number, b: number) => (a + b) / 2;
const rows = cases.map((c, k) => {
  // each case against its own build's no-security server, both of its runs in that round
  const first = cases[k - (k % PER_BUILD) + OPEN];
  const again = cases[k - (k % PER_BUILD) + OPEN_AGAIN];
  const openRps = (i: number) => mean2(first.rps[i], again.rps[i]);
  const openCpu = (i: number) => mean2(first.cpuUs[i], again.cpuUs[i]);
  return {
    case: c.name,
    rps: median(c.rps),
    p99_ms: Math.max(...c.p99),
    ratio: perRound(c, (x, i) => x.rps[i] / openRps(i)),
    cpu_us: median(c.cpuUs),
    // CPU per request is what security adds; on a shared machine it is steadier than req/s.
    cpu_ratio: perRound(c, (x, i) => openCpu(i) / x.cpuUs[i]),
    non2xx: c.non2xx,
  };
});
for (const r of rows) console.log(`${r.case}: ${Math.round(r.rps)} req/s, ratio ${r.ratio.toFixed(3)}, CPU ${Math.round(r.cpu_us)} µs/request, CPU ratio ${r.cpu_ratio.toFixed(3)}`);
console.log(`wrong key: ${wrongMs.toFixed(2)} ms per request (sequential)`);
const result = { params: { docs: DOCS, duration_s: DURATION, rounds: ROUNDS, warmup_s: WARMUP, connections: CONNECTIONS, baseline: BASELINE }, rows, rounds: cases.map((c) => ({ case: c.name, rps: c.rps, cpu_us: c.cpuUs })), wrong_key_ms: wrongMs, otherCores };
if (AA !== null) {
  writeResult(`http-auth-aa-${AA}`, result);
  process.exit(0);
}
if (BASELINE !== null) {
  writeResult('http-auth-ab', result);
  process.exit(0);
}
writeResult('http-auth', result);
updateBenchmarksMd(
  'http-auth',
  markdownTable(
    ['case', 'req/s (median)', 'ratio to no security', 'server CPU µs/request (median)', 'no-security CPU ÷ this CPU', 'worst p99 ms', 'non-2xx'],
    rows.map((r) => [r.case, Math.round(r.rps), r.ratio.toFixed(3), Math.round(r.cpu_us), r.cpu_ratio.toFixed(3), r.p99_ms, r.non2xx]),
  ),
  `The cost of security per request: \`_search\` (\`match\`, 10 hits with \`_source\`, ${formatNumber(DOCS)} docs, one force-merged segment) at ${CONNECTIONS} connections against a \`--no-security\` server and a secured one (superuser key; read-only key for the index, which narrows the index expression), ${ROUNDS} rounds of ${DURATION} s after a warm-up round, same run. Every round restarts both servers on copies of one load in rotated start order, runs the no-security server twice and the secured one once per key, alternating between the servers (open, secured, open, secured) and rotating which run goes first, each run after ${WARMUP} s of unmeasured warm-up in the same order; each ratio is the median over rounds of that round's case ÷ the mean of the no-security server's two runs in the same round (its second run's row is a same-server control). Server CPU per request is every thread of the server's process (/proc) over each run: the throughput a CPU-bound server would reach, as a ratio, without the other processes' share of the cores. A valid key costs a salted SHA-256 and a permission check the first time a connection sends it, then (the same header again on that keep-alive connection, as every load generator and client here sends it) a constant-time compare of the header and the permission check; a wrong key costs one scrypt verification: **${formatNumber(wrongMs)} ms** per request, sequential. otherCores ${otherCores.toFixed(2)}. Run: \`node dist/bench/http-auth.js --rounds ${ROUNDS} --duration ${DURATION} --warmup ${WARMUP}\`.`,
);
