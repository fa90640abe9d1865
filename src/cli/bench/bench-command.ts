/**
 * `threadsearch bench <scenario> --index …`: load against a running server over the user's own
 * index. One request of each kind is tried first (a scenario the index or server cannot serve
 * fails with the server's reason before any load), then a warm-up, then the measured runs —
 * closed loop per `--connections` value, or open loop per `--rate` value — with the server's
 * utilisation sampled from `_nodes/stats`, then the same closed loop against a fastify
 * hello-world in a child process: the client's own ceiling, so the report says when the load
 * generator, not the server, was the limit. Writes a report folder.
 */
import { CliError, EXIT } from '../cli-error.js';
import { EsClient, errorText } from '../es-client.js';
import { lineChart, type Chart } from '../report/charts.js';
import { formatNumber, markdownTable } from '../report/markdown-table.js';
import { checkReportDir, defaultReportDir, writeReport } from '../report/report-writer.js';
import { startUtilisationSampler, type UtilisationSummary } from '../report/utilisation.js';
import { distFile } from '../paths.js';
import { startProcess } from '../server-process.js';
import { profileIndex } from './index-profile.js';
import { runLoad, type LoadRunResult } from './load-run.js';
import { readQueryFile, sampleQueries } from './queries.js';
import { buildScenario, SCENARIOS, type RequestTemplate, type Scenario } from './scenarios.js';

export interface BenchCommandOptions {
  url: string;
  apiKey?: string;
  index: string;
  duration: number;
  amount?: number;
  connections: number[];
  rate?: number[];
  warmup: number;
  queries?: string;
  field?: string;
  model: string;
  bulkSize: number;
  mix: string;
  size: number;
  ceiling: boolean;
  out?: string;
  live: boolean;
}

/** The client is called the limit when the server got this share of hello-world's throughput. */
const CLIENT_LIMIT_SHARE = 0.8;

export interface BenchRun extends LoadRunResult {
  target: 'threadsearch' | 'fastify hello-world';
}

export interface BenchOutcome {
  runs: BenchRun[];
  ceiling: BenchRun[];
  utilisation: UtilisationSummary;
  verdict: string;
  serverVersion: string;
}

export function parseNumberList(name: string, raw: string, integer: boolean): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  const out = parts.map(Number);
  if (parts.length === 0 || out.some((n, i) => parts[i] === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))) {
    throw new CliError(`${name} must be a comma-separated list of ${integer ? 'integers' : 'numbers'} > 0, got [${raw.slice(0, 40)}]`, EXIT.usage);
  }
  return out;
}

/** One request of each template; a non-2xx answer stops the bench with the server's reason. */
async function tryOnce(client: EsClient, scenario: string, templates: readonly RequestTemplate[]): Promise<void> {
  const seen = new Set<RequestTemplate>();
  for (const t of templates) {
    if (seen.has(t)) continue;
    seen.add(t);
    const res = await client.request<any>(t.method, t.path, t.body(), { ndjson: t.contentType === 'application/x-ndjson', allow: [400, 404, 409, 429, 500, 503] });
    if (res.status >= 300) throw new CliError(`scenario [${scenario}]: the server answered ${res.status} ${errorText(res.body)}`);
    if (t.kind === 'bulk' && res.body?.errors === true) throw new CliError(`scenario [${scenario}]: the bulk request's items failed: ${errorText({ error: Object.values(res.body.items?.find((i: any) => Object.values(i)[0] && (Object.values(i)[0] as any).error) ?? {})[0] })}`);
  }
}

function verdictOf(runs: readonly BenchRun[], ceiling: readonly BenchRun[], openLoop: boolean): string {
  if (ceiling.length === 0) return 'The client ceiling was not measured (--no-ceiling).';
  const best = Math.max(...ceiling.map((c) => c.throughput_rps));
  if (openLoop) {
    const top = Math.max(...runs.map((r) => r.offered_rps ?? 0));
    return top > CLIENT_LIMIT_SHARE * best
      ? `**The client may be the limit:** the highest offered rate (${formatNumber(top)}/s) is over ${CLIENT_LIMIT_SHARE * 100}% of what this client sustains against a hello-world server (${formatNumber(best)}/s).`
      : `The client was not the limit: the highest offered rate (${formatNumber(top)}/s) is under ${CLIENT_LIMIT_SHARE * 100}% of the client's ceiling (${formatNumber(best)}/s against a hello-world server).`;
  }
  const limited = runs.filter((r) => {
    const c = ceiling.find((h) => h.connections === r.connections);
    return c !== undefined && r.throughput_rps >= CLIENT_LIMIT_SHARE * c.throughput_rps;
  });
  return limited.length > 0
    ? `**The client was the limit** at ${limited.map((r) => r.connections).join(', ')} connection(s): threadsearch answered at ≥ ${CLIENT_LIMIT_SHARE * 100}% of the rate this client reaches against a hello-world server, so the server may go faster than measured.`
    : `The server, not the client, was the limit: at every concurrency threadsearch answered under ${CLIENT_LIMIT_SHARE * 100}% of the client's hello-world rate (best ${formatNumber(best)}/s).`;
}

