/**
 * Hybrid search relevance on BEIR SciFact (test split, 300 queries), end to end through a server
 * process as a client would do it: deploy `.sparse_model_2`, encode title + text with `_infer`, bulk
 * them with the text into an index (`english` analyzer on title and text, `ml.tokens` a
 * `sparse_vector`), then NDCG@10 / Recall@100 / MRR@10 for
 *
 * - BM25: `multi_match` best_fields over title and text, tie_breaker 0.5 (how BEIR queried ES);
 * - sparse: `text_expansion` on `ml.tokens`;
 * - hybrid RRF, the `rrf` retriever (rank_window_size 100, rank_constant 60) and the same through
 *   `sub_searches` + `rank.rrf` (must rank identically), and the `rrf` retriever with ES's defaults
 *   (window = size = 10, constant 60), which can only return 10 hits;
 * - the linear retriever: the documented recipe (README, Hybrid search) — minmax-normalized BM25 and
 *   sparse lists, equal weights, rank_window_size 100 — chosen before measuring, from Bruch et al.
 *   2023 ("An Analysis of Fusion Functions for Hybrid Retrieval": a convex combination of min-max
 *   normalized scores beats RRF in and out of domain; with no labelled data to fit its weight, equal
 *   weights), and the same with l2_norm for reference; no weight was fitted to these labels;
 * - the boosted `bool` recipe: `bool.should` of the same two queries, the
 *   sparse clause boosted by the ratio of the two score scales measured here (mean top-1 BM25
 *   score / mean top-1 sparse score over the queries — no relevance labels used), with and
 *   without a `min_score` of 10% of the mean top-1 fused score.
 *
 * The data set is licensed for evaluation only and is never shipped: it is read from
 * ../shared/data/beir/scifact or $THREADSEARCH_SCIFACT.
 *
 *   npm run build && node dist/bench/hybrid-relevance.js [--dir PATH] [--no-write]
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchArgs } from './lib/args.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { evaluate, judgedQueries, loadBeir, type Evaluation, type Run } from './lib/relevance.js';
import { findRepoRoot, formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { loadSciFactWithModel, SCIFACT_MODEL } from './lib/scifact-server.js';
import { startThreadsearch, jsonCaller } from './lib/server-process.js';

const USAGE = 'node dist/bench/hybrid-relevance.js [--dir PATH] [--no-write]';
const { values } = benchArgs(USAGE, { options: { dir: { type: 'string' }, 'no-write': { type: 'boolean' } } });
const DIR = values.dir ?? process.env.THREADSEARCH_SCIFACT ?? resolve(findRepoRoot(), '../shared/data/beir/scifact');
if (!existsSync(resolve(DIR, 'corpus.jsonl'))) {
  console.error(`SciFact not found at ${DIR} (pass --dir or set THREADSEARCH_SCIFACT)`);
  process.exit(2);
}
const MODEL = SCIFACT_MODEL;
const TOP = 100;
const WINDOW = 100;
const RANK_CONSTANT = 60;
const BATCH = 100;

const data = loadBeir(DIR);
const queries = judgedQueries(data);
const probe = startCpuProbe();
const server = await startThreadsearch();

const call = jsonCaller(server.url);

const bm25Query = (text: string) => ({ multi_match: { query: text, type: 'best_fields', fields: ['title', 'text'], tie_breaker: 0.5 } });
const sparseQuery = (text: string, boost = 1) => ({ text_expansion: { 'ml.tokens': { model_id: MODEL, model_text: text, boost } } });

interface SystemRun {
  readonly run: Run;
  /** Top-1 score per query (for score scales), and mean latency per request. */
  readonly top1: number[];
  readonly msPerQuery: number;
}

