/**
 * threadsearch with a fault injector and a server-side view, for the load scenario: the real app
 * from `createApp`, plus
 *   SIGUSR2 → terminate one search-pool worker thread (the same as a worker crashing);
 *   SIGUSR1 → print `stats {json}` (request count, server-side latency p50/p99/max from headers
 *             parsed to response sent, requests aborted by the client, connections accepted, the
 *             main thread's longest event-loop delay)
 *             and start counting afresh.
 * Takes the server's own flags. Prints "listening on <url>" like main.ts; SIGTERM shuts down.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';

const config = loadConfig(process.argv.slice(2), process.env);
if (config === 'help') process.exit(0);
const app = await createApp(config);
const started = new WeakMap<object, number>();
let durations: number[] = [];
let aborted = 0;
let connections = 0;
app.http.app.addHook('onRequest', async (req) => {
  started.set(req, performance.now());
});
app.http.app.addHook('onResponse', async (req) => {
  const t0 = started.get(req);
  if (t0 !== undefined) durations.push(performance.now() - t0);
  started.delete(req);
});
app.http.app.addHook('onRequestAbort', async (_req) => {
  aborted++;
});
app.http.app.server.on('connection', () => connections++);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('SIGUSR1', () => {
  const sorted = Float64Array.from(durations).sort();
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
  const stats = {
    requests: sorted.length, p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1), aborted, connections, loop_delay_max_ms: loopDelay.max / 1e6,
    memory_mb: Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)])),
  };
  loopDelay.reset();
  process.stdout.write(`stats ${JSON.stringify(stats)}\n`);
  durations = [];
  aborted = 0;
  connections = 0;
});
const address = await app.listen(config.host, config.port);
process.stdout.write(`listening on ${address}\n`);
let kills = 0;
process.on('SIGUSR2', () => {
  // Kills are seconds apart, so the target (and any replacement) has finished starting: Piscina
  // does not replace a thread killed during its start-up.
  const workers = app.pool.workers();
  if (workers.length === 0) return;
  const target = workers[kills % workers.length];
  kills++;
  void target.terminate();
  process.stdout.write(`fault: terminated worker thread ${target.threadId} (${kills} so far)\n`);
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
