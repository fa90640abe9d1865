/**
 * One point of the search sweep: a fresh threadsearch child process with `threads` search threads,
 * the sample documents in an index of `shards` shards, then the bench scenario measured closed loop
 * (the most this configuration answers) and open loop at fractions of the target rate (its latency
 * at and around the target). The server's resident memory is read before and after loading, for
 * the memory-per-document figure of the extrapolation.
 */
import { readFileSync } from 'node:fs';
import { CliError } from '../cli-error.js';
import { EsClient } from '../es-client.js';
import { bulkLoad } from '../load/bulk-loader.js';
import { profileIndex } from '../bench/index-profile.js';
import { runLoad, type LoadRunResult } from '../bench/load-run.js';
import { sampleQueries } from '../bench/queries.js';
import { buildScenario, type Scenario } from '../bench/scenarios.js';
import { startCpuProbe } from '../report/machine.js';
import { startThreadsearch } from '../server-process.js';
import { iterate, type SampleData } from './sample-data.js';

export interface SearchPoint {
  threads: number;
  shards: number;
  docs: number;
  load_docs_per_s: number;
  /** Server RSS growth over the load, bytes. */
  rss_growth_bytes: number;
  rss_after_load_bytes: number;
  max: LoadRunResult;
  /** Open-loop runs at `loads` × the target. */
  offered: LoadRunResult[];
  /** CPU other processes used during the closed-loop run, in cores (the machine's noise). */
  otherCores: number;
}

export interface SearchSweepOptions {
  scenario: Scenario;
  mix: string;
  connections: number;
  durationS: number;
  qps: number;
  loads: readonly number[];
}

const INDEX = 'capacity';

export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

export async function measureSearchPoint(data: SampleData, threads: number, shards: number, o: SearchSweepOptions, log: (l: string) => void): Promise<SearchPoint> {
  const server = await startThreadsearch(['--threads', String(threads)]);
  try {
    const client = new EsClient({ url: server.url });
    await client.request('PUT', `/${INDEX}`, { settings: { number_of_shards: shards, refresh_interval: '-1' } });
    const rss0 = rssBytes(server.pid);
    const loaded = await bulkLoad(client, iterate(data.docs), { index: INDEX, batch: 1000, concurrency: 2, maxRetries: 8 });
    if (loaded.failed > 0) throw new CliError(`capacity: ${loaded.failed} sample documents were rejected (${Object.keys(loaded.failuresByType).join(', ')}); fix the data first (threadsearch load shows each failure)`);
    await client.request('POST', `/${INDEX}/_refresh`);
    const rss1 = rssBytes(server.pid);
    const profile = await profileIndex(client, INDEX);
    const queries = sampleQueries(profile, profile.textFields, 1000);
    const requests = buildScenario(o.scenario, profile, queries, { model: '.sparse_model_2', bulkSize: 50, mix: o.mix, size: 10 });
    const base = { url: server.url, headers: {}, requests };
    await runLoad({ ...base, connections: o.connections, durationS: Math.min(2, o.durationS) }); // warm-up
    const probe = startCpuProbe({ pids: [server.pid] });
    const max = await runLoad({ ...base, connections: o.connections, durationS: o.durationS });
    const otherCores = probe.stop().otherCores;
    log(`  ${threads} thread(s) × ${shards} shard(s): max ${Math.round(max.throughput_rps)}/s (p99 ${max.latency_ms.p99.toFixed(1)} ms at ${o.connections} connections; other processes used ${otherCores.toFixed(2)} cores)`);
    const offered: LoadRunResult[] = [];
    for (const f of o.loads) {
      const r = await runLoad({ ...base, connections: o.connections, rate: o.qps * f, durationS: o.durationS });
      offered.push(r);
      log(`    offered ${Math.round(o.qps * f)}/s → answered ${Math.round(r.throughput_rps)}/s, p50 ${r.latency_ms.p50.toFixed(1)} ms, p99 ${r.latency_ms.p99.toFixed(1)} ms`);
    }
    return {
      threads, shards, docs: data.docs.length, load_docs_per_s: data.docs.length / loaded.seconds,
      rss_growth_bytes: rss1 - rss0, rss_after_load_bytes: rss1, max, offered, otherCores,
    };
  } finally {
    await server.stop();
  }
}
