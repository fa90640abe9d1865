/**
 * Where a warm `_bulk` load's CPU goes, by thread (issue 19): starts this tree's server (or a
 * baseline's with `--baseline <dir>`), loads the docs once into `warmup` (refresh, 3 s idle), then
 * times the same docs into `bulk` (5,000-doc `_bulk`, 2 in flight, until `_refresh` returns) and
 * reads every thread's user + system CPU from `/proc/<pid>/task/<tid>/stat` around that second load.
 * Every thread is listed with its CPU per doc: Node 20 names them all `node`, so the main thread is
 * marked, the pool's worker threads are the ones started last (highest ids), and V8's platform
 * threads (GC helpers, TurboFan) the four started right after the main thread.
 *
 *   node dist/bench/bulk-thread-cpu.js [--docs 100000] [--cold] ["--node-args=--cpu-prof --cpu-prof-dir=/tmp/x"] [--server-output file] [--baseline <dir>]
 *
 * It prints the load's wall window in the monotonic clock (µs) the V8 profiler stamps its samples
 * with, so a `--cpu-prof` of the server can be cut to the timed load.
 */
import { readFileSync, readdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { bulkBodies, bulkLoad, startThreadsearch } from './lib/server-process.js';
import { SERVER_NODE_ARGS, startProcess } from '../src/cli/server-process.js';

const USAGE = 'node dist/bench/bulk-thread-cpu.js [--docs 100000] [--cold] ["--node-args=--cpu-prof --cpu-prof-dir=/tmp/x"] [--server-output file] [--baseline <dir>]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, cold: { type: 'boolean' }, 'node-args': { type: 'string' }, 'server-output': { type: 'string' }, baseline: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 100_000);
const nodeArgs = (values['node-args'] ?? '').split(' ').filter(Boolean);
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs;
const bodies = bulkBodies('bulk', corpus, 5000);
const warmBodies = bulkBodies('warmup', corpus, 5000);

function threads(pid: number): Map<number, { comm: string; cpu: number }> {
  const out = new Map<number, { comm: string; cpu: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { comm, cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch { /* thread gone */ }
  }
  return out;
}

const server = values.baseline !== undefined
  ? await startProcess(join(values.baseline, 'dist', 'src', 'main.js'), ['--port', '0', '--no-security', '--data', mkdtempSync(join(tmpdir(), 'ts-probe-'))], undefined, [...SERVER_NODE_ARGS, ...nodeArgs])
  : await startThreadsearch([], { nodeArgs });
try {
  const create = (index: string) => fetch(`${server.url}/${index}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  if (values.cold !== true) {
    await create('warmup');
    await bulkLoad(server.url, warmBodies, 2);
    await fetch(`${server.url}/warmup/_refresh`, { method: 'POST' });
    await new Promise((done) => setTimeout(done, 3000));
  }
  await create('bulk');
  const before = threads(server.pid);
  const h0 = process.hrtime.bigint() / 1000n;
  const t0 = performance.now();
  await bulkLoad(server.url, bodies, 2);
  await fetch(`${server.url}/bulk/_refresh`, { method: 'POST' });
  const t1 = performance.now();
  const h1 = process.hrtime.bigint() / 1000n;
  const after = threads(server.pid);
  const rows: Array<{ tid: number; comm: string; usPerDoc: number }> = [];
  for (const [tid, a] of after) {
    const d = a.cpu - (before.get(tid)?.cpu ?? 0);
    if (d > 0) rows.push({ tid, comm: a.comm + (tid === server.pid ? ' [main]' : ''), usPerDoc: (d * 1e6) / DOCS });
  }
  rows.sort((x, y) => y.usPerDoc - x.usPerDoc);
  // The profiler's timestamps are the same monotonic clock (µs): a profile's samples can be cut to this window.
  console.log(`window µs ${h0} ${h1}`);
  console.log(`${Math.round(DOCS / ((t1 - t0) / 1000))} docs/s, total ${rows.reduce((s, r) => s + r.usPerDoc, 0).toFixed(1)} µs/doc`);
  for (const r of rows) console.log(`${String(r.tid).padStart(7)} ${r.comm.padEnd(24)} ${r.usPerDoc.toFixed(1)} µs/doc`);
  if (values['server-output'] !== undefined) writeFileSync(values['server-output'], server.output());
} finally {
  await server.stop();
}
