/**
 * Memory of learned-sparse vectors (issue 22): the ELSER-like synthetic corpus (performance.md §2.2:
 * ~120 non-zero tokens per document over a 30,522-token vocabulary) is bulk-loaded over HTTP into
 * one `sparse_vector` field of a fresh server, then refreshed, force-merged to one segment and
 * flushed. The field is excluded from `_source`, as ES's ELSER guides configure it, so what is
 * left is the feature postings. Reported: bytes per feature posting in the segment (from
 * `GET /_nodes/stats`, `feature_postings_memory_in_bytes`) and the server's RSS growth per posting
 * (VmRSS after flush − VmRSS idle), the issue's two targets (≤ 4 bytes, RSS ≤ 1.2× the segment's),
 * plus the load's docs/s through `_bulk`.
 *
 * With `--baseline <tree>` (a built tree, e.g. the session-start copy) each size is loaded into
 * that tree's server first, then into this one's, in the same run: only same-run ratios count on a
 * shared machine. Server CPU seconds over the load (all threads, and the main thread alone) show
 * where parsing the vectors costs. `--baseline-env K=V,…` starts the baseline's server with those
 * variables over the server defaults (e.g. the glibc settings it had), `--baseline` may be this tree.
 *
 * The metric is (RSS after flush − RSS idle) / postings, read 3 s after the flush. Part of that
 * growth does not scale with the postings (glibc's heap and the V8 young generations grown by any
 * load; code compiled for the build), so with several sizes the marginal figure between two sizes
 * of one tree is printed too, and RSS is read again 12 s later (V8 shrinks an idle young
 * generation on its own schedule).
 *
 * smaps is read idle and after flush, and the growth printed by kind of mapping (glibc's heap, V8's
 * heap pages, large anonymous mappings = segments' SharedArrayBuffers…); `--dump <dir>` writes
 * both mapping lists as JSON there, to follow one mapping from idle to after flush.
 *
 *   node dist/bench/memory-sparse.js [--docs 200000,1000000] [--label after] [--baseline /tmp/base49] [--dump /tmp/maps]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberListOption } from './lib/args.js';
import { SERVER_NODE_ARGS, startProcess } from '../src/cli/server-process.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkLoadEach, flushAndSettle, jsonCaller, parseEnvList, startThreadsearch, withEnv } from './lib/server-process.js';
import { procCpuSeconds, procMemory, readMappings, smapsBreakdown, type SmapsBreakdown } from './lib/smaps.js';
import { generateSparseCorpus, sparseVectorJson } from './lib/sparse-corpus.js';

const USAGE = 'node dist/bench/memory-sparse.js [--docs 200000,1000000] [--label after] [--baseline /tmp/base49] [--dump /tmp/maps]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, label: { type: 'string' }, baseline: { type: 'string' }, dump: { type: 'string' }, 'baseline-env': { type: 'string' } } });
const BASELINE_ENV = parseEnvList(values['baseline-env']);
/** RSS is read again this long after the first reading (3 s after flush): V8's memory reducer shrinks idle heaps on its own schedule. */
const LATER_MS = 12_000;
const SIZES = numberListOption(USAGE, values.docs, 'docs', [200000]);
const LABEL = values.label ?? 'after';
/** ~3.5 KB of JSON per vector: 1,000 per request keeps a body near 3.5 MB. */
const BATCH = 1000;
const MB = 1024 * 1024;

interface Row {
  tree: string;
  docs: number;
  /** Server CPU seconds over the load and refresh: every thread, and the main thread alone. */
  cpuS: number;
  mainCpuS: number;
  postings: number;
  loadDocsPerS: number;
  rssIdle: number;
  rssAfterFlush: number;
  peakOverall: number;
  featurePostingsBytes: number;
  segmentsBytes: number;
  /** V8 heaps after flush (`GET /_nodes/stats` process.mem): the main thread's and the workers' summed, used / total. */
  mainHeap: [number, number];
  workerHeaps: [number, number];
  smaps: SmapsBreakdown;
  smapsIdle: SmapsBreakdown;
  /** RSS LATER_MS after the first reading, and smaps then. */
  rssLater: number;
  smapsLater: SmapsBreakdown;
}

/** This tree's server, or the one of the built tree `baseline` (with the same node flags, as `npm start` gives both). */
function startServer(baseline: string | null) {
  if (baseline === null) return startThreadsearch([]);
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-ab-'));
  return withEnv(BASELINE_ENV, () => startProcess(join(baseline, 'dist', 'src', 'main.js'), ['--port', '0', '--no-security', '--data', dataDir], () => rmSync(dataDir, { recursive: true, force: true }), SERVER_NODE_ARGS));
}

