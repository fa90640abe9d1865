/**
 * Scenario (a): engine-level BM25 top-10 latency on the 200k-document synthetic corpus, one thread,
 * in one process: threadsearch's engine (the code a search worker runs: parse → plan with
 * index-wide statistics → block-max MaxScore over the segment → top-10 with ids) against the exact
 * typed-array term-at-a-time scorer (ref-taat, §3.2 of performance.md) and the in-process peers
 * MiniSearch and wink-bm25-text-search. Targets (same run): engine p50 ≤ 0.5 × ref-taat p50,
 * ≥ 20 × faster p50 than MiniSearch.
 *
 * Apache Lucene 8.8 (../shared/anchors/lucene, when installed) runs over the same corpus and
 * queries afterwards, in the same run, and its rows go next to ours.
 *
 *   node dist/bench/engine-bm25.js [--docs N] [--queries N] [--no-peers] [--no-lucene]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs, numberOption } from './lib/args.js';
import { InProcessIndex } from '../test/support/engine-harness.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { latencyStats, startCpuProbe } from '../src/cli/report/machine.js';
import { runLuceneAnchor, writeBm25Input } from './lib/lucene-anchor.js';
import { buildPeer } from './lib/peers.js';
import { buildRefTaat } from './lib/ref-taat.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { maxScoreStats } from '../src/search/index.js';

const USAGE = 'node dist/bench/engine-bm25.js [--docs N] [--queries N] [--no-peers] [--no-lucene]';
const { values } = benchArgs(USAGE, {
  options: { docs: { type: 'string' }, queries: { type: 'string' }, 'no-peers': { type: 'boolean' }, 'no-lucene': { type: 'boolean' }, segments: { type: 'string' } },
});
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 2_000);
const WARMUP = 200;
const K = 10;

interface Case {
  name: string;
  search: (q: string) => string[];
  build_s: number;
}

/**
 * Times every case over the same queries, interleaved: the queries are cut into blocks of ROUND,
 * and in each round every case takes its turn (order rotating) on a DIFFERENT block — case c runs
 * block (round + c) mod blocks — until every case has run every block once. All cases see the same
 * machine conditions (these VMs drift by ±40% over seconds, which sequential runs would attribute to
 * whichever case ran then), and no case runs a query right after another case ran the same one —
 * as Lucene's anchor runs each mode's full pass after the other modes'. With one block for all,
 * rotating three cases let the default-count case follow the other engine case on the same queries
 * twice as often as the reverse, and every case found the round's postings warm: every p50 here,
 * ref-taat's too, is ~1.4× what that design measured (same tree, same machine, minutes apart).
 */
const ROUND = 200;
function timeCases(cases: Case[], queries: string[]) {
  for (const c of cases) for (let i = 0; i < Math.min(WARMUP, queries.length); i++) c.search(queries[i]);
  const samples = cases.map(() => new Float64Array(queries.length));
  const results = cases.map(() => new Array<string[]>(queries.length));
  const busy = cases.map(() => 0);
  const blocks = Math.ceil(queries.length / ROUND);
  const probe = startCpuProbe();
  for (let round = 0; round < blocks; round++) {
    for (let j = 0; j < cases.length; j++) {
      const ci = (j + round) % cases.length;
      const c = cases[ci];
      const from = ((round + ci) % blocks) * ROUND;
      const t0 = performance.now();
      for (let i = from; i < Math.min(from + ROUND, queries.length); i++) {
        const t = performance.now();
        results[ci][i] = c.search(queries[i]);
        samples[ci][i] = performance.now() - t;
      }
      busy[ci] += performance.now() - t0;
    }
  }
  const cpu = probe.stop();
  return cases.map((c, ci) => ({ stats: latencyStats(samples[ci]), results: results[ci], otherCores: cpu.otherCores, qps: (queries.length / busy[ci]) * 1000 }));
}

const na = (v: unknown) => (Number.isNaN(v) ? '' : formatNumber(v as number));

function recallAt10(results: string[][], truth: string[][]): number {
  let hit = 0;
  let total = 0;
  results.forEach((r, i) => {
    const t = new Set(truth[i]);
    total += t.size;
    for (const id of r) if (t.has(id)) hit++;
  });
  return total === 0 ? 1 : hit / total;
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: QUERIES });
console.log(`corpus: ${corpus.docs.length} docs, ${corpus.queries.length} queries`);

