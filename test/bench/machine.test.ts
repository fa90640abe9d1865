import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { latencyStats, machineInfo, startCpuProbe } from '../../src/cli/report/machine.js';

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
    // Loose bounds: other jobs on a shared VM can take the core away from the spinning thread.
    expect(r.ownCores).toBeGreaterThan(0.3);
    expect(r.ownCores).toBeLessThan(1.5);
    expect(r.busyCores).toBeGreaterThan(0.25);
    expect(r.otherCores).toBeGreaterThanOrEqual(0);
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
