/**
 * Building the learned-sparse index in-process (issue 22): the ELSER-like synthetic corpus
 * (performance.md §2.2, seed 7) as the JSON text a client sends, built by the engine exactly as
 * sparse-search builds it (segments of 50,000 documents through SegmentBuilder and the writer, then
 * a force-merge to one segment), against Apache Lucene 8.8 indexing the same vectors as
 * FeatureFields in one thread and force-merging to one segment (../shared/anchors/lucene), in the
 * same run. With `--baseline <tree>` a built copy of another tree builds the same index first, so
 * the ratio between trees is a same-run figure too.
 *
 * Timed: the engine's work alone (parsing the JSON text included), not writing the text, as
 * Lucene's build is timed from vectors in memory. Wall seconds are the figure Lucene reports; CPU
 * seconds (each process's own) are printed beside them.
 * The anchor also times its queries (reported by sparse-search, not here): `--queries` keeps them few.
 *
 *   node dist/bench/sparse-build.js [--docs 1000000] [--baseline /tmp/base49] [--queries 50] [--no-lucene]
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption } from './lib/args.js';
import { runLuceneAnchor, writeSparseInput } from './lib/lucene-anchor.js';
import { findRepoRoot, formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { generateSparseCorpus, sparseVectorJson } from './lib/sparse-corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import type { InProcessIndex } from '../test/support/engine-harness.js';

const USAGE = 'node dist/bench/sparse-build.js [--docs 1000000] [--baseline /tmp/base49] [--queries 50] [--no-lucene]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, baseline: { type: 'string' }, queries: { type: 'string' }, 'no-lucene': { type: 'boolean' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 1_000_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 50);
const SEGMENT_DOCS = 50_000;
const MB = 1024 * 1024;

interface Row {
  engine: string;
  build_s: number;
  cpu_s: number;
  index_mb: number;
  bytes_per_posting: number;
  other_cores: number;
}

const t0 = performance.now();
const corpus = generateSparseCorpus({ docs: DOCS, queries: QUERIES });
const postings = corpus.docs.offsets[DOCS];
console.log(`corpus: ${DOCS} docs, ${postings} postings (${((performance.now() - t0) / 1000).toFixed(1)} s)`);

/** Builds the index with the engine of `tree` (its dist/test/support/engine-harness.js). */
async function buildWith(tree: string, label: string): Promise<Row> {
  const { InProcessIndex: Harness } = (await import(pathToFileURL(join(tree, 'dist', 'test', 'support', 'engine-harness.js')).href)) as { InProcessIndex: new (m: unknown) => InProcessIndex };
  const probe = startCpuProbe();
  let buildS = 0;
  let cpuS = 0;
  /** Times `work` alone: writing the clients' JSON text is not the engine's work. */
  const timed = (work: () => void) => {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    work();
    buildS += (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpu0);
    cpuS += (cpu.user + cpu.system) / 1e6;
  };
  const index = new Harness({ _source: { enabled: false }, properties: { v: { type: 'sparse_vector' } } });
  for (let from = 0; from < DOCS; from += SEGMENT_DOCS) {
    const batch: Array<{ id: string; json: string }> = [];
    for (let d = from; d < Math.min(DOCS, from + SEGMENT_DOCS); d++) batch.push({ id: String(d), json: `{"v":${sparseVectorJson(corpus.docs, d)}}` });
    timed(() => index.addSegment(batch));
  }
  timed(() => index.forceMerge());
  const other = probe.stop().otherCores;
  const seg = index.segments[0];
  const field = seg.fields.get('v')!;
  const row: Row = {
    engine: label, build_s: buildS, cpu_s: cpuS, index_mb: seg.sab.byteLength / MB,
    bytes_per_posting: seg.sab.byteLength / field.info.sumDocFreq, other_cores: other,
  };
  console.log(`${label}: built in ${buildS.toFixed(1)} s (CPU ${row.cpu_s.toFixed(1)} s), segment ${row.index_mb.toFixed(0)} MB, ${row.bytes_per_posting.toFixed(2)} B/posting, otherCores ${other.toFixed(2)}`);
  return row;
}

const rows: Row[] = [];
if (values.baseline !== undefined) rows.push(await buildWith(values.baseline, `threadsearch, baseline (${values.baseline})`));
rows.push(await buildWith(findRepoRoot(), 'threadsearch, this tree'));
(globalThis as { gc?: () => void }).gc?.();