async function measure(docs: number, corpus: ReturnType<typeof generateSparseCorpus>, baseline: string | null): Promise<Row> {
  const postings = corpus.docs.offsets[docs];
  const server = await startServer(baseline);
  try {
    const call = jsonCaller(server.url);
    await new Promise((r) => setTimeout(r, 500));
    const idle = procMemory(server.pid).rss;
    const smapsIdle = smapsBreakdown(server.pid);
    const mapsIdle = values.dump === undefined ? null : readMappings(server.pid);
    await call('PUT', '/sparse', { mappings: { _source: { excludes: ['v'] }, properties: { v: { type: 'sparse_vector' } } } });
    const body = (b: number) => {
      let out = '';
      for (let d = b * BATCH; d < Math.min(docs, (b + 1) * BATCH); d++) out += `{"index":{"_id":"${d}"}}\n{"v":${sparseVectorJson(corpus.docs, d)}}\n`;
      return out;
    };
    const cpu0 = procCpuSeconds(server.pid);
    const main0 = procCpuSeconds(server.pid, server.pid);
    const t0 = performance.now();
    await bulkLoadEach(`${server.url}/sparse`, Math.ceil(docs / BATCH), body, 2);
    await call('POST', '/sparse/_refresh');
    const loadS = (performance.now() - t0) / 1000;
    const cpuS = procCpuSeconds(server.pid) - cpu0;
    const mainCpuS = procCpuSeconds(server.pid, server.pid) - main0;
    await call('POST', '/sparse/_forcemerge?max_num_segments=1');
    await flushAndSettle(call, 'sparse', docs);
    const { rss, hwm } = procMemory(server.pid);
    const smaps = smapsBreakdown(server.pid);
    if (mapsIdle !== null) {
      mkdirSync(values.dump!, { recursive: true });
      const name = join(values.dump!, `${baseline === null ? 'this' : 'baseline'}-${docs}`);
      writeFileSync(`${name}-idle.json`, JSON.stringify(mapsIdle));
      writeFileSync(`${name}-flushed.json`, JSON.stringify(readMappings(server.pid)));
    }
    const stats = await call('GET', '/_nodes/stats/indices,process');
    await new Promise((r) => setTimeout(r, LATER_MS));
    const rssLater = procMemory(server.pid).rss;
    const smapsLater = smapsBreakdown(server.pid);
    const node = Object.values(stats.nodes as Record<string, any>)[0];
    const segments = node.indices.segments as Record<string, number>;
    const mem = node.process.mem as Record<string, number>;
    const row: Row = {
      tree: baseline === null ? 'this tree' : `${baseline}${values['baseline-env'] ? ` [${values['baseline-env']}]` : ''}`, docs, postings, cpuS, mainCpuS, loadDocsPerS: docs / loadS, rssIdle: idle, rssAfterFlush: rss, peakOverall: hwm,
      featurePostingsBytes: segments.feature_postings_memory_in_bytes, segmentsBytes: segments.memory_in_bytes, smaps, smapsIdle, rssLater, smapsLater,
      mainHeap: [mem.heap_used_in_bytes, mem.heap_total_in_bytes], workerHeaps: [mem.worker_heap_used_in_bytes, mem.worker_heap_total_in_bytes],
    };
    console.log(`${row.tree}: ${docs} vectors, ${postings} postings (load ${loadS.toFixed(1)} s, ${Math.round(row.loadDocsPerS)} docs/s, server CPU ${cpuS.toFixed(1)} s, main thread ${mainCpuS.toFixed(1)} s): feature postings ${formatNumber(row.featurePostingsBytes / postings)} B/posting, segments ${formatNumber(row.segmentsBytes / MB)} MB, RSS idle ${Math.round(idle / MB)} → ${Math.round(rss / MB)} MB after flush (${formatNumber((rss - idle) / postings)} B/posting), peak ${Math.round(hwm / MB)} MB`);
    const { top, ...sums } = smaps;
    const growth = (to: SmapsBreakdown) => Object.keys(sums).map((k) => `${k} ${formatNumber((to[k as keyof typeof sums] as number - (smapsIdle[k as keyof typeof sums] as number)) / MB)}`).join(', ');
    console.log(`  smaps growth idle → after flush: ${growth(smaps)} MB (feature postings ${formatNumber(row.featurePostingsBytes / MB)} MB)`);
    console.log(`  ${LATER_MS / 1000} s later: RSS ${Math.round(rssLater / MB)} MB (${formatNumber((rssLater - idle) / postings)} B/posting); smaps growth from idle: ${growth(smapsLater)} MB`);
    console.log(`  smaps after flush: ${Object.entries(sums).map(([k, v]) => `${k} ${formatNumber(v / MB)}`).join(', ')} MB; V8 heaps used/total: main ${formatNumber(row.mainHeap[0] / MB)} / ${formatNumber(row.mainHeap[1] / MB)} MB, workers ${formatNumber(row.workerHeaps[0] / MB)} / ${formatNumber(row.workerHeaps[1] / MB)} MB`);
    return row;
  } finally {
    await server.stop();
  }
}

