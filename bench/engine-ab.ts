/**
 * Engine A/B on a busy machine (issue 22): this tree's engine against a baseline build of another
 * one, in the same process, over the same corpus and queries — `match` (BM25 top 10, block-max
 * MaxScore), `match` with track_total_hits 10,000, and `match_phrase` (positions) — timed
 * interleaved in rounds, so both see the same machine conditions. Reports p50 / mean per case and
 * the ratio this / baseline, and the segment's postings and positions bytes of each tree.
 *
 *   node dist/bench/engine-ab.js --baseline /path/to/other-tree [--docs 200000] [--queries 2000] [--segment-docs 20000] [--keep-segments]
 *
 * The docs are added in segments of `--segment-docs` and force-merged into one, unless
 * `--keep-segments`: then searches run over the segments as added (e.g. `--docs 100000
 * --segment-docs 70000` keeps one segment past 65536 docs and one below, whose per-block arrays a
 * segment format may store in different widths, issue 22).
 *
 * The baseline is a directory holding a built tree (`dist/test/support/engine-harness.js`).
 */
import { join } from 'node:path';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { InProcessIndex } from '../test/support/engine-harness.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { latencyStats, startCpuProbe } from '../src/cli/report/machine.js';
import { addSegmentMemory, emptySegmentMemory, type Segment } from '../src/index/index.js';
import { formatNumber, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/engine-ab.js --baseline /path/to/other-tree [--docs 200000] [--queries 2000] [--segment-docs 20000] [--keep-segments]';
const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, docs: { type: 'string' }, queries: { type: 'string' }, 'segment-docs': { type: 'string' }, 'keep-segments': { type: 'boolean' } } });
if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 2_000);
const SEGMENT_DOCS = numberOption(USAGE, values['segment-docs'], 'segment-docs', 20_000);
const KEEP_SEGMENTS = values['keep-segments'] === true;
const ROUND = 200;
const K = 10;

interface Engine {
  segments: Segment[];
  addSegment(docs: Array<{ id: string; source: Record<string, unknown> }>): void;
  forceMerge(): void;
  search(query: unknown, opts: { k: number; trackTotalHitsUpTo: number }): { hits: Array<{ id: string }> };
}

const baseModule = (await import(join(values.baseline, 'dist', 'test', 'support', 'engine-harness.js'))) as { InProcessIndex: new (m: unknown) => Engine };
const corpus = generateBm25Corpus({ docs: DOCS, queries: QUERIES });

function build(ctor: new (m: unknown) => Engine): { engine: Engine; seconds: number } {
  const t0 = performance.now();
  const engine = new ctor({ properties: { text: { type: 'text' } } });
  for (let i = 0; i < corpus.docs.length; i += SEGMENT_DOCS) engine.addSegment(corpus.docs.slice(i, i + SEGMENT_DOCS).map((d) => ({ id: d.id, source: { text: d.text } })));
  if (!KEEP_SEGMENTS) engine.forceMerge();
  return { engine, seconds: (performance.now() - t0) / 1000 };
}

const trees = [
  { name: 'baseline', ...build(baseModule.InProcessIndex) },
  { name: 'this tree', ...build(InProcessIndex as unknown as new (m: unknown) => Engine) },
];
for (const t of trees) {
  // Each tree's segments through this tree's accounting (the section kinds of both are known here).
  const m = t.engine.segments.reduce((acc, s) => addSegmentMemory(acc, s), emptySegmentMemory());
  console.log(`${t.name}: built in ${t.seconds.toFixed(1)} s; ${t.engine.segments.length} segment(s) ${formatNumber(m.total / 1e6)} MB, postings ${formatNumber(m.postings / 1e6)} MB, positions ${formatNumber(m.positions / 1e6)} MB`);
}

// Phrases: each query's first two terms, which exist in the corpus (most match few documents).
const phrases = corpus.queries.map((q) => q.split(' ').slice(0, 2).join(' '));
const cases = [
  { name: 'match, track_total_hits false', queries: corpus.queries, run: (e: Engine, q: string) => e.search({ match: { text: q } }, { k: K, trackTotalHitsUpTo: -1 }) },
  { name: 'match, track_total_hits 10000', queries: corpus.queries, run: (e: Engine, q: string) => e.search({ match: { text: q } }, { k: K, trackTotalHitsUpTo: 10_000 }) },
  { name: 'match_phrase (2 terms)', queries: phrases, run: (e: Engine, q: string) => e.search({ match_phrase: { text: q } }, { k: K, trackTotalHitsUpTo: 10_000 }) },
];

const rows: Array<Record<string, unknown>> = [];
const probe = startCpuProbe();
for (const c of cases) {
  const samples = trees.map(() => new Float64Array(c.queries.length));
  for (const t of trees) for (let i = 0; i < Math.min(200, c.queries.length); i++) c.run(t.engine, c.queries[i]);
  for (let from = 0, round = 0; from < c.queries.length; from += ROUND, round++) {
    for (let j = 0; j < trees.length; j++) {
      const ti = (j + round) % trees.length;
      for (let i = from; i < Math.min(from + ROUND, c.queries.length); i++) {
        const t0 = performance.now();
        c.run(trees[ti].engine, c.queries[i]);
        samples[ti][i] = performance.now() - t0;
      }
    }
  }
  const [base, ours] = samples.map((s) => latencyStats(s));
  // Same results from both trees (ids of the top 10), checked on a sample.
  for (let i = 0; i < c.queries.length; i += 97) {
    const a = c.run(trees[0].engine, c.queries[i]).hits.map((h) => h.id).join();
    const b = c.run(trees[1].engine, c.queries[i]).hits.map((h) => h.id).join();
    if (a !== b) throw new Error(`different top ${K} for ${c.name} [${c.queries[i]}]`);
  }
  const row = { case: c.name, base_p50_ms: base.p50, p50_ms: ours.p50, p50_ratio: ours.p50 / base.p50, base_mean_ms: base.mean, mean_ms: ours.mean, mean_ratio: ours.mean / base.mean };
  rows.push(row);
  console.log(`${c.name}: p50 ${formatNumber(base.p50)} → ${formatNumber(ours.p50)} ms (×${row.p50_ratio.toFixed(2)}), mean ${formatNumber(base.mean)} → ${formatNumber(ours.mean)} ms (×${row.mean_ratio.toFixed(2)})`);
}
const cpu = probe.stop();
console.log(`other processes used ${cpu.otherCores.toFixed(2)} cores meanwhile`);
writeResult('engine-ab', { params: { docs: DOCS, queries: QUERIES, segmentDocs: SEGMENT_DOCS, keepSegments: KEEP_SEGMENTS, baseline: values.baseline }, cases: rows, otherCores: cpu.otherCores });
