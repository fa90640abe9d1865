/**
 * The node's own view for the operator APIs (ES NodeStats, NodeInfo, ClusterStatsResponse): the
 * indices' CommonStats summed, the thread pools (the search pool and each model deployment), the
 * process (V8 heap, RSS, SharedArrayBuffer bytes per index, CPU) and the OS. Everything is read
 * when asked; nothing is sampled in the background.
 */
import { availableParallelism, cpus, freemem, hostname, loadavg, platform, arch, totalmem, type as osType, release } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { IndexService } from '../indices/index-service.js';
import type { IndicesService } from '../indices/indices-service.js';
import type { MlService } from '../ml/ml-service.js';
import type { SearchPool } from '../search-pool.js';
import type { TimeSummary } from '../search-pool-stats.js';
import { heapPools, type HeapPools, type WorkerMemory } from '../../../workers/protocol.js';
import { emptySums, indexSums, renderCommonStats, type IndexStatsMetric, type StatsSums, INDEX_STATS_METRICS } from './index-stats.js';
import { health } from './health.js';

export interface NodeIdentity {
  readonly id: string;
  readonly name: string;
  readonly clusterName: string;
  readonly clusterUuid: string;
  /** `host:port` clients reach the node on (ES's transport and HTTP publish addresses are both this). */
  readonly address: () => string;
  readonly version: string;
  readonly buildFlavor: string;
  readonly buildType: string;
  readonly buildHash: string;
}

/** One pool as `_nodes/stats` and `_cat/thread_pool` show it. */
export interface ThreadPoolView {
  readonly name: string;
  readonly type: 'fixed';
  readonly size: number;
  readonly queueSize: number;
  readonly threads: number;
  readonly active: number;
  readonly queue: number;
  readonly rejected: number;
  readonly largest: number;
  readonly completed: number;
  /** Busy share of the pool's threads since it started (0…1). */
  readonly utilization: number;
  readonly runTimeMs: TimeSummary | null;
  readonly waitTimeMs: TimeSummary | null;
}

/** ES's node roles for a node that is everything at once. */
export const NODE_ROLES = ['data', 'data_content', 'data_hot', 'ingest', 'master', 'ml', 'remote_cluster_client', 'transform'];

/** The search pool's name in ES's thread pool list; deployments are `ml_deployment/<id>`. */
export const SEARCH_POOL = 'search';

export class NodeStatsService {
  private readonly startedAt = Date.now();
  /** The last CPU sample, for `cpu.percent` over the interval since the previous read. */
  private lastCpu = { at: performance.now(), usage: process.cpuUsage() };
  /** The worker threads' heaps as last sampled (`sampleWorkerMemory`). */
  private workerMemory: readonly WorkerMemory[] = [];

  constructor(
    private readonly node: NodeIdentity,
    private readonly indices: IndicesService,
    private readonly pool: SearchPool,
    private readonly ml: MlService,
  ) {}

  private allIndices(): IndexService[] {
    return this.indices.names().map((n) => this.indices.get(n)!).filter((i) => i !== undefined);
  }

  /** CommonStats summed over every index. */
  indicesSums(): StatsSums {
    const sums = emptySums();
    for (const index of this.allIndices()) indexSums(index, sums);
    return sums;
  }

  threadPools(): ThreadPoolView[] {
    const p = this.pool.stats();
    const out: ThreadPoolView[] = [{
      name: SEARCH_POOL, type: 'fixed', size: p.size, queueSize: p.queueSize, threads: p.threads, active: p.active, queue: p.queue,
      rejected: p.rejected, largest: p.largest, completed: p.completed, utilization: p.utilization, runTimeMs: p.runTimeMs, waitTimeMs: p.waitTimeMs,
    }];
    for (const d of this.ml.threadPools()) {
      const s = d.stats;
      out.push({
        name: `ml_deployment/${d.deploymentId}`, type: 'fixed', size: s.threads, queueSize: d.queueCapacity, threads: s.threads, active: s.active,
        queue: s.queue, rejected: s.rejected, largest: s.threads, completed: s.completed, utilization: s.utilization,
        runTimeMs: s.completed > 0 ? { count: s.completed, total: s.totalTimeMs, mean: s.totalTimeMs / s.completed, p50: NaN, p99: NaN, max: NaN } : null,
        waitTimeMs: null,
      });
    }
    return out;
  }

