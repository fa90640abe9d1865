/**
 * The query phase alone, A/B in one process (issue 19): `searchShard` without fetch (the engine
 * harness's `searchPlan`) of this tree and a baseline tree over one 200k-doc force-merged segment
 * (one SharedArrayBuffer, opened by each tree's reader), for `bench/http-search.ts`'s `match`
 * queries, size 10. Each query's cheapest wall time over the rounds counts; the trees alternate query
 * by query (the order turning every query and round). Reports the mean, p50 and p90 of those minima
 * per tree, and the mean split by the query's total (< 1,000, 1,000–10,000, `gte`), with this ÷
 * baseline. Both trees' hits, scores and totals are compared for every query first.
 *
 *   node dist/bench/query-phase-ab.js --baseline /path/to/other-tree [--rounds 4] [--track-total-hits 10000] [--deletes N] [--swap]
 *
 * `--track-total-hits=-1` times searches that do not count; `--deletes N` deletes every Nth doc (live
 * docs as a shard with deletes has them); `--swap` loads this tree first (the
 * tree loaded second can run a few % slower). The baseline is a directory holding a built tree
 * (`dist/test/support/engine-harness.js`, `dist/src/index/index.js`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { oneSegmentSab } from './lib/bm25-segment.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import type { openSegment } from '../src/index/index.js';
import { writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/query-phase-ab.js --baseline /path/to/other-tree [--rounds 4] [--track-total-hits 10000] [--deletes N] [--swap]';
const { values } = benchArgs(USAGE, {
  options: {
    baseline: { type: 'string' }, rounds: { type: 'string' }, 'track-total-hits': { type: 'string' }, deletes: { type: 'string' }, swap: { type: 'boolean' }, 'no-report': { type: 'boolean' },
  },
});
if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 4);
const TRACK = numberOption(USAGE, values['track-total-hits'], 'track-total-hits', 10_000, -1);
const DOCS = 200_000;
const DELETES = values.deletes === undefined ? 0 : numberOption(USAGE, values.deletes, 'deletes', 0, 2);

interface Result { totalHits: number; totalRelation: string; hits: Float64Array }
interface Harness {
  segments: unknown[];
  liveDocs: unknown[];
  plan(query: unknown): unknown;
  searchPlan(plan: unknown, options: Record<string, unknown>): Result;
}
interface Tree { name: string; harness: Harness; plans: unknown[]; best: Float64Array }

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2_000 });
const sab = oneSegmentSab(corpus.docs);
/** Every DELETES-th doc deleted (null: none). */
function liveDocs(): Uint32Array | null {
  if (DELETES === 0) return null;
  const live = new Uint32Array((DOCS + 31) >>> 5).fill(0xffffffff);
  for (let d = 0; d < DOCS; d += DELETES) live[d >>> 5] &= ~(1 << (d & 31));
  return live;
}

async function loadTree(name: string, root: string | null): Promise<Tree> {
  const at = (rel: string) => (root === null ? new URL(`../${rel}`, import.meta.url).href : pathToFileURL(join(root, 'dist', rel)).href);
  const harnessModule = (await import(at('test/support/engine-harness.js'))) as { InProcessIndex: new (m: unknown) => Harness };
  const reader = (await import(at('src/index/index.js'))) as { openSegment: typeof openSegment };
  const harness = new harnessModule.InProcessIndex({ properties: { text: { type: 'text' } } });
  harness.segments = [reader.openSegment('query-phase-ab', sab)];
  harness.liveDocs = [liveDocs()];
  const plans = corpus.queries.map((q) => harness.plan({ match: { text: q } }));
  return { name, harness, plans, best: new Float64Array(plans.length).fill(Infinity) };
}

const base = await loadTree('baseline', values.baseline!);
const self = await loadTree('this tree', null);
const trees = values.swap ? [self, base] : [base, self];
const options = { k: 10, trackTotalHitsUpTo: TRACK };

// Same hits, scores, order and totals for every query.
const totals = corpus.queries.map((q, i) => {
  const [a, b] = [base, self].map((t) => t.harness.searchPlan(t.plans[i], options));
  if (a.totalHits !== b.totalHits || a.totalRelation !== b.totalRelation || a.hits.length !== b.hits.length || a.hits.some((v, j) => v !== b.hits[j])) {
    throw new Error(`different answer for [${q}]`);
  }
  return a.totalRelation === 'gte' ? a.totalHits + 1 : a.totalHits;
});
console.log(`same hits, scores and totals for all ${corpus.queries.length} queries`);

// Two warm-up rounds, then the timed ones.
const probe = startCpuProbe();
for (let r = 0; r < ROUNDS + 2; r++) {
  for (let q = 0; q < corpus.queries.length; q++) {
    for (let j = 0; j < trees.length; j++) {
      const t = trees[(j + q + r) % trees.length];
      const t0 = performance.now();
      t.harness.searchPlan(t.plans[q], options);
      const us = (performance.now() - t0) * 1000;
      if (r >= 2 && us < t.best[q]) t.best[q] = us;
    }
  }
}
const cpu = probe.stop();

const classes: Array<[string, (total: number) => boolean]> = [
  ['< 1,000', (n) => n < 1_000], ['1,000–10,000', (n) => n >= 1_000 && n <= 10_000], ['gte', (n) => n > 10_000],
];
const sumWhere = (best: Float64Array, f: (total: number) => boolean) => best.reduce((s, v, q) => (f(totals[q]) ? s + v : s), 0);
const rows = [base, self].map((t) => {
  const sorted = [...t.best].sort((x, y) => x - y);
  return {
    tree: t.name, mean_us: sumWhere(t.best, () => true) / t.best.length, p50_us: sorted[sorted.length >> 1], p90_us: sorted[Math.floor(sorted.length * 0.9)],
    classes: classes.map(([name, f]) => ({ name, queries: totals.filter(f).length, mean_us: sumWhere(t.best, f) / Math.max(1, totals.filter(f).length) })),
  };
});
for (const r of rows) {
  console.log(`${r.tree}: mean ${r.mean_us.toFixed(2)} µs, p50 ${r.p50_us.toFixed(2)}, p90 ${r.p90_us.toFixed(2)} | ${r.classes.map((c) => `${c.name} (${c.queries}) ${c.mean_us.toFixed(1)}`).join(' | ')}`);
}
const ratio = (a: number, b: number) => (b / a).toFixed(3);
console.log(`this / baseline: mean ×${ratio(rows[0].mean_us, rows[1].mean_us)}, p50 ×${ratio(rows[0].p50_us, rows[1].p50_us)}, p90 ×${ratio(rows[0].p90_us, rows[1].p90_us)}; ${rows[0].classes.map((c, i) => `${c.name} ×${ratio(c.mean_us, rows[1].classes[i].mean_us)}`).join(', ')}`);
console.log(`per-query minima of ${ROUNDS} rounds, track_total_hits ${TRACK}${DELETES > 0 ? `, every ${DELETES}th doc deleted` : ''}; ${trees[0].name} loaded first; other processes used ${cpu.otherCores.toFixed(2)} cores meanwhile`);
if (!values['no-report']) {
  writeResult('query-phase-ab', { params: { docs: DOCS, queries: corpus.queries.length, rounds: ROUNDS, trackTotalHits: TRACK, deletes: DELETES, baseline: values.baseline, swap: values.swap ?? false }, rows, otherCores: cpu.otherCores });
}
