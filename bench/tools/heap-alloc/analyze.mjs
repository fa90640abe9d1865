// node analyze.mjs <outPrefix> <docs>
import { readFileSync, existsSync } from 'node:fs';
const [prefix, docsArg] = process.argv.slice(2);
const DOCS = Number(docsArg);
const g = JSON.parse(readFileSync(prefix + '.gc.json', 'utf8'));
const used = (s) => s.used_heap_size ?? s.usedHeapSize;
const space = (stats, name) => stats.heapSpaceStatistics.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;
let alloc = 0, prev = used(g.h0);
let scav = 0, mc = 0, scavMs = 0, mcMs = 0, promoted = 0, survivedNew = 0;
for (const e of g.gc.statistics) {
  const b = e.beforeGC.heapStatistics, a = e.afterGC.heapStatistics;
  alloc += used(b) - prev; prev = used(a);
  const minor = e.gcType === 'Scavenge' || e.gcType === 'MinorMarkCompact' || e.gcType === 'MinorMarkSweep';
  if (minor) {
    scav++; scavMs += e.cost / 1000;
    const oldB = space(e.beforeGC, 'old_space'), oldA = space(e.afterGC, 'old_space');
    promoted += oldA - oldB + space(e.afterGC, 'large_object_space') - space(e.beforeGC, 'large_object_space');
    survivedNew += space(e.afterGC, 'new_space');
    if (process.env.V) console.log(`  scavenge ${(e.cost/1000).toFixed(1)} ms new ${(space(e.beforeGC,'new_space')/1e6).toFixed(1)} -> ${(space(e.afterGC,'new_space')/1e6).toFixed(1)} MB, old +${((oldA-oldB)/1e6).toFixed(2)} MB`);
  } else { mc++; mcMs += e.cost / 1000; }
}
alloc += used(g.h1) - prev;
const types = {}; for (const e of g.gc.statistics) types[e.gcType] = (types[e.gcType] ?? 0) + 1;
console.log(`window ${g.ms.toFixed(0)} ms; allocated ${(alloc / DOCS).toFixed(0)} B/doc (${(alloc / 1e6).toFixed(1)} MB); minor GCs ${scav} (${scavMs.toFixed(0)} ms), major ${mc} (${mcMs.toFixed(0)} ms) ${JSON.stringify(types)}; promoted (old growth in scavenges) ${(promoted / DOCS).toFixed(0)} B/doc; new-space survivors per scavenge avg ${(survivedNew / Math.max(1, scav) / 1e6).toFixed(2)} MB`);
if (existsSync(prefix + '.heapprofile')) {
  const p = JSON.parse(readFileSync(prefix + '.heapprofile', 'utf8'));
  const sizeById = new Map(); for (const s of p.samples) sizeById.set(s.nodeId, (sizeById.get(s.nodeId) ?? 0) + s.size);
  const self = new Map(); const stacks = new Map(); let total = 0;
  const walk = (n, path) => {
    const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
    const here = [...path, name];
    const sz = sizeById.get(n.id) ?? 0;
    if (sz) { total += sz; self.set(name, (self.get(name) ?? 0) + sz); const key = here.slice(-4).join(' < ').replace(/ < /g, ' <- '); const k2 = here.slice(-5).reverse().join('\n      <- '); stacks.set(k2, (stacks.get(k2) ?? 0) + sz); }
    for (const c of n.children) walk(c, here);
  };
  walk(p.head, []);
  console.log(`sampled total ${(total / DOCS).toFixed(0)} B/doc`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(v / DOCS).toFixed(0).padStart(6)} B/doc  ${k}`);
  console.log('--- stacks');
  for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log(`${(v / DOCS).toFixed(0).padStart(6)} B/doc  ${k}`);
}
