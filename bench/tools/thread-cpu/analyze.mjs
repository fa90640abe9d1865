import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const { profilePhases, IDLE } = await import(new URL('../../../dist/bench/lib/profile-phases.js', import.meta.url).href);
const dir = process.argv[2]; const TOP = Number(process.argv[3] ?? 25);
const w = JSON.parse(readFileSync(join(dir, 'window.json'), 'utf8'));
const phases = profilePhases(dir, w.from, w.to);
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map(); const incl = new Map(); let busy = 0; let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]; if (t < w.from || t > w.to) continue;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000; const n = byId.get(p.samples[i]);
    const name = n.callFrame.functionName; if (name === '(idle)' || name === 'atomicsWaitLoop') continue;
    busy += dt;
    const key = (c) => `${c.functionName || '(anon)'} ${c.url.replace(/.*\/(dist|node_modules)\//, '')}:${c.lineNumber}`;
    self.set(key(n.callFrame), (self.get(key(n.callFrame)) ?? 0) + dt);
    const seen = new Set(); let id = n.id;
    while (id !== undefined) { const k = key(byId.get(id).callFrame); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt); } id = parent.get(id); }
  }
  if (busy < 50) continue;
  const us = (ms) => (ms * 1000 / w.queries).toFixed(2);
  console.log(`\n=== ${f}: busy ${busy.toFixed(0)} ms = ${us(busy)} µs/query (sampled wall)`);
  const ph = phases.find((x) => x.file === f);
  console.log('phases:', [...ph.ms].filter(([k]) => k !== IDLE).sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${(100 * ms / busy).toFixed(1)}%`).join(' | '));
  console.log('-- self');
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${(100 * ms / busy).toFixed(1).padStart(5)}% ${k}`);
  console.log('-- inclusive');
  for (const [k, ms] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${(100 * ms / busy).toFixed(1).padStart(5)}% ${k}`);
}
