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

export function workerExecArgv(): string[] {
  const inherited = process.execArgv;
  if (!process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) || inherited.includes(NO_REQUIRE_ESM)) {
    return [...inherited];
  }
  return [...inherited, NO_REQUIRE_ESM];
}
