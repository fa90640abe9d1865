/**
 * The heap trim after idle collections (cluster/malloc-trim.ts): glibc's `malloc_trim(0)` through
 * the optional `koffi` package where it loads, and a silent skip (one debug line) everywhere else.
 */
import { describe, expect, it, vi } from 'vitest';
import { MallocTrim, type TrimCall } from '../../src/cluster/malloc-trim.js';
import type { Logger } from '../../src/logging/index.js';
import { mallocTrimAvailable } from '../support/malloc-trim.js';

function debugLog(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: { debug: (line: string) => lines.push(line) } as unknown as Logger, lines };
}

describe('MallocTrim', () => {
  it('a library that cannot load skips every trim: one debug line, no error, no second attempt', async () => {
    const { logger, lines } = debugLog();
    const load = vi.fn(() => Promise.reject(new Error('Cannot find package \'koffi\'')));
    const trim = new MallocTrim(logger, load);
    expect(await trim.trim()).toBeNull();
    expect(await trim.trim()).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^malloc_trim unavailable.*Cannot find package 'koffi'/);
    expect(trim.count).toBe(0);
  });

  it('a call that fails is logged and skipped, and the next one runs', async () => {
    const { logger, lines } = debugLog();
    let calls = 0;
    const call: TrimCall = () => (++calls === 1 ? Promise.reject(new Error('async queue full')) : Promise.resolve(1));
    const trim = new MallocTrim(logger, () => Promise.resolve(call));
    expect(await trim.trim()).toBeNull();
    expect(lines[0]).toMatch(/^malloc_trim failed: async queue full/);
    const result = await trim.trim();
    expect(result).not.toBeNull();
    expect(result!.rssBefore).toBeGreaterThan(0);
    expect(result!.ms).toBeGreaterThanOrEqual(0);
    expect(trim.count).toBe(1);
    expect(lines[1]).toMatch(/^malloc_trim: RSS [\d.]+ → [\d.]+ MB in [\d.]+ ms$/);
  });

  it('runs one trim at a time: a trim asked for while one runs is skipped', async () => {
    let finish!: (released: number) => void;
    const trim = new MallocTrim(undefined, () => Promise.resolve(() => new Promise<number>((r) => (finish = r))));
    const first = trim.trim();
    await vi.waitFor(() => expect(finish).toBeTypeOf('function'));
    expect(await trim.trim()).toBeNull();
    finish(1);
    expect(await first).not.toBeNull();
    expect(trim.count).toBe(1);
  });

  it('trims glibc\'s heaps for real where it can (Linux, glibc, koffi installed), and skips elsewhere', async () => {
    const { logger, lines } = debugLog();
    const trim = new MallocTrim(logger);
    // Free heap for it to return: 64 KB buffers (under the mmap threshold), dropped.
    let held: Buffer[] | null = Array.from({ length: 256 }, () => Buffer.allocUnsafeSlow(64 << 10).fill(1));
    held.length = 0;
    held = null;
    const result = await trim.trim();
    if (await mallocTrimAvailable()) {
      expect(result).not.toBeNull();
      expect(trim.count).toBe(1);
      expect(trim.stats()).toMatchObject({ available: true, count: 1 });
      expect(lines[0]).toMatch(/^malloc_trim: RSS/);
    } else {
      expect(result).toBeNull();
      expect(trim.stats()).toMatchObject({ available: false, count: 0 });
      expect(lines[0]).toMatch(/^malloc_trim unavailable/);
    }
  });
});
