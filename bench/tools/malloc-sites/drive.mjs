// malloc-sites driver: memory.ts's load (short synthetic docs, 5,000 per `_bulk`, 2 in flight) into a
// fresh server of the built tree (TREE, default this checkout), with OUT's directory's malloc-sites.so preloaded and
// node's --perf-basic-prof (JIT frames' names in /tmp/perf-<pid>.map). Writes next to OUT (default
// /tmp/malloc-sites/out): out-<pid>.txt (the probe), mark-<pid>.txt (the load's start and end),
// maps-<pid>.txt, perf-<pid>.map, srvout-<pid>.txt (the server's output), and prints each thread's CPU
// seconds at the load's end.
//   node bench/tools/malloc-sites/drive.mjs [docs=200000]
// Env: NOPROBE=1 (no shim, no perf map), NODEARGS="--trace-opt ..." (node flags for the server instead),
// PERF=1 (`perf record -F 297` of the server during the load, perf-<pid>.data).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = process.env.TREE ?? join(here, '../../..');
const outDir = dirname(process.env.OUT ?? '/tmp/malloc-sites/out');
mkdirSync(outDir, { recursive: true });
const { generateBm25Corpus } = await import(`${root}/dist/src/cli/corpus/corpus.js`);
const { bulkLoad, jsonCaller, startThreadsearch, withEnv } = await import(`${root}/dist/bench/lib/server-process.js`);
const docs = Number(process.argv[2] ?? 200000);
const corpus = generateBm25Corpus({ docs, queries: 1 });
const env = process.env.NOPROBE ? {} : { LD_PRELOAD: join(outDir, 'malloc-sites.so'), BT_OUT: join(outDir, 'out') };
const nodeArgs = process.env.NODEARGS ? process.env.NODEARGS.split(' ') : process.env.NOPROBE ? [] : ['--perf-basic-prof'];
const server = await withEnv(env, () => startThreadsearch([], { nodeArgs }));
const file = (name) => join(outDir, `${name}-${server.pid}.${name === 'perf' ? 'map' : 'txt'}`);
const call = jsonCaller(server.url);
await new Promise((r) => setTimeout(r, 500));
await call('PUT', '/mem', { mappings: { properties: { text: { type: 'text' }, n: { type: 'integer' } } } });
const bodies = [];
for (let i = 0; i < docs; i += 5000) {
  let body = '';
  for (let d = i; d < Math.min(docs, i + 5000); d++) body += `{"index":{"_id":"${corpus.docs[d].id}"}}\n${JSON.stringify({ text: corpus.docs[d].text, n: d })}\n`;
  bodies.push(body);
}
// The load's window: wall-clock ms for the probe's lines, the server output's length for traces.
const mark = (s) => writeFileSync(file('mark'), `${s}-off ${server.output().length}\n${s} ${Date.now()}\n`, { flag: 'a' });
const perf = process.env.PERF ? spawn('perf', ['record', '-F', '297', '-p', String(server.pid), '-o', join(outDir, `perf-${server.pid}.data`)], { stdio: 'ignore' }) : null;
if (perf) await new Promise((r) => setTimeout(r, 1000));
mark('load-start');
const t0 = performance.now();
await bulkLoad(`${server.url}/mem`, bodies, 2);
mark('load-end');
if (perf) {
  perf.kill('SIGINT');
  await new Promise((r) => perf.once('exit', r));
}
const cpu = {};
for (const t of readdirSync(`/proc/${server.pid}/task`)) {
  const f = readFileSync(`/proc/${server.pid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' ');
  cpu[t] = (Number(f[11]) + Number(f[12])) / 100;
}
console.log(`pid ${server.pid}: load ${((performance.now() - t0) / 1000).toFixed(1)} s, thread CPU s ${JSON.stringify(cpu)}`);
await call('POST', '/mem/_refresh');
writeFileSync(file('maps'), readFileSync(`/proc/${server.pid}/maps`));
try {
  writeFileSync(file('perf'), readFileSync(`/tmp/perf-${server.pid}.map`));
} catch {}
writeFileSync(file('srvout'), server.output());
await server.stop();
