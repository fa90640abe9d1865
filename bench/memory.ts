/**
 * Memory (issue 22): how much RAM a document costs. The deterministic synthetic corpus (short docs,
 * one `text` field and one `integer`, ≈256 bytes of JSON source each) is bulk-loaded into one
 * index of a fresh server, then refreshed, force-merged to one segment and flushed; the server's
 * RSS is read from /proc (VmRSS now, VmHWM for the peak) and its own breakdown from
 * `GET /_nodes/stats` (segment memory by kind, V8 heaps of the main and worker threads).
 *
 *   node dist/bench/memory.js [--docs 50000,200000,1000000] [--label before|after]
 *   node dist/bench/memory.js --from bench/results/memory-before.json   (re-renders a stored run)
 */
import { readFileSync } from 'node:fs';
import { benchArgs, numberListOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkLoad, flushAndSettle, jsonCaller, startThreadsearch } from './lib/server-process.js';
import { procMemory, smapsBreakdown, type SmapsBreakdown } from './lib/smaps.js';

const USAGE = 'node dist/bench/memory.js [--docs 50000,200000,1000000] [--label before|after]\n       node dist/bench/memory.js --from bench/results/memory-before.json';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, label: { type: 'string' }, 'max-memory': { type: 'string' }, from: { type: 'string' } } });
const SIZES = numberListOption(USAGE, values.docs, 'docs', [50000, 200000, 1000000]);
const stored = values.from ? (JSON.parse(readFileSync(values.from, 'utf8')) as { scenario: string; result: { cases: Row[] } }) : null;
const LABEL = values.label ?? stored?.scenario.replace(/^memory-/, '') ?? 'after';
const BATCH = 5000;
const LATER_MS = 10_000;
const MB = 1024 * 1024;

interface Row {
  docs: number;
  sourceBytes: number;
  rssIdle: number;
  rssAfterFlush: number;
  peakDuringLoad: number;
  peakOverall: number;
  bytesPerDoc: number;
  /**
   * RSS LATER_MS after the after-flush reading: past the idle collector's second collection, the
   * one V8 shrinks grown young generations at (src/cluster/idle-collector.ts SHRINK_MS). Whether
   * that collection has run by the after-flush reading depends on how fast the machine finished
   * the force-merge. Absent in older runs.
   */
  rssLater?: number;
  breakdown: Record<string, number>;
  /** /proc/<pid>/smaps after flush (absent in runs stored before it was recorded). */
  smaps?: SmapsBreakdown;
  smapsIdle?: SmapsBreakdown;
  /** After the bulk load and refresh, before the force-merge (absent in older runs). */
  smapsAfterLoad?: SmapsBreakdown;
  /** Right after the force-merge returned, before the flush and the idle collection. */
  smapsAfterMerge?: SmapsBreakdown;
  rssAfterMerge?: number;
  /** smaps at the highest RSS sampled (every 250 ms) during the load, and during the force-merge. */
  smapsLoadPeak?: SmapsBreakdown;
  smapsMergePeak?: SmapsBreakdown;
}

/** Samples RSS every 250 ms while `work` runs; returns smaps as they were at the highest sample. */
async function atPeak<T>(pid: number, work: Promise<T>): Promise<[T, SmapsBreakdown]> {
  let max = 0;
  let peak = smapsBreakdown(pid);
  const timer = setInterval(() => {
    const { rss } = procMemory(pid);
    if (rss > max) {
      max = rss;
      peak = smapsBreakdown(pid);
    }
  }, 250);
  try {
    return [await work, peak];
  } finally {
    clearInterval(timer);
  }
}

