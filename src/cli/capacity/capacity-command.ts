/**
 * `threadsearch capacity --docs N --qps Q`: sizes a deployment by measuring on this machine. For
 * every search threads × shards pair it starts a threadsearch child process with those settings,
 * indexes the sample, measures the maximum throughput (closed loop) and the latency at fractions of
 * the target (open loop), then picks the smallest configuration — fewest threads, then fewest
 * shards — whose maximum clears the target with the asked headroom and whose p99 at the target is
 * under --p99. With --ingest-docs-per-s it also sweeps model allocations × threads per allocation
 * for ingest through the inference pipeline. The extrapolation to larger machines and data is a
 * labelled estimate (extrapolation.ts) next to the points it rests on.
 */
import { availableParallelism } from 'node:os';
import { CliError, EXIT } from '../cli-error.js';
import { parseMix } from '../bench/scenarios.js';
import { lineChart, type Chart } from '../report/charts.js';
import { formatNumber, markdownTable } from '../report/markdown-table.js';
import { checkReportDir, defaultReportDir, writeReport } from '../report/report-writer.js';
import { extrapolate, type Extrapolation } from './extrapolation.js';
import { measureIngest, type IngestPoint } from './ingest-sweep.js';
import { sampleData } from './sample-data.js';
import { measureSearchPoint, type SearchPoint } from './search-sweep.js';

export interface CapacityOptions {
  docs: number;
  qps: number;
  p99: number;
  headroom: number;
  data?: string;
  mix: string;
  threads: number[];
  shards: number[];
  connections: number;
  duration: number;
  ingestDocsPerS?: number;
  ingestDocs: number;
  allocations: number[];
  threadsPerAllocation: number[];
  /** Run the ingest sweep's deployments in simulation mode (a transformer's cost). */
  simulate?: 'bert-base';
  extrapolateDocs?: number[];
  extrapolateCores: number[];
  note?: string;
  out?: string;
}

/** Offered load as fractions of the target: below, at and above it, to show the knee. */
const LOADS = [0.5, 1, 1.5];

export interface CapacityOutcome {
  sample: string;
  points: SearchPoint[];
  chosen: SearchPoint | null;
  ingest: IngestPoint[];
  ingestChosen: IngestPoint | null;
  extrapolation: Extrapolation;
}

export function meetsTarget(p: SearchPoint, o: Pick<CapacityOptions, 'qps' | 'p99' | 'headroom'>): boolean {
  const atTarget = p.offered[LOADS.indexOf(1)];
  return p.max.throughput_rps >= o.qps * (1 + o.headroom) && atTarget !== undefined && atTarget.latency_ms.p99 <= o.p99 && atTarget.throughput_rps >= 0.95 * o.qps;
}

export async function measureCapacity(o: CapacityOptions, log: (l: string) => void): Promise<CapacityOutcome> {
  const [, writes] = parseMix(o.mix);
  const data = await sampleData(o.data, o.docs);
  log(`sample: ${data.description}`);
  const points: SearchPoint[] = [];
  for (const threads of o.threads) {
    for (const shards of o.shards) {
      points.push(await measureSearchPoint(data, threads, shards, {
        scenario: writes > 0 ? 'mixed' : 'match', mix: o.mix, connections: o.connections, durationS: o.duration, qps: o.qps, loads: LOADS,
      }, log));
    }
  }
  const chosen = points.find((p) => meetsTarget(p, o)) ?? null;
  // The first configuration again over a tenth of the documents: the extrapolation's size fit.
  const small = { ...data, docs: data.docs.slice(0, Math.max(1, Math.floor(data.docs.length / 10))) };
  log(`size point: ${small.docs.length} documents`);
  const sizePoint = await measureSearchPoint(small, o.threads[0], o.shards[0], {
    scenario: writes > 0 ? 'mixed' : 'match', mix: o.mix, connections: o.connections, durationS: o.duration, qps: o.qps, loads: [],
  }, log);
  let ingest: IngestPoint[] = [];
  let ingestChosen: IngestPoint | null = null;
  if (o.ingestDocsPerS !== undefined) {
    const ingestData = { ...data, docs: data.docs.slice(0, o.ingestDocs) };
    ingest = await measureIngest(ingestData, o.allocations, o.threadsPerAllocation, Math.max(...o.threads), log, o.simulate ?? null);
    ingestChosen = [...ingest].sort((a, b) => a.allocations * a.threads_per_allocation - b.allocations * b.threads_per_allocation || a.allocations - b.allocations)
      .find((p) => p.docs_per_s >= o.ingestDocsPerS!) ?? null;
  }
  const extrapolation = extrapolate(points, sizePoint, o.qps, o.headroom, o.extrapolateDocs ?? [o.docs, o.docs * 10, o.docs * 100], o.extrapolateCores, availableParallelism());
  return { sample: data.description, points, chosen, ingest, ingestChosen, extrapolation };
}

