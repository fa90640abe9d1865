/**
 * Scenario: where the CPU that security adds to a `_search` goes, thread by thread. The same
 * `_search` load (`match`, 10 hits with `_source`, 50 connections, autocannon) against an open server
 * (`--no-security`) and a secured one on copies of the same data directory (one load, one segment);
 * four cases rotated within every round — open, open sent the superuser's `Authorization` header
 * (which it ignores), secured with the superuser key, secured with a read-only key for the index —
 * after both servers were restarted (flipped start order) and every case warmed up for `--warmup` s.
 *
 * Per case and round, each thread's CPU (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds) divided by
 * the requests answered, grouped: the main thread (event loop), the JS worker threads (search
 * workers and any other pool's), the threads Node starts with the process (V8's platform workers —
 * concurrent GC marking, parallel scavenge, background compilation — and Node's own), and the rest
 * (libuv's thread pool: fs, scrypt). Threads are told apart by a preload module (`--require`, written
 * to a temporary file) that every JS thread runs first: it records its own tid
 * (`/proc/thread-self`) and, on the main thread, the tids that exist already (Node's startup
 * threads). Also per request: voluntary context switches of the main thread and of the workers
 * (wake-ups), and response bytes.
 *
 *   node dist/bench/auth-threads.js [--rounds 4] [--duration 5] [--warmup 2] [--docs 20000] [--baseline /tmp/base06/dist]
 *
 * With `--baseline <dist>` the baseline's two servers run in the same rounds (all four restarted
 * every round, rotated) and every row says which build it is.
 */
import { benchArgs, numberOption } from './lib/args.js';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { encodeApiKey } from '../src/security/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { writeResult } from './lib/report.js';
import { loadBenchIndex, startProcess, type ServerProcess } from './lib/server-process.js';
import { SERVER_NODE_ARGS } from '../src/cli/server-process.js';
import { distFile } from '../src/cli/paths.js';

const USAGE = 'node dist/bench/auth-threads.js [--rounds 4] [--duration 5] [--warmup 2] [--docs 20000] [--baseline /tmp/base06/dist]';
const { values } = benchArgs(USAGE, {
  options: { duration: { type: 'string' }, docs: { type: 'string' }, rounds: { type: 'string' }, warmup: { type: 'string' }, baseline: { type: 'string' }, label: { type: 'string' } },
});
const BASELINE = values.baseline === undefined ? null : resolve(values.baseline);
const DURATION = numberOption(USAGE, values.duration, 'duration', 5);
const DOCS = numberOption(USAGE, values.docs, 'docs', 20_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 4);
const WARMUP = numberOption(USAGE, values.warmup, 'warmup', 2, 0);
const CONNECTIONS = 50;
const SUPERUSER = encodeApiKey({ id: 'bench-superuser', secret: 'bench-superuser-secret' });
const superuser = `ApiKey ${SUPERUSER}`;

const work = mkdtempSync(join(tmpdir(), 'threadsearch-auth-threads-'));
// Runs first on every JS thread (main and workers: `--require` is passed on to Workers).
const PRELOAD = join(work, 'tid.cjs');
writeFileSync(PRELOAD, `
const fs = require('node:fs');
const wt = require('node:worker_threads');
const log = process.env.AUTH_THREADS_LOG;
if (log) {
  const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
  const startup = wt.isMainThread ? fs.readdirSync('/proc/self/task').filter((t) => t !== tid).join(',') : '';
  fs.appendFileSync(log, (wt.isMainThread ? 'main ' : 'worker ') + tid + ' ' + startup + '\\n');
}
`);

type Group = 'main' | 'workers' | 'startup' | 'other';
const GROUPS: readonly Group[] = ['main', 'workers', 'startup', 'other'];

