/**
 * A search worker's cost per search, A/B in one process (issue 19): the worker's own batch handler
 * (`workers/search.ts` channelBatch — kept plans, segment refs, the query phase, the fetch and render
 * of 10 hits with `_source` into the page buffer — and the reply's `postMessage` with its pages
 * transferred) of this tree against a baseline tree's, over the
 * same 200k-doc force-merged segment (one SharedArrayBuffer, opened by each tree's own reader), fed
 * the requests `bench/http-search.ts` sends: a `match` query cycling through the corpus queries,
 * size 10, default track_total_hits, in batches of 10 (one `_msearch`). Each batch is a structured
 * clone of what the coordinator posts (deserialised outside the timing, as the worker's message
 * receive does), naming plans the worker keeps, as the search channel does; a tree whose worker
 * does not export channelBatch (older builds) runs the same searches through searchBatch with the
 * kept plans set in, which is what its channelBatch does.
 *
 * On a machine other jobs load, the most reliable figure is CPU per search (process.cpuUsage: this
 * thread plus V8's helpers, i.e. GC) summed over slices of 200 queries, each slice's cheapest of
 * the rounds, the two builds interleaved slice by slice so both see the same conditions.
 *
 *   node dist/bench/worker-search-ab.js --baseline /path/to/other-tree [--docs 200000] [--rounds 12]
 *   node dist/bench/worker-search-ab.js --only this --rounds 40   (one tree, e.g. under --cpu-prof)
 *
 * The baseline is a directory holding a built tree (`dist/workers/search.js`,
 * `dist/test/support/engine-harness.js`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { oneSegmentSab } from './lib/bm25-segment.js';
import { deserialize, serialize } from 'node:v8';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { openSegment } from '../src/index/index.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/worker-search-ab.js --baseline /path/to/other-tree [--docs 200000] [--rounds 12]\n       node dist/bench/worker-search-ab.js --only this --rounds 40';
const { values } = benchArgs(USAGE, {
  options: {
    baseline: { type: 'string' }, docs: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' },
    'no-report': { type: 'boolean' },
  },
});
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const QUERIES = numberOption(USAGE, values.queries, 'queries', 2_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 10);
const BATCH = 10;
if (values.baseline === undefined && values.only !== 'this') usageError(USAGE, '--baseline <dir> is required (or --only this)');

interface Harness {
  segments: unknown[];
  plan(query: unknown): unknown;
}
interface Reply { ok: boolean; value?: { rendered?: Uint8Array; totalHits: number; hits: Float64Array }; error?: unknown }
interface ChannelRequest {
  searches: Array<{ segments: unknown; request: Record<string, unknown>; planId: number }>;
  plans: Array<[number, unknown]> | null;
  dropPlans: null;
}
interface Tree {
  name: string;
  searchBatch: (task: { searches: unknown[] }) => Reply[];
  channelBatch: ((request: ChannelRequest) => Reply[]) | undefined;
  /** Per query, the plan as the worker keeps it (a structured clone of the coordinator's). */
  plans: unknown[];
  /** CPU µs per search of each round. */
  cpuUs: number[];
}

async function loadTree(name: string, root: string | null, sab: SharedArrayBuffer): Promise<Tree> {
  const at = (rel: string) => (root === null ? new URL(`../${rel}`, import.meta.url).href : pathToFileURL(join(root, 'dist', rel)).href);
  const worker = (await import(at('workers/search.js'))) as { searchBatch: Tree['searchBatch']; channelBatch?: Tree['channelBatch'] };
  const harnessModule = (await import(at('test/support/engine-harness.js'))) as { InProcessIndex: new (m: unknown) => Harness };
  const reader = (await import(at('src/index/index.js'))) as { openSegment: typeof openSegment };
  // The coordinator plans with index-wide statistics; with one shard of one segment they are the segment's.
  const harness = new harnessModule.InProcessIndex({ properties: { text: { type: 'text' } } });
  harness.segments = [reader.openSegment('planning', sab)];
  const plans = corpus.queries.map((q) => deserialize(serialize(harness.plan({ match: { text: q } }))));
  // The first task names the segment's buffer inline; the worker keeps it, later tasks name it by id.
  const first = worker.searchBatch({ searches: [{ segments: [{ segment: SEGMENT_ID, liveDocs: null }], request: request(plans[0]), inline: { [SEGMENT_ID]: sab } }] });
  if (!first[0].ok) throw new Error(`${name}: ${JSON.stringify(first[0].error)}`);
  // The channel's kept plans, one per query, sent once (their ids are the queries' numbers).
  worker.channelBatch?.({ searches: [], plans: plans.map((p, i) => [i, p]), dropPlans: null });
  return { name, searchBatch: worker.searchBatch, channelBatch: worker.channelBatch, plans, cpuUs: [] };
}

