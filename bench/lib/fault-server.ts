/**
 * threadsearch with a fault injector, for the load scenario: the real app from `createApp`, plus
 * SIGUSR2 → terminate one search-pool worker thread (the same as a worker crashing). Takes the
 * server's own flags. Prints "listening on <url>" like main.ts; SIGTERM shuts down gracefully.
 */
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';

const config = loadConfig(process.argv.slice(2), process.env);
if (config === 'help') process.exit(0);
const app = await createApp(config);
const address = await app.http.app.listen({ host: config.host, port: config.port });
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