  /**
   * Asks the worker threads for their V8 heaps (they answer over a channel, so it is async); the
   * `_nodes/stats` route calls it before rendering `process` and `jvm`.
   */
  async sampleWorkerMemory(): Promise<void> {
    this.workerMemory = await this.pool.workerMemory();
  }

  /** SharedArrayBuffer bytes the published segments and live docs of each index hold. */
  sharedArrayBufferBytes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const index of this.allIndices()) out[index.name] = indexSums(index).storeBytes;
    return out;
  }

  private cpuPercent(): { percent: number; totalMs: number } {
    const now = performance.now();
    const usage = process.cpuUsage();
    const elapsedMs = now - this.lastCpu.at;
    const usedMs = (usage.user - this.lastCpu.usage.user + usage.system - this.lastCpu.usage.system) / 1000;
    this.lastCpu = { at: now, usage };
    const percent = elapsedMs > 0 ? Math.round((usedMs / elapsedMs / availableParallelism()) * 100) : 0;
    return { percent: Math.max(0, Math.min(100, percent)), totalMs: Math.round((usage.user + usage.system) / 1000) };
  }

  private memory() {
    const m = process.memoryUsage();
    const heap = getHeapStatistics();
    const sab = this.sharedArrayBufferBytes();
    let sabTotal = 0;
    for (const v of Object.values(sab)) sabTotal += v;
    return { m, heap, sab, sabTotal };
  }

  /** One node's `_nodes/stats` entry (ES NodeStats), limited to `metrics` when given. */
  nodeStats(metrics: ReadonlySet<string> | null, indexMetrics: readonly IndexStatsMetric[] = INDEX_STATS_METRICS): Record<string, unknown> {
    const want = (m: string) => metrics === null || metrics.has(m);
    const now = Date.now();
    const out: Record<string, unknown> = {
      timestamp: now, name: this.node.name, transport_address: this.node.address(), host: hostname(), ip: ipOf(this.node.address()), roles: NODE_ROLES, attributes: {},
    };
    if (want('indices')) out.indices = renderCommonStats(this.indicesSums(), indexMetrics);
    const mem = want('os') || want('process') || want('jvm') ? this.memory() : null;
    if (want('os')) {
      const [l1, l5, l15] = loadavg();
      const total = totalmem();
      const free = freemem();
      out.os = {
        timestamp: now,
        cpu: { percent: this.cpuPercentOnce(), load_average: { '1m': l1, '5m': l5, '15m': l15 } },
        mem: { total_in_bytes: total, adjusted_total_in_bytes: total, free_in_bytes: free, used_in_bytes: total - free, free_percent: Math.round((free / total) * 100), used_percent: Math.round(((total - free) / total) * 100) },
      };
    }
    if (want('process') && mem) {
      const cpu = this.cpuPercent();
      out.process = {
        timestamp: now,
        cpu: { percent: cpu.percent, total_in_millis: cpu.totalMs },
        mem: {
          // ES reports the virtual size; Node knows the resident one, which is what an operator wants.
          total_virtual_in_bytes: mem.m.rss,
          resident_in_bytes: mem.m.rss,
          heap_used_in_bytes: mem.m.heapUsed,
          heap_total_in_bytes: mem.m.heapTotal,
          external_in_bytes: mem.m.external,
          array_buffers_in_bytes: mem.m.arrayBuffers,
          shared_array_buffers_in_bytes: mem.sabTotal,
          shared_array_buffers_per_index_in_bytes: mem.sab,
          // The search pool's threads: each has its own V8 heap, which the main thread's figures
          // above do not include (segments are shared, not copied, so they are not counted twice).
          worker_heap_used_in_bytes: sum(this.workerMemory, 'heapUsed'),
          worker_heap_total_in_bytes: sum(this.workerMemory, 'heapTotal'),
          worker_array_buffers_in_bytes: sum(this.workerMemory, 'arrayBuffers'),
          workers: this.workerMemory.map((w) => ({
            thread_id: w.threadId, heap_used_in_bytes: w.heapUsed, heap_total_in_bytes: w.heapTotal, array_buffers_in_bytes: w.arrayBuffers, pools: poolsJson(w.pools),
          })),
          // glibc's free heap returned after idle collections (cluster/malloc-trim.ts).
          malloc_trim: this.pool.mallocTrim.stats(),
        },
      };
    }
    if (want('jvm') && mem) {
      // Node's V8 heap where ES shows the JVM's.
      out.jvm = {
        timestamp: now,
        uptime_in_millis: now - this.startedAt,
        mem: {
          heap_used_in_bytes: mem.m.heapUsed,
          heap_used_percent: Math.round((mem.m.heapUsed / mem.heap.heap_size_limit) * 100),
          heap_committed_in_bytes: mem.m.heapTotal,
          heap_max_in_bytes: mem.heap.heap_size_limit,
          non_heap_used_in_bytes: mem.m.external,
          non_heap_committed_in_bytes: mem.m.external,
          // The main thread's heap by generation (each worker's is under process.mem.workers).
          pools: poolsJson(heapPools()),
        },
      };
    }
    if (want('thread_pool')) {
      const pools: Record<string, unknown> = {};
      for (const p of this.threadPools()) {
        pools[p.name] = {
          threads: p.threads, queue: p.queue, active: p.active, rejected: p.rejected, largest: p.largest, completed: p.completed,
          utilization: p.utilization,
          ...(p.runTimeMs ? { run_time_in_millis: summaryJson(p.runTimeMs) } : {}),
          ...(p.waitTimeMs ? { wait_time_in_millis: summaryJson(p.waitTimeMs) } : {}),
        };
      }
      out.thread_pool = pools;
    }
    if (want('ml')) {
      const deployments: Record<string, unknown> = {};
      for (const d of this.ml.threadPools()) {
        deployments[d.deploymentId] = {
          model_id: d.modelId, state: d.state, number_of_allocations: d.allocations, threads_per_allocation: d.threadsPerAllocation,
          queue_capacity: d.queueCapacity, number_of_pending_requests: d.stats.queue, rejected_execution_count: d.stats.rejected,
          request_count: d.stats.completed, inference_count: d.stats.inferenceCount,
          average_inference_time_ms: d.stats.completed > 0 ? d.stats.totalTimeMs / d.stats.completed : 0, utilization: d.stats.utilization,
        };
      }
      out.ml = { deployments };
    }
    return out;
  }

  /** `cpu.percent` for `os` without disturbing the process sample (one read per response). */
  private cpuPercentOnce(): number {
    const usage = process.cpuUsage(this.lastCpu.usage);
    const elapsedMs = performance.now() - this.lastCpu.at;
    if (elapsedMs <= 0) return 0;
    return Math.max(0, Math.min(100, Math.round(((usage.user + usage.system) / 1000 / elapsedMs / availableParallelism()) * 100)));
  }

  /** One node's `_nodes` entry (ES NodeInfo). */
  nodeInfo(): Record<string, unknown> {
    const address = this.node.address();
    const search = this.pool.stats();
    return {
      name: this.node.name, transport_address: address, host: hostname(), ip: ipOf(address),
      version: this.node.version, transport_version: 8702003, build_flavor: this.node.buildFlavor, build_type: this.node.buildType, build_hash: this.node.buildHash,
      total_indexing_buffer: null, roles: NODE_ROLES, attributes: {},
      settings: { cluster: { name: this.node.clusterName }, node: { name: this.node.name } },
      os: { refresh_interval_in_millis: 1000, name: osType(), pretty_name: osType(), arch: arch(), version: release(), available_processors: cpus().length, allocated_processors: availableParallelism() },
      process: { refresh_interval_in_millis: 1000, id: process.pid, mlockall: false },
      jvm: { pid: process.pid, version: process.versions.node, vm_name: 'Node.js', vm_version: process.versions.v8, vm_vendor: 'OpenJS Foundation', start_time_in_millis: this.startedAt, mem: { heap_max_in_bytes: getHeapStatistics().heap_size_limit } },
      thread_pool: Object.fromEntries(this.threadPools().map((p) => [p.name, { type: p.type, size: p.size, queue_size: p.queueSize }])),
      transport: { bound_address: [address], publish_address: address, profiles: {} },
      http: { bound_address: [address], publish_address: address, max_content_length_in_bytes: 104857600 },
      platform: platform(),
    };
  }

  /** `_cluster/stats` (ES ClusterStatsResponse) for this one-node cluster. */
  clusterStats(): Record<string, unknown> {
    const indices = this.allIndices();
    const h = health(indices);
    const sums = this.indicesSums();
    const shardCounts = indices.map((i) => i.shards.length);
    const m = process.memoryUsage();
    const heapMax = getHeapStatistics().heap_size_limit;
    const total = totalmem();
    const free = freemem();
    const stat = (xs: number[]) => ({ min: xs.length ? Math.min(...xs) : 0, max: xs.length ? Math.max(...xs) : 0, avg: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0 });
    const common = renderCommonStats(sums, ['docs', 'store', 'segments']);
    return {
      _nodes: { total: 1, successful: 1, failed: 0 },
      cluster_name: this.node.clusterName,
      cluster_uuid: this.node.clusterUuid,
      timestamp: Date.now(),
      status: h.status,
      indices: {
        count: indices.length,
        shards: {
          total: h.activeShards, primaries: h.activePrimaryShards, replication: 0,
          index: { shards: stat(shardCounts), primaries: stat(shardCounts), replication: { min: 0, max: 0, avg: 0 } },
        },
        docs: { count: sums.docs, deleted: sums.deleted, total_size_in_bytes: sums.storeBytes },
        store: common.store,
        segments: common.segments,
      },
      nodes: {
        count: { total: 1, coordinating_only: 0, data: 1, data_content: 1, data_hot: 1, ingest: 1, master: 1, ml: 1, remote_cluster_client: 1, transform: 1 },
        versions: [this.node.version],
        os: {
          available_processors: cpus().length, allocated_processors: availableParallelism(), names: [{ name: osType(), count: 1 }],
          mem: { total_in_bytes: total, adjusted_total_in_bytes: total, free_in_bytes: free, used_in_bytes: total - free, free_percent: Math.round((free / total) * 100), used_percent: Math.round(((total - free) / total) * 100) },
        },
        process: { cpu: { percent: this.cpuPercentOnce() }, open_file_descriptors: { min: -1, max: -1, avg: 0 } },
        jvm: {
          max_uptime_in_millis: Date.now() - this.startedAt,
          versions: [{ version: process.versions.node, vm_name: 'Node.js', vm_version: process.versions.v8, vm_vendor: 'OpenJS Foundation', count: 1 }],
          mem: { heap_used_in_bytes: m.heapUsed, heap_max_in_bytes: heapMax },
          threads: this.threadPools().reduce((n, p) => n + p.threads, 1),
        },
      },
    };
  }
}

