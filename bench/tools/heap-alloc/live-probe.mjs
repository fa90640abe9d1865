// Preload for the server's main thread (issue 22, gc-i22young): what an `_msearch` load keeps alive.
// SIGUSR2 starts V8's sampling heap profiler (LIVE_MODE=live: samples are dropped when their object
// dies, so what is left at the stop is alive then; LIVE_MODE=all: every sampled allocation, those
// collected later included) and v8.GCProfiler. A second SIGUSR2, sent while the load still runs,
// stops both — in `live` mode right after a full collection (HeapProfiler.collectGarbage), so the
// profile holds what in-flight requests and long-lived state hold at that moment, by allocation
// stack; LIVE_SNAPSHOT=1 also writes a heap snapshot then, and a third SIGUSR2 (after the load) one of the idle heap. Files: <LIVE_OUT>.{heapprofile,gc.json,heapsnapshot,idle.heapsnapshot}.
import { isMainThread } from 'node:worker_threads';
import { Session } from 'node:inspector';
import v8 from 'node:v8';
import { writeFileSync } from 'node:fs';
if (isMainThread) {
  const out = process.env.LIVE_OUT ?? '/tmp/live';
  const interval = Number(process.env.LIVE_INTERVAL ?? 1024);
  const all = process.env.LIVE_MODE === 'all';
  // LIVE_MODE=promoted: samples go only when a scavenge collects them, so at the stop (after one
  // more scavenge) what is left is what was promoted in the window (dead in old space since, or
  // alive) plus what the young generation still holds.
  const promoted = process.env.LIVE_MODE === 'promoted';
  let minorGc = null;
  if (promoted) {
    v8.setFlagsFromString('--expose-gc');
    const { runInNewContext } = await import('node:vm');
    const gc = runInNewContext('gc');
    minorGc = () => gc({ type: 'minor' });
  }
  const session = new Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  let on = false, gcp = null, t0 = 0, h0 = null, stops = 0;
  process.on('SIGUSR2', async () => {
    if (!on && stops > 0) {
      // A third signal (after the load): the idle heap, to subtract from the snapshot under load.
      if (process.env.LIVE_SNAPSHOT) v8.writeHeapSnapshot(out + '.idle.heapsnapshot');
      process.stderr.write('LIVE IDLE\n');
      return;
    }
    if (!on) {
      on = true;
      h0 = v8.getHeapStatistics();
      gcp = new v8.GCProfiler(); gcp.start();
      await post('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMajorGC: all || promoted, includeObjectsCollectedByMinorGC: all });
      t0 = performance.now();
      process.stderr.write('LIVE START\n');
    } else {
      on = false;
      stops++;
      const gc = gcp.stop();
      const h1 = v8.getHeapStatistics();
      if (promoted) minorGc();
      else if (!all) await post('HeapProfiler.collectGarbage');
      const prof = (await post('HeapProfiler.stopSampling')).profile;
      if (process.env.LIVE_SNAPSHOT) v8.writeHeapSnapshot(out + '.heapsnapshot');
      writeFileSync(out + '.gc.json', JSON.stringify({ h0, h1, gc, ms: performance.now() - t0 }));
      writeFileSync(out + '.heapprofile', JSON.stringify(prof));
      process.stderr.write('LIVE STOP\n');
    }
  });
}
