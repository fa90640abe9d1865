/**
 * `threadsearch eval <BEIR folder> --mode bm25|sparse|hybrid`: loads the corpus (or reuses an index
 * that already holds it), then asks the server's own `_rank_eval` for NDCG@10 (`dcg`, normalize),
 * Recall@100 (`recall`, k 100) and MRR@10 (`mean_reciprocal_rank`, k 10) over the judged queries —
 * one `_rank_eval` request per metric, as ES takes one metric per request. A server without
 * `_rank_eval` is reported as such (exit 1), not worked around.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { loadBeir, judgedQueries, type BeirDataset } from '../beir.js';
import { CliError, EXIT } from '../cli-error.js';
import { EsClient, errorText } from '../es-client.js';
import { bulkLoad } from '../load/bulk-loader.js';
import { lineChart } from '../report/charts.js';
import { formatNumber, markdownTable } from '../report/markdown-table.js';
import { checkReportDir, defaultReportDir, writeReport } from '../report/report-writer.js';

export const MODES = ['bm25', 'sparse', 'hybrid'] as const;
export type Mode = (typeof MODES)[number];

export interface EvalOptions {
  url: string;
  apiKey?: string;
  index?: string;
  mode: string;
  split: string;
  model: string;
  out?: string;
}

const METRICS = {
  'NDCG@10': { dcg: { k: 10, normalize: true } },
  'Recall@100': { recall: { k: 100, relevant_rating_threshold: 1 } },
  'MRR@10': { mean_reciprocal_rank: { k: 10, relevant_rating_threshold: 1 } },
} as const;

const PIPELINE = 'threadsearch-eval-encode';

function query(mode: Mode, text: string, model: string): Record<string, unknown> {
  const bm25 = { multi_match: { query: text, fields: ['title', 'text'] } };
  const sparse = { text_expansion: { text_embedding: { model_id: model, model_text: text } } };
  if (mode === 'bm25') return { query: bm25 };
  if (mode === 'sparse') return { query: sparse };
  return { retriever: { rrf: { retrievers: [{ standard: { query: bm25 } }, { standard: { query: sparse } }], rank_window_size: 100 } } };
}

/** Loads the corpus into `index` unless it already holds exactly the corpus's documents. */
async function ensureIndex(client: EsClient, index: string, data: BeirDataset, mode: Mode, model: string, log: (l: string) => void): Promise<void> {
  const count = await client.request<any>('GET', `/${encodeURIComponent(index)}/_count`, undefined, { allow: [404] });
  if (count.status === 200 && count.body.count === data.corpus.size) {
    // An index loaded for bm25 has no vectors: sparse queries over it would score every query 0.
    if (mode !== 'bm25' && !(await hasSparseField(client, index))) {
      throw new CliError(`index [${index}] has the corpus but no [text_embedding] sparse_vector field (it was loaded for bm25), so --mode ${mode} would score 0; pass another --index, or leave --index out`, EXIT.usage);
    }
    log(`reusing index [${index}] (${data.corpus.size} documents)`);
    return;
  }
  if (count.status === 200) throw new CliError(`index [${index}] exists with ${count.body.count} documents, not the corpus's ${data.corpus.size}; pass another --index`, EXIT.usage);
  const needsModel = mode !== 'bm25';
  if (needsModel) {
    await client.request('PUT', `/_ml/trained_models/${encodeURIComponent(model)}`, { input: { field_names: ['text_field'] } }, { allow: [400, 409] });
    // A deployment already started (by the demo, an earlier eval, a pipeline of yours) is used as
    // it is: ES answers that start with 400 "an existing deployment with the same id".
    const start = await client.request('POST', `/_ml/trained_models/${encodeURIComponent(model)}/deployment/_start?wait_for=fully_allocated&timeout=120s`, undefined, { allow: [400, 409] });
    if (start.status === 400 && !/existing deployment with the same id/.test(errorText(start.body))) {
      throw new CliError(`POST /_ml/trained_models/${model}/deployment/_start failed: 400 ${errorText(start.body)}`);
    }
    await client.request('PUT', `/_ingest/pipeline/${PIPELINE}`, { processors: [{ inference: { model_id: model, input_output: [{ input_field: 'text', output_field: 'text_embedding' }] } }] });
  }
  await client.request('PUT', `/${encodeURIComponent(index)}`, {
    mappings: { properties: { title: { type: 'text' }, text: { type: 'text' }, ...(needsModel ? { text_embedding: { type: 'sparse_vector' } } : {}) } },
  });
  log(`loading ${data.corpus.size} documents into [${index}]${needsModel ? ` through the ${model} inference pipeline` : ''}`);
  const docs = (async function* () {
    let line = 0;
    for (const [id, d] of data.corpus) yield { line: ++line, id, source: { title: d.title, text: d.text } };
  })();
  const r = await bulkLoad(client, docs, { index, pipeline: needsModel ? PIPELINE : undefined, batch: needsModel ? 100 : 1000, concurrency: 2, maxRetries: 8 });
  if (r.failed > 0) throw new CliError(`${r.failed} corpus documents were rejected: ${r.firstFailures.map((f) => `${f.id}: ${f.type}`).join('; ')}`);
  await client.request('POST', `/${encodeURIComponent(index)}/_refresh`);
}

