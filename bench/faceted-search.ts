/**
 * Scenario: a faceted search — what a search UI sends on every keystroke-free page load: a `match`
 * query, 10 hits, three `terms` facets and one `range` facet, over 200k synthetic documents
 * (BM25-corpus text, bench/lib/corpus.ts, plus deterministic facet fields: `category` 20 values and
 * `brand` 500 values with skewed popularity, `color` 12 uniform values, `price` a double in
 * [0, 1000)). Measured engine-level (one shard's query phase + aggregation collection + reduce and
 * render, in this thread, test/support/engine-harness.ts) and over HTTP (one server process, default
 * threads, one client connection), next to the same query without aggregations, interleaved.
 *
 *   npm run build && node dist/bench/faceted-search.js [--docs 200000] [--queries 300]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { parseAggregations } from '../src/dsl/aggs/registry.js';
import { DEFAULT_MAX_REGEX_LENGTH } from '../src/common/pattern/index.js';
import { SegmentStatsSource } from '../src/search/index.js';
import { BucketBudget, planAggregations, reduceAggs, renderAggs } from '../src/search/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { InProcessIndex } from '../test/support/engine-harness.js';
import { latencyStats, startCpuProbe, type LatencyStats } from '../src/cli/report/machine.js';
import { mulberry32 } from '../src/common/prng.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { jsonCaller, loadOneSegmentIndex, startThreadsearch } from './lib/server-process.js';

const USAGE = 'node dist/bench/faceted-search.js [--docs 200000] [--queries 300]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, queries: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 300);
const WARMUP = 30;

const MAPPINGS = {
  properties: { text: { type: 'text' }, category: { type: 'keyword' }, brand: { type: 'keyword' }, color: { type: 'keyword' }, price: { type: 'double' } },
};
const AGGS = {
  category: { terms: { field: 'category', size: 10 } },
  brand: { terms: { field: 'brand', size: 10 } },
  color: { terms: { field: 'color', size: 12 } },
  price: { range: { field: 'price', ranges: [{ to: 50 }, { from: 50, to: 100 }, { from: 100, to: 500 }, { from: 500 }] } },
};

const lexical = generateBm25Corpus({ docs: DOCS });
const random = mulberry32(0xface7);
const COLORS = ['red', 'green', 'blue', 'black', 'white', 'grey', 'yellow', 'orange', 'purple', 'pink', 'brown', 'navy'];
const docs = lexical.docs.map((d) => ({
  id: d.id,
  source: {
    text: d.text,
    // Squaring a uniform draw skews popularity toward the first values, as real facets are.
    category: `category-${Math.floor(random() ** 2 * 20)}`,
    brand: `brand-${Math.floor(random() ** 3 * 500)}`,
    color: COLORS[Math.floor(random() * COLORS.length)],
    price: Math.round(random() * 100_000) / 100,
  },
}));
const query = (i: number) => ({ match: { text: lexical.queries[i % lexical.queries.length] } });

/** Engine level: plain query phase vs query phase + aggregations (+ the coordinator's reduce and render). */
function engine(): { plain: LatencyStats; faceted: LatencyStats } {
  const index = new InProcessIndex(MAPPINGS);
  index.addSegment(docs);
  const aggNodes = parseAggregations(AGGS);
  const samples = { plain: [] as number[], faceted: [] as number[] };
  for (let i = -WARMUP; i < QUERIES; i++) {
    const exec = index.plan(query(Math.abs(i)));
    let start = performance.now();
    index.searchPlan(exec);
    if (i >= 0) samples.plain.push(performance.now() - start);
    start = performance.now();
    const aggs = planAggregations({
      mapping: index.resolved, defaultFields: ['*'], maxRegexLength: DEFAULT_MAX_REGEX_LENGTH, stats: new SegmentStatsSource(index.segments), now: 0, index: { name: 'harness', uuid: 'harness' },
    }, aggNodes);
    const result = index.searchPlan(exec, { aggs: { aggs, query: exec } });
    JSON.stringify(renderAggs(aggs, reduceAggs(aggs, [result.aggs!]), new BucketBudget()));
    if (i >= 0) samples.faceted.push(performance.now() - start);
  }
  return { plain: latencyStats(samples.plain), faceted: latencyStats(samples.faceted) };
}

async function http(): Promise<{ plain: LatencyStats; faceted: LatencyStats; otherCores: number }> {
  const server = await startThreadsearch();
  const call = jsonCaller(server.url);
  const post = (path: string, body: unknown) => call('POST', path, body);
  try {
    await loadOneSegmentIndex(server.url, 'facets', MAPPINGS, DOCS, (d) => docs[d]);
    const samples = { plain: [] as number[], faceted: [] as number[] };
    const probe = startCpuProbe({ pids: [server.pid] });
    for (let i = -WARMUP; i < QUERIES; i++) {
      let start = performance.now();
      await post('/facets/_search', { query: query(Math.abs(i)), size: 10 });
      if (i >= 0) samples.plain.push(performance.now() - start);
      start = performance.now();
      await post('/facets/_search', { query: query(Math.abs(i)), size: 10, aggs: AGGS });
      if (i >= 0) samples.faceted.push(performance.now() - start);
    }
    const cpu = probe.stop();
    return { plain: latencyStats(samples.plain), faceted: latencyStats(samples.faceted), otherCores: cpu.otherCores };
  } finally {
    await server.stop();
  }
}

const engineStats = engine();
console.log(`engine: plain p50 ${engineStats.plain.p50.toFixed(2)} ms, faceted p50 ${engineStats.faceted.p50.toFixed(2)} ms p99 ${engineStats.faceted.p99.toFixed(2)} ms`);
const httpStats = await http();
console.log(`http: plain p50 ${httpStats.plain.p50.toFixed(2)} ms, faceted p50 ${httpStats.faceted.p50.toFixed(2)} ms p99 ${httpStats.faceted.p99.toFixed(2)} ms`);
const result = { params: { docs: DOCS, queries: QUERIES, hits: 10, aggs: AGGS }, engine: engineStats, http: httpStats };
if (DOCS === 200_000) {
  writeResult('faceted-search', result);
  const f = (x: number) => formatNumber(x, 2);
  const row = (level: string, name: string, s: LatencyStats) => [level, name, f(s.p50), f(s.p90), f(s.p99), f(s.mean)];
  updateBenchmarksMd(
    'faceted-search',
    markdownTable(
      ['level', 'request', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
      [
        row('engine', 'match, 10 hits', engineStats.plain), row('engine', 'match, 10 hits + 3 terms + 1 range', engineStats.faceted),
        row('HTTP', 'match, 10 hits', httpStats.plain), row('HTTP', 'match, 10 hits + 3 terms + 1 range', httpStats.faceted),
      ],
      ['left', 'left', 'right', 'right', 'right', 'right'],
    ),
    `${formatNumber(DOCS, 0)} synthetic documents (BM25-corpus text; \`category\` 20, \`brand\` 500, \`color\` 12 keyword values; \`price\` double), one segment
(force-merged over HTTP), ${QUERIES} \`match\` queries from the corpus list, plain and faceted interleaved. Engine level: one shard's query phase plus the
aggregation pass over every matching doc, reduce and render, in one thread; HTTP: one server process (default threads), one client connection.
otherCores ${formatNumber(httpStats.otherCores, 2)}. Run: \`node dist/bench/faceted-search.js\`.`,
  );
}
