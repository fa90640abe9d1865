/**
 * Workers inherit the process's Node flags, but a Worker refuses V8 options in `execArgv`: started
 * as `node --expose-gc …` (as bench/search-contexts-memory.ts documents), the search pool must still start.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = resolve(import.meta.dirname, '../../dist/src/cluster/worker-exec-argv.js');

function workerArgvUnder(flags: string[]): { execArgv: string[]; gcType: string } {
  const script = `
    const { Worker } = require('node:worker_threads');
    import(${JSON.stringify(MODULE)}).then(({ workerExecArgv }) => {
      const execArgv = workerExecArgv();
      const w = new Worker('require("node:worker_threads").parentPort.postMessage(typeof gc)', { eval: true, execArgv });
      w.on('message', (gcType) => { console.log(JSON.stringify({ execArgv, gcType })); w.terminate(); });
    });`;
  // The line the script prints (a tracing flag under test may print lines of its own).
  const lines = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).split('\n');
  return JSON.parse(lines.find((line) => line.startsWith('{"execArgv"'))!);
}

describe('workerExecArgv', () => {
  it('drops V8 options, which workers refuse and get anyway (V8 flags are process-wide)', () => {
    const out = workerArgvUnder(['--expose-gc', '--max-old-space-size=2048', '--stack_trace_limit=20', '--enable-source-maps']);
    expect(out.execArgv).toContain('--enable-source-maps');
    expect(out.execArgv.some((a) => /expose|old-space|stack_trace/.test(a))).toBe(false);
    expect(out.gcType).toBe('function');
  });

  it('drops V8 flags outside the documented list (node --trace-gc …) and keeps Node\'s own', () => {
    const out = workerArgvUnder(['--trace-gc', '--trace-opt', '--enable-source-maps', '--conditions', 'development']);
    expect(out.execArgv).toEqual(expect.arrayContaining(['--enable-source-maps', '--conditions', 'development']));
    expect(out.execArgv.some((a) => a.startsWith('--trace'))).toBe(false);
  });
});

/** heap_size_limit (MB) of the main thread and of a worker started after workerExecArgv(): it grows with the semi-space limit. */
function heapLimitsUnder(flags: string[]): { main: number; worker: number } {
  const script = `
    const { Worker } = require('node:worker_threads');
    const limit = () => require('node:v8').getHeapStatistics().heap_size_limit / 1048576;
    import(${JSON.stringify(MODULE)}).then(({ workerExecArgv }) => {
      const w = new Worker('require("node:worker_threads").parentPort.postMessage(require("node:v8").getHeapStatistics().heap_size_limit / 1048576)', { eval: true, execArgv: workerExecArgv() });
      w.on('message', (worker) => { console.log(JSON.stringify({ main: limit(), worker })); w.terminate(); });
    });`;
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }));
}

describe('worker young generation', () => {
  it('workers get an 8 MB semi-space, below V8\'s 16, while the coordinator keeps --max-semi-space-size=32', () => {
    const flagged = heapLimitsUnder(['--max-semi-space-size=32']);
    const plain = heapLimitsUnder([]);
    expect(flagged.main).toBeGreaterThan(plain.main);
    expect(flagged.worker).toBe(plain.worker);
    // Without the flag the coordinator has V8's default; the workers still get the smaller limit.
    expect(plain.worker).toBeLessThan(plain.main);
    expect(heapLimitsUnder(['--max-semi-space-size=8']).worker).toBe(plain.worker);
  });

  it('leaves a semi-space below the workers\' alone', () => {
    const small = heapLimitsUnder(['--max-semi-space-size=4']);
    expect(small.worker).toBe(small.main);
  });
});