interface ThreadSample { readonly ns: number; readonly vcs: number }
function threadSamples(pid: number): Map<number, ThreadSample> {
  const out = new Map<number, ThreadSample>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'latin1').split(' ')[0]);
      const m = /voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${t}/status`, 'latin1'));
      out.set(Number(t), { ns, vcs: m ? Number(m[1]) : 0 });
    } catch {
      // the thread exited between the listing and the read
    }
  }
  return out;
}

interface Server { readonly process: ServerProcess; readonly groupOf: (tid: number) => Group }

async function start(main: string, args: string[], dataDir: string): Promise<Server> {
  const log = join(work, `threads-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const prev = process.env.AUTH_THREADS_LOG;
  process.env.AUTH_THREADS_LOG = log;
  let p: ServerProcess;
  try {
    p = await startProcess(main, ['--port', '0', ...args, '--data', dataDir], undefined, [...SERVER_NODE_ARGS, '--require', PRELOAD]);
  } finally {
    if (prev === undefined) delete process.env.AUTH_THREADS_LOG;
    else process.env.AUTH_THREADS_LOG = prev;
  }
  const groupOf = (tid: number): Group => {
    if (tid === p.pid) return 'main';
    // Read again each time: pool workers may start (or be replaced) after the server listens.
    const lines = readFileSync(log, 'latin1').split('\n');
    for (const line of lines) {
      const [kind, t, startup] = line.split(' ');
      if (kind === 'worker' && Number(t) === tid) return 'workers';
      if (kind === 'main' && startup !== undefined && startup.split(',').map(Number).includes(tid)) return 'startup';
    }
    return 'other';
  };
  return { process: p, groupOf };
}

interface Case {
  readonly name: string;
  /** per round: µs of CPU per request by group, and the total */
  readonly us: Record<Group | 'total', number[]>;
  /** per round: voluntary context switches per request, main thread and workers */
  readonly vcsMain: number[];
  readonly vcsWorkers: number[];
  readonly bytes: number[];
  readonly rps: number[];
}
const newCase = (name: string): Case => ({
  name, us: { main: [], workers: [], startup: [], other: [], total: [] }, vcsMain: [], vcsWorkers: [], bytes: [], rps: [],
});

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
let q = 0;
const body = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });

async function cannon(server: Server, authorization: string | null, c: Case | null, duration: number): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  const pid = server.process.pid;
  const before = threadSamples(pid);
  const result = await autocannon({
    url: `${server.process.url}/bench/_search`,
    connections: CONNECTIONS,
    duration,
    requests: [{ method: 'POST' as const, headers, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }],
  } as unknown as autocannon.Options);
  const after = threadSamples(pid);
  if (c === null) return;
  if (result.non2xx > 0) throw new Error(`${c.name}: ${result.non2xx} non-2xx answers`);
  const n = result.requests.total;
  const sums: Record<Group, number> = { main: 0, workers: 0, startup: 0, other: 0 };
  let vcsMain = 0;
  let vcsWorkers = 0;
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { ns: 0, vcs: 0 };
    const g = server.groupOf(tid);
    sums[g] += a.ns - b.ns;
    if (g === 'main') vcsMain += a.vcs - b.vcs;
    if (g === 'workers') vcsWorkers += a.vcs - b.vcs;
  }
  let total = 0;
  for (const g of GROUPS) {
    c.us[g].push(sums[g] / 1e3 / n);
    total += sums[g];
  }
  c.us.total.push(total / 1e3 / n);
  c.vcsMain.push(vcsMain / n);
  c.vcsWorkers.push(vcsWorkers / n);
  c.bytes.push(result.throughput.total / n);
  c.rps.push(result.requests.average);
  console.log(`${c.name}: ${Math.round(result.requests.average)} req/s, CPU µs/request total ${(total / 1e3 / n).toFixed(1)} = ` +
    GROUPS.map((g) => `${g} ${(sums[g] / 1e3 / n).toFixed(1)}`).join(', ') + `; vcs/request main ${(vcsMain / n).toFixed(2)} workers ${(vcsWorkers / n).toFixed(2)}; ${Math.round(result.throughput.total / n)} B/response`);
}

async function load(url: string): Promise<void> {
  await loadBenchIndex(url, corpus.docs);
  await fetch(`${url}/bench/_flush`, { method: 'POST' });
}

