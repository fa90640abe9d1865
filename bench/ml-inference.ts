/**
 * Scenario: ingest-style inference throughput of the built-in sparse encoder through `_infer`, for
 * number_of_allocations × threads_per_allocation in {1,2} × {1,2}. A threadsearch child process
 * (`--no-security`, one simulated 8-processor ML node so that 2 × 2 can be placed at all) serves
 * batches of documents (SciFact title + abstract when present, else the deterministic BM25
 * corpus), with as many batches in flight as allocations × 2 so every allocation stays busy.
 * Cases run interleaved in rounds; each reports its best round. Each case also times one 200-doc
 * request on the idle deployment (the threads of an allocation split it, so its latency should drop
 * with threads_per_allocation). Throughput is given as docs/s and
 * as a ratio to the 1 × 1 run, beside ELSER v2's published ~2.7 docs/s per single-thread
 * allocation (256-token documents). The machine has 2 cores, so 2 × 2 (4 threads) oversubscribes.
 *
 *   node dist/bench/ml-inference.js [--docs 600] [--batch 20] [--rounds 2]
 */
import { existsSync } from 'node:fs';
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { loadBeir } from './lib/relevance.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { startThreadsearch, type ServerProcess } from './lib/server-process.js';

const USAGE = 'node dist/bench/ml-inference.js [--docs 600] [--batch 20] [--rounds 2]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, batch: { type: 'string' }, rounds: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 600);
const BATCH = numberOption(USAGE, values.batch, 'batch', 20);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 2);
const SCIFACT = '/work/shared/data/beir/scifact';
const MODEL = '.sparse_model_2';
/** ELSER v2's published throughput per single-thread allocation on 256-token documents (docs/s). */
const ELSER_DOCS_PER_S = 2.7;
const CASES: Array<[number, number]> = [[1, 1], [1, 2], [2, 1], [2, 2]];

function corpus(): { name: string; texts: string[] } {
  if (existsSync(`${SCIFACT}/corpus.jsonl`)) {
    const beir = loadBeir(SCIFACT);
    const texts = [...beir.corpus.values()].slice(0, DOCS).map((d) => `${d.title} ${d.text}`.trim());
    return { name: 'SciFact (title + abstract)', texts };
  }
  return { name: 'deterministic BM25 corpus', texts: generateBm25Corpus({ docs: DOCS, queries: 1 }).docs.map((d) => d.text) };
}

