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

export function workerExecArgv(): string[] {
  const inherited = process.execArgv.filter((arg) => !isV8Option(arg));
  if (!process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) || inherited.includes(NO_REQUIRE_ESM)) {
    return [...inherited];
  }
  return [...inherited, NO_REQUIRE_ESM];
}
