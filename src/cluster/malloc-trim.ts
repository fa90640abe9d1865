/**
 * Giving glibc's free heap back to the OS once the node goes idle (issue 22). A load leaves the
 * process's malloc heap at its high-water mark: node's HTTP parser copies every socket read of a
 * request body into its own 64 KB buffer, and the workers' compilers allocate their zones there, so
 * after 200k sparse vectors the main arena held 36–49 MB of which ~9 MB was in use. glibc returns
 * free memory by itself only from the top of a heap (MALLOC_TRIM_THRESHOLD_); the free holes below
 * the last live chunk stay resident until `malloc_trim(0)`, which walks every arena (the workers'
 * too) and `madvise`s their free pages away. Node has no binding for it, so it is called through
 * `koffi`, an optional dependency whose binaries come prebuilt inside registry packages.
 *
 * Best effort: on another platform or C library (musl has no malloc_trim), or when the package is
 * missing or fails to load, the trim is skipped — one debug line, never an error. The call runs on
 * libuv's thread pool (koffi's async calls): the main thread does not wait for the walk (tens of ms
 * per hundred MB returned).
 */
import { promisify } from 'node:util';
import type { Logger } from '../logging/index.js';

export const FFI_PACKAGE = 'koffi';

/** glibc's soname: a musl or non-Linux system has no such file, and the trim is skipped. */
const LIBC = 'libc.so.6';

/** The few koffi calls used (declared here: the code compiles without the optional package). */
interface Koffi {
  load(path: string): { func(signature: string): { async(...args: unknown[]): void } };
}

/** `malloc_trim(0)` run off the main thread: resolves with glibc's answer (1: memory was returned). */
export type TrimCall = () => Promise<number>;

/** Loads the trim call; throws when it cannot (the caller skips trimming). */
export type TrimLoader = () => Promise<TrimCall>;

/** What one trim did: RSS read before and after it, and how long the call took. */
export interface TrimResult {
  readonly rssBefore: number;
  readonly rssAfter: number;
  readonly ms: number;
}

async function loadGlibcTrim(): Promise<TrimCall> {
  if (process.platform !== 'linux') throw new Error(`malloc_trim is glibc's; this platform is [${process.platform}]`);
  // A variable specifier keeps tsc from resolving the optional package.
  const specifier: string = FFI_PACKAGE;
  const mod = (await import(specifier)) as { default?: Koffi } & Koffi;
  const koffi = typeof mod.load === 'function' ? mod : mod.default!;
  const trim = koffi.load(LIBC).func('int malloc_trim(size_t pad)');
  const call = promisify((pad: number, done: (err: unknown, released: number) => void) => trim.async(pad, done));
  return () => call(0);
}

export interface MallocTrimStats {
  /** Whether trimming works here (false also before the node's first idle collection tried it). */
  readonly available: boolean;
  readonly count: number;
  readonly released_in_bytes: number;
  readonly total_time_in_millis: number;
  readonly last_time_in_millis: number;
}

export class MallocTrim {
  private call: Promise<TrimCall | null> | null = null;
  private running = false;
  /** null until the first trim tried to load the call. */
  private unavailable: boolean | null = null;
  /** Trims done, RSS returned by them (before − after, summed; other threads' work meanwhile included) and their time. */
  count = 0;
  releasedBytes = 0;
  totalMs = 0;
  lastMs = 0;

  constructor(
    private readonly logger?: Logger,
    private readonly load: TrimLoader = loadGlibcTrim,
  ) {}

  /** Returns the heaps' free pages; null when trimming is unavailable or a trim is still running. */
  async trim(): Promise<TrimResult | null> {
    if (this.running) return null;
    this.running = true;
    try {
      const call = await this.loaded();
      if (call === null) return null;
      const rssBefore = process.memoryUsage.rss();
      const start = performance.now();
      await call();
      const result = { rssBefore, rssAfter: process.memoryUsage.rss(), ms: performance.now() - start };
      this.count++;
      this.releasedBytes += Math.max(0, result.rssBefore - result.rssAfter);
      this.totalMs += result.ms;
      this.lastMs = result.ms;
      this.logger?.debug(`malloc_trim: RSS ${mb(result.rssBefore)} → ${mb(result.rssAfter)} MB in ${result.ms.toFixed(1)} ms`);
      return result;
    } catch (e) {
      this.logger?.debug(`malloc_trim failed: ${(e as Error).message.slice(0, 200)}`);
      return null;
    } finally {
      this.running = false;
    }
  }

  /** `_nodes/stats` `process.mem.malloc_trim`. */
  stats(): MallocTrimStats {
    return { available: this.unavailable === false, count: this.count, released_in_bytes: this.releasedBytes, total_time_in_millis: round(this.totalMs), last_time_in_millis: round(this.lastMs) };
  }

  /** The call, loaded once; a failed load is logged once and never retried. */
  private loaded(): Promise<TrimCall | null> {
    this.call ??= this.load().then((call) => {
      this.unavailable = false;
      return call;
    }, (e: unknown) => {
      this.unavailable = true;
      this.logger?.debug(`malloc_trim unavailable, glibc's free heap is not returned after loads: ${(e as Error).message.slice(0, 200)}`);
      return null;
    });
    return this.call;
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const round = (ms: number) => Math.round(ms * 10) / 10;
