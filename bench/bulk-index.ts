/**
 * Scenario (c): bulk indexing throughput over HTTP: the 200k short synthetic docs (30 tokens on
 * average) sent as `_bulk` requests of 5,000 docs with two requests in flight, timed until a final
 * `_refresh` has made every document searchable. Default settings (refresh every second) and with
 * `refresh_interval: -1` (one refresh at the end). Target ≥ 30k docs/s.
 *
 *   node dist/bench/bulk-index.js [--docs 200000]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startThreadsearch } from './lib/server-process.js';

const USAGE = 'node dist/bench/bulk-index.js [--docs 200000]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });
const bodies = bulkBodies('bulk', corpus.docs, 5000);

const rows: Array<Record<string, number | string>> = [];
for (const [name, settings] of [['refresh every 1 s (default)', {}], ['refresh_interval: -1, refresh at the end', { refresh_interval: '-1' }]] as const) {
  const server = await startThreadsearch();
  try {
    await fetch(`${server.url}/bulk`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ settings, mappings: { properties: { text: { type: 'text' } } } }) });
    const probe = startCpuProbe({ pids: [server.pid] });
    const t0 = performance.now();
    await bulkLoad(server.url, bodies, 2);
    const t1 = performance.now();
    await fetch(`${server.url}/bulk/_refresh`, { method: 'POST' });
    const t2 = performance.now();
    const cpu = probe.stop();
    const count = (await (await fetch(`${server.url}/bulk/_count`)).json()) as { count: number };
    if (count.count !== DOCS) throw new Error(`expected ${DOCS} docs, found ${count.count}`);
    const rssMb = Number((await import('node:child_process')).execSync(`ps -o rss= -p ${server.pid}`).toString()) / 1024;
    const row = {
      case: name, docs: DOCS, ingest_s: (t1 - t0) / 1000, refresh_s: (t2 - t1) / 1000, docs_per_s: DOCS / ((t2 - t0) / 1000),
      ingest_docs_per_s: DOCS / ((t1 - t0) / 1000), server_rss_mb: rssMb, otherCores: cpu.otherCores,
    };
    rows.push(row);
    console.log(`${name}: ${Math.round(row.docs_per_s)} docs/s end to end (ingest ${Math.round(row.ingest_docs_per_s)} docs/s, final refresh ${row.refresh_s.toFixed(2)} s), RSS ${Math.round(rssMb)} MB, otherCores ${cpu.otherCores.toFixed(2)}`);
  } finally {
    await server.stop();
  }
}
if (DOCS === 200_000) {
  writeResult('bulk-index', { params: { docs: DOCS, batch: 5000, concurrency: 2 }, cases: rows });
  updateBenchmarksMd(
    'bulk-index',
    markdownTable(
      ['case', 'docs/s (until searchable)', 'ingest docs/s', 'final refresh s', 'server RSS MB', 'otherCores'],
      rows.map((r) => [r.case, Math.round(r.docs_per_s as number), Math.round(r.ingest_docs_per_s as number), formatNumber(r.refresh_s as number), Math.round(r.server_rss_mb as number), (r.otherCores as number).toFixed(2)]),
    ),
    `200k short docs (≈30 tokens, ≈234 bytes) over HTTP \`_bulk\`, 5,000 docs per request, 2 requests in flight, one text field; timed until \`_refresh\` returns and \`_count\` confirms every doc. The load generator runs in the bench process on the same 2 cores. Target ≥ 30k docs/s. Run: \`node dist/bench/bulk-index.js\`.`,
  );
}
