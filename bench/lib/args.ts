/**
 * A scenario's command line: node's `parseArgs` with what a person typing it expects — `--help`
 * prints the usage, and an unknown option or a value that is not a number ends the run with one
 * line saying which and the usage (exit code 2), not a stack trace from deep inside the bench.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What `parseArgs` returns for this config's options. */
export type BenchValues<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>['values'];

/**
 * Parses `process.argv` for `config`'s options (strict: unknown options and positionals are errors).
 * `usage` is the scenario's synopsis, e.g. `node dist/bench/memory.js [--docs 50000,200000]`.
 */
export function benchArgs<T extends ParseArgsConfig>(usage: string, config: T): { values: BenchValues<T> } {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`usage: ${usage}\n`);
    process.exit(0);
  }
  try {
    return { values: parseArgs({ ...config, args: argv }).values as BenchValues<T> };
  } catch (error) {
    return usageError(usage, (error as Error).message);
  }
}

/**
 * A numeric option: `fallback` when absent, else the number it spells — which must be finite and at
 * least `min` (most options count docs, rounds or seconds, so the default floor is 1).
 */
export function numberOption(usage: string, value: string | undefined, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) {
    return usageError(usage, `--${name} must be a number ≥ ${min}, got '${value.slice(0, 40)}'`);
  }
  return n;
}

/** A comma-separated list of numbers (e.g. `--docs 50000,200000`), each checked as `numberOption` does. */
export function numberListOption(usage: string, value: string | undefined, name: string, fallback: readonly number[], min = 1): number[] {
  if (value === undefined) return [...fallback];
  return value.split(',').map((part) => numberOption(usage, part, name, Number.NaN, min));
}

/** Ends the run with `message` and the usage on stderr, exit code 2 (a missing or contradictory option). */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`${message}\nusage: ${usage}\n`);
  process.exit(2);
}
