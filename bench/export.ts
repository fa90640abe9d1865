/**
 * Scenario: `threadsearch export` throughput to a second local threadsearch server, both child
 * processes on this machine, the export command a third (as a user runs it). Two document shapes:
 * short text documents (the BM25 corpus, ~30 tokens) and text + a `sparse_vector` of 60–180
 * tokens (the ELSER-like corpus), which is what an index with stored inference output holds. The
 * baseline in the same run is the target's own ingest ceiling for the same documents: `_bulk`
 * straight from the bench process (no reading, no checkpoint), same batch size and concurrency, so
 * export ÷ baseline is what reading through a PIT and checkpointing cost on top of writing.
 *
 *   node dist/bench/export.js [--docs 20000]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { distFile } from '../src/cli/paths.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { startThreadsearch, type ServerProcess } from '../src/cli/server-process.js';
import { generateSparseCorpus, sparseVectorObject } from './lib/sparse-corpus.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/export.js [--docs 20000]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 20_000);
/** batch size, concurrency */
const CASES: Array<[number, number]> = [[500, 1], [500, 2], [2000, 2]];

interface Shape {
  name: string;
  mappings: Record<string, unknown>;
  docs: Array<Record<string, unknown>>;
}

function shapes(): Shape[] {
  const texts = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs.map((d) => d.text);
  const sparse = generateSparseCorpus({ docs: DOCS, queries: 1 }).docs;
  return [
    { name: 'text (~30 tokens)', mappings: { properties: { text: { type: 'text' } } }, docs: texts.map((text) => ({ text })) },
    {
      name: 'text + sparse_vector (60–180 tokens)',
      mappings: { properties: { text: { type: 'text' }, emb: { type: 'sparse_vector' } } },
      docs: texts.map((text, i) => ({ text, emb: sparseVectorObject(sparse, i) })),
    },
  ];
}

async function call(url: string, method: string, path: string, body?: unknown, ndjson = false): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method, headers: body === undefined ? {} : { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json: any = await res.json();
  if (res.status >= 300 || json?.errors) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** `_bulk` of docs[from, to) with ids, into `index`. */
function bulkBody(index: string, docs: Shape['docs'], from: number, to: number): string {
  let nd = '';
  for (let i = from; i < to; i++) nd += `{"index":{"_index":"${index}","_id":"d${i}"}}\n${JSON.stringify(docs[i])}\n`;
  return nd;
}

/** The ingest ceiling: the same documents sent by this process, `concurrency` requests in flight. */
async function directBulk(url: string, index: string, docs: Shape['docs'], batch: number, concurrency: number): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < docs.length) {
      const from = next;
      next = Math.min(docs.length, next + batch);
      await call(url, 'POST', '/_bulk', bulkBody(index, docs, from, next), true);
    }
  }));
  await call(url, 'POST', `/${index}/_refresh`);
  return (performance.now() - t0) / 1000;
}

function runExport(args: string[]): Promise<{ seconds: number; stdout: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [distFile('main.js'), 'export', ...args], { maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`export failed: ${stderr}${stdout}`));
      else resolve({ seconds: (performance.now() - t0) / 1000, stdout });
    });
  });
}

interface Row {
  shape: string;
  docs: number;
  batch: number;
  concurrency: number;
  export_docs_per_s: number;
  export_seconds: number;
  copy_seconds: number;
  baseline_docs_per_s: number;
  ratio: number;
  otherCores: number;
}

const rows: Row[] = [];
const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
let source: ServerProcess | undefined;
let target: ServerProcess | undefined;
try {
  [source, target] = await Promise.all([startThreadsearch(), startThreadsearch()]);
  for (const shape of shapes()) {
    await call(source.url, 'PUT', '/src', { mappings: shape.mappings });
    for (let i = 0; i < shape.docs.length; i += 5000) await call(source.url, 'POST', '/_bulk', bulkBody('src', shape.docs, i, Math.min(shape.docs.length, i + 5000)), true);
    await call(source.url, 'POST', '/src/_refresh');
    for (const [batch, concurrency] of CASES) {
      await call(target.url, 'PUT', '/base', { mappings: shape.mappings });
      const baseSeconds = await directBulk(target.url, 'base', shape.docs, batch, concurrency);
      await call(target.url, 'DELETE', '/base');
      const probe = startCpuProbe({ pids: [source.pid, target.pid] });
      const run = await runExport(['--from', source.url, '--to', target.url, '--index', 'src', '--overwrite', '--batch-size', String(batch), '--concurrency', String(concurrency), '--checkpoint', join(dir, `${batch}-${concurrency}.json`)]);
      const cpu = probe.stop();
      const copy = /\[src\] [\d ,]+ documents copied in ([\d.]+) s .*count verified/.exec(run.stdout);
      if (!copy) throw new Error(`unexpected export output: ${run.stdout}`);
      const row: Row = {
        shape: shape.name, docs: DOCS, batch, concurrency,
        export_docs_per_s: DOCS / run.seconds, export_seconds: run.seconds, copy_seconds: Number(copy[1]),
        baseline_docs_per_s: DOCS / baseSeconds, ratio: baseSeconds / run.seconds, otherCores: cpu.otherCores,
      };
      rows.push(row);
      console.log(`${shape.name}, batch ${batch} × ${concurrency}: export ${formatNumber(row.export_docs_per_s)} docs/s (${run.seconds.toFixed(1)} s, copy ${row.copy_seconds} s), direct _bulk ${formatNumber(row.baseline_docs_per_s)} docs/s, ratio ${row.ratio.toFixed(2)} (otherCores ${cpu.otherCores.toFixed(2)})`);
      await call(target.url, 'DELETE', '/src');
    }
    await call(source.url, 'DELETE', '/src');
  }
} finally {
  await Promise.all([source?.stop(), target?.stop()]);
  rmSync(dir, { recursive: true, force: true });
}

writeResult('export', { params: { docs: DOCS, cases: CASES, cores: 2 }, rows, otherCores: Math.max(...rows.map((r) => r.otherCores)) });
updateBenchmarksMd(
  'export',
  markdownTable(
    ['documents', 'docs', 'batch × in flight', 'export docs/s', 'export s (whole command)', 'copy s', 'direct _bulk docs/s', 'export ÷ direct', 'otherCores'],
    rows.map((r) => [r.shape, formatNumber(r.docs), `${r.batch} × ${r.concurrency}`, formatNumber(r.export_docs_per_s), r.export_seconds.toFixed(1), r.copy_seconds.toFixed(1), formatNumber(r.baseline_docs_per_s), r.ratio.toFixed(2), r.otherCores.toFixed(2)]),
  ),
  `\`threadsearch export\` of one index between two local threadsearch servers (child processes, security off), the command itself a third process, all on the same **2 cores**. export docs/s counts the whole command (checks, index creation, PIT reads, \`_bulk\` writes, a checkpoint write per batch, refresh, count verification); copy s is the document copy alone. The baseline in the same run is \`_bulk\` of the same documents with the same batch size and requests in flight, sent straight from the bench process into the target (nothing read): export ÷ direct is the share of the target's ingest rate the export reaches. otherCores is CPU used outside the two servers (the export process included). Run: \`node dist/bench/export.js\`.`,
);