async function measure(docs: number): Promise<Row> {
  const corpus = generateBm25Corpus({ docs, queries: 1 });
  const server = await startThreadsearch(values['max-memory'] ? ['--max-memory', values['max-memory']] : []);
  try {
    const call = jsonCaller(server.url);
    await new Promise((r) => setTimeout(r, 500));
    const idle = procMemory(server.pid).rss;
    const smapsIdle = smapsBreakdown(server.pid);
    await call('PUT', '/mem', { mappings: { properties: { text: { type: 'text' }, n: { type: 'integer' } } } });
    let sourceBytes = 0;
    const bodies: string[] = [];
    for (let i = 0; i < docs; i += BATCH) {
      let body = '';
      for (let d = i; d < Math.min(docs, i + BATCH); d++) {
        const source = JSON.stringify({ text: corpus.docs[d].text, n: d });
        sourceBytes += Buffer.byteLength(source);
        body += `{"index":{"_id":"${corpus.docs[d].id}"}}\n${source}\n`;
      }
      bodies.push(body);
    }
    corpus.docs.length = 0;
    const t0 = performance.now();
    const [, smapsLoadPeak] = await atPeak(server.pid, (async () => {
      await bulkLoad(`${server.url}/mem`, bodies, 2);
      bodies.length = 0;
      await call('POST', '/mem/_refresh');
    })());
    const peakDuringLoad = procMemory(server.pid).hwm;
    const loadS = (performance.now() - t0) / 1000;
    const smapsAfterLoad = smapsBreakdown(server.pid);
    const [, smapsMergePeak] = await atPeak(server.pid, call('POST', '/mem/_forcemerge?max_num_segments=1'));
    const rssAfterMerge = procMemory(server.pid).rss;
    const smapsAfterMerge = smapsBreakdown(server.pid);
    await flushAndSettle(call, 'mem', docs);
    const { rss, hwm } = procMemory(server.pid);
    const smaps = smapsBreakdown(server.pid);
    const stats = await call('GET', '/_nodes/stats/indices,process,jvm');
    await new Promise((r) => setTimeout(r, LATER_MS));
    const rssLater = procMemory(server.pid).rss;
    const node = Object.values(stats.nodes as Record<string, any>)[0];
    const breakdown = flatten(node.indices?.segments ?? {}, 'segments');
    Object.assign(breakdown, flatten(node.process?.mem ?? {}, 'process.mem'), flatten(node.jvm?.mem ?? {}, 'jvm.mem'));
    const row: Row = {
      docs, sourceBytes, rssIdle: idle, rssAfterFlush: rss, peakDuringLoad, peakOverall: hwm, bytesPerDoc: (rss - idle) / docs, rssLater, breakdown, smaps, smapsIdle, smapsAfterLoad, smapsAfterMerge, rssAfterMerge, smapsLoadPeak, smapsMergePeak,
    };
    console.log(`${docs} docs (${formatNumber(sourceBytes / MB)} MB source, load ${loadS.toFixed(1)} s): RSS idle ${Math.round(idle / MB)} MB, after flush ${Math.round(rss / MB)} MB, peak during load ${Math.round(peakDuringLoad / MB)} MB, peak ${Math.round(hwm / MB)} MB, ${Math.round(row.bytesPerDoc)} B/doc; ${LATER_MS / 1000} s later ${Math.round(rssLater / MB)} MB, ${Math.round((rssLater - idle) / docs)} B/doc`);
    for (const [k, v] of Object.entries(breakdown)) if (typeof v === 'number' && v > MB) console.log(`  ${k}: ${formatNumber(v / MB)} MB`);
    console.log(`  RSS right after the force-merge ${Math.round(rssAfterMerge / MB)} MB`);
    for (const [name, sm] of [['idle', smapsIdle], ['load peak', smapsLoadPeak], ['after load', smapsAfterLoad], ['merge peak', smapsMergePeak], ['after merge', smapsAfterMerge], ['after flush', smaps]] as const) {
      const { top, ...sums } = sm;
      console.log(`  smaps ${name}: ${Object.entries(sums).map(([k, v]) => `${k} ${formatNumber(v / MB)}`).join(', ')} MB`);
      console.log(`    top anonymous: ${top.map((m) => `${formatNumber(m.rss / MB)}/${formatNumber(m.size / MB)}`).join(' ')} (RSS/size MB)`);
    }
    return row;
  } finally {
    await server.stop();
  }
}