async function runSystem(body: (text: string) => Record<string, unknown>, size = TOP): Promise<SystemRun> {
  const run: Run = new Map();
  const top1: number[] = [];
  const start = performance.now();
  for (const q of queries) {
    const res = await call('POST', '/scifact/_search', { size, _source: false, ...body(q.text) });
    const hits = res.hits.hits as Array<{ _id: string; _score: number }>;
    run.set(q.id, hits.map((h) => ({ docId: h._id, score: h._score })));
    if (hits.length > 0) top1.push(hits[0]._score);
  }
  return { run, top1, msPerQuery: (performance.now() - start) / queries.length };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

let result;
try {
  const ingestStart = performance.now();
  await loadSciFactWithModel(call, data, { analyzer: 'english', batch: BATCH });
  const ingestMs = performance.now() - ingestStart;

  const bm25 = await runSystem((text) => ({ query: bm25Query(text) }));
  const sparse = await runSystem((text) => ({ query: sparseQuery(text) }));
  const rrfRetriever = await runSystem((text) => ({
    retriever: { rrf: { retrievers: [{ standard: { query: bm25Query(text) } }, { standard: { query: sparseQuery(text) } }], rank_window_size: WINDOW, rank_constant: RANK_CONSTANT } },
  }));
  // ES's defaults: rank_window_size = size (10), rank_constant 60 — so only 10 hits (no Recall@100).
  const rrfDefaults = await runSystem((text) => ({
    retriever: { rrf: { retrievers: [{ standard: { query: bm25Query(text) } }, { standard: { query: sparseQuery(text) } }] } },
  }), 10);
  const rrfLegacy = await runSystem((text) => ({
    sub_searches: [{ query: bm25Query(text) }, { query: sparseQuery(text) }], rank: { rrf: { window_size: WINDOW, rank_constant: RANK_CONSTANT } },
  }));
  const linearBody = (normalizer: string) => (text: string) => ({
    retriever: {
      linear: {
        retrievers: [{ retriever: { standard: { query: bm25Query(text) } } }, { retriever: { standard: { query: sparseQuery(text) } } }],
        normalizer, rank_window_size: WINDOW,
      },
    },
  });
  const linearMinmax = await runSystem(linearBody('minmax'));
  const linearL2 = await runSystem(linearBody('l2_norm'));
  // Put both score scales on a par (measured, not tuned on labels).
  const bm25Scale = mean(bm25.top1);
  const sparseScale = mean(sparse.top1);
  const boost = bm25Scale / sparseScale;
  const boolBody = (text: string) => ({ query: { bool: { should: [bm25Query(text), sparseQuery(text, boost)] } } });
  const boosted = await runSystem(boolBody);
  const minScore = 0.1 * mean(boosted.top1);
  const boostedMin = await runSystem((text) => ({ ...boolBody(text), min_score: minScore }));
  const unboosted = await runSystem((text) => ({ query: { bool: { should: [bm25Query(text), sparseQuery(text)] } } }));

  let sameRanking = 0;
  for (const q of queries) {
    const a = rrfRetriever.run.get(q.id)!.map((h) => `${h.docId}:${h.score}`).join();
    const b = rrfLegacy.run.get(q.id)!.map((h) => `${h.docId}:${h.score}`).join();
    if (a === b) sameRanking++;
  }
  const row = (system: string, s: SystemRun, e: Evaluation) => ({ system, ndcg10: e.ndcg10, recall100: e.recall100, mrr10: e.mrr10, queries: e.queries, msPerQuery: s.msPerQuery });
  const cpu = probe.stop();
  result = {
    dataset: 'BEIR SciFact test',
    docs: data.corpus.size,
    ingestMs,
    systems: [
      row('BM25 (multi_match best_fields, tie_breaker 0.5)', bm25, evaluate(bm25.run, data.qrels)),
      row('sparse (text_expansion, .sparse_model_2)', sparse, evaluate(sparse.run, data.qrels)),
      row(`hybrid RRF, rrf retriever (window ${WINDOW}, k ${RANK_CONSTANT})`, rrfRetriever, evaluate(rrfRetriever.run, data.qrels)),
      { ...row('hybrid RRF, rrf retriever with ES defaults (window 10 = size, k 60; 10 hits)', rrfDefaults, evaluate(rrfDefaults.run, data.qrels)), recall100: NaN },
      row(`hybrid RRF, sub_searches + rank.rrf (window ${WINDOW}, k ${RANK_CONSTANT})`, rrfLegacy, evaluate(rrfLegacy.run, data.qrels)),
      row(`hybrid linear, the recipe: minmax, equal weights, window ${WINDOW}`, linearMinmax, evaluate(linearMinmax.run, data.qrels)),
      row(`hybrid linear: l2_norm, equal weights, window ${WINDOW}`, linearL2, evaluate(linearL2.run, data.qrels)),
      row(`boosted bool: should [BM25, sparse^${boost.toFixed(2)}]`, boosted, evaluate(boosted.run, data.qrels)),
      row(`boosted bool + min_score ${minScore.toFixed(2)}`, boostedMin, evaluate(boostedMin.run, data.qrels)),
      row('plain bool: should [BM25, sparse] (no boost)', unboosted, evaluate(unboosted.run, data.qrels)),
    ],
    scales: { bm25MeanTop1: bm25Scale, sparseMeanTop1: sparseScale, boost, minScore },
    sameRankingBothForms: `${sameRanking}/${queries.length}`,
    otherCores: cpu.otherCores,
  };
} finally {
  await server.stop();
}
console.log(JSON.stringify(result, null, 2));

if (!values['no-write']) {
  writeResult('hybrid-relevance', result);
  const f4 = (x: number) => x.toFixed(4);
  const table = markdownTable(
    ['system', 'NDCG@10', 'Recall@100', 'MRR@10', 'ms/query (HTTP)'],
    result.systems.map((s) => [s.system, f4(s.ndcg10), Number.isNaN(s.recall100) ? '–' : f4(s.recall100), f4(s.mrr10), formatNumber(s.msPerQuery, 1)]),
    ['left', 'right', 'right', 'right', 'right'],
  );
  const notes = `BEIR SciFact test split (${result.systems[0].queries} queries, ${result.docs} documents), \`node dist/bench/hybrid-relevance.js\`, all through HTTP
on one server process (\`_infer\` → \`_bulk\` → \`_search\`; ingest ${formatNumber(result.ingestMs / 1000, 1)} s). Score scales measured on these queries:
mean top-1 BM25 ${formatNumber(result.scales.bm25MeanTop1, 2)}, mean top-1 sparse ${formatNumber(result.scales.sparseMeanTop1, 2)} → sparse boost ${formatNumber(result.scales.boost, 2)}
(no relevance labels used). Both RRF forms returned identical rankings and scores on ${result.sameRankingBothForms} queries. otherCores ${formatNumber(result.otherCores, 2)}.`;
  updateBenchmarksMd('hybrid-relevance', table, notes);
}
