/**
 * Scenario: autocomplete as Elastic's Search UI connector asks for it (search-ui-connector.md §4),
 * over 200k product-like titles: the results request (`multi_match` `bool_prefix` over a
 * `search_as_you_type` field and its `._2gram`/`._3gram` subfields, 5 hits, `_source` includes and a
 * title highlight) and the suggestions request (completion suggester, size 5, skip_duplicates,
 * fuzziness 1). Typed prefixes come from the titles themselves: a first word and the start of the
 * second, or the start of a first word.
 *
 * Engine level: each request's query phase (plus the suggester's) on one segment in this thread
 * (test/support/engine-harness.ts), no fetch or highlight. HTTP: one server process (default threads),
 * one client; each query's two requests are sent in parallel, as the connector does, and the pair's
 * time is what the user waits for.
 *
 *   npm run build && node dist/bench/autocomplete.js [--docs 200000] [--queries 300]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { parseSuggest } from '../src/dsl/index.js';
import { planCompletion } from '../src/search/index.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { InProcessIndex } from '../test/support/engine-harness.js';
import { latencyStats, startCpuProbe, type LatencyStats } from '../src/cli/report/machine.js';
import { mulberry32 } from '../src/common/prng.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { jsonCaller, loadOneSegmentIndex, startThreadsearch } from './lib/server-process.js';

const USAGE = 'node dist/bench/autocomplete.js [--docs 200000] [--queries 300]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, queries: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 300);
const WARMUP = 30;

const MAPPINGS = { properties: { title: { type: 'search_as_you_type' }, url: { type: 'keyword' }, suggest: { type: 'completion' } } };

const corpus = generateBm25Corpus({ docs: DOCS });
const random = mulberry32(0xa070);
const docs = corpus.docs.map((d, i) => {
  const words = d.text.split(' ');
  const title = words.slice(0, 3 + Math.floor(random() * 5)).join(' ');
  return { id: d.id, source: { title, url: `/p/${i}`, suggest: { input: title, weight: 1 + Math.floor(random() * 100) } } };
});
/** What a user has typed so far: "word1 wo" (two thirds of the time) or "wor". */
const prefixes = Array.from({ length: QUERIES }, () => {
  const words = docs[Math.floor(random() * DOCS)].source.title.split(' ');
  const cut = (w: string) => w.slice(0, Math.max(1, Math.min(w.length, 2 + Math.floor(random() * 3))));
  return random() < 2 / 3 && words.length > 1 ? `${words[0]} ${cut(words[1])}` : cut(words[0]);
});

const resultsQuery = (prefix: string) => ({ bool: { must: [{ multi_match: { query: prefix, type: 'bool_prefix', fields: ['title^3', 'title._2gram', 'title._3gram'] } }] } });
const resultsBody = (prefix: string) => ({ size: 5, _source: { includes: ['title', 'url'] }, highlight: { fields: { title: {} } }, query: resultsQuery(prefix) });
const suggestJson = (prefix: string) => ({ suggest: { prefix, completion: { size: 5, skip_duplicates: true, field: 'suggest', fuzzy: { fuzziness: 1 } } } });
const suggestBody = (prefix: string) => ({ size: 0, _source: { includes: [] }, suggest: suggestJson(prefix) });

interface Stats { results: LatencyStats; suggestions: LatencyStats; both: LatencyStats }

function engine(): Stats {
  const index = new InProcessIndex(MAPPINGS);
  index.addSegment(docs);
  const samples = { results: [] as number[], suggestions: [] as number[], both: [] as number[] };
  for (let i = -WARMUP; i < QUERIES; i++) {
    const prefix = prefixes[Math.abs(i) % QUERIES];
    let start = performance.now();
    index.searchPlan(index.plan(resultsQuery(prefix)), { k: 5 });
    const results = performance.now() - start;
    start = performance.now();
    const node = parseSuggest(suggestJson(prefix));
    const plans = node.suggestions.map((s) => planCompletion(index.resolved, s, node.globalText));
    index.searchPlan(index.plan(null), { k: 0, trackTotalHitsUpTo: -1, suggest: plans });
    const suggestions = performance.now() - start;
    if (i < 0) continue;
    samples.results.push(results);
    samples.suggestions.push(suggestions);
    samples.both.push(results + suggestions);
  }
  return { results: latencyStats(samples.results), suggestions: latencyStats(samples.suggestions), both: latencyStats(samples.both) };
}

