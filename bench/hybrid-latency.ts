/**
 * Scenario: hybrid search latency over HTTP at 200k synthetic documents — an `rrf` retriever over a
 * lexical `match` and a learned-sparse `sparse_vector` query, next to its two parts run as separate
 * searches. Documents carry a BM25-corpus text (bench/lib/corpus.ts) and an ELSER-like vector
 * (bench/lib/sparse-corpus.ts: ~120 non-zeros, Zipf(0.9) token popularity); queries pair corpus
 * query i with sparse query i, given as `query_vector` so the model's encoding time is not counted.
 * Engine level: the same index as one segment in this thread (test/support/engine-harness.ts), and the
 * work one shard does for each request — a plain search is one top-10 query phase that counts hits;
 * a hybrid search is each list's top `rank_window_size` without counting, one task over the union
 * of the lists that counts, and the coordinator's fusion (cluster/search/rrf.ts), as cluster/search/hybrid-search.ts
 * runs them. HTTP: one server process (default threads), one client connection, requests interleaved
 * per query (lexical, sparse, hybrid window 10, hybrid window 100), 10 hits with `_source` each.
 * The target: the fused request costs less than the sum of its parts (one scatter, one fetch).
 *
 *   npm run build && node dist/bench/hybrid-latency.js [--docs 200000] [--queries 300]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { reciprocalRankFusion, type RankedList } from '../src/cluster/search/rrf.js';
import { HIT_STRIDE, type Exec, type ShardSearchResult } from '../src/search/index.js';
import { TRACK_TOTAL_HITS_DISABLED } from '../src/dsl/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { InProcessIndex } from '../test/support/engine-harness.js';
import { latencyStats, startCpuProbe, type LatencyStats } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { jsonCaller, loadOneSegmentIndex, startThreadsearch } from './lib/server-process.js';
import { generateSparseCorpus, sparseVectorObject } from './lib/sparse-corpus.js';

const USAGE = 'node dist/bench/hybrid-latency.js [--docs 200000] [--queries 300]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, queries: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 300);
const WARMUP = 30;

const lexical = generateBm25Corpus({ docs: DOCS });
const sparse = generateSparseCorpus({ docs: DOCS, queries: QUERIES });
const vector = sparseVectorObject;

const MAPPINGS = { properties: { text: { type: 'text' }, ml: { properties: { tokens: { type: 'sparse_vector' } } } } };
const lex = (i: number) => ({ match: { text: lexical.queries[i % lexical.queries.length] } });
const sv = (i: number) => ({ sparse_vector: { field: 'ml.tokens', query_vector: vector(sparse.queries, i % QUERIES) } });
const WINDOWS = [10, 100] as const;

/** Per request: one shard's query phase (and, for hybrid, the fusion) in this thread. */
function engine(): Array<{ name: string } & LatencyStats> {
  const index = new InProcessIndex(MAPPINGS);
  const docs = [];
  for (let d = 0; d < DOCS; d++) docs.push({ id: String(d), source: { text: lexical.docs[d].text, ml: { tokens: vector(sparse.docs, d) } } });
  index.addSegment(docs);
  const list = (r: ShardSearchResult): RankedList => {
    const keys: number[] = [];
    const scores: number[] = [];
    for (let o = 0; o < r.hits.length; o += HIT_STRIDE) {
      keys.push(r.hits[o + 1] * 2 ** 32 + r.hits[o + 2]);
      scores.push(r.hits[o]);
    }
    return { keys, scores };
  };
  const hybrid = (lexExec: Exec, svExec: Exec, unionExec: Exec, window: number) => {
    const lists = [lexExec, svExec].map((e) => list(index.searchPlan(e, { k: window, trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED })));
    index.searchPlan(unionExec, { k: 0 });
    return reciprocalRankFusion(lists, 60).slice(0, 10);
  };
  const names = ['lexical match', 'sparse_vector', ...WINDOWS.map((w) => `hybrid rrf, window ${w}`)];
  const samples = names.map(() => [] as number[]);
  for (let i = -WARMUP; i < QUERIES; i++) {
    const q = Math.abs(i);
    // Planning is the coordinator's and the same for both shapes; time the shard and fusion work.
    const lexExec = index.plan(lex(q));
    const svExec = index.plan(sv(q));
    const unionExec = index.plan({ bool: { should: [lex(q), sv(q)] } });
    const runs = [() => index.searchPlan(lexExec), () => index.searchPlan(svExec), ...WINDOWS.map((w) => () => hybrid(lexExec, svExec, unionExec, w))];
    runs.forEach((run, c) => {
      const start = performance.now();
      run();
      if (i >= 0) samples[c].push(performance.now() - start);
    });
  }
  return names.map((name, c) => ({ name, ...latencyStats(samples[c]) }));
}

