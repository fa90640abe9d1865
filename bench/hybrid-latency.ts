/**
 * Scenario: hybrid search latency over HTTP at 200k synthetic documents — an `rrf` retriever over a
 * lexical `match` and a learned-sparse `sparse_vector` query, next to its two parts run as separate
 * searches. Documents carry a BM25-corpus text (bench/lib/corpus.ts) and an ELSER-like vector
 * (bench/lib/sparse-corpus.ts: ~120 non-zeros, Zipf(0.9) token popularity); queries pair corpus
 * query i with sparse query i, given as `query_vector` so the model's encoding time is not counted.
 * One server process (default threads), one client connection, requests interleaved per query
 * (lexical, sparse, hybrid window 10, hybrid window 100), 10 hits with `_source` each.
 * The target: the fused request costs less than the sum of its parts (one scatter, one fetch).
 *
 *   npm run build && node dist/bench/hybrid-latency.js [--docs 200000] [--queries 300]
 */
import { parseArgs } from 'node:util';
import { generateBm25Corpus } from './lib/corpus.js';
import { latencyStats, startCpuProbe } from './lib/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkLoad, startThreadsearch } from './lib/server-process.js';
import { generateSparseCorpus, sparseVectorObject } from './lib/sparse-corpus.js';

const { values } = parseArgs({ options: { docs: { type: 'string' }, queries: { type: 'string' } } });
const DOCS = Number(values.docs ?? 200_000);
const QUERIES = Number(values.queries ?? 300);
const WARMUP = 30;
const BATCH = 2_000;

const lexical = generateBm25Corpus({ docs: DOCS });
const sparse = generateSparseCorpus({ docs: DOCS, queries: QUERIES });
const vector = sparseVectorObject;

const server = await startThreadsearch();
const post = async (path: string, body: unknown): Promise<any> => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};

let result;
try {
  await fetch(`${server.url}/hybrid`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mappings: { properties: { text: { type: 'text' }, ml: { properties: { tokens: { type: 'sparse_vector' } } } } } }),
  });
  const bodies: string[] = [];
  for (let i = 0; i < DOCS; i += BATCH) {
    let body = '';
    for (let d = i; d < Math.min(DOCS, i + BATCH); d++) {
      body += `{"index":{"_index":"hybrid","_id":"${d}"}}\n${JSON.stringify({ text: lexical.docs[d].text, ml: { tokens: vector(sparse.docs, d) } })}\n`;
    }
    bodies.push(body);
  }
  const loadStart = performance.now();
  await bulkLoad(server.url, bodies, 2);
  await post('/hybrid/_refresh', {});
  await post('/hybrid/_forcemerge?max_num_segments=1', {});
  const loadMs = performance.now() - loadStart;

  const lex = (i: number) => ({ match: { text: lexical.queries[i % lexical.queries.length] } });
  const sv = (i: number) => ({ sparse_vector: { field: 'ml.tokens', query_vector: vector(sparse.queries, i % QUERIES) } });
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
  const sumOfParts = stats[0].p50 + stats[1].p50;
  result = {
    params: { docs: DOCS, queries: QUERIES, hits: 10 },
    loadMs,
    cases: cases.map(([name], c) => ({ name, ...stats[c] })),
    sumOfPartsP50: sumOfParts,
    hybridOverSum: { window10: stats[2].p50 / sumOfParts, window100: stats[3].p50 / sumOfParts },
    otherCores: cpu.otherCores,
  };
} finally {
  await server.stop();
}
console.log(JSON.stringify(result, null, 2));

if (DOCS === 200_000) {
  writeResult('hybrid-latency', result);
  const f = (x: number) => formatNumber(x, 2);
  updateBenchmarksMd(
    'hybrid-latency',
    markdownTable(
      ['request', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
      [
        ...result.cases.map((c) => [c.name, f(c.p50), f(c.p90), f(c.p99), f(c.mean)]),
        ['lexical p50 + sparse p50', f(result.sumOfPartsP50), '', '', ''],
      ],
      ['left', 'right', 'right', 'right', 'right'],
    ),
    `${formatNumber(DOCS, 0)} synthetic documents (BM25-corpus text + ELSER-like vector, one force-merged segment), ${QUERIES} queries, one client connection,
cases interleaved per query, over HTTP to one server process (default threads), 10 hits with \`_source\`; sparse queries as \`query_vector\` (no model time).
Hybrid / (lexical + sparse) at p50: **${formatNumber(result.hybridOverSum.window10 * 100, 0)}%** with rank_window_size 10, **${formatNumber(result.hybridOverSum.window100 * 100, 0)}%** with 100.
otherCores ${formatNumber(result.otherCores, 2)}. Run: \`node dist/bench/hybrid-latency.js\`.`,
  );
}
