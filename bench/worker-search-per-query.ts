/**
 * A search worker's handler per query, A/B in one process (issue 19): the same harness as
 * `worker-search-ab.ts` (this tree's and a baseline tree's `workers/search.ts` channelBatch over one
 * 200k-doc segment, `bench/http-search.ts`'s `match` queries, size 10 with `_source`,
 * track_total_hits 10,000), but each query is its own one-search batch, the two trees alternate
 * query by query (order flipped every query and round), and each query's cheapest wall time over
 * the rounds counts. Per-query minima move less with other jobs than slices of 200 queries do
 * (a run of the tree against a copy of itself reads ×1.01), and they split the mean by the query's
 * total: the few queries whose count reaches 10,000 are a third of the worker's time.
 *
 *   node dist/bench/worker-search-per-query.js --baseline /path/to/other-tree [--rounds 6] [--swap]
 *
 * `--swap` loads this tree first (the tree loaded second runs ~1% slower). The baseline is a
 * directory holding a built tree (`dist/workers/search.js`, `dist/test/support/engine-harness.js`,
 * `dist/src/index/index.js`). Pages are not compared here (worker-search-ab does); totals are.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { oneSegmentSab } from './lib/bm25-segment.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import type { openSegment } from '../src/index/index.js';
import { writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/worker-search-per-query.js --baseline /path/to/other-tree [--rounds 6] [--swap]';
const { values } = benchArgs(USAGE, {
  options: { baseline: { type: 'string' }, rounds: { type: 'string' }, swap: { type: 'boolean' }, 'no-report': { type: 'boolean' } },
});
if (values.baseline === undefined) usageError(USAGE, '--baseline <dir> is required');
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 6);
const DOCS = 200_000;
const SEGMENT_ID = 'worker-search-per-query';

interface Reply { ok: boolean; value?: { totalHits: number } }
interface Batch { searches: unknown[]; plans: Array<[number, unknown]> | null; dropPlans: null }
interface Worker {
  searchBatch: (task: { searches: unknown[] }) => Reply[];
  channelBatch: (request: Batch) => Reply[];
}

const SPEC = {
  index: 'bench', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null,
};
function request(query: unknown): Record<string, unknown> {
  return {
    query, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0,
    fetch: { from: 0, spec: SPEC }, deadline: 0, aggs: null, suggest: null,
  };
}
const REFS = [{ segment: SEGMENT_ID, liveDocs: null }];

const corpus = generateBm25Corpus({ docs: DOCS, queries: 2_000 });
const sab = oneSegmentSab(corpus.docs);

async function loadWorker(root: string | null): Promise<Worker> {
  const at = (rel: string) => (root === null ? new URL(`../${rel}`, import.meta.url).href : pathToFileURL(join(root, 'dist', rel)).href);
  const worker = (await import(at('workers/search.js'))) as Worker;
  const harnessModule = (await import(at('test/support/engine-harness.js'))) as { InProcessIndex: new (m: unknown) => { segments: unknown[]; plan(q: unknown): unknown } };
  const reader = (await import(at('src/index/index.js'))) as { openSegment: typeof openSegment };
  const harness = new harnessModule.InProcessIndex({ properties: { text: { type: 'text' } } });
  harness.segments = [reader.openSegment('planning', sab)];
  const plans = corpus.queries.map((q) => deserialize(serialize(harness.plan({ match: { text: q } }))));
  worker.searchBatch({ searches: [{ segments: REFS, request: request(plans[0]), inline: { [SEGMENT_ID]: sab } }] });
  worker.channelBatch({ searches: [], plans: plans.map((p, i) => [i, p]), dropPlans: null });
  return worker;
}
// trees[0] is the baseline, trees[1] this tree, whichever was loaded first.
const trees: Worker[] = values.swap
  ? await (async () => { const me = await loadWorker(null); return [await loadWorker(values.baseline!), me]; })()
  : [await loadWorker(values.baseline!), await loadWorker(null)];

const Q = corpus.queries.length;
const batches = corpus.queries.map((_, q) => deserialize(serialize({ searches: [{ segments: REFS, request: request(null), planId: q }], plans: null, dropPlans: null })) as Batch);
const best = trees.map(() => new Float64Array(Q).fill(Infinity));
const totals = new Int32Array(Q);
const probe = startCpuProbe();
for (let r = 0; r < ROUNDS + 2; r++) {
  for (let q = 0; q < Q; q++) {
    for (let j = 0; j < 2; j++) {
      const t = (j + r + q) & 1;
      const t0 = performance.now();
      const reply = trees[t].channelBatch(batches[q]);
      const us = (performance.now() - t0) * 1000;
      // Two warm-up rounds; the first checks that both trees count the same.
      if (r >= 2 && us < best[t][q]) best[t][q] = us;
      if (r === 0) {
        const total = reply[0].value!.totalHits;
        if (j === 0) totals[q] = total;
        else if (total !== totals[q]) throw new Error(`different totals for [${corpus.queries[q]}]`);
      }
    }
  }
}
const cpu = probe.stop();
const groups: Array<[string, (q: number) => boolean]> = [
  ['all', () => true], ['total < 1,000', (q) => totals[q] < 1_000], ['1,000–9,999', (q) => totals[q] >= 1_000 && totals[q] < 10_000],
  ['10,000 (gte)', (q) => totals[q] >= 10_000],
];
const rows = groups.map(([name, f]) => {
  let base = 0;
  let mine = 0;
  let n = 0;
  for (let q = 0; q < Q; q++) if (f(q)) { base += best[0][q]; mine += best[1][q]; n++; }
  return { group: name, queries: n, baseline_us: base / n, this_us: mine / n, ratio: mine / base, share_of_baseline_time: 0 };
});
for (const r of rows) r.share_of_baseline_time = (r.baseline_us * r.queries) / (rows[0].baseline_us * rows[0].queries);
for (const r of rows) {
  console.log(`${r.group.padEnd(14)} ${String(r.queries).padStart(5)} queries (${(100 * r.share_of_baseline_time).toFixed(0)}% of the time): ${r.baseline_us.toFixed(1)} → ${r.this_us.toFixed(1)} µs (×${r.ratio.toFixed(3)})`);
}
console.log(`per-query minima of ${ROUNDS} rounds, wall µs per search; ${values.swap ? 'this tree loaded first' : 'baseline loaded first'}; other processes used ${cpu.otherCores.toFixed(2)} cores meanwhile`);
if (!values['no-report']) {
  writeResult('worker-search-per-query', { params: { docs: DOCS, queries: Q, rounds: ROUNDS, baseline: values.baseline, swap: values.swap === true }, rows, otherCores: cpu.otherCores });
}
