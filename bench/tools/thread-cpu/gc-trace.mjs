// ad-hoc (issue 19, msearch-i19x): a server of --dist on --data (drive.mjs's loaded data) with
// --trace-gc-nvp, under `_search` or `_msearch` at --conn; prints the main isolate's scavenges,
// mark-compacts, bytes promoted and pause totals per 1,000 queries over the measured window.
//   node bench/tools/thread-cpu/gc-trace.mjs --dist <dist> --data <dir> --mode msearch [--dur 5] [--warm 3]
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const WT = fileURLToPath(new URL('../../../', import.meta.url));
const { default: autocannon } = await import(`${WT}/node_modules/autocannon/autocannon.js`);
const { generateBm25Corpus } = await import(`${WT}/dist/src/cli/corpus/corpus.js`);
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'msearch' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '5' }, warm: { type: 'string', default: '3' }, label: { type: 'string', default: '' }, node: { type: 'string', default: '' }, trace: { type: 'string', default: 'nvp' } } });
const corpus = generateBm25Corpus({ docs: 200000, queries: 2000 });
let q = 0;
const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const msearchBody = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${searchBody()}\n`; return o; };
const child = spawn(process.execPath, ['--max-semi-space-size=32', ...(v.trace === 'plain' ? ['--trace-gc', '--trace-incremental-marking'] : ['--trace-gc-nvp']), ...(v.node ? v.node.split(' ') : []), join(v.dist, 'src/main.js'), '--port', '0', '--no-security', '--data', v.data], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
let url = null;
let marking = false;
child.stdout.on('data', (d) => { out += d; });
while (url === null) {
  await new Promise((r) => setTimeout(r, 200));
  const m = /https?:\/\/[\d.]+:\d+/.exec(out) ?? /"port":(\d+)/.exec(out) ?? /port (\d+)/.exec(out);
  if (m) url = m[0].startsWith('http') ? m[0] : `http://127.0.0.1:${m[1]}`;
}
const load = (dur) => autocannon({ url: `${url}/${v.mode === 'msearch' ? 'bench/_msearch' : 'bench/_search'}`, connections: Number(v.conn), duration: dur,
  requests: [{ method: 'POST', headers: { 'content-type': v.mode === 'msearch' ? 'application/x-ndjson' : 'application/json' }, setupRequest: (r) => ({ ...r, body: v.mode === 'msearch' ? msearchBody() : searchBody() }) }] });
await load(Number(v.warm));
const from = out.length;
const res = await load(Number(v.dur));
const window = out.slice(from);
if (v.trace === 'plain') (await import('node:fs')).writeFileSync('/tmp/i19x/gc-window.log', window);
child.kill();
const queries = res.requests.total * (v.mode === 'msearch' ? 10 : 1);
let scav = 0, mc = 0, scavPause = 0, mcPause = 0, promoted = 0, survived = 0, inc = 0;
// Lines start with [pid:isolate]; the main isolate's is the first one printed.
const mainIsolate = /\[\d+:(0x[0-9a-f]+)\]/.exec(out.slice(out.indexOf('gc=') - 200))?.[1];
const firstIsolate = /\[\d+:(0x[0-9a-f]+)\]/.exec(out)?.[1] ?? mainIsolate;
for (const line of window.split('\n')) {
  if (v.trace === 'plain' ? !line.includes(firstIsolate) : (!line.includes('gc=') || !line.includes(firstIsolate))) continue;
  if (v.trace === 'plain') { if (line.includes('Mark')) console.log(line.slice(0, 300)); continue; }
  const f = Object.fromEntries(line.split(/\s+/).filter((x) => x.includes('=')).map((x) => x.split('=')));
  const pause = Number(f.pause ?? 0);
  if (f.gc === 's') { scav++; scavPause += pause; promoted += Number(f.promoted ?? 0); survived += Number(f.new_space_survived ?? 0); }
  else if (f.gc === 'mc' || f.gc === 'ms') { mc++; mcPause += pause; }
  else if (f.gc === 'mmc') { mc++; mcPause += pause; }
}
const k = 1000 / queries;
console.log(JSON.stringify({ label: v.label, mode: v.mode, rps: res.requests.average, queries, scavengesPer1k: scav * k, scavengePauseMsPer1k: scavPause * k, markCompactsPer1k: mc * k, mcPauseMsPer1k: mcPause * k, promotedKBPerQuery: promoted / queries / 1024, survivedKBPerQuery: survived / queries / 1024, scav, mc, load: (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
