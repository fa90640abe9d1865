// node live-analyze.mjs <LIVE_OUT prefix> [per] — live-probe.mjs's profile: sampled bytes by
// allocating function and by stack (TOP=n, DEPTH=n frames), divided by `per` (e.g. the window's
// queries for bytes per query; default 1: bytes), and the window's GCs.
import { readFileSync, existsSync } from 'node:fs';
const [prefix, perArg] = process.argv.slice(2);
const PER = Number(perArg ?? 1);
const unit = PER === 1 ? 'B' : 'B/q';
if (existsSync(prefix + '.gc.json')) {
  const g = JSON.parse(readFileSync(prefix + '.gc.json', 'utf8'));
  const space = (stats, name) => stats.heapSpaceStatistics.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;
  let scav = 0, mc = 0, promoted = 0, survived = 0;
  for (const e of g.gc.statistics) {
    if (e.gcType === 'Scavenge') { scav++; promoted += space(e.afterGC, 'old_space') - space(e.beforeGC, 'old_space'); survived += space(e.afterGC, 'new_space'); }
    else mc++;
  }
  console.log(`window ${g.ms.toFixed(0)} ms: scavenges ${scav}, other GCs ${mc}; promoted ${(promoted / PER).toFixed(1)} ${unit}; new-space survivors per scavenge ${(survived / Math.max(1, scav) / 1e6).toFixed(2)} MB`);
}
const p = JSON.parse(readFileSync(prefix + '.heapprofile', 'utf8'));
const sizeById = new Map(); for (const s of p.samples) sizeById.set(s.nodeId, (sizeById.get(s.nodeId) ?? 0) + s.size);
const self = new Map(); const stacks = new Map(); let total = 0;
const DEPTH = Number(process.env.DEPTH ?? 6);
const walk = (n, path) => {
  const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  const here = [...path, name];
  const sz = sizeById.get(n.id) ?? 0;
  if (sz) { total += sz; self.set(name, (self.get(name) ?? 0) + sz); const k = here.slice(-DEPTH).reverse().join('\n      <- '); stacks.set(k, (stacks.get(k) ?? 0) + sz); }
  for (const c of n.children) walk(c, here);
};
walk(p.head, []);
console.log(`sampled total ${(total / PER).toFixed(1)} ${unit}`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOPSELF ?? 30))) console.log(`${(v / PER).toFixed(1).padStart(9)} ${unit}  ${k}`);
console.log('--- stacks');
for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25))) console.log(`${(v / PER).toFixed(1).padStart(9)} ${unit}  ${k}`);
