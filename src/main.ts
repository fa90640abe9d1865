#!/usr/bin/env node
/**
 * Process entry: configuration → app → listen. Prints the bound address (useful with --port 0);
 * SIGINT/SIGTERM stop accepting connections, finish in-flight requests, and exit 0.
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig, USAGE } from './config/config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`threadsearch: ${e.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw e;
  }
  if (config === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const app = buildApp(config, { logger: config.quiet ? { level: 'warn' } : { level: 'info' } });
  const address = await app.http.app.listen({ host: config.host, port: config.port });
  process.stdout.write(`threadsearch listening on ${address} (data: ${config.dataDir}, search threads: ${config.threads})\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`threadsearch: ${signal} received, shutting down\n`);
    app.close().then(
      () => process.exit(0),
      (e) => {
        process.stderr.write(`threadsearch: error during shutdown: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  process.stderr.write(`threadsearch: failed to start: ${(e as Error).message}\n`);
  process.exit(1);
});
