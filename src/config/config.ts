/**
 * Server settings, with every default filled in once: flags override environment variables, which
 * override the embedded defaults (127.0.0.1:9200, data under ./data, one search thread per core).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface ServerConfig {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly dataDir: string;
  /** Search pool size (worker threads). */
  readonly threads: number;
  /** Tasks allowed to wait for a search thread before requests are rejected with 429. */
  readonly searchQueueSize: number;
  readonly quiet: boolean;
}

export class ConfigError extends Error {}

export const DEFAULTS = { host: '127.0.0.1', port: 9200, dataDir: './data', searchQueueSize: 1000 } as const;

function intOption(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`--${name} must be an integer, got [${raw}]`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`--${name} must be between ${min} and ${max}, got [${raw}]`);
  return n;
}

export const USAGE = `Usage: threadsearch [options]

  --host <addr>       address to listen on     (env THREADSEARCH_HOST, default ${DEFAULTS.host})
  --port <n>          port; 0 picks a free one (env THREADSEARCH_PORT, default ${DEFAULTS.port})
  --data <dir>        data directory           (env THREADSEARCH_DATA, default ${DEFAULTS.dataDir})
  --threads <n>       search pool threads      (env THREADSEARCH_THREADS, default: available cores)
  --quiet             log only warnings and errors
  --help              show this help
`;

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        threads: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const host = v.host ?? env.THREADSEARCH_HOST ?? DEFAULTS.host;
  const portRaw = v.port ?? env.THREADSEARCH_PORT;
  const threadsRaw = v.threads ?? env.THREADSEARCH_THREADS;
  return {
    host,
    port: portRaw !== undefined ? intOption('port', portRaw, 0, 65535) : DEFAULTS.port,
    dataDir: resolve(v.data ?? env.THREADSEARCH_DATA ?? DEFAULTS.dataDir),
    threads: threadsRaw !== undefined ? intOption('threads', threadsRaw, 1, 256) : Math.max(1, availableParallelism()),
    searchQueueSize: DEFAULTS.searchQueueSize,
    quiet: v.quiet ?? false,
  };
}
