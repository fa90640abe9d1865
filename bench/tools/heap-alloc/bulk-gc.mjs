// ad-hoc (issue 19, gc-i19bulk): the coordinator's (main isolate's) GCs during a `_bulk` load, as
// bulk-ab runs it (short synthetic docs, 5,000 per `_bulk`, 2 in flight, then `_refresh`), fresh or
// `--warm` (a first load into `warmup`, refresh, 3 s idle). The server starts with its tree's own
// SERVER_NODE_ARGS, then `--trace-gc` (plain: reason, pause, incremental steps) and --node flags;
// `gc-preload.mjs` samples the main isolate's heap and external memory every 25 ms (SAMPLE lines).
// Prints one JSON line: scavenges, mark-compacts (and their reasons), pause and incremental-step
// ms, main-thread / server CPU and the load's wall time; --out keeps the window's trace.
//   node bench/tools/heap-alloc/bulk-gc.mjs --tree /tmp/base10 [--docs 100000] [--warm] [--node "--max-semi-space-size=16"] [--out f] [--label L]
import { parseArgs } from 'node:util';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
const { values: v } = parseArgs({ options: { tree: { type: 'string' }, docs: { type: 'string', default: '100000' }, warm: { type: 'boolean', default: false }, node: { type: 'string', default: '' }, out: { type: 'string', default: '' }, label: { type: 'string', default: '' }, sample: { type: 'boolean', default: false } } });
const root = v.tree;
const D = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { generateBm25Corpus } = await D('src/cli/corpus/corpus.js');
const { startProcess, SERVER_NODE_ARGS } = await D('src/cli/server-process.js');
const { bulkBodies, bulkLoad } = await D('bench/lib/server-process.js');
const DOCS = Number(v.docs);
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs;
const bodies = bulkBodies('bulk', corpus, 5000);
const warm = bulkBodies('warmup', corpus, 5000);
const preload = fileURLToPath(new URL('./gc-preload.mjs', import.meta.url));
const nodeArgs = [...SERVER_NODE_ARGS, '--trace-gc', ...(v.sample ? ['--import', preload] : []), ...v.node.split(' ').filter(Boolean)];
const dataDir = mkdtempSync(join(tmpdir(), 'bulk-gc-'));
const server = await startProcess(join(root, 'dist/src/main.js'), ['--port', '0', '--no-security', '--data', dataDir], () => rmSync(dataDir, { recursive: true, force: true }), nodeArgs);
const stat = (p) => { const f = readFileSync(p, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const cpu = () => ({ main: stat(`/proc/${server.pid}/task/${server.pid}/stat`), all: stat(`/proc/${server.pid}/stat`) });
let result;
try {
  const create = (index) => fetch(`${server.url}/${index}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  if (v.warm) {
    await create('warmup');
    await bulkLoad(server.url, warm, 2);
    await fetch(`${server.url}/warmup/_refresh`, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 3000));
  }
  await create('bulk');
  const from = server.output().length;
  const c0 = cpu();
  const t0 = performance.now();
  await bulkLoad(server.url, bodies, 2);
  await fetch(`${server.url}/bulk/_refresh`, { method: 'POST' });
  const t1 = performance.now();
  const c1 = cpu();
  await new Promise((r) => setTimeout(r, 100));
  const window = server.output().slice(from);
  const all = server.output();
  const main = /\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: /.exec(all)?.[1];
  const gcs = { scav: 0, mc: 0, scavMs: 0, mcMs: 0, stepMs: 0, steps: 0, reasons: {}, mcLines: [] };
  for (const line of window.split('\n')) {
    if (!line.includes(main) || !/ ms: (Scavenge|Mark-Compact|Mark-sweep|Minor)/.test(line)) continue;
    const pause = Number(/MB, ([\d.]+) \/ /.exec(line)?.[1] ?? 0);
    const reason = line.replace(/.*\) /, '').trim();
    if (line.includes('Scavenge')) { gcs.scav++; gcs.scavMs += pause; }
    else {
      gcs.mc++; gcs.mcMs += pause;
      const st = /\+ ([\d.]+) ms in (\d+) steps/.exec(line);
      if (st) { gcs.stepMs += Number(st[1]); gcs.steps += Number(st[2]); }
      gcs.reasons[reason] = (gcs.reasons[reason] ?? 0) + 1;
      gcs.mcLines.push(line.slice(line.indexOf('ms:') - 8, line.indexOf('ms:') + 80));
    }
  }
  if (v.out) writeFileSync(v.out, window);
  result = { label: v.label, tree: root, warm: v.warm, docs: DOCS, loadS: +((t1 - t0) / 1000).toFixed(2), docsPerS: Math.round(DOCS / ((t1 - t0) / 1000)), mainCpuS: +(c1.main - c0.main).toFixed(2), serverCpuS: +(c1.all - c0.all).toFixed(2), peakRssMb: Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024), ...gcs, scavMs: +gcs.scavMs.toFixed(1), mcMs: +gcs.mcMs.toFixed(1), stepMs: +gcs.stepMs.toFixed(1), load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] };
} finally {
  await server.stop();
}
console.log(JSON.stringify(result));