/** `{a: {b_in_bytes: 1}}` → `{'prefix.a.b_in_bytes': 1}` (numbers only). */
function flatten(obj: Record<string, unknown>, prefix: string, out: Record<string, number> = {}): Record<string, number> {
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number') out[`${prefix}.${k}`] = v;
    else if (v !== null && typeof v === 'object') flatten(v as Record<string, unknown>, `${prefix}.${k}`, out);
  }
  return out;
}

const rows: Row[] = stored ? stored.result.cases : [];
if (!stored) for (const docs of SIZES) rows.push(await measure(docs));

const mb = (b: number) => formatNumber(b / MB);
const pick = (r: Row, k: string) => (r.breakdown[k] !== undefined ? mb(r.breakdown[k]) : '–');
// Memory figures do not depend on CPU load, so no otherCores probe (writeResult warns about that).
if (!stored) writeResult(`memory-${LABEL}`, { params: { sizes: SIZES, batch: BATCH, concurrency: 2 }, cases: rows });
updateBenchmarksMd(
  `memory-${LABEL}`,
  markdownTable(
    ['docs', 'source MB', 'RSS idle MB', 'RSS after flush MB', 'peak during load MB', 'peak MB', 'bytes/doc', `RSS ${LATER_MS / 1000} s later MB (bytes/doc)`, 'SABs MB', 'terms', 'postings', 'positions', 'norms', 'doc values + points', 'stored source', 'id map', 'seq_no/version', 'main heap used/total MB', 'worker heaps used/total MB'],
    rows.map((r) => [
      r.docs, mb(r.sourceBytes), mb(r.rssIdle), mb(r.rssAfterFlush), mb(r.peakDuringLoad), mb(r.peakOverall), Math.round(r.bytesPerDoc),
      r.rssLater === undefined ? '–' : `${mb(r.rssLater)} (${Math.round((r.rssLater - r.rssIdle) / r.docs)})`,
      pick(r, 'process.mem.shared_array_buffers_in_bytes'), pick(r, 'segments.terms_memory_in_bytes'), pick(r, 'segments.postings_memory_in_bytes'),
      pick(r, 'segments.positions_memory_in_bytes'), pick(r, 'segments.norms_memory_in_bytes'),
      r.breakdown['segments.doc_values_memory_in_bytes'] !== undefined ? mb(r.breakdown['segments.doc_values_memory_in_bytes'] + r.breakdown['segments.points_memory_in_bytes']) : '–',
      pick(r, 'segments.stored_fields_memory_in_bytes'), pick(r, 'segments.id_map_memory_in_bytes'), pick(r, 'segments.seq_no_version_memory_in_bytes'),
      `${pick(r, 'process.mem.heap_used_in_bytes')} / ${pick(r, 'process.mem.heap_total_in_bytes')}`,
      `${pick(r, 'process.mem.worker_heap_used_in_bytes')} / ${pick(r, 'process.mem.worker_heap_total_in_bytes')}`,
    ]),
  ),
  `Issue 22 (${LABEL}): synthetic short docs (one \`text\`, one \`integer\`) bulk-loaded over HTTP (5,000 per request, 2 in flight) into one index of a fresh server, then refresh, force-merge to one segment, flush; RSS from /proc (VmRSS after flush, VmHWM for the peaks), bytes/doc = (RSS after flush − RSS idle) / docs (read 3 s after the flush; the later column ${LATER_MS / 1000} s after that, once the idle collections have shrunk the heaps' young generations), the breakdown from \`GET /_nodes/stats\`. Run: \`node dist/bench/memory.js --label ${LABEL}\`.`,
);