const SEGMENT_ID = 'worker-search-ab';
const SPEC = {
  index: 'bench', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null,
};
const FETCH = { from: 0, spec: SPEC };
/** What plain-search posts for `{ query: { match }, size: 10 }` on a one-shard index (the plan is kept by id). */
function request(query: unknown): Record<string, unknown> {
  return {
    query, k: 10, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null, terminateAfter: 0,
    fetch: FETCH, deadline: 0, aggs: null, suggest: null,
  };
}
const REFS = [{ segment: SEGMENT_ID, liveDocs: null }];

/** The batch starting at query `from` as the worker receives it: a clone of the channel's request, naming kept plans. */
function receivedBatch(from: number): ChannelRequest {
  const searches = [];
  for (let i = 0; i < BATCH; i++) searches.push({ segments: REFS, request: request(null), planId: (from + i) % corpus.queries.length });
  return deserialize(serialize({ searches, plans: null, dropPlans: null })) as ChannelRequest;
}

/** The tree's worker answering a received batch (replies as its channel handler makes them). */
function answer(tree: Tree, batch: ChannelRequest): Reply[] {
  if (tree.channelBatch !== undefined) return tree.channelBatch(batch);
  for (const s of batch.searches) s.request.query = tree.plans[s.planId];
  return tree.searchBatch(batch);
}

/** The reply as the worker posts it: the rendered pages' buffers transferred (each once). */
function post(port: MessagePort, replies: Reply[]): void {
  const buffers = new Set<ArrayBuffer>();
  for (const r of replies) if (r.ok && r.value!.rendered !== undefined) buffers.add(r.value!.rendered.buffer as ArrayBuffer);
  port.postMessage({ replies, runMs: 0 }, [...buffers]);
}

/** Queries per timed slice: short enough that both trees' slices see the same load of the moment. */
const SLICE = 200;

