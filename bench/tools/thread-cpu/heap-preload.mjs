// --import preload for heap-trace.mjs (issue 19, gc-i19g): SIGUSR2 prints the isolate's heap spaces (KB) and
// external memory; HEAPSAMPLE=1 prints old/new space and external memory (MB) every 25 ms. Loaded in
// every isolate (worker threads too): the main isolate's lines are the ones with the larger old space.
import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const s = {}; for (const x of v8.getHeapSpaceStatistics()) s[x.space_name] = Math.round(x.space_used_size / 1024);
  const h = v8.getHeapStatistics();
  process.stderr.write('HEAPSTAT ' + JSON.stringify({ t: Date.now(), ...s, total: Math.round(h.used_heap_size / 1024), limit: Math.round(h.heap_size_limit/1048576), ext: Math.round(h.external_memory/1024) }) + '\n');
});
if (process.env.HEAPSAMPLE) {
  const { performance } = await import('node:perf_hooks');
  setInterval(() => {
    const h = v8.getHeapStatistics(); let old = 0, nw = 0;
    for (const x of v8.getHeapSpaceStatistics()) { if (x.space_name === 'old_space') old = x.space_used_size; if (x.space_name === 'new_space') nw = x.space_used_size; }
    process.stdout.write(`SAMPLE ${performance.now().toFixed(0)} old=${(old/1048576).toFixed(1)} new=${(nw/1048576).toFixed(1)} ext=${(h.external_memory/1048576).toFixed(1)} mallocd=${(h.malloced_memory/1048576).toFixed(1)}\n`);
  }, 25).unref();
}