let t0 = performance.now();
const ref = buildRefTaat(corpus.docs);
const refBuild = (performance.now() - t0) / 1000;

t0 = performance.now();
const index = new InProcessIndex({ properties: { text: { type: 'text' } } });
// As a refresh loop would: segments of ~20k documents, then a force merge to one segment.
const SEGMENT = 20_000;
for (let i = 0; i < corpus.docs.length; i += SEGMENT) {
  index.addSegment(corpus.docs.slice(i, i + SEGMENT).map((d) => ({ id: d.id, source: { text: d.text } })));
}
const segmentsBefore = index.segments.length;
if (values.segments === undefined) index.forceMerge();
const engineBuild = (performance.now() - t0) / 1000;
console.log(`built: ref-taat ${refBuild.toFixed(1)} s, threadsearch ${engineBuild.toFixed(1)} s (${segmentsBefore} segments → ${index.segments.length})`);

const engine = (trackTotalHitsUpTo: number) => (q: string) => index.search({ match: { text: q } }, { k: K, trackTotalHitsUpTo }).hits.map((h) => h.id);

const cases: Case[] = [
  { name: 'ref-taat (exhaustive TAAT)', build_s: refBuild, search: (q) => ref.search(q, K).map((h) => h.id) },
  { name: 'threadsearch, track_total_hits: false', build_s: engineBuild, search: engine(-1) },
  { name: 'threadsearch, track_total_hits: 10000 (default)', build_s: engineBuild, search: engine(10_000) },
];

if (!values['no-peers']) {
  for (const name of ['minisearch', 'wink'] as const) {
    const peer = buildPeer(name, corpus.docs);
    cases.push({ name, build_s: peer.buildMs / 1000, search: (q) => peer.search(q, K).map((h) => h.id) });
  }
}
const before = maxScoreStats.postingsScored;
const timed = timeCases(cases, corpus.queries);
const truth = timed[0].results;
const refP50 = timed[0].stats.p50;
const rows: Array<Record<string, unknown>> = cases.map((c, ci) => {
  const r = timed[ci];
  const row = {
    case: c.name, build_s: c.build_s, p50_ms: r.stats.p50, p90_ms: r.stats.p90, p99_ms: r.stats.p99, mean_ms: r.stats.mean, qps: r.qps,
    recall10: recallAt10(r.results, truth), p50_vs_ref: r.stats.p50 / refP50, mean_vs_ref: r.stats.mean / timed[0].stats.mean, otherCores: r.otherCores,
  };
  console.log(`${row.case}: p50 ${formatNumber(row.p50_ms)} ms, p99 ${formatNumber(row.p99_ms)} ms, mean ${formatNumber(row.mean_ms)} ms, ${Math.round(row.qps)} q/s, recall@10 ${row.recall10.toFixed(3)}, p50/ref ${row.p50_vs_ref.toFixed(2)}, mean/ref ${row.mean_vs_ref.toFixed(2)}`);
  return row;
});
const postingsPerQuery = (maxScoreStats.postingsScored - before) / (2 * (corpus.queries.length + WARMUP));
console.log(`threadsearch scored ${Math.round(postingsPerQuery)} postings per query on average (exhaustive: ${Math.round(corpus.queries.reduce((n, q) => n + ref.postingsTouched(q), 0) / corpus.queries.length)})`);

// Lucene over the same corpus and queries, in the same run (exact BM25 reference = ref-taat's top 10).
const luceneLabel = (mode: string) => `Apache Lucene 8.8, ${mode}`;
const { results: luceneResults, skipped: lucenePending } = runLuceneAnchor(values['no-lucene'] === true, 'bm25', ['--docs', String(DOCS), '--queries', String(QUERIES)], (home) => {
  writeBm25Input(home, corpus.docs, corpus.queries);
  writeFileSync(join(home, 'data', `ref-bm25-${DOCS}-${QUERIES}.json`), JSON.stringify(truth.map((ids) => ids.map(Number))));
}, luceneLabel);
for (const r of luceneResults) {
  rows.push({
    case: luceneLabel(r.mode), build_s: NaN, p50_ms: r.p50_ms, p90_ms: NaN, p99_ms: r.p99_ms, mean_ms: r.mean_ms, qps: r.qps,
    recall10: Number(r.recall), p50_vs_ref: r.p50_ms / refP50, mean_vs_ref: r.mean_ms / timed[0].stats.mean, otherCores: NaN,
  });
}