function sum(xs: readonly WorkerMemory[], key: 'heapUsed' | 'heapTotal' | 'arrayBuffers'): number {
  let n = 0;
  for (const x of xs) n += x[key];
  return n;
}

/**
 * ES's `jvm.mem.pools` shape for one V8 heap: `used_in_bytes`, and V8's committed size as
 * `max_in_bytes` (what the pool holds in memory now; V8 grows and shrinks it, there is no fixed max).
 */
function poolsJson(pools: HeapPools | undefined): Record<string, { used_in_bytes: number; max_in_bytes: number }> {
  if (!pools) return {};
  return {
    young: { used_in_bytes: pools.young.used, max_in_bytes: pools.young.committed },
    old: { used_in_bytes: pools.old.used, max_in_bytes: pools.old.committed },
  };
}

/** The host part of `host:port`. */
export function ipOf(address: string): string {
  return address.replace(/:\d+$/, '');
}

/** A time summary in ms to µs precision; figures a pool does not measure (NaN) are left out. */
function summaryJson(s: TimeSummary): Record<string, number> {
  const out: Record<string, number> = { count: s.count };
  const put = (k: string, x: number) => {
    if (Number.isFinite(x)) out[k] = Math.round(x * 1000) / 1000;
  };
  put('total', s.total);
  put('avg', s.mean);
  put('p50', s.p50);
  put('p99', s.p99);
  put('max', s.max);
  return out;
}