/** One slice of the queries, from `from`, in batches; returns CPU and wall µs in all, and page bytes. */
async function slice(tree: Tree, from: number): Promise<{ cpu: number; wall: number; bytes: number }> {
  const batches = [];
  for (let q = from; q < Math.min(from + SLICE, corpus.queries.length); q += BATCH) batches.push(receivedBatch(q));
  const { port1, port2 } = new MessageChannel();
  let bytes = 0;
  let received = 0;
  const all = new Promise<void>((resolve) => {
    port2.on('message', (m: { replies: Reply[] }) => {
      for (const r of m.replies) bytes += r.value!.rendered!.byteLength;
      if (++received === batches.length) resolve();
    });
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of batches) post(port1, answer(tree, b));
  const wall = (performance.now() - t0) * 1000;
  const c = process.cpuUsage(c0);
  // The replies are received (by the "coordinator") after the timing.
  await all;
  port1.close();
  return { cpu: c.user + c.system, wall, bytes };
}

const corpus = generateBm25Corpus({ docs: DOCS, queries: QUERIES });
const t0 = performance.now();
const sab = oneSegmentSab(corpus.docs);
console.log(`built ${DOCS} docs into one segment (${formatNumber(sab.byteLength / 1e6)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const trees: Tree[] = [];
if (values.baseline !== undefined && values.only !== 'this') trees.push(await loadTree('baseline', values.baseline, sab));
trees.push(await loadTree('this tree', null, sab));

// Same answers, byte for byte: every query's page and count from both trees.
if (trees.length === 2) {
  for (let from = 0; from < corpus.queries.length; from += BATCH) {
    const [a, b] = trees.map((t) => answer(t, receivedBatch(from)));
    for (let i = 0; i < BATCH; i++) {
      const x = a[i].value!;
      const y = b[i].value!;
      if (x.totalHits !== y.totalHits || Buffer.compare(Buffer.from(x.rendered!), Buffer.from(y.rendered!)) !== 0) {
        throw new Error(`different answer for [${corpus.queries[from + i]}]`);
      }
    }
  }
  console.log(`same pages and totals for all ${corpus.queries.length} queries`);
}

// Warm-up (both trees' code optimised), then rounds of every slice, the trees interleaved slice by
// slice (the order flipped every slice). Per tree, each slice's cheapest run counts: the sum of
// those minima over the slices is the figure least moved by other jobs' bursts.
const slices = Math.ceil(corpus.queries.length / SLICE);
for (const t of trees) for (let i = 0; i < 2; i++) for (let sl = 0; sl < slices; sl++) await slice(t, sl * SLICE);
const probe = startCpuProbe();
let pageBytes = 0;
const best = trees.map(() => ({ cpu: new Array<number>(slices).fill(Infinity), wall: new Array<number>(slices).fill(Infinity) }));
for (let r = 0; r < ROUNDS; r++) {
  const roundCpu = trees.map(() => 0);
  for (let sl = 0; sl < slices; sl++) {
    for (let j = 0; j < trees.length; j++) {
      const ti = (j + r + sl) % trees.length;
      const m = await slice(trees[ti], sl * SLICE);
      best[ti].cpu[sl] = Math.min(best[ti].cpu[sl], m.cpu);
      best[ti].wall[sl] = Math.min(best[ti].wall[sl], m.wall);
      roundCpu[ti] += m.cpu;
      if (ti === trees.length - 1) pageBytes += m.bytes;
    }
  }
  trees.forEach((t, ti) => t.cpuUs.push(roundCpu[ti] / corpus.queries.length));
  console.log(`round ${r + 1}: ${trees.map((t) => `${t.name} ${t.cpuUs.at(-1)!.toFixed(1)} µs CPU`).join(', ')}`);
}
pageBytes /= ROUNDS * corpus.queries.length;
const cpu = probe.stop();

const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
const rows = trees.map((t, ti) => ({
  tree: t.name, min_cpu_us: sum(best[ti].cpu) / corpus.queries.length, median_cpu_us: median(t.cpuUs), min_round_cpu_us: min(t.cpuUs),
  min_wall_us: sum(best[ti].wall) / corpus.queries.length,
}));
for (const r of rows) console.log(`${r.tree}: CPU per search ${r.min_cpu_us.toFixed(1)} µs (slices' minima), rounds' median ${r.median_cpu_us.toFixed(1)}, best round ${r.min_round_cpu_us.toFixed(1)}; wall ${r.min_wall_us.toFixed(1)} (slices' minima)`);
const ratio = trees.length === 2 ? rows[1].min_cpu_us / rows[0].min_cpu_us : NaN;
const wins = trees.length === 2 ? trees[1].cpuUs.filter((c, i) => c < trees[0].cpuUs[i]).length : 0;
if (trees.length === 2) console.log(`this / baseline: CPU ×${ratio.toFixed(3)} (slices' minima), rounds' median ×${(rows[1].median_cpu_us / rows[0].median_cpu_us).toFixed(3)}; this tree cheaper in ${wins} of ${ROUNDS} rounds`);
console.log(`other processes used ${cpu.otherCores.toFixed(2)} cores meanwhile; ${formatNumber(pageBytes)} bytes per page`);

if (trees.length === 2 && !values['no-report']) {
  writeResult('worker-search-ab', { params: { docs: DOCS, queries: QUERIES, rounds: ROUNDS, batch: BATCH, baseline: values.baseline }, rows, ratio, wins, otherCores: cpu.otherCores });
  updateBenchmarksMd(
    'worker-search-ab',
    markdownTable(
      ['tree', 'CPU µs / search (slices\' minima)', 'rounds\' median', 'best round', 'wall µs / search (slices\' minima)'],
      rows.map((r) => [r.tree, formatNumber(r.min_cpu_us), formatNumber(r.median_cpu_us), formatNumber(r.min_round_cpu_us), formatNumber(r.min_wall_us)]),
    ),
    `A search worker's handler (\`workers/search.ts\` channelBatch: kept plans, query, fetch and render of 10 hits with \`_source\`, and the reply's \`postMessage\` with its pages transferred) in one process, this tree against ${values.baseline}, over the same ${DOCS}-doc force-merged segment, fed \`bench/http-search.ts\`'s requests (\`match\` over ${QUERIES} corpus queries, size 10, track_total_hits 10,000) in batches of ${BATCH} as the search channel delivers them; ${ROUNDS} rounds of every query in slices of ${SLICE}, the trees interleaved slice by slice; per tree the sum over slices of each slice's cheapest run (the figure other jobs move least), and the rounds' own figures. CPU is process.cpuUsage (this thread and V8's helpers) per search. This tree ÷ baseline, CPU per search: **×${ratio.toFixed(3)}**; cheaper in ${wins} of ${ROUNDS} rounds; same page bytes and totals for every query (checked). otherCores ${cpu.otherCores.toFixed(2)}. Run: \`node dist/bench/worker-search-ab.js --baseline <tree>\`.`,
  );
}