const luceneLabel = (mode: string) => `Apache Lucene 8.8 FeatureField (${mode})`;
const { results, skipped } = runLuceneAnchor(values['no-lucene'] === true, 'sparse', ['--docs', String(DOCS), '--queries', String(QUERIES)], (home) => {
  writeSparseInput(home, corpus.docs, DOCS, corpus.queries, QUERIES);
}, luceneLabel);
// Every mode reports the one build.
if (results.length > 0) {
  const r = results[0];
  rows.push({ engine: 'Apache Lucene 8.8 FeatureField, one thread', build_s: r.build_s, cpu_s: r.build_cpu_s, index_mb: r.index_mb, bytes_per_posting: (r.index_mb * MB) / postings, other_cores: NaN });
  console.log(`Lucene: built in ${r.build_s} s (CPU ${r.build_cpu_s} s), index ${r.index_mb} MB`);
}
const lucene = results.length > 0 ? results[0].build_s : null;
const luceneCpu = results.length > 0 && !Number.isNaN(results[0].build_cpu_s) ? results[0].build_cpu_s : null;
const self = rows.find((r) => r.engine === 'threadsearch, this tree')!;
const base = values.baseline !== undefined ? rows[0] : null;
const summary = {
  this_tree_over_lucene: lucene !== null ? self.build_s / lucene : null,
  baseline_over_lucene: lucene !== null && base !== null ? base.build_s / lucene : null,
  this_tree_over_baseline: base !== null ? self.build_s / base.build_s : null,
  this_tree_cpu_over_lucene_cpu: luceneCpu !== null ? self.cpu_s / luceneCpu : null,
  baseline_cpu_over_lucene_cpu: luceneCpu !== null && base !== null ? base.cpu_s / luceneCpu : null,
  this_tree_cpu_over_baseline_cpu: base !== null ? self.cpu_s / base.cpu_s : null,
};
console.log(JSON.stringify(summary));

const scenario = `sparse-build-${DOCS}`;
writeResult(scenario, { params: { docs: DOCS, postings, segment_docs: SEGMENT_DOCS, baseline: values.baseline ?? null, lucene_skipped: skipped }, cases: rows, summary });
const na = (v: number) => (Number.isNaN(v) ? '' : formatNumber(v));
const ratio = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)}×`);
updateBenchmarksMd(
  scenario,
  markdownTable(
    ['engine', 'build s (wall)', 'CPU s', 'index MB', 'B / posting', 'wall ÷ Lucene', 'CPU ÷ Lucene', 'otherCores'],
    rows.map((r) => [
      r.engine, formatNumber(r.build_s), na(r.cpu_s), formatNumber(r.index_mb), formatNumber(r.bytes_per_posting), lucene !== null ? ratio(r.build_s / lucene) : 'n/a',
      luceneCpu !== null && !Number.isNaN(r.cpu_s) ? ratio(r.cpu_s / luceneCpu) : 'n/a', na(r.other_cores),
    ]),
  ),
  `Issue 22: ${DOCS.toLocaleString('en-US')} ELSER-like synthetic vectors (performance.md §2.2, seed 7, ${postings.toLocaleString('en-US')} postings) built in-process from their JSON text (writing the text untimed), segments of ${SEGMENT_DOCS.toLocaleString('en-US')} through SegmentBuilder + writer, then a force-merge to one segment (as sparse-search builds it); Apache Lucene 8.8 indexes the same vectors as one FeatureField per token, commits and force-merges to one segment in one thread, in the same run${skipped !== null ? ` (skipped here: ${skipped})` : ''}. Target: ≤ 2× Lucene's build → this tree **${ratio(summary.this_tree_over_lucene)}** wall, **${ratio(summary.this_tree_cpu_over_lucene_cpu)}** CPU${base !== null ? ` (baseline ${ratio(summary.baseline_over_lucene)} wall, ${ratio(summary.baseline_cpu_over_lucene_cpu)} CPU); this tree ÷ baseline **${ratio(summary.this_tree_over_baseline)}** wall, **${ratio(summary.this_tree_cpu_over_baseline_cpu)}** CPU` : ''}. CPU is each process's own (every thread: V8's and the JVM's GC included), the steadier figure on a busy machine. Index MB is the whole segment (ids and doc numbers included) for threadsearch, the directory for Lucene. Run: \`node dist/bench/sparse-build.js${DOCS === 1_000_000 ? '' : ` --docs ${DOCS}`}${values.baseline !== undefined ? ` --baseline ${values.baseline}` : ''}\`.`,
);