async function http(): Promise<Stats & { otherCores: number; hitsPerQuery: number; optionsPerQuery: number }> {
  const server = await startThreadsearch();
  const call = jsonCaller(server.url);
  const post = (path: string, body: unknown) => call('POST', path, body);
  try {
    await loadOneSegmentIndex(server.url, 'products', MAPPINGS, DOCS, (d) => docs[d]);
    const samples = { results: [] as number[], suggestions: [] as number[], both: [] as number[] };
    let hits = 0;
    let options = 0;
    const probe = startCpuProbe({ pids: [server.pid] });
    for (let i = -WARMUP; i < QUERIES; i++) {
      const prefix = prefixes[Math.abs(i) % QUERIES];
      const start = performance.now();
      let resultsMs = 0;
      let suggestMs = 0;
      const [r, s] = await Promise.all([
        post('/products/_search', resultsBody(prefix)).then((x) => ((resultsMs = performance.now() - start), x)),
        post('/products/_search', suggestBody(prefix)).then((x) => ((suggestMs = performance.now() - start), x)),
      ]);
      const both = performance.now() - start;
      if (i < 0) continue;
      samples.results.push(resultsMs);
      samples.suggestions.push(suggestMs);
      samples.both.push(both);
      hits += r.hits.hits.length;
      options += s.suggest.suggest[0].options.length;
    }
    const cpu = probe.stop();
    return {
      results: latencyStats(samples.results), suggestions: latencyStats(samples.suggestions), both: latencyStats(samples.both),
      otherCores: cpu.otherCores, hitsPerQuery: hits / QUERIES, optionsPerQuery: options / QUERIES,
    };
  } finally {
    await server.stop();
  }
}

const engineStats = engine();
console.log(`engine: results p50 ${engineStats.results.p50.toFixed(2)} ms, suggestions p50 ${engineStats.suggestions.p50.toFixed(2)} ms`);
const httpStats = await http();
console.log(`http: pair p50 ${httpStats.both.p50.toFixed(2)} ms p99 ${httpStats.both.p99.toFixed(2)} ms; ${httpStats.hitsPerQuery.toFixed(1)} hits, ${httpStats.optionsPerQuery.toFixed(1)} options per query`);

const result = { params: { docs: DOCS, queries: QUERIES, sampleQueries: prefixes.slice(0, 5) }, engine: engineStats, http: httpStats };
if (DOCS === 200_000 && QUERIES === 300) {
  writeResult('autocomplete', result);
  const f = (x: number) => formatNumber(x, 2);
  const row = (level: string, name: string, s: LatencyStats) => [level, name, f(s.p50), f(s.p90), f(s.p99), f(s.mean)];
  updateBenchmarksMd(
    'autocomplete',
    markdownTable(
      ['level', 'request', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
      [
        row('engine', 'results: bool_prefix over title, ._2gram, ._3gram, 5 hits', engineStats.results),
        row('engine', 'suggestions: completion, size 5, fuzzy 1', engineStats.suggestions),
        row('engine', 'both, one after the other', engineStats.both),
        row('HTTP', 'results (+ _source includes, highlight)', httpStats.results),
        row('HTTP', 'suggestions', httpStats.suggestions),
        row('HTTP', 'both, sent in parallel (what the user waits for)', httpStats.both),
      ],
      ['left', 'left', 'right', 'right', 'right', 'right'],
    ),
    `${formatNumber(DOCS, 0)} product-like titles (3–7 words of the BM25 corpus) in a \`search_as_you_type\` field and a \`completion\` field (weights 1–100), one segment;
${QUERIES} typed prefixes ("word1 wo" or "wor"; e.g. ${prefixes.slice(0, 3).map((p) => `\`${p}\``).join(', ')}), the connector's two requests (search-ui-connector.md §4.1, §4.2).
Engine: query phase / suggester on one shard in one thread (no fetch, no highlight). HTTP: one server process (default threads), one client,
the two requests in parallel; ${formatNumber(httpStats.hitsPerQuery, 1)} hits and ${formatNumber(httpStats.optionsPerQuery, 1)} suggestions per query.
otherCores ${formatNumber(httpStats.otherCores, 2)}. Run: \`node dist/bench/autocomplete.js\`.`,
  );
}