export async function measureBench(scenario: Scenario, opts: BenchCommandOptions, log: (line: string) => void): Promise<BenchOutcome> {
  const client = new EsClient(opts);
  const info = await client.info();
  const profile = await profileIndex(client, opts.index);
  const fields = opts.field ? [opts.field] : profile.textFields.length > 0 ? profile.textFields : profile.searchAsYouTypeFields;
  const queries = opts.queries ? readQueryFile(opts.queries) : sampleQueries(profile, fields, 1000);
  const templates = buildScenario(scenario, profile, queries, opts);
  await tryOnce(client, scenario, templates);
  const headers: Record<string, string> = opts.apiKey ? { authorization: `ApiKey ${opts.apiKey}` } : {};
  const base = { url: client.url, headers, requests: templates, live: opts.live };
  if (opts.warmup > 0) {
    log(`warm-up: ${opts.warmup} s closed loop at ${opts.connections[0]} connection(s)`);
    await runLoad({ ...base, connections: opts.connections[0], durationS: opts.warmup });
  }
  const sampler = await startUtilisationSampler(client);
  const runs: BenchRun[] = [];
  let utilisation: UtilisationSummary;
  const line = (r: BenchRun) =>
    `${r.target}: ${r.mode === 'open' ? `offered ${formatNumber(r.offered_rps)}/s, ` : ''}${r.connections} conn → ${formatNumber(r.throughput_rps)} ok/s, p50 ${formatNumber(r.latency_ms.p50)} ms, p99 ${formatNumber(r.latency_ms.p99)} ms, statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}, timeouts ${r.timeouts}`;
  try {
    if (opts.rate) {
      for (const rate of opts.rate) {
        runs.push({ target: 'threadsearch', ...(await runLoad({ ...base, connections: Math.max(...opts.connections), rate, durationS: opts.duration, amount: opts.amount })) });
        log(line(runs[runs.length - 1]));
      }
    } else {
      for (const connections of opts.connections) {
        runs.push({ target: 'threadsearch', ...(await runLoad({ ...base, connections, durationS: opts.duration, amount: opts.amount })) });
        log(line(runs[runs.length - 1]));
      }
    }
  } finally {
    utilisation = await sampler.stop();
  }
  const ceiling: BenchRun[] = [];
  if (opts.ceiling) {
    const hello = await startProcess(distFile('cli/bench/hello-world-server.js'), []);
    try {
      const helloRequest: RequestTemplate = { kind: 'search', method: 'POST', path: '/', contentType: 'application/json', body: () => '{}' };
      // The hello-world process gets the same JIT warm-up the server had (at most a second).
      if (opts.warmup > 0) await runLoad({ url: hello.url, headers: {}, requests: [helloRequest], connections: opts.connections[0], durationS: Math.min(1, opts.warmup) });
      for (const connections of opts.rate ? [Math.max(...opts.connections)] : opts.connections) {
        ceiling.push({ target: 'fastify hello-world', ...(await runLoad({ url: hello.url, headers: {}, requests: [helloRequest], connections, durationS: opts.duration, amount: opts.amount })) });
        log(line(ceiling[ceiling.length - 1]));
      }
    } finally {
      await hello.stop();
    }
  }
  return { runs, ceiling, utilisation, verdict: verdictOf(runs, ceiling, opts.rate !== undefined), serverVersion: info.version };
}

