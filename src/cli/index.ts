/**
 * cli/: the `threadsearch` command line. `start` composes the server (the only command that imports
 * app.ts); `load`, `bench`, `capacity` and `eval` are HTTP clients of a running server (or of the
 * servers `capacity` starts as child processes) and never import the engine. Each command lives in
 * its own folder and is imported only when it runs; report/ writes every run's JSON, Markdown and
 * SVG charts, atomically. Failures a user can cause are CliErrors (one line, an exit code from
 * EXIT); anything else is a bug and prints its stack.
 */
export { runCli } from './program.js';
export { CliError, EXIT } from './cli-error.js';
