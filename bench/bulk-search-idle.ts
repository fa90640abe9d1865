/**
 * What ES's search idle (`index.search.idle.after`) does to a bulk load nobody searches: the
 * synthetic short docs as `_bulk` requests of 5,000 with two in flight, then a final `_refresh`,
 * into an index whose shard goes search idle `--idle-after` after its creation (ES's default is 30s;
 * the bench shortens it so a load of a minute or less shows the difference) against the same index
 * with `refresh_interval: 1s` set explicitly, which keeps every scheduled refresh (what the server
 * did before search idle). Each case a fresh server; the cases alternate over `--rounds`, the order
 * flipped each round. Reports docs/s until searchable, refreshes and merges, the segments left, the
 * server's CPU and its peak RSS (VmHWM) through the final refresh. `--docs-per-s` paces the load
 * instead (one request every 5,000 / rate seconds, as a steady stream of writes sends them).
 *
 *   node dist/bench/bulk-search-idle.js [--docs 1000000] [--rounds 2] [--idle-after 5s] [--docs-per-s 0]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, jsonCaller, startThreadsearch } from './lib/server-process.js';
import { procCpuSeconds, procMemory } from './lib/smaps.js';

const USAGE = 'node dist/bench/bulk-search-idle.js [--docs 1000000] [--rounds 2] [--idle-after 5s] [--docs-per-s 0]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' }, rounds: { type: 'string' }, 'idle-after': { type: 'string' }, 'docs-per-s': { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 1_000_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 2);
const IDLE_AFTER = values['idle-after'] ?? '5s';
const DOCS_PER_S = numberOption(USAGE, values['docs-per-s'], 'docs-per-s', 0, 0);
const BATCH = 5000;
const MB = 1024 * 1024;

const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 });
const bodies = bulkBodies('bulk', corpus.docs, BATCH);
corpus.docs.length = 0;

const CASES = [
  { name: `search idle after ${IDLE_AFTER}`, settings: { 'index.search.idle.after': IDLE_AFTER } },
  { name: 'refresh_interval: 1s set explicitly (every scheduled refresh)', settings: { 'index.search.idle.after': IDLE_AFTER, refresh_interval: '1s' } },
] as const;

interface Row { case: string; round: number; docsPerS: number; refreshes: number; merges: number; mergeS: number; segments: number; cpuS: number; hwmMb: number; otherCores: number }

async function runCase(c: (typeof CASES)[number], round: number): Promise<Row> {
  const server = await startThreadsearch();
  try {
    const call = jsonCaller(server.url);
    await call('PUT', '/bulk', { settings: { number_of_shards: 1, ...c.settings }, mappings: { properties: { text: { type: 'text' } } } });
    const probe = startCpuProbe({ pids: [server.pid] });
    const cpu0 = procCpuSeconds(server.pid);
    const t0 = performance.now();
    if (DOCS_PER_S > 0) await pacedLoad(server.url, t0);
    else await bulkLoad(server.url, bodies, 2);
    await call('POST', '/bulk/_refresh');
    const seconds = (performance.now() - t0) / 1000;
    const cpu = probe.stop();
    const cpuS = procCpuSeconds(server.pid) - cpu0;
    const hwm = procMemory(server.pid).hwm;
    const count = (await call('GET', '/bulk/_count')).count as number;
    if (count !== DOCS) throw new Error(`expected ${DOCS} docs, found ${count}`);
    const stats = (await call('GET', '/bulk/_stats/refresh,merge,segments')).indices.bulk.primaries;
    const row: Row = {
      case: c.name, round, docsPerS: DOCS / seconds, refreshes: stats.refresh.total, merges: stats.merges.total, mergeS: stats.merges.total_time_in_millis / 1000,
      segments: stats.segments.count, cpuS, hwmMb: hwm / MB, otherCores: cpu.otherCores,
    };
    console.log(`round ${round} ${c.name}: ${Math.round(row.docsPerS)} docs/s, ${row.refreshes} refreshes, ${row.merges} merges (${row.mergeS.toFixed(1)} s), ${row.segments} segments, server CPU ${row.cpuS.toFixed(1)} s, VmHWM ${Math.round(row.hwmMb)} MB, otherCores ${row.otherCores.toFixed(2)}`);
    return row;
  } finally {
    await server.stop();
  }
}

/** One request at a time, each sent BATCH / DOCS_PER_S seconds after the previous one was due. */
async function pacedLoad(url: string, t0: number): Promise<void> {
  const everyMs = (BATCH / DOCS_PER_S) * 1000;
  for (let i = 0; i < bodies.length; i++) {
    const wait = t0 + i * everyMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bodies[i] });
    if (!res.ok || ((await res.json()) as { errors: boolean }).errors) throw new Error(`_bulk ${i} failed: ${res.status}`);
  }
}

