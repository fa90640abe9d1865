// ad-hoc (issue 22, gc-i22young): a server of --dist on --data (thread-cpu/drive.mjs's loaded 200k
// docs) with live-probe.mjs preloaded, under `_msearch` (or `_search`) at --conn; opens the probe's
// window after --warm s of load and closes it --dur s later while the load still runs.
//   node bench/tools/heap-alloc/live-drive.mjs --dist <dist> --data <dir> [--mode msearch] [--node="--max-semi-space-size=16"] --out /tmp/x
//   (env LIVE_MODE=live|all, LIVE_INTERVAL, LIVE_SNAPSHOT as live-probe.mjs)
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const HERE = fileURLToPath(new URL('./', import.meta.url));
const WT = fileURLToPath(new URL('../../../', import.meta.url));
const { default: autocannon } = await import(`${WT}/node_modules/autocannon/autocannon.js`);
const { generateBm25Corpus } = await import(`${WT}/dist/src/cli/corpus/corpus.js`);
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'msearch' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '4' }, warm: { type: 'string', default: '3' }, node: { type: 'string', default: '' }, out: { type: 'string', default: '/tmp/live' } } });
const corpus = generateBm25Corpus({ docs: 200000, queries: 2000 });
let q = 0;
const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const msearchBody = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${searchBody()}\n`; return o; };
const child = spawn(process.execPath, ['--max-semi-space-size=32', '--import', join(HERE, 'live-probe.mjs'), ...(v.node ? v.node.split(' ') : []), join(v.dist, 'src/main.js'), '--port', '0', '--no-security', '--data', v.data],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LIVE_OUT: v.out } });
let out = '';
let url = null;
child.stdout.on('data', (d) => { out += d; });
child.stderr.on('data', (d) => { out += d; });
while (url === null) {
  await new Promise((r) => setTimeout(r, 200));
  const m = /https?:\/\/[\d.]+:\d+/.exec(out) ?? /"port":(\d+)/.exec(out);
  if (m) url = m[0].startsWith('http') ? m[0] : `http://127.0.0.1:${m[1]}`;
}
const warm = Number(v.warm), dur = Number(v.dur);
let started = 0;
const run = autocannon({ url: `${url}/${v.mode === 'msearch' ? 'bench/_msearch' : 'bench/_search'}`, connections: Number(v.conn), duration: warm + dur + 1.5,
  requests: [{ method: 'POST', headers: { 'content-type': v.mode === 'msearch' ? 'application/x-ndjson' : 'application/json' }, setupRequest: (r) => ({ ...r, body: v.mode === 'msearch' ? msearchBody() : searchBody() }) }] });
let n0 = 0, n1 = 0;
run.on('response', () => { if (started === 1) n0++; });
await new Promise((r) => setTimeout(r, warm * 1000));
child.kill('SIGUSR2'); started = 1;
await new Promise((r) => setTimeout(r, dur * 1000));
started = 2; n1 = n0;
child.kill('SIGUSR2');
const res = await run;
while (!out.includes('LIVE STOP')) await new Promise((r) => setTimeout(r, 100));
if (process.env.LIVE_SNAPSHOT) {
  await new Promise((r) => setTimeout(r, 1000));
  child.kill('SIGUSR2');
  while (!out.includes('LIVE IDLE')) await new Promise((r) => setTimeout(r, 100));
}
child.kill();
console.log(JSON.stringify({ mode: v.mode, node: v.node, requestsInWindow: n1, queriesInWindow: n1 * (v.mode === 'msearch' ? 10 : 1), rps: res.requests.average, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
