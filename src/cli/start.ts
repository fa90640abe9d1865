/**
 * `threadsearch start` (and `npm start`): configuration → logger → app (data directory, recovery)
 * → listen. Logs the effective settings (secrets masked), what recovery found and the bound address
 * (useful with --port 0); SIGINT/SIGTERM stop accepting connections, finish in-flight requests,
 * flush, and exit 0. A bad setting is one line on stderr and exit code 2, before anything starts.
 */
import { createApp, type NodeRecovery } from '../app.js';
import { ConfigError, loadConfig, usage, type ServerConfig } from '../config/config.js';
import { createLogger, type Logger } from '../logging/index.js';

export async function startServer(argv: readonly string[]): Promise<void> {
  let config;
  try {
    config = loadConfig(argv, process.env, { cwd: process.cwd() });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`threadsearch: ${e.message}\n(threadsearch start --help lists every setting)\n`);
      process.exit(2);
    }
    throw e;
  }
  if (config === 'help') {
    process.stdout.write(usage());
    return;
  }
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  logSettings(log, config);
  const started = performance.now();
  const app = await createApp(config, { logger: log });
  reportRecovery(log, app.recovery, performance.now() - started);
  reportSecurity(log, app.generatedApiKey, config.securityEnabled);
  const address = await app.listen(config.host, config.port);
  announce(log, `threadsearch listening on ${address} (data: ${config.dataDir}, search threads: ${config.threads})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    app.close().then(
      () => process.exit(0),
      (e) => {
        log.error(`error during shutdown: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** The settings the server runs with and where each came from (secrets are already masked). */
function logSettings(log: Logger, config: ServerConfig): void {
  const settings: Record<string, string> = {};
  const setBy: Record<string, string> = {};
  for (const s of config.effectiveSettings) {
    settings[s.key] = s.value;
    if (s.source !== 'default') setBy[s.key] = s.source;
  }
  log.info({ config_file: config.configFile, settings, set_by: setBy }, 'effective settings (flag > environment > config file > default)');
}

/**
 * The bound address is the start-up contract scripts read (`--port 0`): logged at info, and
 * written plainly when the log level hides info (--quiet), so it is always there once.
 */
function announce(log: Logger, line: string): void {
  if (log.isLevelEnabled('info')) log.info(line);
  else process.stdout.write(`${line}\n`);
}

/** One summary line and one warning per problem — the operator's view of start-up. */
function reportRecovery(log: Logger, r: NodeRecovery, startMs: number): void {
  let shards = 0;
  let segments = 0;
  let replayed = 0;
  for (const [name, ir] of r.perIndex) {
    shards += ir.shards;
    segments += ir.segments;
    replayed += ir.replayed;
    for (const p of ir.problems) log.warn(`recovery problem in index [${name}]: ${p}`);
    if (ir.lostDocs > 0 || ir.lostOps > 0) {
      log.error(`index [${name}] lost data: ${ir.lostDocs} documents in damaged segment files, ${ir.lostOps} damaged translog records; it reports red health`);
    }
  }
  for (const dir of r.removedOrphans) log.warn(`removed index directory [${dir}] that no index owns (a create or delete cut short)`);
  log.info(
    `started in ${Math.round(startMs)} ms; recovered ${count(r.indices, 'index', 'indices')}, ${count(shards, 'shard')}, ${count(segments, 'segment')}, ${count(replayed, 'translog operation')} replayed (recovery ${Math.round(r.tookMs)} ms)`,
  );
}

/**
 * The generated bootstrap key is printed once, on the start that created it (only its hash is
 * stored) — on the console, never through the logger, whose lines may be shipped and kept; turning
 * security off is a warning on every start.
 */
function reportSecurity(log: Logger, generated: string | null, enabled: boolean): void {
  if (!enabled) {
    log.warn('security is disabled (--no-security): anyone who can reach this port can read, write and delete everything');
    return;
  }
  if (generated === null) return;
  const rule = '-'.repeat(78);
  process.stdout.write(
    `${rule}\n` +
      'threadsearch: security is on. A superuser API key was generated for this data directory.\n' +
      'It is shown only this once (only its hash is stored) — keep it safe:\n\n' +
      `  Authorization: ApiKey ${generated}\n\n` +
      // The header is what curl sends; clients and the commands take the encoded key alone.
      `Clients take the key alone: new Client({ node, auth: { apiKey: "${generated}" } });\n` +
      `so do the threadsearch commands: export THREADSEARCH_API_KEY=${generated}\n` +
      'To choose the key yourself, start with THREADSEARCH_API_KEY or --api-key; --no-security\n' +
      'turns security off.\n' +
      `${rule}\n`,
  );
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
