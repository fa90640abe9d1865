// ad-hoc driver (bench/tools/thread-cpu, issue 19 hot-path-i19v): server of --dist on --data, load mode at --conn, per-thread CPU from /proc schedstat.
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const WT = fileURLToPath(new URL('../../../', import.meta.url)); // the repository root (built: dist/)
const { default: autocannon } = await import(`${WT}/node_modules/autocannon/autocannon.js`);
const { generateBm25Corpus } = await import(`${WT}/dist/src/cli/corpus/corpus.js`);
const { startProcess, SERVER_NODE_ARGS } = await import(`${WT}/dist/src/cli/server-process.js`);
const { bulkBodies, bulkLoad } = await import(`${WT}/dist/bench/lib/server-process.js`);
const { values: v } = parseArgs({ options: { dist: { type: 'string' }, data: { type: 'string' }, mode: { type: 'string', default: 'search' }, conn: { type: 'string', default: '100' }, dur: { type: 'string', default: '6' }, warm: { type: 'string', default: '4' }, prof: { type: 'string' }, node: { type: 'string', default: '' }, label: { type: 'string', default: '' }, rounds: { type: 'string', default: '1' } } });
const DOCS = 200000;
const corpus = generateBm25Corpus({ docs: DOCS, queries: 2000 });
let q = 0;
const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
const msearchBody = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${searchBody()}\n`; return o; };
const dist = v.dist;
const nodeArgs = [...SERVER_NODE_ARGS, ...(v.node ? v.node.split(' ') : [])];
if (v.prof) { mkdirSync(v.prof, { recursive: true }); nodeArgs.push('--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', v.prof); }
const fresh = !existsSync(join(v.data, 'loaded'));
mkdirSync(v.data, { recursive: true });
let server = await startProcess(join(dist, 'src', 'main.js'), ['--port', '0', '--no-security', '--data', v.data], undefined, fresh ? SERVER_NODE_ARGS : nodeArgs);
if (fresh) {
  await fetch(`${server.url}/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await bulkLoad(server.url, bulkBodies('bench', corpus.docs, 5000), 2);
  for (const p of ['_refresh', '_forcemerge?max_num_segments=1', '_flush']) await fetch(`${server.url}/bench/${p}`, { method: 'POST' });
  writeFileSync(join(v.data, 'loaded'), '1');
  await server.stop();
  server = await startProcess(join(dist, 'src', 'main.js'), ['--port', '0', '--no-security', '--data', v.data], undefined, nodeArgs);
}
const pid = server.pid;
function threads() {
  const m = new Map();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
      const comm = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
      const st = readFileSync(`/proc/${pid}/task/${t}/status`, 'utf8');
      const vcs = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(st)[1]);
      m.set(t, { ns, comm, vcs });
    } catch {}
  }
  return m;
}
const load = (conn, dur, mode) => autocannon({ url: `${server.url}/${mode === 'msearch' ? 'bench/_msearch' : 'bench/_search'}`, connections: conn, duration: dur,
  requests: [{ method: 'POST', headers: { 'content-type': mode === 'msearch' ? 'application/x-ndjson' : 'application/json' }, setupRequest: (r) => ({ ...r, body: mode === 'msearch' ? msearchBody() : searchBody() }) }] });
await load(Number(v.conn), Number(v.warm), v.mode);
for (let r = 0; r < Number(v.rounds); r++) {
  const batches = async () => { const j = await (await fetch(`${server.url}/_nodes/stats/thread_pool`)).json(); const n = Object.values(j.nodes)[0]; return n.thread_pool.search.completed; };
  const c0 = await batches();
  const a = threads();
  const t0 = Number(process.hrtime.bigint() / 1000n);
  const res = await load(Number(v.conn), Number(v.dur), v.mode);
  const b = threads();
  const t1 = Number(process.hrtime.bigint() / 1000n);
  if (v.prof) writeFileSync(join(v.prof, 'window.json'), JSON.stringify({ from: t0, to: t1, queries: res.requests.total * (v.mode === 'msearch' ? 10 : 1) }));
  const c1 = await batches();
  const queries = res.requests.total * (v.mode === 'msearch' ? 10 : 1);
  const per = [];
  for (const [t, x] of b) { const d = (x.ns - (a.get(t)?.ns ?? 0)) / 1e3 / queries; per.push({ t, comm: x.comm, us: d, vcs: (x.vcs - (a.get(t)?.vcs ?? 0)) * 1000 / queries }); }
  const main = per.find((p) => p.t === String(pid));
  const rest = per.filter((p) => p.t !== String(pid)).sort((x, y) => y.us - x.us);
  const workers = rest.slice(0, 2); const helpers = rest.slice(2);
  const sum = (xs) => xs.reduce((s, p) => s + p.us, 0);
  const out = { label: v.label, mode: v.mode, conn: v.conn, rps: res.requests.average, p50: res.latency.p50, p99: res.latency.p99, non2xx: res.non2xx, queries, main: main.us, workers: sum(workers), helpers: sum(helpers), total: sum(per), mainVcs: main.vcs, workerVcs: workers.reduce((s, p) => s + p.vcs, 0), perBatch: queries / (c1 - c0), load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
    top: rest.slice(0, 6).map((p) => `${p.comm}:${p.us.toFixed(1)}`).join(' ') };
  console.log(JSON.stringify(out));
}
await server.stop();