export function benchCharts(outcome: BenchOutcome, openLoop: boolean): Chart[] {
  const pct = (r: BenchRun, x: number) => (['p50', 'p90', 'p99'] as const).map((p) => ({ x, percentile: p, ms: r.latency_ms[p] }));
  if (openLoop) {
    return [
      lineChart({
        name: 'latency-vs-offered-load', title: 'Latency percentiles vs offered load (open loop)',
        rows: outcome.runs.flatMap((r) => pct(r, r.offered_rps ?? 0)),
        x: { field: 'x', title: 'offered load (requests/s)' }, y: { field: 'ms', title: 'latency from scheduled send (ms)' }, series: { field: 'percentile', title: 'percentile' },
      }),
      lineChart({
        name: 'throughput-vs-offered-load', title: 'Answered vs offered load',
        rows: outcome.runs.map((r) => ({ x: r.offered_rps ?? 0, rps: r.throughput_rps, series: 'threadsearch 2xx/s' })),
        x: { field: 'x', title: 'offered load (requests/s)' }, y: { field: 'rps', title: 'answered (2xx/s)' }, series: { field: 'series', title: '' },
      }),
    ];
  }
  return [
    lineChart({
      name: 'throughput-vs-connections', title: 'Throughput vs connections (closed loop), with the client ceiling',
      rows: [...outcome.runs, ...outcome.ceiling].map((r) => ({ connections: r.connections, rps: r.throughput_rps, target: r.target })),
      x: { field: 'connections', title: 'connections' }, y: { field: 'rps', title: 'answered (2xx/s)' }, series: { field: 'target', title: 'target' },
    }),
    lineChart({
      name: 'latency-vs-connections', title: 'threadsearch latency percentiles vs connections',
      rows: outcome.runs.flatMap((r) => pct(r, r.connections)),
      x: { field: 'x', title: 'connections' }, y: { field: 'ms', title: 'latency (ms)' }, series: { field: 'percentile', title: 'percentile' },
    }),
  ];
}

export function utilisationMarkdown(u: UtilisationSummary): string {
  if (!u.available) return `Server utilisation: not sampled — ${u.reason}.`;
  const rows = Object.entries(u.pools).map(([name, p]) => [name, p.threads, formatNumber(p.mean_active), p.max_active, p.max_queue, p.rejected, p.completed]);
  return [
    `Server utilisation (GET /_nodes/stats every second, ${u.samples.length} samples): process CPU ${u.mean_process_cpu_percent === null ? '–' : `${formatNumber(u.mean_process_cpu_percent)}%`} on average, heap peak ${u.max_heap_used_bytes === null ? '–' : `${formatNumber(u.max_heap_used_bytes / 2 ** 20)} MB`}.`,
    '',
    markdownTable(['pool', 'threads', 'mean active', 'max active', 'max queue', 'rejected', 'completed'], rows),
  ].join('\n');
}

export function runsTable(runs: readonly BenchRun[]): string {
  return markdownTable(
    ['target', 'mode', 'connections', 'offered/s', 'answered 2xx/s', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'non-2xx', 'errors', 'timeouts'],
    runs.map((r) => [
      r.target, r.mode, r.connections, r.offered_rps, r.throughput_rps, r.latency_ms.p50, r.latency_ms.p90, r.latency_ms.p99, r.latency_ms.p999, r.latency_ms.max,
      Object.entries(r.statuses).filter(([c]) => !c.startsWith('2')).reduce((n, [, v]) => n + v, 0), r.errors, r.timeouts,
    ]),
  );
}

export async function runBench(scenarioArg: string, opts: BenchCommandOptions): Promise<number> {
  if (!(SCENARIOS as readonly string[]).includes(scenarioArg)) throw new CliError(`unknown scenario [${scenarioArg.slice(0, 40)}]; one of ${SCENARIOS.join(', ')}`, EXIT.usage);
  const scenario = scenarioArg as Scenario;
  const out = opts.out ?? defaultReportDir('bench');
  checkReportDir(out);
  const outcome = await measureBench(scenario, opts, (l) => process.stderr.write(`${l}\n`));
  const openLoop = opts.rate !== undefined;
  const markdown = [
    `Scenario \`${scenario}\` over index \`${opts.index}\` on ${opts.url} (server ${outcome.serverVersion}); ${opts.amount !== undefined ? `${opts.amount} requests` : `${opts.duration} s`} per run after a ${opts.warmup} s warm-up; ${openLoop ? 'open loop: requests sent on a fixed schedule, latency counted from each scheduled send time (no coordinated omission; Rally\'s *latency* with a target-throughput)' : 'closed loop (autocannon): each connection sends its next request when the last one answered (latency here is Rally\'s *service time*: Rally\'s clients are connections)'}. Latencies are of 2xx answers.`,
    '',
    runsTable([...outcome.runs, ...outcome.ceiling]),
    '',
    outcome.verdict,
    '',
    utilisationMarkdown(outcome.utilisation),
  ].join('\n');
  const files = await writeReport(out, {
    command: 'bench', title: `threadsearch bench: ${scenario}`,
    params: { scenario, ...opts, apiKey: opts.apiKey ? '(set)' : undefined },
    server: { url: opts.url, version: outcome.serverVersion, index: opts.index },
    results: { runs: outcome.runs, client_ceiling: outcome.ceiling, verdict: outcome.verdict, utilisation: outcome.utilisation },
    markdown, charts: benchCharts(outcome, openLoop),
  });
  process.stdout.write(`${runsTable([...outcome.runs, ...outcome.ceiling])}\n\n${outcome.verdict}\n\nreport: ${files.join(', ')}\n`);
  return EXIT.ok;
}
