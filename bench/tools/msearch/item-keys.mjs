// ad-hoc (issue 19, msearch-i19ms): the parsed-item cache lookup of ten-item `_msearch` bodies split into lines, keyed `{}\n` + line (the old key, a cons string flattened per lookup) against the line alone (http/msearch.ts itemKey); ns per lookup, rounds alternated.
//   node bench/tools/msearch/item-keys.mjs   (after npm run build)
const { generateBm25Corpus } = await import(new URL('../../../dist/src/cli/corpus/corpus.js', import.meta.url).href);
const corpus = generateBm25Corpus({ docs: 1000, queries: 2000 });
let q = 0;
const body = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${JSON.stringify({ query: { match: { text: corpus.queries[q++ % 2000] } }, size: 10 })}\n`; return o; };
// fresh request bodies each time, as from a socket (200 distinct, rebuilt per pass so strings are new)
const own = (s) => (' ' + s).slice(1);
const maps = { cons: new Map(), line: new Map() };
const keyOf = { cons: (l) => `{}\n${l}`, line: (l) => l };
for (const [k, m] of Object.entries(maps)) { q = 0; for (let r = 0; r < 200; r++) { const ls = body().slice(0, -1).split('\n'); for (let i = 1; i < ls.length; i += 2) m.set(own(keyOf[k](ls[i])), i); } }
for (let round = 0; round < 12; round++) for (const k of ['cons', 'line']) {
  const m = maps[k]; const f = keyOf[k]; let hit = 0; let t = 0n;
  for (let rep = 0; rep < 20; rep++) { q = 0; const bodies = Array.from({ length: 200 }, () => body().slice(0, -1).split('\n'));
    const t0 = process.hrtime.bigint(); for (const ls of bodies) for (let i = 1; i < ls.length; i += 2) if (m.get(f(ls[i])) !== undefined) hit++; t += process.hrtime.bigint() - t0; }
  if (round > 0) console.log(k, (Number(t) / hit).toFixed(0), 'ns per lookup', hit);
}
