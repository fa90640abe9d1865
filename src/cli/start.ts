/**
 * `threadsearch start` (and `npm start`): configuration → app (data directory, recovery) → listen.
 * Prints what recovery found and the bound address (useful with --port 0); SIGINT/SIGTERM stop
 * accepting connections, finish in-flight requests, flush, and exit 0.
 */
import { createApp, type NodeRecovery } from '../app.js';
import { ConfigError, loadConfig, USAGE } from '../config/config.js';

export async function startServer(argv: readonly string[]): Promise<void> {
  let config;
  try {
    config = loadConfig(argv, process.env);
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
  const started = performance.now();
  const app = await createApp(config, { logger: config.quiet ? { level: 'warn' } : { level: 'info' } });
  reportRecovery(app.recovery, performance.now() - started, config.quiet);
  reportSecurity(app.generatedApiKey, config.securityEnabled);
  const address = await app.listen(config.host, config.port);
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

/** One summary line (stdout) and one line per problem (stderr) — the operator's view of start-up. */
function reportRecovery(r: NodeRecovery, startMs: number, quiet: boolean): void {
  let shards = 0;
  let segments = 0;
  let replayed = 0;
  for (const [name, ir] of r.perIndex) {
    shards += ir.shards;
    segments += ir.segments;
    replayed += ir.replayed;
    for (const p of ir.problems) process.stderr.write(`threadsearch: recovery problem in index [${name}]: ${p}\n`);
    if (ir.lostDocs > 0 || ir.lostOps > 0) {
      process.stderr.write(`threadsearch: index [${name}] lost data: ${ir.lostDocs} documents in damaged segment files, ${ir.lostOps} damaged translog records; it reports red health\n`);
    }
  }
  for (const dir of r.removedOrphans) process.stderr.write(`threadsearch: removed index directory [${dir}] that no index owns (a create or delete cut short)\n`);
  if (!quiet) {
    process.stdout.write(
      `threadsearch: started in ${Math.round(startMs)} ms; recovered ${count(r.indices, 'index', 'indices')}, ${count(shards, 'shard')}, ${count(segments, 'segment')}, ${count(replayed, 'translog operation')} replayed (recovery ${Math.round(r.tookMs)} ms)\n`,
    );
  }
}

/**
 * The generated bootstrap key is printed once, on the start that created it (only its hash is
 * stored); turning security off is loud, on every start.
 */
function reportSecurity(generated: string | null, enabled: boolean): void {
  if (!enabled) {
    process.stderr.write('threadsearch: WARNING: security is disabled (--no-security): anyone who can reach this port can read, write and delete everything\n');
    return;
  }
  if (generated === null) return;
  const rule = '-'.repeat(78);
  process.stdout.write(
    `${rule}\n` +
      'threadsearch: security is on. A superuser API key was generated for this data directory.\n' +
      'It is shown only this once (only its hash is stored) — keep it safe:\n\n' +
      `  Authorization: ApiKey ${generated}\n\n` +
      'Clients: new Client({ node, auth: { apiKey: "<the value above>" } }). To choose the key\n' +
      'yourself, start with THREADSEARCH_API_KEY or --api-key; --no-security turns security off.\n' +
      `${rule}\n`,
  );
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
