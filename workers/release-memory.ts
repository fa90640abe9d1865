/**
 * Returning a big task's garbage. A build or merge allocates its SegmentInput (typed arrays about
 * the size of the segment) and the builder's per-document strings, then goes idle; V8 frees
 * ArrayBuffer memory only when a GC finds the arrays dead, and an idle worker allocates nothing
 * that would start one, so that garbage stayed resident — about as much as the segments
 * themselves (issue 22).
 *
 * A merge collects at once: it is rare and its garbage is the size of everything it merged. A
 * refresh's build does not (issue 19): under a bulk load a build runs every second on every worker,
 * and a forced full GC between two builds throws away the thread's optimized code (V8 deoptimizes
 * it for "weak objects": what it was specialised on died with the last build), so the next build
 * runs interpreted and compiles it all again — 331 ms of CPU for a 5k-doc build against 126 ms
 * without (bench/build-gc-churn.ts). A build collects only once the segments built since the last
 * collection pass BUILD_BYTES_BEFORE_GC; otherwise its garbage waits for V8's own schedule, which
 * collects while a build runs (its objects alive, so nothing is deoptimized), or for the
 * coordinator's signal that the node's segment work has stopped (`releaseIdleMemory`, see
 * cluster/idle-collector.ts: no build or merge in flight, none for 2 s). There was also a 1 s timer
 * after a worker's last build; one shard's builds alternate between the workers, so under a steady
 * load it fired between builds, and the coordinator's signal covers an idle worker anyway.
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

let builtBytes = 0;

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
  gc!();
}

/** Drops the build scratch's free buffers (a merge starts: it would not use them); collected with the merge's garbage. */
export function releaseBuildScratch(): void {
  buildScratch.clear();
}

/** Now, whatever ran since: a merge calls it between fields, whose arrays are each the size of a segment section. */
export function collectGarbage(): void {
  if (typeof gc === 'function') collect();
}

/** After a merge: its garbage is collected at once. */
export function releaseTaskMemory(producedBytes: number): void {
  if (producedBytes >= MIN_BYTES && typeof gc === 'function') collect();
}

/** After a refresh's build: collected once enough has been built; else left to V8 and the coordinator's idle signal (see the header). */
export function releaseBuildMemory(producedBytes: number): void {
  if (typeof gc !== 'function') return;
  builtBytes += producedBytes;
  if (builtBytes >= BUILD_BYTES_BEFORE_GC) collect();
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
    if (droppedBytes === 0) return; // collected mid-build (collectDropped)
    droppedBytes = 0;
    collect();
  }, 10).unref();
}

/**
 * Mid-build: collects at once when dropped segments wait for this thread's GC. A merge's publish
 * drops its sources (~100 MB at 1M docs) while both threads are busy — Piscina hands the merging
 * thread the next queued build before the coordinator publishes — so the timer above fired only
 * after a 1–3 s build, and every thread's copy of the sources stayed resident until then, next to
 * the merged segment: up to ~130 MB above the segments in use, at the load's peak (issue 22). The
 * build's own objects are alive at this point, so the collection deoptimizes nothing (unlike one
 * between builds, see the header).
 */
export function collectDropped(): void {
  if (droppedBytes < MIN_BYTES || typeof gc !== 'function') return;
  droppedBytes = 0;
  collect();
}
