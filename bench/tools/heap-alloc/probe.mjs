// Preload for the server's main thread: SIGUSR2 toggles a window; inside it, V8's sampling heap
// profiler records every sampled allocation (also those collected later) and GCProfiler every GC.
import { isMainThread } from 'node:worker_threads';
import { Session } from 'node:inspector';
import v8 from 'node:v8';
import { writeFileSync } from 'node:fs';
if (isMainThread) {
  const out = process.env.PROBE_OUT ?? '/tmp/heap-alloc';
  const interval = Number(process.env.PROBE_INTERVAL ?? 4096);
  const session = new Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  let on = false, gcp = null, t0 = 0, h0 = null;
  process.on('SIGUSR2', async () => {
    if (!on) {
      on = true;
      h0 = v8.getHeapStatistics();
      gcp = new v8.GCProfiler(); gcp.start();
      if (interval > 0) await post('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      t0 = performance.now();
      process.stderr.write('PROBE START\n');
    } else {
      on = false;
      const gc = gcp.stop();
      const h1 = v8.getHeapStatistics();
      let prof = null;
      if (interval > 0) prof = (await post('HeapProfiler.stopSampling')).profile;
      writeFileSync(out + '.gc.json', JSON.stringify({ h0, h1, gc, ms: performance.now() - t0 }));
      if (prof) writeFileSync(out + '.heapprofile', JSON.stringify(prof));
      process.stderr.write('PROBE STOP\n');
    }
  });
}