const rows: Row[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? CASES : [...CASES].reverse();
  for (const c of order) rows.push(await runCase(c, round));
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const summary = CASES.map((c) => {
  const r = rows.filter((x) => x.case === c.name);
  return {
    case: c.name, docsPerS: median(r.map((x) => x.docsPerS)), refreshes: median(r.map((x) => x.refreshes)), merges: median(r.map((x) => x.merges)),
    mergeS: median(r.map((x) => x.mergeS)), segments: median(r.map((x) => x.segments)), cpuS: median(r.map((x) => x.cpuS)), hwmMb: median(r.map((x) => x.hwmMb)),
  };
});
const [idle, explicit] = summary;
const ratio = (a: number, b: number) => (b === 0 ? '—' : `${formatNumber(a / b)}×`);
const scenario = DOCS_PER_S > 0 ? 'bulk-search-idle-paced' : 'bulk-search-idle';
const how = DOCS_PER_S > 0 ? `one request of 5,000 every ${formatNumber(BATCH / DOCS_PER_S)} s (${DOCS_PER_S.toLocaleString('en')} docs/s)` : '5,000 per request, 2 in flight';
writeResult(scenario, { params: { docs: DOCS, rounds: ROUNDS, idleAfter: IDLE_AFTER, batch: BATCH, concurrency: DOCS_PER_S > 0 ? 1 : 2, docsPerS: DOCS_PER_S }, runs: rows, summary });
updateBenchmarksMd(
  scenario,
  markdownTable(
    ['case', 'docs/s until searchable', 'refreshes', 'merges (s)', 'segments left', 'server CPU s', 'peak RSS MB'],
    [
      ...summary.map((s) => [s.case, Math.round(s.docsPerS), s.refreshes, `${s.merges} (${formatNumber(s.mergeS)})`, s.segments, formatNumber(s.cpuS), Math.round(s.hwmMb)]),
      ['search idle ÷ explicit', ratio(idle.docsPerS, explicit.docsPerS), ratio(idle.refreshes, explicit.refreshes), ratio(idle.mergeS, explicit.mergeS), '', ratio(idle.cpuS, explicit.cpuS), ratio(idle.hwmMb, explicit.hwmMb)],
    ],
  ),
  `${DOCS.toLocaleString('en')} short synthetic docs over HTTP \`_bulk\` (${how}) into one shard nobody searches, timed until a final \`_refresh\`; medians of ${ROUNDS} rounds, a fresh server per case, the order flipped each round (worst otherCores ${Math.max(...rows.map((r) => r.otherCores)).toFixed(2)}). "search idle": the shard goes search idle ${IDLE_AFTER} after the index is created (\`index.search.idle.after\`; ES's default, 30s, shows the same from a load's 30th second), so its scheduled refreshes stop and only the indexing buffer (\`indices.memory.index_buffer_size\`, 48mb) makes segments. "explicit": the same index with \`refresh_interval: 1s\` set, as ES keeps refreshing such an index (and as this server did before). Peak RSS is the server's VmHWM through the final refresh. Run: \`node dist/bench/bulk-search-idle.js --docs ${DOCS} --rounds ${ROUNDS} --idle-after ${IDLE_AFTER}${DOCS_PER_S > 0 ? ` --docs-per-s ${DOCS_PER_S}` : ''}\`.`,
);
