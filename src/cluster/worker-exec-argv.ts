/**
 * Node flags for every Piscina worker this process starts.
 *
 * Why: since Node 20.19, require() can load ES modules, and Piscina's worker loads a handler file
 * with require() first and import() only when that throws. Node 20's require(esm) has a race with
 * a concurrent import() of the same module graph: it can reach a module that is not instantiated
 * yet and abort the whole process ("v8::Module::IsGraphAsync must be used on an instantiated
 * module", seen in our own test runs from piscina/dist/worker.js). With require(esm) switched off
 * in the workers, Piscina's require() fails at once with ERR_REQUIRE_ESM and every handler is
 * loaded through import(), which has no such race. Where the flag does not exist (a Node without
 * require(esm)), nothing is added.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

const NO_REQUIRE_ESM = '--no-experimental-require-module';

/**
 * The V8 options Node accepts on its command line (its documented NODE_OPTIONS list). A Worker
 * refuses them in `execArgv` (ERR_WORKER_INVALID_EXEC_ARGV: `node --expose-gc server.js` could not
 * start a pool), and needs none of them: V8's flags are process-wide, so the workers' isolates
 * already run with them.
 */
const V8_OPTIONS = new Set([
  '--abort-on-uncaught-exception', '--disallow-code-generation-from-strings', '--enable-etw-stack-walking', '--expose-gc',
  '--huge-max-old-generation-size', '--interpreted-frames-native-stack', '--jitless', '--max-old-space-size',
  '--max-semi-space-size', '--perf-basic-prof', '--perf-basic-prof-only-functions', '--perf-prof',
  '--perf-prof-unwinding-info', '--stack-trace-limit',
]);

function isV8Option(arg: string): boolean {
  const eq = arg.indexOf('=');
  return V8_OPTIONS.has((eq < 0 ? arg : arg.slice(0, eq)).replaceAll('_', '-'));
}

/**
 * The worker threads' semi-space limit (MB): half of V8's own 64-bit default of 16.
 *
 * The coordinator runs with `--max-semi-space-size=16` (32 until issue 22's gc-i22young: what its
 * in-flight requests hold outlived a 16 MB young generation while V8 pretenured their allocation
 * sites; see cli/server-process.ts). V8's flags are process-wide, so every worker isolate could
 * grow its young generation to 2 × 16 MB (2 × 32 MB before) as well, and build workers under a bulk load do (issue 22:
 * the two workers' heaps reached 165 MB during a 1M-doc load, 94 MB after it) — though nothing in
 * them needs it. The flag is read when
 * an isolate's heap is set up, so once the coordinator's isolate exists, lowering it gives every
 * worker started afterwards the smaller size while the coordinator keeps its own. A smaller value
 * given on the command line (or NODE_OPTIONS) is left alone.
 *
 * Not V8's 16 MB either (issue 22): under a bulk load each worker's young generation sat at its full
 * 2 × 16 MB, ~65 MB of the 1M-doc load's RSS peak for the two, and still after the load, though what a
 * build or a merge keeps lives in typed arrays and the scratch pool, not in young objects. With 4 MB
 * semi-spaces the two young generations took 16 MB at the peak and a 100k-doc `_bulk` A/B showed no
 * more server CPU (0.97×, loaded machine); a `_search` A/B (the same threads run searches) was within
 * this machine's noise but leaned the other way at 10 connections, so 8 MB is the compromise.
 */
const WORKER_SEMI_SPACE_MB = 8;

let workerSemiSpaceSet = false;

function limitWorkerSemiSpace(): void {
  if (workerSemiSpaceSet) return;
  workerSemiSpaceSet = true;
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  let configured = 0;
  for (const arg of args) {
    const m = /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(arg);
    if (m) configured = Number(m[1]);
  }
  // 0: not given, V8's default (16) applies, which is above ours too.
  if (configured === 0 || configured > WORKER_SEMI_SPACE_MB) setFlagsFromString(`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
}

/**
 * `args` without the flags a Worker refuses. The list above covers the V8 options Node documents;
 * any other V8 flag (`node --trace-gc …`, `--trace-opt`) would make every pool fail to start. A
 * flag outside Node's NODE_OPTIONS list may be either kind (`--cpu-prof` is Node's, and workers
 * need it for a profile per thread), so such a list is tried once on a Worker, which names exactly
 * the flags it refuses (ERR_WORKER_INVALID_EXEC_ARGV), and those are dropped.
 */
function acceptedByWorkers(args: string[]): string[] {
  if (args.every((arg) => !arg.startsWith('-') || process.allowedNodeEnvironmentFlags.has(arg))) return args;
  try {
    void new Worker('', { eval: true, execArgv: args }).terminate();
    return args;
  } catch (e) {
    const message = (e as { code?: string; message?: string }).code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? String((e as Error).message) : null;
    if (message === null) return args;
    const refused = new Set(message.slice(message.indexOf(':') + 1).split(',').map((flag) => flag.trim()));
    return args.filter((arg) => !refused.has(arg));
  }
}

let inheritedArgs: string[] | null = null;

/** The execArgv for a new worker; also sets the workers' young generation (above) before the first one starts. */
export function workerExecArgv(): string[] {
  limitWorkerSemiSpace();
  inheritedArgs ??= acceptedByWorkers(process.execArgv.filter((arg) => !isV8Option(arg)));
  const inherited = inheritedArgs;
  if (!process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) || inherited.includes(NO_REQUIRE_ESM)) {
    return [...inherited];
  }
  return [...inherited, NO_REQUIRE_ESM];
}
