/**
 * Scenario: what an ELSER-class transformer costs on this machine, through the simulation mode
 * (`simulate: bert-base` on `_start` of `.sparse_model_2`: every inference also runs a BERT-base
 * graph — 12 layers, hidden 768, 12 heads, intermediate 3072, MLM head over 30,522 tokens, random
 * weights generated locally — in onnxruntime-node with threads_per_allocation intra-op threads).
 *
 * 1. `_infer` docs/s at exactly 128, 256 and 512 wordpieces per document, for 1 × 1, 1 × 2 and 2 × 1
 *    allocations × threads, beside the built-in model alone on the same documents and Elastic's
 *    published ELSER v2 figure (~2.7 docs/s per single-thread allocation at 256 tokens, 16 vCPU).
 *    Requests of BATCH documents, `allocations` requests in flight.
 * 2. `_reindex` through an inference pipeline into a `sparse_vector` index, simulated and not, on
 *    SciFact (title + abstract) documents when present, else the deterministic corpus.
 *
 * In-process server; the BERT-base graph is generated once into the run's data directory (~20 s)
 * and loaded per allocation (~1 min on a busy 2-core machine). Needs onnxruntime-node.
 *
 *   node dist/bench/bert-simulation.js [--docs 8] [--reindex-docs 12]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import { createApp, type App } from '../src/app.js';
import { defaultConfig } from '../src/config/config.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { loadSparseModel, tokenize } from '../src/ml/index.js';
import { loadBeir } from './lib/relevance.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/bert-simulation.js [--docs 8] [--reindex-docs 12]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, 'reindex-docs': { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 8);
const REINDEX_DOCS = numberOption(USAGE, values['reindex-docs'], 'reindex-docs', 12);
const BATCH = 2;
/** Documents per built-in measurement: it is ~1,000× faster, so a few would time only overheads. */
const BUILT_IN_DOCS = 200;
const LENGTHS = [128, 256, 512];
/** allocations × threads_per_allocation */
const CONFIGS: Array<[number, number]> = [[1, 1], [1, 2], [2, 1]];
const ELSER_V2_PER_ALLOCATION = 2.7;
const MODEL = '.sparse_model_2';
const SCIFACT = '/work/shared/data/beir/scifact';
const GB = 1024 ** 3;

