/**
 * Machine-side measurements every scenario reports (performance.md §1 "Noise"): how much CPU other
 * processes used while we measured (`otherCores`), and latency percentiles. The reference VM is
 * shared, so a figure is only comparable with another one if both were taken on a quiet machine;
 * re-run when otherCores > 0.2 (2-thread tests) or > 1 (single-thread tests).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

export interface CpuProbeOptions {
  /**
   * Extra processes whose CPU counts as ours rather than "other", e.g. a server child process the
   * benchmark drives. Their time is read from /proc/<pid>/stat.
   */
  pids?: readonly number[];
}

export interface CpuProbeResult {
  wallMs: number;
  /** CPU used by this process (all threads, so worker threads count) plus `pids`, in cores. */
  ownCores: number;
  /** System-wide busy CPU minus ownCores, in cores (clamped at 0: tick rounding can undershoot). */
  otherCores: number;
  /** System-wide busy CPU (user+nice+system+irq+softirq), in cores. */
  busyCores: number;
  /** Time the hypervisor gave this VM's CPUs to someone else, in cores: noise outside /proc's view. */
  stealCores: number;
  /** False when /proc/stat is unreadable (not Linux): the core figures are then NaN. */
  available: boolean;
}

export interface CpuProbe {
  stop(): CpuProbeResult;
}

interface SystemTicks {
  busy: number;
  steal: number;
}

let clockTicksPerSecond: number | undefined;

/** USER_HZ, the unit of /proc/stat (100 on practically every Linux, but ask rather than assume). */
function clkTck(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      const v = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      clockTicksPerSecond = v > 0 ? v : 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

function readSystemTicks(): SystemTicks | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'latin1');
  } catch {
    return undefined;
  }
  const line = text.slice(0, text.indexOf('\n'));
  // cpu user nice system idle iowait irq softirq steal guest guest_nice. Guest time is already
  // inside user/nice, and idle + iowait are not busy.
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6], steal: f[7] ?? 0 };
}

/** utime + stime of a process (or, with `tid`, of one of its threads) in ticks, or undefined once it has exited. */
function readProcessTicks(pid: number, tid?: number): number | undefined {
  try {
    const text = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'latin1');
    // The command name may contain spaces and parentheses: fields are counted after the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]); // fields 14 (utime) and 15 (stime)
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system, every thread) a process has used so far, or undefined once it has
 * exited: per-request server cost that, unlike throughput, holds up on a busy machine.
 */
export function processCpuSeconds(pid: number): number | undefined {
  const ticks = readProcessTicks(pid);
  return ticks === undefined ? undefined : ticks / clkTck();
}

/**
 * CPU seconds one thread of a process has used so far (`tid` = `pid` is its main thread), or
 * undefined once it has exited: splits a server's cost between its event loop and the rest (search
 * workers, V8's compiler and GC threads).
 */
export function threadCpuSeconds(pid: number, tid: number): number | undefined {
  const ticks = readProcessTicks(pid, tid);
  return ticks === undefined ? undefined : ticks / clkTck();
}

/** Starts measuring; call stop() at the end of the measured interval. */
export function startCpuProbe(options: CpuProbeOptions = {}): CpuProbe {
  const pids = options.pids ?? [];
  const hz = clkTck();
  const sys0 = readSystemTicks();
  const pid0 = pids.map(readProcessTicks);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    stop(): CpuProbeResult {
      const wallMs = performance.now() - t0;
      const own = process.cpuUsage(own0);
      const sys1 = readSystemTicks();
      const seconds = wallMs / 1000;
      let ownSeconds = (own.user + own.system) / 1e6;
      for (let i = 0; i < pids.length; i++) {
        const before = pid0[i];
        const after = readProcessTicks(pids[i]);
        // A process that exited mid-run loses its last interval; that time then shows as "other".
        if (before !== undefined && after !== undefined) ownSeconds += (after - before) / hz;
      }
      const ownCores = ownSeconds / seconds;
      if (sys0 === undefined || sys1 === undefined || seconds <= 0) {
        return { wallMs, ownCores, otherCores: NaN, busyCores: NaN, stealCores: NaN, available: false };
      }
      const busyCores = (sys1.busy - sys0.busy) / hz / seconds;
      const stealCores = (sys1.steal - sys0.steal) / hz / seconds;
      return { wallMs, ownCores, otherCores: Math.max(0, busyCores - ownCores), busyCores, stealCores, available: true };
    },
  };
}

export interface LatencyStats {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Percentiles by the nearest-rank rule (the sample at rank ⌈p·n⌉), so every figure is a real sample. */
export function latencyStats(samplesMs: ArrayLike<number>): LatencyStats {
  const n = samplesMs.length;
  if (n === 0) return { n: 0, mean: NaN, p50: NaN, p90: NaN, p99: NaN, max: NaN };
  const sorted = Float64Array.from(samplesMs).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const at = (p: number): number => sorted[Math.max(0, Math.ceil(p * n) - 1)];
  return { n, mean: sum / n, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[n - 1] };
}

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  totalMemGB: number;
  node: string;
  platform: string;
  kernel: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: os.availableParallelism?.() ?? cpus.length,
    totalMemGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
  };
}