export function capacityCharts(c: CapacityOutcome): Chart[] {
  const charts: Chart[] = [
    lineChart({
      name: 'throughput-vs-threads-shards', title: 'Maximum search throughput vs search threads, per shard count',
      rows: c.points.map((p) => ({ threads: p.threads, qps: p.max.throughput_rps, shards: `${p.shards} shard${p.shards === 1 ? '' : 's'}` })),
      x: { field: 'threads', title: 'search threads' }, y: { field: 'qps', title: 'answered searches/s (closed loop)' }, series: { field: 'shards', title: 'shards' },
    }),
    lineChart({
      name: 'latency-vs-offered-load', title: 'p99 latency vs offered load (open loop), per configuration',
      rows: c.points.flatMap((p) => p.offered.map((r) => ({ offered: r.offered_rps ?? 0, p99: r.latency_ms.p99, config: `${p.threads} thr × ${p.shards} sh` }))),
      x: { field: 'offered', title: 'offered load (requests/s)' }, y: { field: 'p99', title: 'p99 latency from scheduled send (ms)', log: true }, series: { field: 'config', title: 'threads × shards' },
    }),
  ];
  if (c.ingest.length > 0) {
    charts.push(lineChart({
      name: 'ingest-vs-allocations', title: `Ingest through the inference pipeline vs model allocations${c.ingest[0]?.simulate ? ` (simulated ${c.ingest[0].simulate})` : ''}`,
      rows: c.ingest.map((p) => ({ allocations: p.allocations, docs_per_s: p.docs_per_s, threads: `${p.threads_per_allocation} thread(s)/allocation` })),
      x: { field: 'allocations', title: 'model allocations' }, y: { field: 'docs_per_s', title: 'documents/s' }, series: { field: 'threads', title: 'threads per allocation' },
    }));
  }
  return charts;
}

