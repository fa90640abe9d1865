// ad-hoc (issue 19, gc-i19g): a server of --dist on --data (drive.mjs's loaded data) with --node flags
// (e.g. --node="--trace-gc-nvp --trace-incremental-marking"), under `_search`/`_msearch` at --conn;
// writes the measured window's stdout + stderr to --out (and everything to --out.all), with the main
// isolate's heap spaces before and after (heap-preload.mjs; HEAPSAMPLE=1 adds old space, new space
// and external memory every 25 ms). Read the main isolate's GCs with `node nvp-main.cjs <out>`.
//   node bench/tools/thread-cpu/heap-trace.mjs --dist <dist> --data <dir> --mode msearch --node="--trace-gc-nvp" --out /tmp/w.log
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const HERE = fileURLToPath(new URL('./', import.meta.url));
const WT = fileURLToPath(new URL('../../../', import.meta.url));
const { default: autocannon } = await import(`${WT}/node_modules/autocannon/autocannon.js`);
const { generateBm25Corpus } = await import(`${WT}/dist/src/cli/corpus/corpus.js`);
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'msearch' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '5' }, warm: { type: 'string', default: '3' }, node: { type: 'string', default: '' }, out: { type: 'string', default: '/tmp/heap-trace-window.log' } } });
const corpus = generateBm25Corpus({ docs: 200000, queries: 2000 });
let q = 0;
const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const msearchBody = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${searchBody()}\n`; return o; };
const child = spawn(process.execPath, ['--max-semi-space-size=32', '--import', join(HERE, 'heap-preload.mjs'), ...(v.node ? v.node.split(' ') : []), join(v.dist, 'src/main.js'), '--port', '0', '--no-security', '--data', v.data], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HEAPSAMPLE: process.env.HEAPSAMPLE ?? '' } });
let out = '';
let url = null;
child.stdout.on('data', (d) => { out += d; });
child.stderr.on('data', (d) => { out += d; });
while (url === null) {
  await new Promise((r) => setTimeout(r, 200));
  const m = /https?:\/\/[\d.]+:\d+/.exec(out) ?? /"port":(\d+)/.exec(out);
  if (m) url = m[0].startsWith('http') ? m[0] : `http://127.0.0.1:${m[1]}`;
}
const load = (dur) => autocannon({ url: `${url}/${v.mode === 'msearch' ? 'bench/_msearch' : 'bench/_search'}`, connections: Number(v.conn), duration: dur,
  requests: [{ method: 'POST', headers: { 'content-type': v.mode === 'msearch' ? 'application/x-ndjson' : 'application/json' }, setupRequest: (r) => ({ ...r, body: v.mode === 'msearch' ? msearchBody() : searchBody() }) }] });
await load(Number(v.warm));
child.kill('SIGUSR2');
await new Promise((r) => setTimeout(r, 50));
const from = out.length;
const res = await load(Number(v.dur));
child.kill('SIGUSR2');
await new Promise((r) => setTimeout(r, 100));
const window = out.slice(from);
writeFileSync(v.out + ".all", out); writeFileSync(v.out, out.slice(0, from).split('\n').filter(l=>l.includes('HEAPSTAT')).slice(-1).join('\n') + '\n=== WINDOW ===\n' + window);
child.kill();
const queries = res.requests.total * (v.mode === 'msearch' ? 10 : 1);
console.log(JSON.stringify({ mode: v.mode, node: v.node, rps: res.requests.average, queries, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
