// ad-hoc (issue 19, msearch-i19ms): a function's samples by source line (positionTicks) in a --cpu-prof profile.
//   node bench/tools/thread-cpu/profile-lines.mjs <profile> <function name>
import { readFileSync } from 'node:fs';
const [f, fn] = process.argv.slice(2);
const p = JSON.parse(readFileSync(f, 'utf8'));
const m = new Map(); let url = '';
for (const n of p.nodes) if (n.callFrame.functionName === fn) { url = n.callFrame.url; for (const t of n.positionTicks ?? []) m.set(t.line, (m.get(t.line) ?? 0) + t.ticks); }
const src = url.startsWith('file://') ? readFileSync(new URL(url), 'utf8').split('\n') : [];
for (const [l, t] of [...m].sort((a, b) => a[0] - b[0])) console.log(String(t).padStart(6), l, (src[l - 1] ?? '').trim().slice(0, 110));
