/**
 * Server utilisation during a run, sampled from `GET /_nodes/stats` (ES's shape: per node
 * `thread_pool.<pool>.{threads, active, queue, rejected, completed}`, `process.cpu.percent`,
 * `jvm.mem.heap_used_in_bytes`, `process.mem.total_virtual_in_bytes`, `os.mem`). A server without
 * the API (404/400/405) is reported as such rather than failing the run.
 */
import type { EsClient } from '../es-client.js';
import { errorText } from '../es-client.js';

export interface UtilisationSample {
  t_s: number;
  /** Per pool name (search, write, ml…): active threads, queued tasks, rejections so far. */
  pools: Record<string, { threads: number; active: number; queue: number; rejected: number; completed: number }>;
  process_cpu_percent: number | null;
  heap_used_bytes: number | null;
}

export interface UtilisationSummary {
  available: boolean;
  /** Why there is no data, when unavailable. */
  reason?: string;
  samples: UtilisationSample[];
  /** Per pool: mean and max of active threads / threads, max queue, rejections during the run. */
  pools: Record<string, { threads: number; mean_active: number; max_active: number; max_queue: number; rejected: number; completed: number }>;
  mean_process_cpu_percent: number | null;
  max_heap_used_bytes: number | null;
}

export interface UtilisationSampler {
  stop(): Promise<UtilisationSummary>;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function readNodesStats(body: any, t_s: number): UtilisationSample {
  const sample: UtilisationSample = { t_s, pools: {}, process_cpu_percent: null, heap_used_bytes: null };
  let cpu = 0;
  let heap = 0;
  for (const node of Object.values((body?.nodes ?? {}) as Record<string, any>)) {
    for (const [pool, s] of Object.entries((node?.thread_pool ?? {}) as Record<string, any>)) {
      const p = (sample.pools[pool] ??= { threads: 0, active: 0, queue: 0, rejected: 0, completed: 0 });
      p.threads += num(s?.threads) ?? 0;
      p.active += num(s?.active) ?? 0;
      p.queue += num(s?.queue) ?? 0;
      p.rejected += num(s?.rejected) ?? 0;
      p.completed += num(s?.completed) ?? 0;
    }
    const c = num(node?.process?.cpu?.percent);
    if (c !== null) sample.process_cpu_percent = (cpu += c);
    const h = num(node?.jvm?.mem?.heap_used_in_bytes);
    if (h !== null) sample.heap_used_bytes = (heap += h);
  }
  return sample;
}

export function summarise(samples: UtilisationSample[]): UtilisationSummary {
  const pools: UtilisationSummary['pools'] = {};
  const first = samples[0];
  const last = samples[samples.length - 1];
  for (const name of Object.keys(last?.pools ?? {})) {
    const series = samples.map((s) => s.pools[name]).filter((p) => p !== undefined);
    pools[name] = {
      threads: last.pools[name].threads,
      mean_active: series.reduce((a, p) => a + p.active, 0) / series.length,
      max_active: Math.max(...series.map((p) => p.active)),
      max_queue: Math.max(...series.map((p) => p.queue)),
      rejected: last.pools[name].rejected - (first.pools[name]?.rejected ?? 0),
      completed: last.pools[name].completed - (first.pools[name]?.completed ?? 0),
    };
  }
  const cpus = samples.map((s) => s.process_cpu_percent).filter((c): c is number => c !== null);
  const heaps = samples.map((s) => s.heap_used_bytes).filter((h): h is number => h !== null);
  return {
    available: true, samples, pools,
    mean_process_cpu_percent: cpus.length > 0 ? cpus.reduce((a, b) => a + b, 0) / cpus.length : null,
    max_heap_used_bytes: heaps.length > 0 ? Math.max(...heaps) : null,
  };
}

/** Samples every `intervalMs` until stop(); the first sample is taken before the run starts. */
export async function startUtilisationSampler(client: EsClient, intervalMs = 1000): Promise<UtilisationSampler> {
  const started = performance.now();
  const first = await client.request<any>('GET', '/_nodes/stats', undefined, { allow: [400, 404, 405] });
  if (first.status !== 200) {
    const reason = `server has no GET /_nodes/stats (${first.status} ${errorText(first.body)})`;
    return { stop: async () => ({ available: false, reason, samples: [], pools: {}, mean_process_cpu_percent: null, max_heap_used_bytes: null }) };
  }
  const samples: UtilisationSample[] = [readNodesStats(first.body, 0)];
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = client.request<any>('GET', '/_nodes/stats').then(
      (r) => void samples.push(readNodesStats(r.body, (performance.now() - started) / 1000)),
      () => undefined, // a sample lost under overload is a gap, not a failed run
    );
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
      try {
        samples.push(readNodesStats((await client.request<any>('GET', '/_nodes/stats')).body, (performance.now() - started) / 1000));
      } catch {
        // keep what was sampled
      }
      return summarise(samples);
    },
  };
}
