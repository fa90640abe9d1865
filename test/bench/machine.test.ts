import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { latencyStats, machineInfo, processCpuSeconds, startCpuProbe, threadCpuSeconds } from '../../src/cli/report/machine.js';

describe('latencyStats', () => {
  it('takes nearest-rank percentiles, mean and max', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
    expect(latencyStats(samples)).toEqual({ n: 100, mean: 50.5, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(latencyStats([3])).toEqual({ n: 1, mean: 3, p50: 3, p90: 3, p99: 3, max: 3 });
  });

  it('returns NaN figures for no samples', () => {
    expect(latencyStats([]).p50).toBeNaN();
  });
});

describe('startCpuProbe', () => {
  it.skipIf(process.platform !== 'linux')('sees this process busy for about one core while it spins', () => {
    const probe = startCpuProbe();
    const until = performance.now() + 500;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const r = probe.stop();
    expect(x).toBeGreaterThan(0);
    expect(r.available).toBe(true);
    expect(r.wallMs).toBeGreaterThanOrEqual(500);
    // How much of a core the spin gets depends on what else the machine runs (a loaded CI host can
    // leave it a fifth), so the checks are the probe's own consistency: this process was busy, the
    // machine's busy time (/proc/stat ticks, 10 ms each) includes ours (process.cpuUsage, µs), and
    // "other" is the rest of it.
    const tick = 2 * (10 / r.wallMs);
    expect(r.ownCores).toBeGreaterThan(0.05);
    expect(r.ownCores).toBeLessThan(1.5);
    expect(r.busyCores).toBeGreaterThan(r.ownCores - tick);
    expect(r.otherCores).toBeGreaterThanOrEqual(0);
    expect(r.otherCores).toBeCloseTo(Math.max(0, r.busyCores - r.ownCores), 9);
  });
});

describe('threadCpuSeconds', () => {
  it.skipIf(process.platform !== 'linux')('splits the process\'s CPU by thread: the threads add up to the process', () => {
    // Spin wherever this test runs (vitest may run it off the process's main thread).
    const until = performance.now() + 200;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const all = processCpuSeconds(process.pid)!;
    const threads = readdirSync(`/proc/${process.pid}/task`).map((tid) => threadCpuSeconds(process.pid, Number(tid)) ?? 0);
    const sum = threads.reduce((a, b) => a + b, 0);
    expect(x).toBeGreaterThan(0);
    expect(threadCpuSeconds(process.pid, process.pid)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...threads)).toBeLessThanOrEqual(all + 0.02);
    // Threads that exited took their time with them; ticks are 10 ms and both reads are not at one instant.
    expect(sum).toBeLessThanOrEqual(all + 0.05);
    expect(sum).toBeGreaterThan(0);
  });

  it('is undefined for a thread that does not exist', () => {
    expect(threadCpuSeconds(process.pid, 2 ** 30)).toBeUndefined();
  });
});

describe('machineInfo', () => {
  it('names the CPU and the Node version', () => {
    const m = machineInfo();
    expect(m.node).toBe(process.version);
    expect(m.cpus).toBeGreaterThan(0);
    expect(m.cpuModel.length).toBeGreaterThan(0);
  });
});