async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 400)}`);
  return json;
}

/** Sends every batch with `concurrency` requests in flight; resolves with docs/s. */
async function run(server: ServerProcess, batches: string[][], concurrency: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const res = await call(server, 'POST', `/_ml/trained_models/${MODEL}/_infer`, { docs: batch.map((t) => ({ text_field: t })) });
      if (res.inference_results.length !== batch.length) throw new Error('short inference response');
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const docs = batches.reduce((a, b) => a + b.length, 0);
  return docs / ((performance.now() - t0) / 1000);
}

/** Latency of one large request on an idle deployment (threads per allocation split it): median of `times`. */
async function largeRequestMs(server: ServerProcess, texts: string[], times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await call(server, 'POST', `/_ml/trained_models/${MODEL}/_infer`, { docs: texts.map((t) => ({ text_field: t })) });
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)];
}

const LARGE_REQUEST = 200;
const data = corpus();
const batches: string[][] = [];
for (let i = 0; i < data.texts.length; i += BATCH) batches.push(data.texts.slice(i, i + BATCH));
const server = await startThreadsearch(['--ml-nodes', 'bench-ml:16gb:8']);
try {
  await call(server, 'PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
  // Truncation is measured on what the server reports: how many docs hit the 512-wordpiece cap.
  const results: Array<{ allocations: number; threads: number; docsPerS: number[]; otherCores: number[]; largeMs: number[] }> = CASES.map(([a, t]) => ({ allocations: a, threads: t, docsPerS: [], otherCores: [], largeMs: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of results) {
      await call(server, 'POST', `/_ml/trained_models/${MODEL}/deployment/_start?number_of_allocations=${c.allocations}&threads_per_allocation=${c.threads}&wait_for=fully_allocated&timeout=60s`);
      await run(server, batches.slice(0, 4), c.allocations * 2); // warm-up: JIT and caches
      const probe = startCpuProbe({ pids: [server.pid] });
      const rate = await run(server, batches, c.allocations * 2);
      const cpu = probe.stop();
      c.docsPerS.push(rate);
      c.otherCores.push(cpu.otherCores);
      c.largeMs.push(await largeRequestMs(server, data.texts.slice(0, LARGE_REQUEST), 5));
      console.log(`round ${round + 1}: ${c.allocations} allocation(s) × ${c.threads} thread(s): ${rate.toFixed(1)} docs/s (otherCores ${cpu.otherCores.toFixed(2)})`);
      await call(server, 'POST', `/_ml/trained_models/${MODEL}/deployment/_stop`);
    }
  }
  const stats = await call(server, 'GET', `/_ml/trained_models/${MODEL}/_stats`);
  const avgWords = data.texts.reduce((a, t) => a + t.split(/\s+/).length, 0) / data.texts.length;
  // The best round of each case, with the noise measured during that round.
  const best = results.map((c) => {
    const i = c.docsPerS.indexOf(Math.max(...c.docsPerS));
    return { ...c, best: c.docsPerS[i], otherCores: c.otherCores[i], rounds: c.docsPerS, largeMs: Math.min(...c.largeMs) };
  });
  const base = best[0].best;
  const rows = best.map((c) => ({
    case: `${c.allocations} × ${c.threads}`,
    number_of_allocations: c.allocations,
    threads_per_allocation: c.threads,
    threads: c.allocations * c.threads,
    docs_per_s: c.best,
    ratio_to_1x1: c.best / base,
    elser_docs_per_s: ELSER_DOCS_PER_S * c.allocations,
    per_allocation_vs_elser: c.best / c.allocations / ELSER_DOCS_PER_S,
    otherCores: c.otherCores,
    all_rounds_docs_per_s: c.rounds,
    large_request_ms: c.largeMs,
  }));
  writeResult('ml-inference', {
    params: { docs: data.texts.length, corpus: data.name, batch: BATCH, rounds: ROUNDS, avg_words_per_doc: avgWords, ml_nodes: 'bench-ml:16gb:8', cores: 2 },
    rows,
    model_size_bytes: stats.trained_model_stats[0].model_size_stats.model_size_bytes,
    otherCores: Math.max(...rows.map((r) => r.otherCores)),
  });
  updateBenchmarksMd(
    'ml-inference',
    markdownTable(
      ['allocations × threads', 'threads', 'docs/s (best round)', 'ratio to 1 × 1', `one ${LARGE_REQUEST}-doc request, ms`, 'ELSER v2 published docs/s', 'per allocation ÷ ELSER', 'otherCores'],
      rows.map((r) => [r.case, r.threads, formatNumber(r.docs_per_s), r.ratio_to_1x1.toFixed(2), formatNumber(r.large_request_ms), formatNumber(r.elser_docs_per_s), formatNumber(r.per_allocation_vs_elser), r.otherCores.toFixed(2)]),
    ),
    `Ingest-style inference through \`POST /_ml/trained_models/.sparse_model_2/_infer\`: ${formatNumber(data.texts.length)} ${data.name} documents (≈${Math.round(avgWords)} words each, cut at 512 wordpieces), ${BATCH} per request, allocations × 2 requests in flight, best of ${ROUNDS} interleaved rounds; server started with \`--no-security --ml-nodes bench-ml:16gb:8\` (the simulated node has 8 processors so every case can be placed; the machine has **2 cores**, so 2 × 2 = 4 inference threads oversubscribes it and 1 × 2 / 2 × 1 already use both cores, with the HTTP coordinator and this load generator sharing them). "ELSER v2 published" is Elastic's ~${ELSER_DOCS_PER_S} docs/s per single-thread allocation on 256-token documents, times the allocations — a reference point for a 110M-parameter transformer, not a like-for-like comparison with this distilled encoder. Run: \`node dist/bench/ml-inference.js\`.`,
  );
} finally {
  await server.stop();
}
