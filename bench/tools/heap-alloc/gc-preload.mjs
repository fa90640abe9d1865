// --import preload for bulk-gc.mjs (issue 19, gc-i19bulk): in the main thread only, the heap's old
// and new space and its external memory (MB) every 25 ms, as SAMPLE lines on stdout beside --trace-gc.
import { isMainThread } from 'node:worker_threads';
import v8 from 'node:v8';
if (isMainThread) {
  setInterval(() => {
    const h = v8.getHeapStatistics(); let old = 0, nw = 0;
    for (const x of v8.getHeapSpaceStatistics()) { if (x.space_name === 'old_space') old = x.space_used_size; if (x.space_name === 'new_space') nw = x.space_used_size; }
    process.stdout.write(`SAMPLE ${Math.round(performance.now())} old=${(old / 1048576).toFixed(1)} new=${(nw / 1048576).toFixed(1)} ext=${(h.external_memory / 1048576).toFixed(1)}\n`);
  }, 25).unref();
}
