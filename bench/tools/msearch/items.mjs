// ad-hoc (issue 19, msearch-i19x): `_msearch`'s own main-thread work per item — body parse, parsed-request
// cache lookups, the item loop, the join and the response buffer — with a search service that answers
// at once (process CPU, GC threads included).  node bench/tools/msearch/items.mjs <dist>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const dist = process.argv[2];
const { msearchRoutes } = await import(pathToFileURL(join(dist, 'src/http/msearch.js')).href);
const { JsonPieces } = await import(pathToFileURL(join(dist, 'src/common/json-pieces.js')).href);
const { generateBm25Corpus } = await import(pathToFileURL(join(dist, 'src/cli/corpus/corpus.js')).href);
const corpus = generateBm25Corpus({ docs: 1000, queries: 2000 });
const page = new Uint8Array(3000).fill(65);
const answer = { body: JsonPieces.object('{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":10000,"relation":"gte"},"max_score":12.5,"hits":', page, '}}') };
const search = { search: () => Promise.resolve(answer) };
const [route] = msearchRoutes({ names: () => [], aliases: { names: () => [] } }, search, {});
let q = 0;
const body = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${JSON.stringify({ query: { match: { text: corpus.queries[q++ % 2000] } }, size: 10 })}\n`; return o; };
const bodies = Array.from({ length: 200 }, body);
const run = async (n) => { for (let i = 0; i < n; i++) { const r = await route.handler({ method: 'POST', path: '/bench/_msearch', params: { index: 'bench' }, query: {}, body: bodies[i % 200], headers: {} }); r.body.toBuffer(); } };
await run(20000);
const t = process.cpuUsage();
const N = 20000;
await run(N);
const d = process.cpuUsage(t);
console.log(dist, ((d.user + d.system) / N / 10).toFixed(2), 'µs per item (parse, cache lookups, item loop, join, toBuffer)');
