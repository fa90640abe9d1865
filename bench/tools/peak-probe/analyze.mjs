/**
 * Reads a peak-probe log (make.mjs): the load's highest coordinator samples with each build
 * worker's last event, one line per second, and every build and merge (docs or sources, output MB,
 * ms). The load's window ends at the force-merge's start (the first merge of more than 10 sources)
 * unless `--until <s>` says otherwise; times are seconds from the first sample.
 *
 *   node bench/tools/peak-probe/analyze.mjs <log.jsonl> [--until s] [--top n] [--every s]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { until: { type: 'string' }, top: { type: 'string' }, every: { type: 'string' } } });
const lines = readFileSync(positionals[0], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const MB = 1048576;
const f = (x) => (x / MB).toFixed(0);
const main = lines.filter((x) => x.th === 'main');
const t0 = main[0].t;
const sec = (x) => (x.t - t0) / 1000;
const force = lines.find((x) => x.ev === 'merge0' && x.n > 10);
const until = values.until !== undefined ? Number(values.until) : force ? sec(force) : Infinity;
const load = main.filter((x) => sec(x) < until);

const row = (x) => `${sec(x).toFixed(1)}s rss ${f(x.rss)} hwm ${f(x.hwm)} | announced ${f(x.announced)} | big−announced ${f(x.big - x.announced)} [chunks in buffers ${f(x.ibIn)} free ${f(x.ibFree)}, built not announced ${f(x.unpub)}, main large objects ${f(x.lo)}] | small ${f(x.small)} [main new ${f(x.young)} old ${f(x.old)}] | glibc heap ${f(x.heap)} arenas ${f(x.arenas ?? 0)} | files ${f(x.file)} | builds ${x.builds} merges ${x.merges}`;
const workersAt = (t) => {
  const last = {};
  for (const y of lines) if (y.th !== 'main' && y.t <= t) last[y.th] = y;
  return Object.entries(last).map(([th, y]) => `    ${th}: ${y.ev} ${t - y.t} ms before, scratch leased ${f(y.leased)} retained ${f(y.retained)}, new ${f(y.young)} old ${f(y.old)} large objects ${f(y.lo)}`);
};

console.log(`load window: up to ${until.toFixed(1)} s; VmHWM in it ${f(Math.max(...load.map((x) => x.hwm)))} MB`);
console.log('highest samples:');
for (const x of [...load].sort((a, b) => b.rss - a.rss).slice(0, Number(values.top ?? 4))) {
  console.log(row(x));
  for (const w of workersAt(x.t)) console.log(w);
}
console.log('timeline:');
const every = Number(values.every ?? 1);
let last = -Infinity;
for (const x of main) {
  if (sec(x) - last < every) continue;
  last = sec(x);
  console.log(row(x));
}
console.log('builds and merges (start s, thread, docs or sources, output MB, ms):');
const open = {};
for (const x of lines) {
  if (x.ev === 'build0' || x.ev === 'merge0') open[x.th] = x;
  if (x.ev === 'build1' || x.ev === 'merge1') {
    const o = open[x.th];
    console.log(`  ${sec(o).toFixed(1)} ${x.th} ${o.ev === 'merge0' ? `merge of ${o.n}` : `build of ${o.docs}`} ${(x.out / MB).toFixed(1)} ${x.t - o.t}`);
  }
}