/** The parts' p50s summed, and each hybrid case's p50 over that sum (cases: lexical, sparse, hybrid per window). */
function overSum(cases: readonly LatencyStats[]): { sumOfPartsP50: number; hybridOverSum: { window10: number; window100: number } } {
  const sumOfPartsP50 = cases[0].p50 + cases[1].p50;
  return { sumOfPartsP50, hybridOverSum: { window10: cases[2].p50 / sumOfPartsP50, window100: cases[3].p50 / sumOfPartsP50 } };
}

const engineCases = engine();
console.log(`engine: ${engineCases.map((c) => `${c.name} p50 ${c.p50.toFixed(2)} ms`).join(', ')}`);

const server = await startThreadsearch();
const call = jsonCaller(server.url);
const post = (path: string, body: unknown) => call('POST', path, body);

let result;
try {
  const loadMs = await loadOneSegmentIndex(server.url, 'hybrid', MAPPINGS, DOCS, (d) => ({ id: String(d), source: { text: lexical.docs[d].text, ml: { tokens: vector(sparse.docs, d) } } }));

  const cases: Array<[string, (i: number) => unknown]> = [
    ['lexical match', (i) => ({ query: lex(i) })],
    ['sparse_vector', (i) => ({ query: sv(i) })],
    ['hybrid rrf, window 10', (i) => ({ retriever: { rrf: { retrievers: [{ standard: { query: lex(i) } }, { standard: { query: sv(i) } }], rank_window_size: 10 } } })],
    ['hybrid rrf, window 100', (i) => ({ retriever: { rrf: { retrievers: [{ standard: { query: lex(i) } }, { standard: { query: sv(i) } }], rank_window_size: 100 } } })],
  ];
  const samples = cases.map(() => [] as number[]);
  const probe = startCpuProbe({ pids: [server.pid] });
  for (let i = -WARMUP; i < QUERIES; i++) {
    for (let c = 0; c < cases.length; c++) {
      const body = cases[c][1](Math.abs(i));
      const start = performance.now();
      await post('/hybrid/_search', body);
      if (i >= 0) samples[c].push(performance.now() - start);
    }
  }
  const cpu = probe.stop();
  const stats = samples.map((s) => latencyStats(s));
  result = {
    params: { docs: DOCS, queries: QUERIES, hits: 10 },
    loadMs,
    engine: { cases: engineCases, ...overSum(engineCases) },
    http: { cases: cases.map(([name], c) => ({ name, ...stats[c] })), ...overSum(stats) },
    otherCores: cpu.otherCores,
  };
} finally {
  await server.stop();
}
console.log(JSON.stringify(result, null, 2));

if (DOCS === 200_000) {
  writeResult('hybrid-latency', result);
  const f = (x: number) => formatNumber(x, 2);
  const pct = (x: number) => `${formatNumber(x * 100, 0)}%`;
  updateBenchmarksMd(
    'hybrid-latency',
    markdownTable(
      ['level', 'request', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
      (['engine', 'http'] as const).flatMap((level) => [
        ...result[level].cases.map((c) => [level === 'http' ? 'HTTP' : level, c.name, f(c.p50), f(c.p90), f(c.p99), f(c.mean)]),
        [level === 'http' ? 'HTTP' : level, 'lexical p50 + sparse p50', f(result[level].sumOfPartsP50), '', '', ''],
      ]),
      ['left', 'left', 'right', 'right', 'right', 'right'],
    ),
    `${formatNumber(DOCS, 0)} synthetic documents (BM25-corpus text + ELSER-like vector, one segment), ${QUERIES} queries; sparse queries as \`query_vector\` (no model time).
Engine: one shard's work per request in one thread — plain: top 10 with counting; hybrid: each list's top window without counting, the union's count, and the fusion.
HTTP: one server process (default threads), one client connection, cases interleaved per query, 10 hits with \`_source\`.
Hybrid / (lexical + sparse) at p50 — engine: **${pct(result.engine.hybridOverSum.window10)}** (window 10), **${pct(result.engine.hybridOverSum.window100)}** (100);
HTTP: **${pct(result.http.hybridOverSum.window10)}** (10), **${pct(result.http.hybridOverSum.window100)}** (100).
otherCores ${formatNumber(result.otherCores, 2)} (HTTP phase). Run: \`node dist/bench/hybrid-latency.js\`.`,
  );
}