const ours = rows.find((r) => r.case === 'threadsearch, track_total_hits: false')!;
const mini = rows.find((r) => r.case === 'minisearch');
const summary = {
  engine_p50_over_ref_p50: (ours.p50_ms as number) / refP50,
  minisearch_p50_over_engine_p50: mini ? (mini.p50_ms as number) / (ours.p50_ms as number) : null,
  lucene_wand_p50_over_engine_p50: luceneRatio('wand', 'threadsearch, track_total_hits: false'),
  lucene_esdefault_p50_over_engine_p50: luceneRatio('esdefault', 'threadsearch, track_total_hits: 10000 (default)'),
};
function luceneRatio(mode: string, ourCase: string): number | null {
  const l = rows.find((r) => r.case === `Apache Lucene 8.8, ${mode}`);
  return l ? (l.p50_ms as number) / (rows.find((r) => r.case === ourCase)!.p50_ms as number) : null;
}
console.log(`targets: engine/ref p50 = ${summary.engine_p50_over_ref_p50.toFixed(2)} (≤ 0.5), MiniSearch/engine p50 = ${summary.minisearch_p50_over_engine_p50?.toFixed(1) ?? 'n/a'} (≥ 20), Lucene/engine p50 = ${summary.lucene_wand_p50_over_engine_p50?.toFixed(2) ?? 'n/a'} (wand vs track_total_hits false), ${summary.lucene_esdefault_p50_over_engine_p50?.toFixed(2) ?? 'n/a'} (ES default)`);

// Only the full run (default size, with peers) is a result; --no-peers is for iterating.
if (DOCS === 200_000 && QUERIES === 2_000 && !values['no-peers']) {
  writeResult('engine-bm25', { params: { docs: DOCS, queries: QUERIES, k: K, segments: index.segments.length }, cases: rows, summary, postingsScoredPerQuery: postingsPerQuery });
  updateBenchmarksMd(
    'engine-bm25',
    markdownTable(
      ['case', 'build s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'q/s (1 thread)', 'recall@10 vs exact', 'p50 / ref', 'mean / ref', 'otherCores'],
      rows.map((r) => [r.case as string, na(r.build_s), formatNumber(r.p50_ms as number), na(r.p90_ms), formatNumber(r.p99_ms as number), formatNumber(r.mean_ms as number), Math.round(r.qps as number), (r.recall10 as number).toFixed(3), (r.p50_vs_ref as number).toFixed(2), (r.mean_vs_ref as number).toFixed(2), Number.isNaN(r.otherCores) ? '' : (r.otherCores as number).toFixed(2)]),
    ),
    `200k synthetic docs (Zipf, performance.md §2.1), 2,000 queries of 2–3 terms, top-10, one thread, one process, all cases interleaved in rounds of 200 queries. threadsearch = parse + plan (index-wide stats) + block-max MaxScore over one force-merged segment + ids. recall@10 is overlap with exact BM25 (ref-taat uses exact lengths; threadsearch uses Lucene's lossy one-byte norms, as ES does). Targets: engine p50 ≤ 0.5 × ref-taat p50 → **${summary.engine_p50_over_ref_p50.toFixed(2)}**; MiniSearch p50 ≥ 20 × engine p50 → **${summary.minisearch_p50_over_engine_p50?.toFixed(1) ?? 'n/a'}**. Apache Lucene 8.8 (../shared/anchors/lucene, same corpus and queries, same run, one JVM thread, BooleanQuery of SHOULD TermQuerys, StandardAnalyzer; its recall@10 is against the same exact-BM25 top 10; modes: wand = total-hits threshold 10, esdefault = 10,000, exhaustive = exact count): Lucene p50 / ours = **${summary.lucene_wand_p50_over_engine_p50?.toFixed(2) ?? `n/a (${lucenePending})`}** (wand vs track_total_hits false), **${summary.lucene_esdefault_p50_over_engine_p50?.toFixed(2) ?? 'n/a'}** (ES default threshold). Run: \`node dist/bench/engine-bm25.js\`.`,
  );
}
