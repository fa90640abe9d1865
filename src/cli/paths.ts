/**
 * Where the command's own files are: the package root (its package.json, for the version) and
 * compiled entry points under dist/src/ that child processes run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout or installed package root: the nearest ancestor whose package.json is "threadsearch" (from src/, dist/src/, bench/ alike). */
export function findRepoRoot(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'threadsearch') return dir;
      } catch {
        // an unreadable package.json is not the root; keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`report: no threadsearch package.json above ${start}`);
    dir = parent;
  }
}

/**
 * The compiled file `rel` (relative to dist/src/) — from dist/src/cli/ (the installed command) and
 * from src/cli/ (vitest running the sources) alike, since child processes must run compiled code.
 */
export function distFile(rel: string): string {
  const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const parent = resolve(srcDir, '..');
  return join(basename(parent) === 'dist' ? srcDir : join(parent, 'dist', 'src'), rel);
}

/** threadsearch's version from its package.json. */
export function packageVersion(): string {
  try {
    return String((JSON.parse(readFileSync(join(findRepoRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}
