// ad-hoc (issue 19, msearch-i19ms): self and inclusive shares of a --cpu-prof profile (a file or a directory), only samples under a frame named <root> when given.
//   node bench/tools/thread-cpu/profile-shares.mjs <profile|dir> [root] [top]
import { readFileSync, readdirSync } from 'node:fs';
const [dir, rootName = '', top = '45'] = process.argv.slice(2);
const files = dir.endsWith('.cpuprofile') ? [dir] : readdirSync(dir).filter(f => f.endsWith('.cpuprofile')).map(f => dir + '/' + f);
for (const f of files) {
  const p = JSON.parse(readFileSync(f, 'utf8'));
  const byId = new Map(p.nodes.map(n => [n.id, n]));
  const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const count = new Map(); for (const s of p.samples) count.set(s, (count.get(s) ?? 0) + 1);
  const name = n => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/(dist|node_modules)\//, '')}:${n.callFrame.lineNumber + 1}`;
  // keep only samples under a frame named rootName
  const under = (id) => { if (!rootName) return true; for (let x = id; x !== undefined; x = parent.get(x)) if (byId.get(x).callFrame.functionName === rootName) return true; return false; };
  const self = new Map(), incl = new Map(); let total = 0;
  for (const [id, c] of count) {
    if (!under(id)) continue;
    const n = byId.get(id); if (n.callFrame.functionName === '(idle)') continue;
    total += c; self.set(name(n), (self.get(name(n)) ?? 0) + c);
    const seen = new Set(); for (let x = id; x !== undefined; x = parent.get(x)) { const k = name(byId.get(x)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + c); } }
  }
  console.log(`== ${f} samples ${total}`);
  console.log('-- self'); for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, +top)) console.log((100 * c / total).toFixed(1).padStart(6) + '% ' + k);
  console.log('-- incl'); for (const [k, c] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, +top)) console.log((100 * c / total).toFixed(1).padStart(6) + '% ' + k);
}
