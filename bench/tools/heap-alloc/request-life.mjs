// Preload (issue 22, gc-i22young): each HTTP request's life on the server's main thread in scavenges (PerformanceObserver
// 'gc' minor entries between its 'request' event and its response's 'finish') and in requests completed meanwhile;
// SIGUSR2 prints a LIFE line and resets. With heap-trace.mjs: --node="--import bench/tools/heap-alloc/request-life.mjs ...".
import { isMainThread } from 'node:worker_threads';
import http from 'node:http';
import { PerformanceObserver, constants } from 'node:perf_hooks';
if (isMainThread) {
  let minor = 0, done = 0;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++; }).observe({ entryTypes: ['gc'] });
  const spans = new Map(), life = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (ev, req, res) {
    if (ev === 'request') {
      const g0 = minor, d0 = done, t0 = performance.now();
      res.on('finish', () => { done++; const s = minor - g0; spans.set(s, (spans.get(s) ?? 0) + 1); life.push(done - d0); });
    }
    return emit.apply(this, arguments);
  };
  process.on('SIGUSR2', () => {
    life.sort((a, b) => a - b);
    const q = (p) => life[Math.floor(p * (life.length - 1))];
    process.stderr.write(`LIFE scavenges spanned ${JSON.stringify([...spans].sort((a, b) => a[0] - b[0]))} requests-completed-during-life p10 ${q(0.1)} p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${life.at(-1)} n ${life.length} minor ${minor}\n`);
    spans.clear(); life.length = 0;
  });
}
