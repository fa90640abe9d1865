// ad-hoc (issue 22, gc-i22young): a server of --dist on --data (thread-cpu/drive.mjs's loaded 200k
// docs) with live-probe.mjs preloaded, under `_msearch` (or `_search`) at --conn; opens the probe's
// window after --warm s of load and closes it --dur s later while the load still runs.
//   node bench/tools/heap-alloc/live-drive.mjs --dist <dist> --data <dir> [--mode msearch] [--node="--max-semi-space-size=16"] --out /tmp/x
//   (env LIVE_MODE=live|all, LIVE_INTERVAL, LIVE_SNAPSHOT as live-probe.mjs)
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { searchLoad, startPreloadedServer } from '../lib/preloaded-server.mjs';
const HERE = fileURLToPath(new URL('./', import.meta.url));
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'msearch' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '4' }, warm: { type: 'string', default: '3' }, node: { type: 'string', default: '' }, out: { type: 'string', default: '/tmp/live' } } });
const server = await startPreloadedServer({ dist: v.dist, data: v.data, preload: join(HERE, 'live-probe.mjs'), nodeArgs: v.node ? v.node.split(' ') : [], env: { ...process.env, LIVE_OUT: v.out } });
const child = server.child;
const warm = Number(v.warm), dur = Number(v.dur);
let started = 0;
const run = searchLoad(server.url, v.mode, Number(v.conn), warm + dur + 1.5);
let n0 = 0, n1 = 0;
run.on('response', () => { if (started === 1) n0++; });
await new Promise((r) => setTimeout(r, warm * 1000));
child.kill('SIGUSR2'); started = 1;
await new Promise((r) => setTimeout(r, dur * 1000));
started = 2; n1 = n0;
child.kill('SIGUSR2');
const res = await run;
while (!server.out.includes('LIVE STOP')) await new Promise((r) => setTimeout(r, 100));
if (process.env.LIVE_SNAPSHOT) {
  await new Promise((r) => setTimeout(r, 1000));
  child.kill('SIGUSR2');
  while (!server.out.includes('LIVE IDLE')) await new Promise((r) => setTimeout(r, 100));
}
child.kill();
console.log(JSON.stringify({ mode: v.mode, node: v.node, requestsInWindow: n1, queriesInWindow: n1 * (v.mode === 'msearch' ? 10 : 1), rps: res.requests.average, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
