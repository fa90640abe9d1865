/**
 * What the search pool reports to `_nodes/stats` and `_cat/thread_pool`: ES ThreadPoolStats.Stats
 * (threads, queue, active, rejected, largest, completed) plus Piscina's run-time histogram and
 * utilisation and our dispatcher's queue-wait histogram. The counters are plain numbers bumped
 * where tasks start, end or are refused; the wait histogram is node:perf_hooks' native one (no
 * allocation per record).
 */
import { createHistogram } from 'node:perf_hooks';

/** NaN (an empty histogram's mean) as 0. */
export function finite(x: number): number {
  return Number.isFinite(x) ? x : 0;
}

/** Time statistics in milliseconds (from Piscina's and our own perf_hooks histograms). */
export interface TimeSummary {
  readonly count: number;
  /** Sum of all times: a sampler gets a pool's busy share over an interval from two readings. */
  readonly total: number;
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface SearchPoolStats {
  /** Live worker threads (Piscina's count; below `size` while a dead one is replaced). */
  readonly threads: number;
  readonly size: number;
  /** Tasks running on a thread now (searches, segment builds, merges). */
  readonly active: number;
  /** Shard searches waiting for a thread, plus tasks in Piscina's own queue. */
  readonly queue: number;
  readonly queueSize: number;
  readonly rejected: number;
  readonly completed: number;
  readonly largest: number;
  /** Run time of all tasks (pool tasks and channel batches) / (threads × time since start). */
  readonly utilization: number;
  /** Task run time on a worker (Piscina's histogram and the channel batches'). */
  readonly runTimeMs: TimeSummary;
  /** Time a shard search waited for a free thread in the dispatcher. */
  readonly waitTimeMs: TimeSummary;
}

/** The pool's counters; the wait histogram holds microseconds. */
export class SearchPoolCounters {
  active = 0;
  completed = 0;
  rejected = 0;
  private readonly wait = createHistogram();
  /** Run times of batches sent down the workers' search channels (not pool tasks: Piscina times those). */
  private readonly channelRun = createHistogram();
  /** Their sum in ms (the histogram keeps whole µs). */
  channelRunTotalMs = 0;

  recordWait(ms: number): void {
    this.wait.record(Math.max(1, Math.round(ms * 1000)));
  }

  recordRun(ms: number): void {
    this.channelRun.record(Math.max(1, Math.round(ms * 1000)));
    this.channelRunTotalMs += ms;
  }

  /**
   * Run times of every task, pool tasks (Piscina's summary: count and ms) and channel batches
   * together: count, total and mean are exact; p50 and p99 are the larger population's.
   */
  runSummary(pool: TimeSummary): TimeSummary {
    const h = this.channelRun;
    if (h.count === 0) return pool;
    const count = pool.count + h.count;
    const total = pool.total + this.channelRunTotalMs;
    const ownLarger = h.count >= pool.count;
    return {
      count, total, mean: total / count,
      p50: ownLarger ? h.percentile(50) / 1000 : pool.p50, p99: ownLarger ? h.percentile(99) / 1000 : pool.p99,
      max: Math.max(pool.max, h.max / 1000),
    };
  }

  waitSummary(): TimeSummary {
    const h = this.wait;
    if (h.count === 0) return { count: 0, total: 0, mean: 0, p50: 0, p99: 0, max: 0 };
    return { count: h.count, total: (h.mean * h.count) / 1000, mean: h.mean / 1000, p50: h.percentile(50) / 1000, p99: h.percentile(99) / 1000, max: h.max / 1000 };
  }
}
