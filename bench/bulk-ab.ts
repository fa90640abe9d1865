/**
 * `_bulk` A/B on a busy machine (issue 19): this tree against a baseline build of another one,
 * alternated run by run, each run a fresh server taking the short synthetic docs as 5,000-doc
 * `_bulk` requests (2 in flight) until `_refresh` returns. Besides docs/s it reports the server's
 * own CPU seconds (user + system from /proc, every thread, and the main thread alone), which other
 * processes on a shared machine disturb far less than wall time.
 *
 *   node dist/bench/bulk-ab.js --baseline /path/to/other-tree [--docs 100000] [--rounds 3] [--prime 1] [--refresh-interval -1] [--env K=V,K=V] [--warm]
 *
 * The baseline is a directory holding a built tree (`dist/src/main.js`, with its node_modules), or
 * `self` for this tree. `--env` adds environment variables to this tree's server only (over the
 * server defaults, e.g. `--baseline self --env MALLOC_MMAP_THRESHOLD_=33554432` compares glibc
 * settings on one tree).
 *
 * `--warm` measures a warm server: each run first loads the same docs into another index, refreshes
 * it and waits 3 s (the idle collection runs), and only then times the load into `bulk`. A fresh
 * server's first load pays V8's warm-up in every thread (interpreted code, TurboFan compiles of the
 * build and bulk code in each isolate): a second load ran ~3.8x faster on a loaded machine (issue 19).
 *
 * `--prime n` (default 1) first runs each tree n times, unmeasured. On a loaded machine (load 5–7)
 * a bench process's first server — always the baseline's, as round 1 goes baseline first — took
 * ~5% less server CPU than the same tree's later servers (9 of 10 A/As of identical trees), so the
 * first pair read "this tree" ~1.07× (9 of 10) while later pairs read 0.99×: three rounds put this
 * tree ~+3% (bench-aa-bulk in docs/benchmarks/issue-19-request-hot-path.md). On a quiet machine the first pair is like the rest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { findRepoRoot, formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, parseEnvList, startThreadsearch, withEnv } from './lib/server-process.js';
import { SERVER_NODE_ARGS, startProcess } from '../src/cli/server-process.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const USAGE = 'node dist/bench/bulk-ab.js --baseline /path/to/other-tree [--docs 100000] [--rounds 3] [--prime 1] [--refresh-interval -1] [--env K=V,K=V] [--warm]';
const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, docs: { type: 'string' }, rounds: { type: 'string' }, prime: { type: 'string' }, 'refresh-interval': { type: 'string' }, env: { type: 'string' }, warm: { type: 'boolean' } } });
if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
const SELF_ENV = parseEnvList(values.env);
const DOCS = numberOption(USAGE, values.docs, 'docs', 100_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 3);
const PRIME = numberOption(USAGE, values.prime, 'prime', 1, 0);
const settings = values['refresh-interval'] !== undefined ? { refresh_interval: values['refresh-interval'] } : {};
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs;
const bodies = bulkBodies('bulk', corpus, 5000);
const WARM = values.warm === true;
const warmBodies = WARM ? bulkBodies('warmup', corpus, 5000) : [];

/** CPU seconds (user + system) of a process, or of one of its threads. */
function cpuSeconds(path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** System CPU seconds and minor page faults of a process (every thread). */
function kernelCost(pid: number): { sysS: number; faults: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { sysS: Number(fields[12]) / 100, faults: Number(fields[7]) };
}

/** Peak and current RSS of a process, MB. */
function rssMb(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

function start(tree: string, env: Record<string, string>) {
  return withEnv(env, () => startTree(tree));
}

async function startTree(tree: string) {
  if (tree === findRepoRoot()) return startThreadsearch();
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-ab-'));
  // The node flags that tree's own server starts with (its SERVER_NODE_ARGS; this tree's when it has
  // none), so a change of the server's flags is compared like a change of code (issue 22: the
  // coordinator's semi-space).
  const mod = (await import(pathToFileURL(join(tree, 'dist', 'src', 'cli', 'server-process.js')).href)) as { SERVER_NODE_ARGS?: readonly string[] };
  return startProcess(join(tree, 'dist', 'src', 'main.js'), ['--port', '0', '--no-security', '--data', dataDir], () => rmSync(dataDir, { recursive: true, force: true }), mod.SERVER_NODE_ARGS ?? SERVER_NODE_ARGS);
}

interface Run {
  tree: string; docsPerS: number; cpuS: number; mainCpuS: number; sysS: number; faultsPerDoc: number; peakRssMb: number; rssMb: number; refreshS: number; otherCores: number;
  /** This process's own CPU seconds (the load generator) over the same window. */
  loadGenCpuS: number;
}

async function run(arm: { label: string; tree: string; env: Record<string, string> }): Promise<Run> {
  const tree = arm.label;
  const server = await start(arm.tree, arm.env);
  try {
    const create = (index: string) => fetch(`${server.url}/${index}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ settings, mappings: { properties: { text: { type: 'text' } } } }) });
    if (WARM) {
      await create('warmup');
      await bulkLoad(server.url, warmBodies, 2);
      await fetch(`${server.url}/warmup/_refresh`, { method: 'POST' });
      await new Promise((done) => setTimeout(done, 3000));
    }
    await create('bulk');
    const cpu0 = cpuSeconds(`/proc/${server.pid}/stat`);
    const main0 = cpuSeconds(`/proc/${server.pid}/task/${server.pid}/stat`);
    const k0 = kernelCost(server.pid);
    const probe = startCpuProbe({ pids: [server.pid] });
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    await bulkLoad(server.url, bodies, 2);
    const t1 = performance.now();
    await fetch(`${server.url}/bulk/_refresh`, { method: 'POST' });
    const t2 = performance.now();
    const own = process.cpuUsage(own0);
    const k1 = kernelCost(server.pid);
    const rss = rssMb(server.pid);
    const r = {
      tree, docsPerS: DOCS / ((t2 - t0) / 1000), refreshS: (t2 - t1) / 1000, otherCores: probe.stop().otherCores,
      cpuS: cpuSeconds(`/proc/${server.pid}/stat`) - cpu0, mainCpuS: cpuSeconds(`/proc/${server.pid}/task/${server.pid}/stat`) - main0,
      sysS: k1.sysS - k0.sysS, faultsPerDoc: (k1.faults - k0.faults) / DOCS, peakRssMb: rss.peak, rssMb: rss.now,
      loadGenCpuS: (own.user + own.system) / 1e6,
    };
    const count = (await (await fetch(`${server.url}/bulk/_count`)).json()) as { count: number };
    if (count.count !== DOCS) throw new Error(`expected ${DOCS} docs, found ${count.count}`);
    console.log(
      `${tree}: ${Math.round(r.docsPerS)} docs/s, server CPU ${r.cpuS.toFixed(1)} s (main ${r.mainCpuS.toFixed(1)} s, system ${r.sysS.toFixed(1)} s), ` +
        `${r.faultsPerDoc.toFixed(2)} page faults/doc, RSS ${Math.round(r.rssMb)} MB (peak ${Math.round(r.peakRssMb)}), final refresh ${r.refreshS.toFixed(2)} s, otherCores ${r.otherCores.toFixed(2)}, load generator CPU ${r.loadGenCpuS.toFixed(1)} s`,
    );
    return r;
  } finally {
    await server.stop();
  }
}

const selfRoot = findRepoRoot();
const envLabel = Object.keys(SELF_ENV).length > 0 ? ` [${values.env}]` : '';
const arms = [
  { label: values.baseline === 'self' ? selfRoot : values.baseline, tree: values.baseline === 'self' ? selfRoot : values.baseline, env: {} },
  { label: selfRoot + envLabel, tree: selfRoot, env: SELF_ENV },
];
if (arms[0].label === arms[1].label) usageError(USAGE, '--baseline self needs --env');
const trees = arms.map((a) => a.label);
const runs: Run[] = [];
const primed: Run[] = [];
for (let i = 0; i < PRIME; i++) for (const arm of arms) primed.push(await run(arm));
if (PRIME > 0) console.log(`(the ${primed.length} runs above primed the machine and this process; not counted)`);
// The order flips every round: runs one after another on a shared machine drift, and neither tree
// should always go first.
for (let round = 0; round < ROUNDS; round++) for (const arm of round % 2 === 0 ? arms : [...arms].reverse()) runs.push(await run(arm));
const mean = (tree: string, k: 'docsPerS' | 'cpuS' | 'mainCpuS' | 'sysS' | 'faultsPerDoc' | 'peakRssMb' | 'rssMb') => {
  const rs = runs.filter((r) => r.tree === tree);
  return rs.reduce((s, r) => s + r[k], 0) / rs.length;
};
const [base, self] = trees;
for (const k of ['docsPerS', 'cpuS', 'mainCpuS', 'sysS', 'faultsPerDoc', 'peakRssMb', 'rssMb'] as const) console.log(`${k}: baseline ${mean(base, k).toFixed(2)}, this tree ${mean(self, k).toFixed(2)}, ratio ${(mean(self, k) / mean(base, k)).toFixed(3)}`);
const scenario = WARM ? 'bulk-ab-warm' : 'bulk-ab';
const otherCores = Math.max(...runs.map((r) => r.otherCores));
writeResult(scenario, { params: { docs: DOCS, rounds: ROUNDS, prime: PRIME, settings, baseline: base, env: SELF_ENV, warm: WARM }, runs, primed, otherCores });
const MEASURES = [
  ['docs/s until searchable', 'docsPerS'], ['server CPU s (all threads)', 'cpuS'], ['main thread CPU s', 'mainCpuS'], ['system CPU s', 'sysS'],
  ['page faults per doc', 'faultsPerDoc'], ['peak RSS MB', 'peakRssMb'], ['RSS MB after the load', 'rssMb'],
] as const;
const perRound = (tree: string) => runs.filter((r) => r.tree === tree).map((r) => Math.round(r.docsPerS).toLocaleString('en-US')).join(', ');
updateBenchmarksMd(
  scenario,
  markdownTable(
    ['measure (mean of the rounds)', 'baseline', 'this tree', 'this tree ÷ baseline'],
    MEASURES.map(([name, k]) => [name, formatNumber(mean(base, k)), formatNumber(mean(self, k)), (mean(self, k) / mean(base, k)).toFixed(3)]),
  ),
  `${formatNumber(DOCS)} short synthetic docs as \`_bulk\` requests of 5,000, 2 in flight, \`durability: request\`, until \`_refresh\` returns and \`_count\` confirms them, into ${WARM ? 'a server that first took the same docs into another index (refreshed, then 3 s idle): a warm server' : 'a fresh server'}; this tree against a baseline build, ${ROUNDS} rounds, the order flipping each round, one server at a time on the same 2 cores as the load generator, after ${PRIME} unmeasured run${PRIME === 1 ? '' : 's'} of each tree. docs/s per round: baseline ${perRound(base)}; this tree ${perRound(self)}. Server CPU (user + system, every thread, from /proc) is the figure other processes disturb least. otherCores up to ${otherCores.toFixed(2)}. Run: \`node dist/bench/bulk-ab.js --baseline <tree> --docs ${DOCS} --rounds ${ROUNDS}${PRIME !== 1 ? ` --prime ${PRIME}` : ''}${WARM ? ' --warm' : ''}\`.`,
);

