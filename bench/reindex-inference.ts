/**
 * Scenario: the semantic ingest workflow's throughput — `_reindex` of a source index through an
 * ingest pipeline with the inference processor (`.sparse_model_2`) into a `sparse_vector` index,
 * for a SciFact-sized source (SciFact title + abstract when present, else the deterministic BM25
 * corpus) and a 100k-document source, with 1 and 2 model allocations (1 thread each). Reindex
 * sends each batch (`source.size`) to the deployment in one request, and one allocation serves one
 * request at a time, so the 2-allocation case runs `slices=2` (two batches in flight); the
 * 1-allocation case is shown with 1 and 2 slices. Each case reports docs/s (wall time of the whole
 * reindex, refresh excluded) and where the time went: inference (pipeline) versus indexing
 * (parse, mapping, translog fsync), summed over slices. In-process server (no HTTP hop: the task
 * runs on the coordinator either way); the machine has 2 cores, which the coordinator and the
 * inference threads share.
 *
 *   node dist/bench/reindex-inference.js [--large 100000] [--batch 500]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import { createApp, type App } from '../src/app.js';
import { defaultConfig } from '../src/config/config.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { loadBeir } from './lib/relevance.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/reindex-inference.js [--large 100000] [--batch 500]';
const { values } = benchArgs(USAGE, { options: { large: { type: 'string' }, batch: { type: 'string' } } });
const LARGE = numberOption(USAGE, values.large, 'large', 100_000);
const BATCH = numberOption(USAGE, values.batch, 'batch', 500);
const SCIFACT = '/work/shared/data/beir/scifact';
const MODEL = '.sparse_model_2';
const GB = 1024 ** 3;
/** allocations, slices */
const CASES: Array<[number, number]> = [[1, 1], [1, 2], [2, 2]];

interface Source {
  readonly name: string;
  readonly texts: readonly string[];
}

function sources(): Source[] {
  const out: Source[] = [];
  if (existsSync(`${SCIFACT}/corpus.jsonl`)) {
    const beir = loadBeir(SCIFACT);
    out.push({ name: `SciFact (${beir.corpus.size} title + abstract)`, texts: [...beir.corpus.values()].map((d) => `${d.title} ${d.text}`.trim()) });
  } else {
    out.push({ name: 'deterministic BM25 corpus (5,183 docs, SciFact-sized)', texts: generateBm25Corpus({ docs: 5183, queries: 1 }).docs.map((d) => d.text) });
  }
  out.push({ name: `deterministic BM25 corpus (${formatNumber(LARGE)} docs)`, texts: generateBm25Corpus({ docs: LARGE, queries: 1 }).docs.map((d) => d.text) });
  return out;
}