async function call(app: App, method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<any> {
  const res = await app.http.app.inject({ method: method as never, url, payload: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': contentType } });
  const json = res.body.length > 0 ? JSON.parse(res.body) : null;
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 400)}`);
  return json;
}

/** A document of exactly `positions` wordpieces with [CLS] and [SEP] (every word one piece). */
function documentOf(positions: number, seed: number): string {
  const words = ['search', 'engine', 'model', 'query', 'water', 'river', 'bank', 'money', 'heart', 'attack', 'green', 'tree', 'fast', 'car', 'data', 'fish'];
  const text = Array.from({ length: positions - 2 }, (_, i) => words[(i * 7 + seed) % words.length]).join(' ');
  const pieces = tokenize(loadSparseModel().vocab, text).pieceCount;
  if (pieces !== positions - 2) throw new Error(`document of ${pieces} pieces, wanted ${positions - 2}`);
  return text;
}

interface InferRow {
  readonly tokens: number;
  readonly allocations: number;
  readonly threads: number;
  readonly simulated_docs_per_s: number;
  readonly built_in_docs_per_s: number;
  readonly elser_v2_published: number | null;
  readonly ms_per_doc_per_allocation: number;
  readonly otherCores: number;
}

interface ReindexRow {
  readonly mode: string;
  readonly allocations: number;
  readonly docs: number;
  readonly docs_per_s: number;
  readonly seconds: number;
  readonly otherCores: number;
}

/** Docs/s of `_infer` over `docs`, BATCH per request, `inFlight` requests at a time. */
async function inferRate(app: App, id: string, docs: readonly string[], inFlight: number): Promise<{ rate: number; otherCores: number }> {
  const batches: string[][] = [];
  for (let i = 0; i < docs.length; i += BATCH) batches.push(docs.slice(i, i + BATCH) as string[]);
  const probe = startCpuProbe();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < batches.length) {
      const b = batches[next++];
      await call(app, 'POST', `/_ml/trained_models/${id}/_infer?timeout=1h`, { docs: b.map((text_field) => ({ text_field })) });
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  return { rate: docs.length / seconds, otherCores: probe.stop().otherCores };
}

function reindexTexts(): { name: string; texts: string[] } {
  if (existsSync(`${SCIFACT}/corpus.jsonl`)) {
    const beir = loadBeir(SCIFACT);
    return { name: 'SciFact title + abstract', texts: [...beir.corpus.values()].slice(0, REINDEX_DOCS).map((d) => `${d.title} ${d.text}`.trim()) };
  }
  return { name: 'deterministic BM25 corpus', texts: generateBm25Corpus({ docs: REINDEX_DOCS, queries: 1 }).docs.map((d) => d.text) };
}

async function reindexRate(app: App, deployment: string, mode: string, allocations: number, texts: readonly string[]): Promise<ReindexRow> {
  const dest = `dest-${deployment}`;
  await call(app, 'PUT', `/${dest}`, { mappings: { properties: { content: { type: 'text' }, emb: { type: 'sparse_vector' } } } });
  await call(app, 'PUT', `/_ingest/pipeline/p-${deployment}`, { processors: [{ inference: { model_id: deployment, input_output: [{ input_field: 'content', output_field: 'emb' }] } }] });
  const probe = startCpuProbe();
  const t0 = performance.now();
  const res = await call(app, 'POST', `/_reindex?slices=${allocations}`, { source: { index: 'src', size: BATCH }, dest: { index: dest, pipeline: `p-${deployment}` } });
  const seconds = (performance.now() - t0) / 1000;
  if (res.failures.length > 0 || res.created !== texts.length) throw new Error(`reindex incomplete: ${JSON.stringify(res).slice(0, 400)}`);
  const row = { mode, allocations, docs: texts.length, docs_per_s: texts.length / seconds, seconds, otherCores: probe.stop().otherCores };
  console.log(`reindex ${mode} ${allocations} allocation(s): ${row.docs_per_s.toFixed(2)} docs/s (${seconds.toFixed(1)} s, otherCores ${row.otherCores.toFixed(2)})`);
  return row;
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-bert-sim-'));
const app = await createApp(defaultConfig({
  host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', securityEnabled: false, threads: 1,
  mlNodes: [{ name: 'bench-ml', memoryBytes: 32 * GB, allocatedProcessors: 4 }],
}));
const inferRows: InferRow[] = [];
const reindexRows: ReindexRow[] = [];
try {
  await call(app, 'PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
  const corpus = new Map(LENGTHS.map((n) => [n, Array.from({ length: DOCS }, (_, i) => documentOf(n, i))]));
  const { name: sourceName, texts } = reindexTexts();
  let body = '';
  texts.forEach((content, i) => (body += `{"index":{"_index":"src","_id":"${i}"}}\n${JSON.stringify({ content })}\n`));
  await call(app, 'POST', '/_bulk?refresh=true', body, 'application/x-ndjson');

  for (const [allocations, threads] of CONFIGS) {
    const plain = `plain-${allocations}x${threads}`;
    const sim = `sim-${allocations}x${threads}`;
    await call(app, 'POST', `/_ml/trained_models/${MODEL}/deployment/_start?deployment_id=${plain}&number_of_allocations=${allocations}&threads_per_allocation=${threads}&wait_for=fully_allocated`);
    const t0 = performance.now();
    await call(app, 'POST', `/_ml/trained_models/${MODEL}/deployment/_start?deployment_id=${sim}&number_of_allocations=${allocations}&threads_per_allocation=${threads}&wait_for=fully_allocated&timeout=1h&simulate=bert-base`);
    console.log(`${sim}: started in ${((performance.now() - t0) / 1000).toFixed(0)} s (graph generation on first use + load per allocation)`);
    for (const n of LENGTHS) {
      const docs = corpus.get(n)!;
      await inferRate(app, sim, docs.slice(0, allocations), allocations); // warm-up: one run per allocation
      const simulated = await inferRate(app, sim, docs, allocations);
      const builtInDocs = Array.from({ length: BUILT_IN_DOCS }, (_, i) => documentOf(n, i));
      await inferRate(app, plain, builtInDocs.slice(0, 20), allocations);
      const builtIn = await inferRate(app, plain, builtInDocs, allocations);
      const row: InferRow = {
        tokens: n, allocations, threads, simulated_docs_per_s: simulated.rate, built_in_docs_per_s: builtIn.rate,
        elser_v2_published: n === 256 ? ELSER_V2_PER_ALLOCATION * allocations : null, ms_per_doc_per_allocation: (1000 * allocations) / simulated.rate,
        otherCores: simulated.otherCores,
      };
      inferRows.push(row);
      console.log(`${n} tokens ${allocations}×${threads}: simulated ${row.simulated_docs_per_s.toFixed(2)} docs/s, built-in ${row.built_in_docs_per_s.toFixed(0)} docs/s (otherCores ${row.otherCores.toFixed(2)})`);
    }
    if (threads === 1) {
      reindexRows.push(await reindexRate(app, sim, 'simulated bert-base', allocations, texts));
      reindexRows.push(await reindexRate(app, plain, 'built-in', allocations, texts));
    }
    await call(app, 'POST', `/_ml/trained_models/${plain}/deployment/_stop`);
    await call(app, 'POST', `/_ml/trained_models/${sim}/deployment/_stop`);
  }
  const otherCores = Math.max(...inferRows.map((r) => r.otherCores), ...reindexRows.map((r) => r.otherCores));
  writeResult('bert-simulation', { params: { docs: DOCS, batch: BATCH, lengths: LENGTHS, configs: CONFIGS, reindexDocs: REINDEX_DOCS, reindexSource: sourceName, cores: 2 }, inferRows, reindexRows, otherCores });
  updateBenchmarksMd(
    'bert-simulation',
    [
      markdownTable(
        ['tokens', 'allocations × threads', 'BERT-base (simulated) docs/s', 'ms per doc per allocation', 'ELSER v2 published docs/s', 'built-in model docs/s', 'otherCores'],
        inferRows.map((r) => [r.tokens, `${r.allocations} × ${r.threads}`, r.simulated_docs_per_s.toFixed(2), formatNumber(r.ms_per_doc_per_allocation), r.elser_v2_published?.toFixed(1) ?? '–', formatNumber(r.built_in_docs_per_s), r.otherCores.toFixed(2)]),
      ),
      '',
      `\`_reindex\` of ${REINDEX_DOCS} ${sourceName} documents through an inference pipeline into a \`sparse_vector\` index (batches of ${BATCH}, slices = allocations):`,
      '',
      markdownTable(
        ['deployment', 'allocations', 'docs', 'docs/s', 'seconds', 'otherCores'],
        reindexRows.map((r) => [r.mode, r.allocations, r.docs, r.docs_per_s.toFixed(2), formatNumber(r.seconds), r.otherCores.toFixed(2)]),
      ),
    ].join('\n'),
    `The simulation mode's cost model: \`POST _ml/trained_models/.sparse_model_2/deployment/_start?simulate=bert-base\` runs a BERT-base-shaped graph (12 layers, hidden 768, 12 heads, intermediate 3072, MLM head over 30,522 tokens, ~110M random fp32 weights generated locally) in onnxruntime-node beside the built-in encoder, with threads_per_allocation intra-op threads. \`_infer\` of ${DOCS} documents of exactly N wordpieces per configuration, ${BATCH} per request, \`allocations\` requests in flight, after one warm-up request per allocation; the built-in model alone on ${BUILT_IN_DOCS} documents of the same length in the same run (after a warm-up). "ELSER v2 published" is Elastic's ~${ELSER_V2_PER_ALLOCATION} docs/s per single-thread allocation on 256-token documents on a 16-vCPU machine (performance.md §5.2), times the allocations. The machine has **2 cores** and was **shared with other jobs** during the run (otherCores = cores other processes used): the simulated figures are this loaded machine's, lower than a quiet one's. Run: \`node dist/bench/bert-simulation.js\`.`,
  );
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
