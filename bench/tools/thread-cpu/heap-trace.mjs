// ad-hoc (issue 19, gc-i19g): a server of --dist on --data (drive.mjs's loaded data) with --node flags
// (e.g. --node="--trace-gc-nvp --trace-incremental-marking"), under `_search`/`_msearch` at --conn;
// writes the measured window's stdout + stderr to --out (and everything to --out.all), with the main
// isolate's heap spaces before and after (heap-preload.mjs; HEAPSAMPLE=1 adds old space, new space
// and external memory every 25 ms). Read the main isolate's GCs with `node nvp-main.cjs <out>`.
//   node bench/tools/thread-cpu/heap-trace.mjs --dist <dist> --data <dir> --mode msearch --node="--trace-gc-nvp" --out /tmp/w.log
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { searchLoad, startPreloadedServer } from '../lib/preloaded-server.mjs';
const HERE = fileURLToPath(new URL('./', import.meta.url));
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'msearch' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '5' }, warm: { type: 'string', default: '3' }, node: { type: 'string', default: '' }, out: { type: 'string', default: '/tmp/heap-trace-window.log' } } });
const server = await startPreloadedServer({ dist: v.dist, data: v.data, preload: join(HERE, 'heap-preload.mjs'), nodeArgs: v.node ? v.node.split(' ') : [], env: { ...process.env, HEAPSAMPLE: process.env.HEAPSAMPLE ?? '' } });
const child = server.child;
const load = (dur) => searchLoad(server.url, v.mode, Number(v.conn), dur);
await load(Number(v.warm));
child.kill('SIGUSR2');
await new Promise((r) => setTimeout(r, 50));
const from = server.out.length;
const res = await load(Number(v.dur));
child.kill('SIGUSR2');
await new Promise((r) => setTimeout(r, 100));
const window = server.out.slice(from);
writeFileSync(v.out + ".all", server.out); writeFileSync(v.out, server.out.slice(0, from).split('\n').filter(l=>l.includes('HEAPSTAT')).slice(-1).join('\n') + '\n=== WINDOW ===\n' + window);
child.kill();
const queries = res.requests.total * (v.mode === 'msearch' ? 10 : 1);
console.log(JSON.stringify({ mode: v.mode, node: v.node, rps: res.requests.average, queries, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
