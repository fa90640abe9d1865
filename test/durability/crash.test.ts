/**
 * SIGKILL crash test (issue 3): see test/support/crash-harness.ts. `npm test` runs a short form;
 * `npm run test:crash` runs the long one (CRASH_ROUNDS rounds, default 25 there) and writes its
 * report to bench/results/crash-test.json.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCrashTest } from '../support/crash-harness.js';

const rounds = Number(process.env.CRASH_ROUNDS ?? 3);
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

describe('crash safety', () => {
  it(`loses no acknowledged write across ${rounds} SIGKILLs (seed ${seed})`, async () => {
    const report = await runCrashTest({
      rounds, seed, writers: 4, killAfterMs: [150, 1500],
      log: (line) => process.stdout.write(`[crash] ${line}\n`),
    });
    const { failures, ...summary } = report;
    process.stdout.write(`[crash] ${JSON.stringify(summary)}\n`);
    if (process.env.CRASH_REPORT) writeFileSync(process.env.CRASH_REPORT, JSON.stringify({ ...summary, failures, date: new Date().toISOString() }, null, 2) + '\n');
    expect(failures).toEqual([]);
    expect(report.lost).toBe(0);
    expect(report.junk).toBe(0);
    expect(report.duplicates).toBe(0);
    expect(report.acknowledgedOps).toBeGreaterThan(0);
  }, 60_000 + rounds * 20_000);

  it('notices lost writes: with translog durability async, acknowledged writes die with the process', async () => {
    // The negative control: proves the check above can fail. Async durability acknowledges before
    // the fsync (ES documents the same trade-off), so a kill loses what was pending.
    const report = await runCrashTest({ rounds: 1, seed, writers: 2, killAfterMs: [400, 600], durability: 'async' });
    expect(report.lost).toBeGreaterThan(0);
  }, 60_000);
});
