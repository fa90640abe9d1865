/**
 * Where the bulk load's RSS peak is (issue 22): memory.ts's load (synthetic short docs, 5,000 per
 * `_bulk`, 2 in flight, then refresh and a force-merge to one segment) with one sample a second of
 * `/proc/<pid>/status`, `/proc/<pid>/smaps` (bench/lib/smaps.ts) and `GET /_nodes/stats` (segments,
 * merges, the unrefreshed buffer, each thread's V8 heap and young generation, SAB bytes). Prints the
 * samples around the load's highest one and a summary: "big − SAB" is the resident anonymous
 * mappings ≥ 1 MB that are not published segments — build scratch, a merge's output in flight,
 * segments a merge replaced that some thread has not collected yet, V8 large objects.
 *
 *   node dist/bench/memory-timeline.js [--docs 1000000] [--label x] [--baseline /tmp/tree] [--tree /tmp/other] [--merge-sample-ms 1000] [--shards 1]
 *
 * `--merge-sample-ms`: /proc and smaps every this many ms from the final refresh on (the stats call
 * stays once a second): the force-merge's peak is a spike of a second or two at the merge's end,
 * between two one-second samples (issue 22). `--shards`: the index's `number_of_shards` (1, ES's
 * default): with several, each shard refreshes and merges on its own, so merges can overlap.
 *
 * With `--baseline`, the tree's own dist runs the same load right after (its server, this sampler);
 * `--tree` runs another tree's server in place of this one's (to run two trees in either order).
 * Writes bench/results/memory-timeline-<label>.json (every sample); no BENCHMARKS.md section.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { writeResult } from './lib/report.js';
import { bulkLoad, jsonCaller, startThreadsearch } from './lib/server-process.js';
import { procMemory, smapsBreakdown } from './lib/smaps.js';

const USAGE = 'node dist/bench/memory-timeline.js [--docs 1000000] [--label x] [--baseline /tmp/tree] [--tree /tmp/other] [--merge-sample-ms 1000] [--shards 1]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, label: { type: 'string' }, baseline: { type: 'string' }, tree: { type: 'string' }, 'merge-sample-ms': { type: 'string' }, shards: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 1_000_000);
const MERGE_SAMPLE_MS = numberOption(USAGE, values['merge-sample-ms'], 'merge-sample-ms', 1000, 10);
const SHARDS = numberOption(USAGE, values.shards, 'shards', 1, 1);
const LABEL = values.label ?? 'run';
const BATCH = 5000;
const MB = 1024 * 1024;

interface Sample {
  t: number;
  phase: 'load' | 'refresh' | 'merge';
  rss: number;
  anonLarge: number;
  anonSmall: number;
  mallocHeap: number;
  file: number;
  stats: null | {
    segments: number; segmentBytes: number; sab: number; buffered: number; merges: number; mergesDone: number; docs: number;
    mainUsed: number; mainTotal: number; mainYoung: number; workers: Array<{ used: number; total: number; young: number }>;
  };
}

interface Run { tree: string; loadS: number; loadHwm: number; hwm: number; samples: Sample[] }

async function run(tree: string | null): Promise<Run> {
  const start = tree === null
    ? startThreadsearch
    : ((await import(pathToFileURL(join(tree, 'dist', 'bench', 'lib', 'server-process.js')).href)) as { startThreadsearch: typeof startThreadsearch }).startThreadsearch;
  const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });
  const bodies: string[] = [];
  for (let i = 0; i < DOCS; i += BATCH) {
    let body = '';
    for (let d = i; d < Math.min(DOCS, i + BATCH); d++) body += `{"index":{"_id":"${corpus.docs[d].id}"}}\n${JSON.stringify({ text: corpus.docs[d].text, n: d })}\n`;
    bodies.push(body);
  }
  corpus.docs.length = 0;
  const server = await start([]);
  try {
    const call = jsonCaller(server.url);
    await new Promise((r) => setTimeout(r, 500));
    await call('PUT', '/mem', { settings: { number_of_shards: SHARDS }, mappings: { properties: { text: { type: 'text' }, n: { type: 'integer' } } } });
    const samples: Sample[] = [];
    let phase: Sample['phase'] = 'load';
    let busy = false;
    const t0 = performance.now();
    let lastStats: Sample['stats'] = null;
    let lastStatsAt = -Infinity;
    const tick = () => {
      if (busy) return;
      busy = true;
      const now = performance.now();
      // Between stats calls a sample carries the last stats it had (the /proc figures are its own).
      const withStats = now - lastStatsAt >= 1000;
      if (withStats) lastStatsAt = now;
      void sample(server.pid, withStats ? call : null, (now - t0) / 1000, phase)
        .then((s) => {
          if (withStats) lastStats = s.stats;
          else s.stats = lastStats;
          samples.push(s);
        })
        .finally(() => (busy = false));
    };
    let timer = setInterval(tick, 1000);
    try {
      await bulkLoad(`${server.url}/mem`, bodies, 2);
      bodies.length = 0;
      const loadS = (performance.now() - t0) / 1000;
      phase = 'refresh';
      if (MERGE_SAMPLE_MS !== 1000) {
        clearInterval(timer);
        timer = setInterval(tick, MERGE_SAMPLE_MS);
      }
      await call('POST', '/mem/_refresh');
      const loadHwm = procMemory(server.pid).hwm;
      phase = 'merge';
      await call('POST', '/mem/_forcemerge?max_num_segments=1');
      await new Promise((r) => setTimeout(r, 2000));
      return { tree: tree ?? 'this tree', loadS, loadHwm, hwm: procMemory(server.pid).hwm, samples };
    } finally {
      clearInterval(timer);
    }
  } finally {
    await server.stop();
  }
}

async function sample(pid: number, call: ReturnType<typeof jsonCaller> | null, t: number, phase: Sample['phase']): Promise<Sample> {
  const { rss } = procMemory(pid);
  const sm = smapsBreakdown(pid, 0);
  let stats: Sample['stats'] = null;
  if (call === null) return { t, phase, rss, anonLarge: sm.anonLarge, anonSmall: sm.anonSmall, mallocHeap: sm.heap, file: sm.file, stats };
  try {
    const s = await call('GET', '/_nodes/stats/indices,process,jvm');
    const n = Object.values(s.nodes as Record<string, any>)[0];
    stats = {
      segments: n.indices.segments.count, segmentBytes: n.indices.segments.memory_in_bytes, sab: n.process.mem.shared_array_buffers_in_bytes,
      buffered: n.indices.segments.index_writer_memory_in_bytes, merges: n.indices.merges?.current ?? 0, mergesDone: n.indices.merges?.total ?? 0, docs: n.indices.docs?.count ?? 0,
      mainUsed: n.jvm.mem.heap_used_in_bytes, mainTotal: n.jvm.mem.heap_committed_in_bytes, mainYoung: n.jvm.mem.pools?.young?.max_in_bytes ?? 0,
      workers: (n.process.mem.workers ?? []).map((w: any) => ({ used: w.heap_used_in_bytes, total: w.heap_total_in_bytes, young: w.pools?.young?.max_in_bytes ?? 0 })),
    };
  } catch {
    // a stats call that failed under load: the /proc figures stand alone
  }
  return { t, phase, rss, anonLarge: sm.anonLarge, anonSmall: sm.anonSmall, mallocHeap: sm.heap, file: sm.file, stats };
}

const mb = (b: number) => Math.round(b / MB);

function report(r: Run): void {
  const load = r.samples.filter((s) => s.phase !== 'merge' && s.stats !== null);
  const peakAt = load.reduce((b, s, i) => (s.rss > load[b].rss ? i : b), 0);
  const line = (s: Sample) => {
    const st = s.stats!;
    return `${s.t.toFixed(0).padStart(4)} ${s.phase.padEnd(7)} rss ${mb(s.rss)} | big ${mb(s.anonLarge)} (SAB ${mb(st.sab)}, big−SAB ${mb(s.anonLarge - st.sab)}) small ${mb(s.anonSmall)} malloc ${mb(s.mallocHeap)} | segments ${st.segments} merges ${st.merges}/${st.mergesDone} buffered ${mb(st.buffered)} | main ${mb(st.mainUsed)}/${mb(st.mainTotal)} (young ${mb(st.mainYoung)}) workers ${st.workers.map((w) => `${mb(w.used)}/${mb(w.total)}`).join(' ')}`;
  };
  const excess = load.map((s) => (s.anonLarge - s.stats!.sab) / MB).sort((a, b) => a - b);
  const q = (p: number) => Math.round(excess[Math.floor(p * (excess.length - 1))] ?? 0);
  console.log(`${r.tree}: load ${r.loadS.toFixed(1)} s, VmHWM after the load ${mb(r.loadHwm)} MB, overall ${mb(r.hwm)} MB; segments at the end of the load ${load.at(-1)?.stats?.segments}; big−SAB during the load median ${q(0.5)} p90 ${q(0.9)} max ${q(1)} MB`);
  for (let i = Math.max(0, peakAt - 3); i <= Math.min(load.length - 1, peakAt + 3); i++) console.log(`${i === peakAt ? '*' : ' '}${line(load[i])}`);
  const merge = r.samples.filter((s) => s.phase === 'merge' && s.stats !== null);
  if (merge.length === 0) return;
  const top = merge.reduce((b, s) => (s.rss > b.rss ? s : b));
  console.log(`  merge: sources ${mb(merge[0].stats!.sab)} MB SAB in ${merge[0].stats!.segments} segments; highest sample:`);
  console.log(` ${line(top)}`);
}

const runs: Run[] = [await run(values.tree ?? null)];
report(runs[0]);
if (values.baseline !== undefined) {
  runs.push(await run(values.baseline));
  report(runs[1]);
}
// Memory figures do not depend on CPU load, so no otherCores probe (writeResult warns about that).
writeResult(`memory-timeline-${LABEL}`, { params: { docs: DOCS, batch: BATCH, concurrency: 2, shards: SHARDS }, runs });
