/**
 * Scenario: exact kNN search — 100k documents with one 384-dim float `dense_vector`
 * (cosine, the default similarity; the size of a MiniLM embedding), one shard force-merged to one
 * segment. Each query is a top-level `knn` section, k 10, `_source` off; the baseline in the same
 * server is a `match_all` of size 10 on the same index (what a search costs besides scoring).
 * Vectors and queries are uniform in [-1, 1) per dimension from mulberry32, written with 4 decimals.
 *
 * Engine level: the pre-phase's candidates scan (search/knn-candidates.ts) of the one segment in
 * this thread, in one part — what one search thread spends per query and shard.
 *
 * Exact search reads every vector once per query and shard: 100k × 384 multiply-adds (~150 MB of
 * float32) per query, so its cost is linear in the corpus; the pre-phase (top k per shard) and the
 * query phase (the k documents by write order) are two shard tasks.
 *
 *   npm run build && node dist/bench/knn.js [--docs 100000] [--dims 384] [--queries 200]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { latencyStats, startCpuProbe, type LatencyStats } from '../src/cli/report/machine.js';
import { mulberry32 } from '../src/common/prng.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { jsonCaller, loadOneSegmentIndex, startThreadsearch } from './lib/server-process.js';
import { InProcessIndex } from '../test/support/engine-harness.js';

const USAGE = 'node dist/bench/knn.js [--docs 100000] [--dims 384] [--queries 200]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, dims: { type: 'string' }, queries: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 100_000);
const DIMS = numberOption(USAGE, values.dims, 'dims', 384);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 200);
const WARMUP = 30;

const random = mulberry32(0x6b6e6e);
const vector = (): number[] => Array.from({ length: DIMS }, () => Math.round((random() * 2 - 1) * 1e4) / 1e4);
const MAPPINGS = { properties: { v: { type: 'dense_vector', dims: DIMS, similarity: 'cosine' }, even: { type: 'boolean' } } };
const queries = Array.from({ length: QUERIES }, vector);

interface Case { readonly name: string; readonly stats: LatencyStats; readonly hitsPerQuery: number }

const docVector = (i: number): number[] => {
  // The i-th document's vector, the same in both halves (its own generator, seeded by i).
  const r = mulberry32(0x5eed + i);
  return Array.from({ length: DIMS }, () => Math.round((r() * 2 - 1) * 1e4) / 1e4);
};

/** The candidates scan of one segment in this thread (one part), per query. */
function engine(): Case {
  const index = new InProcessIndex(MAPPINGS);
  const docs = Array.from({ length: DOCS }, (_, i) => ({ id: String(i), source: { v: docVector(i), even: i % 2 === 0 } }));
  index.addSegment(docs);
  const samples: number[] = [];
  let hits = 0;
  for (let i = -WARMUP; i < QUERIES; i++) {
    const q = queries[Math.abs(i) % QUERIES];
    const start = performance.now();
    const exec = index.plan({ kind: 'knn', field: 'v', queryVector: q, k: 10, numCandidates: 15, filter: [], similarity: null, boost: 1, name: null, matches: 'candidates' });
    const r = index.searchPlan(exec, { k: 10, knnCandidates: { part: 0, parts: 1 } });
    const ms = performance.now() - start;
    if (i < 0) continue;
    samples.push(ms);
    hits += r.hits.length / 4;
  }
  const c = { name: 'engine: candidates scan, one segment, one thread', stats: latencyStats(samples), hitsPerQuery: hits / QUERIES };
  console.log(`${c.name}: p50 ${c.stats.p50.toFixed(2)} ms, p99 ${c.stats.p99.toFixed(2)} ms`);
  return c;
}

const server = await startThreadsearch();
const call = jsonCaller(server.url);
let cases: Case[];
let loadMs: number;
let otherCores: number;
try {
  loadMs = await loadOneSegmentIndex(server.url, 'vectors', MAPPINGS, DOCS, (i) => ({ id: String(i), source: { v: docVector(i), even: i % 2 === 0 } }), 1_000);
  console.log(`loaded ${DOCS} × ${DIMS} in ${(loadMs / 1000).toFixed(1)} s`);
  const run = async (name: string, body: (q: number[]) => unknown): Promise<Case> => {
    const samples: number[] = [];
    let hits = 0;
    for (let i = -WARMUP; i < QUERIES; i++) {
      const q = queries[Math.abs(i) % QUERIES];
      const start = performance.now();
      const res = await call('POST', '/vectors/_search', body(q));
      const ms = performance.now() - start;
      if (i < 0) continue;
      samples.push(ms);
      hits += res.hits.hits.length;
    }
    const c = { name, stats: latencyStats(samples), hitsPerQuery: hits / QUERIES };
    console.log(`${name}: p50 ${c.stats.p50.toFixed(2)} ms, p99 ${c.stats.p99.toFixed(2)} ms, ${c.hitsPerQuery} hits`);
    return c;
  };
  const probe = startCpuProbe({ pids: [server.pid] });
  cases = [
    await run('HTTP: match_all, size 10 (baseline)', () => ({ size: 10, _source: false, query: { match_all: {} } })),
    await run('HTTP: knn, k 10 (num_candidates 15)', (q) => ({ _source: false, knn: { field: 'v', query_vector: q, k: 10 } })),
    await run('HTTP: knn, k 10, filter (half the docs)', (q) => ({ _source: false, knn: { field: 'v', query_vector: q, k: 10, filter: { term: { even: true } } } })),
  ];
  otherCores = probe.stop().otherCores;
} finally {
  await server.stop();
}
cases.push(engine());

const result = { params: { docs: DOCS, dims: DIMS, queries: QUERIES, warmup: WARMUP, similarity: 'cosine' }, loadMs, otherCores, cases };
if (DOCS === 100_000 && DIMS === 384 && QUERIES === 200) {
  writeResult('knn', result);
  const f = (x: number) => formatNumber(x, 2);
  updateBenchmarksMd(
    'knn',
    markdownTable(
      ['request', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'hits'],
      cases.map((c) => [c.name, f(c.stats.p50), f(c.stats.p90), f(c.stats.p99), f(c.stats.mean), formatNumber(c.hitsPerQuery, 0)]),
      ['left', 'right', 'right', 'right', 'right', 'right'],
    ),
    `${formatNumber(DOCS, 0)} documents × ${DIMS}-dim float \`dense_vector\` (cosine), one shard, one segment; ${QUERIES} queries after ${WARMUP} warm-up,
one client, one request at a time, \`_source: false\`. Exact kNN reads every vector per query (a pre-phase whose scan is split over
the search threads, for the top k, then the query phase for those k documents); the baseline is a \`match_all\` of size 10 on the same
server. otherCores ${formatNumber(otherCores, 2)}${otherCores > 0.5 ? ': other processes kept the machine busy during the run, so these times are upper bounds' : ''}.
Run: \`node dist/bench/knn.js\`.`,
  );
}
