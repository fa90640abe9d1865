import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

/** Runs a compiled scenario with `args`; every case here ends before the scenario does any work. */
function runBench(name: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(`../../dist/bench/${name}.js`, import.meta.url)), ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a benchmark scenario’s command line', () => {
  it('prints its usage for --help and exits 0', () => {
    const run = runBench('memory', '--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: node dist\/bench\/memory\.js \[--docs/);
  });

  it('names an unknown option in one line with the usage, exit code 2, no stack trace', () => {
    const run = runBench('bulk-ab', '--baseline', '/nowhere', '--bogus');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^Unknown option '--bogus'/);
    expect(run.stderr).toContain('usage: node dist/bench/bulk-ab.js --baseline');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a count that is not a number, or is below 1, naming the option', () => {
    expect(runBench('memory', '--docs', 'lots').stderr).toMatch(/^--docs must be a number ≥ 1, got 'lots'/);
    expect(runBench('memory', '--docs', '50000,0').status).toBe(2);
    expect(runBench('http-search', '--rounds', '').stderr).toMatch(/^--rounds must be a number/);
  });

  it('says which option is missing instead of throwing', () => {
    const run = runBench('engine-ab');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^--baseline <dir> is required\nusage: /);
  });
});