/** Whether `index` maps `text_embedding` as the sparse_vector field eval's sparse queries read. */
async function hasSparseField(client: EsClient, index: string): Promise<boolean> {
  const { body } = await client.request<any>('GET', `/${encodeURIComponent(index)}/_mapping`);
  return Object.values(body ?? {}).some((m: any) => m?.mappings?.properties?.text_embedding?.type === 'sparse_vector');
}

/** Before loading anything: a server without `_rank_eval` cannot score, so say so at once. */
async function checkRankEval(client: EsClient): Promise<void> {
  const res = await client.request<any>('POST', '/_rank_eval', { requests: [], metric: METRICS['MRR@10'] }, { allow: [400, 404, 405] });
  const reason = errorText(res.body);
  if (res.status === 404 || res.status === 405 || /no handler found/.test(reason)) {
    throw new CliError(`server has no _rank_eval (${res.status} ${reason.slice(0, 120)}); eval computes its metrics with the server's own _rank_eval`);
  }
}

export async function runEval(dir: string, opts: EvalOptions): Promise<number> {
  if (!(MODES as readonly string[]).includes(opts.mode)) throw new CliError(`--mode must be one of ${MODES.join(', ')}, got [${opts.mode.slice(0, 20)}]`, EXIT.usage);
  const mode = opts.mode as Mode;
  for (const f of ['corpus.jsonl', 'queries.jsonl', `qrels/${opts.split}.tsv`]) {
    if (!existsSync(resolve(dir, f))) throw new CliError(`[${dir}] is not a BEIR dataset folder: it has no ${f}`, EXIT.usage);
  }
  const out = opts.out ?? defaultReportDir('eval');
  checkReportDir(out);
  let data: BeirDataset;
  try {
    data = loadBeir(dir, opts.split);
  } catch (e) {
    throw new CliError(`cannot read the BEIR dataset: ${(e as Error).message.slice(0, 200)}`, EXIT.usage);
  }
  const index = opts.index ?? `beir-${basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9_-]/g, '-')}${mode === 'bm25' ? '' : '-sparse'}`;
  const client = new EsClient(opts);
  const info = await client.info();
  const log = (l: string) => process.stderr.write(`${l}\n`);
  await checkRankEval(client);
  await ensureIndex(client, index, data, mode, opts.model, log);

  const queries = judgedQueries(data);
  const requests = queries.map((q) => ({
    id: q.id,
    request: query(mode, q.text, opts.model),
    ratings: [...data.qrels.get(q.id)!].map(([docId, rating]) => ({ _index: index, _id: docId, rating })),
  }));
  const results: Record<string, { score: number; per_query: Record<string, number> }> = {};
  for (const [name, metric] of Object.entries(METRICS)) {
    const res = await client.request<any>('POST', `/${encodeURIComponent(index)}/_rank_eval`, { requests, metric }, { allow: [400, 404, 405] });
    if (res.status !== 200) {
      const reason = errorText(res.body);
      throw new CliError(`_rank_eval (${name}) failed: ${res.status} ${reason}`);
    }
    const per: Record<string, number> = {};
    for (const [qid, d] of Object.entries((res.body.details ?? {}) as Record<string, any>)) per[qid] = Number(d.metric_score);
    results[name] = { score: Number(res.body.metric_score), per_query: per };
    const failures = Object.keys(res.body.failures ?? {});
    if (failures.length > 0) log(`${name}: ${failures.length} queries failed (first: ${failures[0]})`);
  }
  const table = markdownTable(['metric', 'score'], Object.entries(results).map(([m, r]) => [m, r.score.toFixed(4)]));
  const ndcg = Object.values(results['NDCG@10'].per_query).sort((a, b) => b - a);
  const files = await writeReport(out, {
    command: 'eval', title: `threadsearch eval: ${basename(resolve(dir))} (${mode})`,
    params: { dir, ...opts, apiKey: opts.apiKey ? '(set)' : undefined, index },
    server: { url: opts.url, version: info.version, index },
    results: { queries: queries.length, corpus: data.corpus.size, metrics: results },
    markdown: `BEIR dataset \`${dir}\` (${data.corpus.size} documents, ${queries.length} judged queries, split ${opts.split}), mode **${mode}**, scored by the server's \`_rank_eval\` (NDCG@10: \`dcg\` k 10 normalize; Recall@100: \`recall\` k 100; MRR@10: \`mean_reciprocal_rank\` k 10; relevant = rating ≥ 1).\n\n${table}`,
    charts: [lineChart({
      name: 'ndcg-per-query', title: 'NDCG@10 per query, best to worst',
      rows: ndcg.map((v, i) => ({ rank: i + 1, ndcg: v, mode })),
      x: { field: 'rank', title: 'query (sorted by NDCG@10)' }, y: { field: 'ndcg', title: 'NDCG@10' }, series: { field: 'mode', title: 'mode' },
    })],
  });
  process.stdout.write(`${table}\n\nreport: ${files.join(', ')}\n`);
  log(`${queries.length} queries; NDCG@10 ${formatNumber(results['NDCG@10'].score)}`);
  return EXIT.ok;
}