async function call(app: App, method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<any> {
  const res = await app.http.app.inject({ method: method as never, url, payload: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': contentType } });
  const json = res.body.length > 0 ? JSON.parse(res.body) : null;
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 400)}`);
  return json;
}

async function load(app: App, texts: readonly string[]): Promise<void> {
  for (let i = 0; i < texts.length; i += 5000) {
    let body = '';
    for (let j = i; j < Math.min(i + 5000, texts.length); j++) body += `{"index":{"_index":"src","_id":"${j}"}}\n${JSON.stringify({ content: texts[j] })}\n`;
    const res = await call(app, 'POST', '/_bulk', body, 'application/x-ndjson');
    if (res.errors) throw new Error('source load failed');
  }
  await call(app, 'POST', '/src/_refresh');
}

interface Row {
  readonly source: string;
  readonly docs: number;
  readonly allocations: number;
  readonly slices: number;
  readonly docs_per_s: number;
  readonly seconds: number;
  readonly inference_share: number;
  readonly indexing_share: number;
  readonly inference_ms: number;
  readonly indexing_ms: number;
  readonly otherCores: number;
}

async function runCase(source: Source, allocations: number, slices: number): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-reindex-'));
  const app = await createApp(defaultConfig({
    host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', securityEnabled: false, threads: 2,
    mlNodes: [{ name: 'bench-ml', memoryBytes: 16 * GB, allocatedProcessors: 2 }],
  }));
  try {
    await call(app, 'PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
    await call(app, 'POST', `/_ml/trained_models/${MODEL}/deployment/_start?number_of_allocations=${allocations}&threads_per_allocation=1&wait_for=fully_allocated&timeout=60s`);
    await load(app, source.texts);
    await call(app, 'PUT', '/dest', { settings: { 'index.refresh_interval': '-1' }, mappings: { properties: { content: { type: 'text' }, content_embedding: { type: 'sparse_vector' } } } });
    await call(app, 'PUT', '/_ingest/pipeline/elser', { processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: 'content', output_field: 'content_embedding' }] } }] });
    // Warm-up (JIT, model caches) on a throwaway destination.
    await call(app, 'POST', '/_reindex', { source: { index: 'src', size: BATCH }, dest: { index: 'warm', pipeline: 'elser' }, max_docs: Math.min(1000, source.texts.length) });
    app.byQueryTimings.ingestMs = 0;
    app.byQueryTimings.writeMs = 0;
    const probe = startCpuProbe();
    const t0 = performance.now();
    const res = await call(app, 'POST', `/_reindex?slices=${slices}`, { source: { index: 'src', size: BATCH }, dest: { index: 'dest', pipeline: 'elser' } });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = probe.stop();
    if (res.failures.length > 0 || res.created !== source.texts.length) throw new Error(`reindex incomplete: ${JSON.stringify(res).slice(0, 400)}`);
    const { ingestMs, writeMs } = app.byQueryTimings;
    const row: Row = {
      source: source.name, docs: source.texts.length, allocations, slices, docs_per_s: source.texts.length / seconds, seconds,
      inference_share: ingestMs / (ingestMs + writeMs), indexing_share: writeMs / (ingestMs + writeMs), inference_ms: ingestMs, indexing_ms: writeMs,
      otherCores: cpu.otherCores,
    };
    console.log(`${source.name}: ${allocations} allocation(s), slices=${slices}: ${row.docs_per_s.toFixed(1)} docs/s in ${seconds.toFixed(1)} s; inference ${(row.inference_share * 100).toFixed(0)}% / indexing ${(row.indexing_share * 100).toFixed(0)}% (otherCores ${cpu.otherCores.toFixed(2)})`);
    return row;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const source of sources()) {
  for (const [allocations, slices] of CASES) rows.push(await runCase(source, allocations, slices));
}
writeResult('reindex-inference', { params: { batch: BATCH, large: LARGE, cases: CASES, cores: 2 }, rows, otherCores: Math.max(...rows.map((r) => r.otherCores)) });
updateBenchmarksMd(
  'reindex-inference',
  markdownTable(
    ['source', 'docs', 'allocations', 'slices', 'docs/s', 'seconds', 'inference', 'indexing', 'otherCores'],
    rows.map((r) => [r.source, formatNumber(r.docs), r.allocations, r.slices, formatNumber(r.docs_per_s), formatNumber(r.seconds), `${(r.inference_share * 100).toFixed(0)}%`, `${(r.indexing_share * 100).toFixed(0)}%`, r.otherCores.toFixed(2)]),
  ),
  `\`_reindex\` from a source index through an ingest pipeline with the inference processor (\`.sparse_model_2\`, input_output content → content_embedding) into a \`sparse_vector\` index, batches of ${BATCH} (one model request per batch), one thread per allocation on a simulated 2-processor ML node; the machine has **2 cores**, shared by the coordinator (parsing, mapping, translog fsync) and the inference threads. docs/s is over the whole reindex (refresh excluded); "inference" / "indexing" split the time summed over slices between the pipeline and the writes. With one allocation, one request runs at a time, so a second slice only overlaps indexing with inference. Run: \`node dist/bench/reindex-inference.js\`.`,
);