export function capacityMarkdown(c: CapacityOutcome, o: CapacityOptions): string {
  const target = `${o.qps} searches/s${o.mix !== '1:0' ? ` (mix ${o.mix} reads:writes)` : ''} with ${Math.round(o.headroom * 100)}% headroom and p99 ≤ ${o.p99} ms`;
  const verdict = c.chosen
    ? `**Smallest configuration that meets ${target}: ${c.chosen.threads} search thread(s) × ${c.chosen.shards} shard(s)** — measured maximum ${formatNumber(c.chosen.max.throughput_rps)}/s (headroom ${formatNumber((c.chosen.max.throughput_rps / o.qps - 1) * 100)}% over the target), p99 ${formatNumber(c.chosen.offered[1].latency_ms.p99)} ms at ${o.qps}/s offered.`
    : `**No measured configuration meets ${target}** on this machine; see the extrapolation for what a larger one would need.`;
  const sections = [
    o.note ? `> ${o.note}\n` : '',
    `Sample: ${c.sample}. Each configuration ran in a fresh threadsearch child process; the load generator ran in this process on the same machine (${availableParallelism()} cores). Maximum = closed loop at ${o.connections} connections for ${o.duration} s after a warm-up; latency = open loop over the same ${o.connections} connections at ${LOADS.map((f) => `${f}×`).join(', ')} the target, counted from each request's scheduled send time. otherCores = CPU other processes used during the maximum run (the machine's noise; above ~0.2 on 2 cores the figures are not comparable with a quiet run).`,
    '',
    verdict,
    '',
    '## Measured: search threads × shards',
    '',
    markdownTable(
      ['threads', 'shards', 'max/s', 'p99 at max (ms)', ...LOADS.map((f) => `p99 at ${formatNumber(o.qps * f)}/s`), 'load docs/s', 'RSS after load MB', 'otherCores', 'meets target'],
      c.points.map((p) => [p.threads, p.shards, p.max.throughput_rps, p.max.latency_ms.p99, ...p.offered.map((r) => r.latency_ms.p99), p.load_docs_per_s, p.rss_after_load_bytes / 2 ** 20, p.otherCores.toFixed(2), meetsTarget(p, o) ? 'yes' : 'no']),
    ),
  ];
  if (c.ingest.length > 0) {
    sections.push('', `## Measured: ingest through the inference pipeline (.sparse_model_2${o.simulate ? `, simulation mode: ${o.simulate} cost` : ''})`, '',
      ...(o.simulate ? [`Simulated: every inference also ran a ${o.simulate} graph with random weights over the same tokens, so these docs/s are an ELSER-class model's on this machine; the vectors were the built-in model's.`, ''] : []),
      markdownTable(['allocations', 'threads/allocation', 'docs', 'docs/s', 'seconds'], c.ingest.map((p) => [p.allocations, p.threads_per_allocation, p.docs, p.docs_per_s, p.seconds])),
      '',
      c.ingestChosen
        ? `Smallest deployment meeting ${o.ingestDocsPerS} docs/s: **${c.ingestChosen.allocations} allocation(s) × ${c.ingestChosen.threads_per_allocation} thread(s)** (${formatNumber(c.ingestChosen.docs_per_s)} docs/s measured).`
        : `No measured deployment reaches ${o.ingestDocsPerS} docs/s on this machine.`);
  }
  const x = c.extrapolation;
  sections.push('', `## Extrapolation — ${x.label}`, '', 'Model:', '', ...x.model.map((m) => `- ${m}`), '',
    'It assumes the larger machine has the same per-core speed as this one, that the load generator and other processes are elsewhere, and that the data has this sample\'s shape (document length, vocabulary); it ignores page-cache and NUMA effects and the JIT/GC behaviour of larger heaps. Treat it as a starting point to measure, not a result.', '',
    markdownTable(['cores', 'docs', 'estimated max/s', 'estimated memory GB'], x.estimates.map((e) => [e.cores, e.docs, e.est_max_qps, e.est_memory_gb])), '',
    `Cores the target (${o.qps}/s + ${Math.round(o.headroom * 100)}%) needs by the model: ${x.cores_needed.map((n) => `${formatNumber(n.docs)} docs → ${n.cores ?? '> 256'}`).join('; ')}.`, '',
    `Measured points it rests on: ${x.points.map((p) => `${p.threads} thr × ${p.shards} sh × ${formatNumber(p.docs)} docs = ${formatNumber(p.max_qps)}/s`).join('; ')}.`);
  return sections.join('\n');
}

export async function runCapacity(o: CapacityOptions): Promise<number> {
  if (o.threads.some((t) => t > 64) || o.shards.some((s) => s > 64)) throw new CliError('--threads and --shards values must be ≤ 64', EXIT.usage);
  parseMix(o.mix);
  const out = o.out ?? defaultReportDir('capacity');
  checkReportDir(out);
  const outcome = await measureCapacity(o, (l) => process.stderr.write(`${l}\n`));
  const markdown = capacityMarkdown(outcome, o);
  const files = await writeReport(out, {
    command: 'capacity', title: `threadsearch capacity: ${o.docs} documents at ${o.qps} searches/s`,
    params: { ...o },
    server: { started_per_configuration: true, search_threads: o.threads, shards: o.shards, ml_allocations: o.allocations, threads_per_allocation: o.threadsPerAllocation },
    results: outcome, markdown, charts: capacityCharts(outcome),
  });
  process.stdout.write(`${markdown.split('\n').find((l) => l.startsWith('**')) ?? ''}\n\nreport: ${files.join(', ')}\n`);
  const met = outcome.chosen !== null && (o.ingestDocsPerS === undefined || outcome.ingestChosen !== null);
  return met ? EXIT.ok : EXIT.partial;
}
