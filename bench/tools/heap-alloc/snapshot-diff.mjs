// node snapshot-diff.mjs <under-load.heapsnapshot> <idle.heapsnapshot> [per] — live-probe.mjs's two
// snapshots: objects by type and name (strings by type only; closures by function name), count and
// self bytes under load minus idle, divided by `per` (e.g. the requests in flight). TOP=n rows.
import { readFileSync } from 'node:fs';
const [a, b, perArg] = process.argv.slice(2);
const PER = Number(perArg ?? 1);
function groups(file) {
  const s = JSON.parse(readFileSync(file, 'utf8'));
  const f = s.snapshot.meta.node_fields, types = s.snapshot.meta.node_types[0];
  const n = f.length, iT = f.indexOf('type'), iN = f.indexOf('name'), iS = f.indexOf('self_size'), iE = f.indexOf('edge_count');
  const ef = s.snapshot.meta.edge_fields, en = ef.length, eT = ef.indexOf('type'), eN = ef.indexOf('name_or_index'), etypes = s.snapshot.meta.edge_types[0];
  const m = new Map();
  let edge = 0;
  for (let i = 0; i < s.nodes.length; i += n) {
    const type = types[s.nodes[i + iT]];
    let name = s.strings[s.nodes[i + iN]];
    const edges = s.nodes[i + iE];
    // Plain objects (and arrays' element stores) are told apart by their first property names.
    if (process.env.SHAPES && type === 'object' && name === 'Object') {
      const props = [];
      for (let e = edge; e < edge + edges * en && props.length < 5; e += en) if (etypes[s.edges[e + eT]] === 'property') props.push(s.strings[s.edges[e + eN]]);
      name = `{${props.join(',')}}`;
    }
    edge += edges * en;
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' || type === 'code') name = '';
    if (name.length > 60) name = name.slice(0, 60);
    const key = `${type} ${name}`;
    const g = m.get(key) ?? { count: 0, size: 0 };
    g.count++; g.size += s.nodes[i + iS];
    m.set(key, g);
  }
  return m;
}
const A = groups(a), B = groups(b);
const rows = [];
for (const [k, g] of A) { const h = B.get(k) ?? { count: 0, size: 0 }; rows.push([k, (g.count - h.count) / PER, (g.size - h.size) / PER]); }
for (const [k, h] of B) if (!A.has(k)) rows.push([k, -h.count / PER, -h.size / PER]);
rows.sort((x, y) => y[2] - x[2]);
console.log(`total self bytes difference ${(rows.reduce((t, r) => t + r[2], 0)).toFixed(0)}${PER === 1 ? '' : ' per unit'}`);
for (const [k, c, sz] of rows.slice(0, Number(process.env.TOP ?? 50))) console.log(`${sz.toFixed(1).padStart(10)} B ${c.toFixed(2).padStart(8)} objs  ${k}`);
