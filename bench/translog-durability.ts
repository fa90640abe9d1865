/**
 * Scenario: write throughput with `index.translog.durability: request` (the default: every write
 * fsynced, group-committed, before its response) against `async` (fsync every 5 s; a crash can
 * lose the last interval's acknowledged writes). Three write shapes, because the fsync cost is per
 * request: large bulks (5,000 docs, 2 in flight), small bulks (10 docs, 32 in flight) and
 * single-document PUTs (32 in flight). Each case runs on a fresh server; the cases alternate
 * request/async so drift on a shared machine hits both. The figure that matters is the ratio.
 *
 *   node dist/bench/translog-durability.js [--docs 100000]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus, type BenchDoc } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, startThreadsearch } from './lib/server-process.js';

const USAGE = 'node dist/bench/translog-durability.js [--docs 100000]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 100_000);
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });

type Durability = 'request' | 'async';

interface Shape {
  readonly name: string;
  /** Docs this shape writes (single PUTs are slower; they write a slice). */
  readonly docs: number;
  run(url: string, docs: readonly BenchDoc[]): Promise<void>;
}

async function singleDocs(url: string, docs: readonly BenchDoc[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const d = docs[next++];
      const res = await fetch(`${url}/bench/_doc/${d.id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: d.text }) });
      if (res.status >= 300) throw new Error(`PUT failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const SHAPES: Shape[] = [
  { name: '_bulk of 5,000 docs, 2 in flight', docs: DOCS, run: (url, docs) => bulkLoad(url, bulkBodies('bench', docs, 5000), 2) },
  { name: '_bulk of 10 docs, 32 in flight', docs: Math.min(DOCS, 40_000), run: (url, docs) => bulkLoad(url, bulkBodies('bench', docs, 10), 32) },
  { name: 'single-doc PUT, 32 in flight', docs: Math.min(DOCS, 10_000), run: (url, docs) => singleDocs(url, docs, 32) },
];

interface Row {
  shape: string;
  durability: Durability;
  docs: number;
  seconds: number;
  docs_per_s: number;
  otherCores: number;
}

async function measure(shape: Shape, durability: Durability): Promise<Row> {
  const server = await startThreadsearch();
  try {
    const settings = { 'index.translog.durability': durability, refresh_interval: '1s' };
    await fetch(`${server.url}/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ settings, mappings: { properties: { text: { type: 'text' } } } }) });
    const docs = corpus.docs.slice(0, shape.docs);
    const probe = startCpuProbe({ pids: [server.pid] });
    const t0 = performance.now();
    await shape.run(server.url, docs);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = probe.stop();
    await fetch(`${server.url}/bench/_refresh`, { method: 'POST' });
    const count = (await (await fetch(`${server.url}/bench/_count`)).json()) as { count: number };
    if (count.count !== docs.length) throw new Error(`expected ${docs.length} docs, found ${count.count}`);
    const row = { shape: shape.name, durability, docs: docs.length, seconds, docs_per_s: docs.length / seconds, otherCores: cpu.otherCores };
    console.log(`${shape.name}, ${durability}: ${Math.round(row.docs_per_s)} docs/s (${docs.length} docs in ${seconds.toFixed(2)} s), otherCores ${cpu.otherCores.toFixed(2)}`);
    return row;
  } finally {
    await server.stop();
  }
}

const rows: Row[] = [];
for (const shape of SHAPES) {
  for (const durability of ['request', 'async', 'request', 'async'] as const) rows.push(await measure(shape, durability));
}

/** Per shape: the best of the two runs of each durability, and async ÷ request. */
const summary = SHAPES.map((shape) => {
  const best = (d: Durability) => Math.max(...rows.filter((r) => r.shape === shape.name && r.durability === d).map((r) => r.docs_per_s));
  const request = best('request');
  const async_ = best('async');
  return { shape: shape.name, request_docs_per_s: request, async_docs_per_s: async_, async_over_request: async_ / request };
});
for (const s of summary) console.log(`${s.shape}: request ${Math.round(s.request_docs_per_s)} docs/s, async ${Math.round(s.async_docs_per_s)} docs/s, async/request ${s.async_over_request.toFixed(2)}×`);

if (DOCS === 100_000) {
  writeResult('translog-durability', { params: { docs: DOCS }, summary, runs: rows });
  updateBenchmarksMd(
    'translog-durability',
    markdownTable(
      ['write shape', 'request durability docs/s', 'async durability docs/s', 'async ÷ request'],
      summary.map((s) => [s.shape, Math.round(s.request_docs_per_s), Math.round(s.async_docs_per_s), formatNumber(s.async_over_request)]),
    ),
    `Durable (\`index.translog.durability: request\`, the default: fsync before each response, shared by concurrent requests) against \`async\` (fsync every 5 s). Synthetic short docs, one text field, refresh every second; the load generator runs in the bench process on the same 2 cores. Best of two alternating runs per cell; each run is a fresh server. Run: \`node dist/bench/translog-durability.js\`.`,
  );
}