const rows: Row[] = [];
for (const docs of SIZES) {
  const corpus = generateSparseCorpus({ docs, queries: 1 });
  if (values.baseline !== undefined) rows.push(await measure(docs, corpus, values.baseline));
  rows.push(await measure(docs, corpus, null));
}
writeResult(`memory-sparse-${LABEL}`, { params: { sizes: SIZES, batch: BATCH, concurrency: 2, baseline: values.baseline ?? null }, cases: rows });
const mb = (b: number) => formatNumber(b / MB);
/** RSS ÷ segment per posting between this row and the previous size of the same tree (what grows with the postings). */
function marginal(r: Row): string {
  const prev = rows.filter((p) => p.tree === r.tree && p.docs < r.docs).at(-1);
  if (prev === undefined) return '–';
  return formatNumber((r.rssAfterFlush - prev.rssAfterFlush) / (r.featurePostingsBytes - prev.featurePostingsBytes));
}
for (const r of rows) if (marginal(r) !== '–') console.log(`${r.tree}: marginal RSS ÷ segment per posting ${rows.find((p) => p.tree === r.tree)!.docs} → ${r.docs} vectors: ${marginal(r)}`);
updateBenchmarksMd(
  `memory-sparse-${LABEL}`,
  markdownTable(
    ['tree', 'vectors', 'postings', 'bulk docs/s', 'server CPU s (main thread)', 'feature postings MB', 'B / posting (segment)', 'segments MB', 'RSS idle MB', 'RSS after flush MB', 'RSS growth B / posting', 'RSS ÷ segment per posting', 'marginal RSS ÷ segment (from the smaller size)', `RSS ${LATER_MS / 1000} s later MB (÷ segment)`, 'peak MB', 'glibc heap MB', 'V8 heap pages MB (smaps)', 'main heap used/total MB', 'worker heaps used/total MB'],
    rows.map((r) => {
      const rssPerPosting = (r.rssAfterFlush - r.rssIdle) / r.postings;
      const segPerPosting = r.featurePostingsBytes / r.postings;
      return [
        r.tree, r.docs, r.postings, Math.round(r.loadDocsPerS), `${formatNumber(r.cpuS)} (${formatNumber(r.mainCpuS)})`, mb(r.featurePostingsBytes), formatNumber(segPerPosting), mb(r.segmentsBytes), mb(r.rssIdle),
        mb(r.rssAfterFlush), formatNumber(rssPerPosting), formatNumber(rssPerPosting / segPerPosting), marginal(r),
        `${mb(r.rssLater)} (${formatNumber((r.rssLater - r.rssIdle) / r.featurePostingsBytes)})`, mb(r.peakOverall), mb(r.smaps.heap), mb(r.smaps.anonSmall),
        `${mb(r.mainHeap[0])} / ${mb(r.mainHeap[1])}`, `${mb(r.workerHeaps[0])} / ${mb(r.workerHeaps[1])}`,
      ];
    }),
  ),
  `Issue 22 (${LABEL}): ELSER-like synthetic vectors (performance.md §2.2, seed 7, ~120 tokens each) bulk-loaded over HTTP (${BATCH} per request, 2 in flight) into one \`sparse_vector\` field excluded from \`_source\`, then refresh, force-merge to one segment, flush; segment bytes from \`GET /_nodes/stats\`, RSS from /proc. Targets: ≤ 4 B per posting in the segment, RSS growth per posting ≤ 1.2× that. Server CPU over the load and refresh, all threads (main thread). Growth per posting is read 3 s after the flush; the marginal ratio is between two sizes of one tree (what grows with the postings), and RSS is read again ${LATER_MS / 1000} s later. Run: \`node dist/bench/memory-sparse.js --docs ${SIZES.join(',')} --label ${LABEL}${values.baseline !== undefined ? ` --baseline ${values.baseline}` : ''}${values['baseline-env'] ? ` --baseline-env ${values['baseline-env']}` : ''}\`.`,
);