async function readerKey(url: string): Promise<string> {
  const created = await fetch(`${url}/_security/api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: superuser },
    body: JSON.stringify({ name: 'bench-reader', role_descriptors: { r: { indices: [{ names: ['bench'], privileges: ['read'] }] } } }),
  });
  return `ApiKey ${((await created.json()) as { encoded: string }).encoded}`;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Build { readonly label: string; readonly main: string; readonly openDir: string; readonly secureDir: string }
const builds: Build[] = [
  { label: values.label ?? 'this', main: distFile('main.js'), openDir: join(work, 'open-0'), secureDir: join(work, 'secure-0') },
  ...(BASELINE === null ? [] : [{ label: 'baseline', main: join(BASELINE, 'src/main.js'), openDir: join(work, 'open-1'), secureDir: join(work, 'secure-1') }]),
];
const caseNames = ['open', 'open + header', 'superuser key', 'read-only key'] as const;
const cases: Case[] = builds.flatMap((b) => caseNames.map((n) => newCase(`${b.label} ${n}`)));
let otherCores = 0;
try {
  {
    const s = await start(builds[0].main, ['--no-security'], builds[0].openDir);
    try {
      await load(s.process.url);
    } finally {
      await s.process.stop();
    }
    for (const b of builds) for (const d of [b.openDir, b.secureDir]) if (d !== builds[0].openDir) cpSync(builds[0].openDir, d, { recursive: true });
  }
  for (let round = 0; round <= ROUNDS; round++) {
    const starts = builds.flatMap((b) => [() => start(b.main, ['--no-security'], b.openDir), () => start(b.main, ['--api-key', SUPERUSER], b.secureDir)]);
    const order = starts.map((_, i) => (i + round) % starts.length);
    if (round % 2 === 1) order.reverse();
    const servers: Server[] = new Array(starts.length);
    for (const i of order) servers[i] = await starts[i]();
    try {
      const roundCases: Array<{ server: Server; authorization: string | null; c: Case }> = [];
      for (let b = 0; b < builds.length; b++) {
        const [open, secure] = [servers[2 * b], servers[2 * b + 1]];
        const reader = await readerKey(secure.process.url);
        roundCases.push(
          { server: open, authorization: null, c: cases[4 * b] },
          { server: open, authorization: superuser, c: cases[4 * b + 1] },
          { server: secure, authorization: superuser, c: cases[4 * b + 2] },
          { server: secure, authorization: reader, c: cases[4 * b + 3] },
        );
      }
      if (WARMUP > 0) for (const rc of roundCases) await cannon(rc.server, rc.authorization, null, WARMUP);
      const probe = startCpuProbe({ pids: servers.map((s) => s.process.pid) });
      for (let j = 0; j < roundCases.length; j++) {
        const rc = roundCases[(j + round) % roundCases.length];
        // Round 0 warms the machine and the servers up and is not counted.
        await cannon(rc.server, rc.authorization, round === 0 ? null : rc.c, DURATION);
      }
      if (round > 0) otherCores = Math.max(otherCores, probe.stop().otherCores);
    } finally {
      for (const s of servers) await s?.process.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const rows = cases.map((c, k) => {
  const open = cases[k - (k % 4)];
  // Paired by round: this case minus its build's open server in the same round, median over rounds.
  const delta = (g: Group | 'total') => median(c.us[g].map((v, i) => v - open.us[g][i]));
  return {
    case: c.name,
    us: Object.fromEntries([...GROUPS, 'total'].map((g) => [g, median(c.us[g as Group])])),
    delta_us: Object.fromEntries([...GROUPS, 'total'].map((g) => [g, delta(g as Group)])),
    cpu_ratio: median(c.us.total.map((v, i) => open.us.total[i] / v)),
    vcs_main: median(c.vcsMain),
    vcs_workers: median(c.vcsWorkers),
    bytes: median(c.bytes),
    rps: median(c.rps),
  };
});
console.log('\ncase | total | main | workers | startup | other | Δ total | Δ main | Δ workers | Δ startup | Δ other | open÷this CPU | vcs main | vcs workers | B/resp');
for (const r of rows) {
  const f = (x: number) => x.toFixed(1);
  console.log([r.case, f(r.us.total), f(r.us.main), f(r.us.workers), f(r.us.startup), f(r.us.other), f(r.delta_us.total), f(r.delta_us.main), f(r.delta_us.workers), f(r.delta_us.startup), f(r.delta_us.other), r.cpu_ratio.toFixed(3), r.vcs_main.toFixed(2), r.vcs_workers.toFixed(2), Math.round(r.bytes)].join(' | '));
}
console.log(`otherCores ${otherCores.toFixed(2)}`);
writeResult(values.label ? `auth-threads-${values.label}` : 'auth-threads', {
  params: { docs: DOCS, duration_s: DURATION, rounds: ROUNDS, warmup_s: WARMUP, connections: CONNECTIONS, baseline: BASELINE },
  rows,
  rounds: cases.map((c) => ({ case: c.name, us: c.us, vcs_main: c.vcsMain, vcs_workers: c.vcsWorkers, bytes: c.bytes, rps: c.rps })),
  otherCores,
});
