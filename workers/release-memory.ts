/**
 * Returning a big task's garbage. A build or merge allocates its SegmentInput (typed arrays about
 * the size of the segment) and the builder's per-document strings, then goes idle; V8 frees
 * ArrayBuffer memory only when a GC finds the arrays dead, and an idle worker allocates nothing
 * that would start one, so that garbage stayed resident — about as much as the segments
 * themselves (issue 22).
 *
 * A merge collects at once: it is rare and its garbage is the size of everything it merged. A
 * refresh's build does not (issue 19): under a bulk load a build runs every second on every worker,
 * and a full GC after each one, with the freed pages faulted in again by the next build, cost ~11%
 * of bulk throughput. A build collects only when the segments built since the last collection pass
 * BUILD_BYTES_BEFORE_GC, or once the worker has had no build for IDLE_GC_MS — so a steady load
 * leaves the work to V8's own schedule and an idle worker still pins nothing.
 *
 * And when the coordinator says the node went idle after writes (`releaseIdleMemory`, see
 * cluster/idle-collector.ts), whatever is left is collected too.
 *
 * `gc` is not exposed by default and worker execArgv refuses V8 flags; setting the flag at run
 * time and taking the function from a fresh context is V8's documented way to get it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ScratchPool } from '../src/index/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (() => void) | undefined;

/** Tasks that produced less than this are left to V8's own schedule. */
const MIN_BYTES = 1 << 20;
/** Segment bytes built since the last collection that make a build collect at once. */
const BUILD_BYTES_BEFORE_GC = 64 << 20;
/** How long a worker must go without a build before it collects the builds' garbage. */
const IDLE_GC_MS = 1000;

let builtBytes = 0;
let idleTimer: NodeJS.Timeout | null = null;

/**
 * This thread's builds' and merges' transient arrays (index/segment/scratch-pool.ts): kept from
 * build to build while segment work goes on, so their pages stay mapped; dropped when the
 * coordinator says the node went idle (releaseIdleMemory: no build or merge anywhere for 2 s). Not
 * on this worker's own idle timer: the builds of one shard's refreshes go to either worker, so a
 * worker's builds come ~2 s apart under a steady load and a 1 s timer dropped the pool every time.
 */
export const buildScratch = new ScratchPool();

/** Collects; `idle`: the node's segment work has stopped, so the build scratch goes too. */
function collect(idle = false): void {
  if (idle) buildScratch.clear();
  builtBytes = 0;
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = null;
  gc!();
}

/** Now, whatever ran since: a merge calls it between fields, whose arrays are each the size of a segment section. */
export function collectGarbage(): void {
  if (typeof gc === 'function') collect();
}

/** After a merge: its garbage is collected at once. */
export function releaseTaskMemory(producedBytes: number): void {
  if (producedBytes >= MIN_BYTES && typeof gc === 'function') collect();
}

/** After a refresh's build: collected once enough has been built, or when builds stop (see the header). */
export function releaseBuildMemory(producedBytes: number): void {
  if (typeof gc !== 'function') return;
  builtBytes += producedBytes;
  if (builtBytes >= BUILD_BYTES_BEFORE_GC) return collect();
  if (builtBytes < MIN_BYTES) return;
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => collect(), IDLE_GC_MS);
  idleTimer.unref();
}

/** The coordinator's idle signal: collect now, unless nothing ran since the last collection. */
export function releaseIdleMemory(): void {
  if (typeof gc === 'function') collect(true);
}

let droppedBytes = 0;
let scheduled = false;

/**
 * A dropped segment's buffer is freed when this worker's GC finds its views dead, which an idle
 * worker would not run: collect once the drops of one publish have arrived (a merge drops
 * everything it replaced at once).
 */
export function releaseDropped(bytes: number): void {
  droppedBytes += bytes;
  if (scheduled || droppedBytes < MIN_BYTES || typeof gc !== 'function') return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    droppedBytes = 0;
    collect();
  }, 10).unref();
}
