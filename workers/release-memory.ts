/**
 * Returning a big task's garbage at once. A build or merge allocates its SegmentInput (typed arrays
 * about the size of the segment) and the builder's per-document strings, then goes idle; V8 frees
 * ArrayBuffer memory only when a GC finds the arrays dead, and an idle worker allocates nothing
 * that would start one, so that garbage stayed resident — about as much as the segments
 * themselves (issue 22). A full GC after such a task costs a few ms against the task's seconds.
 *
 * `gc` is not exposed by default and worker execArgv refuses V8 flags; setting the flag at run
 * time and taking the function from a fresh context is V8's documented way to get it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (() => void) | undefined;

/** Tasks that produced less than this are left to V8's own schedule. */
const MIN_BYTES = 1 << 20;

export function releaseTaskMemory(producedBytes: number): void {
  if (producedBytes >= MIN_BYTES && typeof gc === 'function') gc();
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
    gc();
  }, 10).unref();
}
