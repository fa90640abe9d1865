/**
 * Server settings from every source, with the precedence ES users expect: command-line flag >
 * environment variable > config file (threadsearch.yml) > default. What each setting is, how it
 * parses and its default come from settings-registry.ts; this file only decides which source
 * wins, names the source in every error, and records the effective settings for the start-up log.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './config-error.js';
import { readConfigFile } from './config-file.js';
import type { MlNodeConfig } from './ml-nodes.js';
import { FLAG_ALIASES, SETTINGS, SETTINGS_BY_KEY, type SettingDef, type SettingValues } from './settings-registry.js';
import { SettingValueError } from './setting-types.js';

export { ConfigError };
export type { MlNodeConfig };

/** The file looked for in the working directory when neither --config nor THREADSEARCH_CONFIG names one. */
export const CONFIG_FILE_NAME = 'threadsearch.yml';
export const CONFIG_ENV = 'THREADSEARCH_CONFIG';

export type SettingSource = 'flag' | 'environment' | 'file' | 'default';

/** One setting as the server runs with it, for the start-up log: secrets masked. */
export interface EffectiveSetting {
  readonly key: string;
  /** The value's text; `<redacted>` for a secret that is set. */
  readonly value: string;
  readonly source: SettingSource;
}

export type ServerConfig = Readonly<SettingValues> & {
  /** The config file read, or null. */
  readonly configFile: string | null;
  readonly effectiveSettings: readonly EffectiveSetting[];
};

export interface LoadOptions {
  /** Where to look for threadsearch.yml when no file is named; unset: only a named file is read. */
  readonly cwd?: string;
}

const SECRET_MASK = '<redacted>';

function flagName(s: SettingDef): string {
  return `--${s.flag}`;
}

function flagOptions(): Record<string, { type: 'string' | 'boolean' }> {
  const options: Record<string, { type: 'string' | 'boolean' }> = { config: { type: 'string' }, help: { type: 'boolean' } };
  for (const s of SETTINGS as readonly SettingDef[]) options[s.flag] = { type: s.flagValue === undefined ? 'string' : 'boolean' };
  for (const alias of Object.keys(FLAG_ALIASES)) options[alias] = { type: 'boolean' };
  return options;
}

/**
 * What an unknown flag was probably meant to be: ES's `-E key=value` or `--key` spelled with a
 * setting's dotted key (→ its flag), or a flag one or two letters off (`--prot` → `--port`).
 */
function unknownFlagHint(argv: readonly string[], e: unknown): string {
  if ((e as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const option = /Unknown option '([^']+)'/.exec((e as Error).message)?.[1];
  if (option === undefined) return '';
  if (option === '-E') {
    // -Ehttp.port=9201 or -E http.port=9201, as ES takes settings on its command line.
    const i = argv.findIndex((a) => a.startsWith('-E'));
    const pair = i < 0 ? '' : argv[i] === '-E' ? (argv[i + 1] ?? '') : argv[i].slice(2);
    const [key, ...rest] = pair.split('=');
    const s = SETTINGS_BY_KEY.get(key);
    const as = s === undefined ? 'its flag' : s.flagValue === undefined ? `--${s.flag} ${rest.join('=')}` : `--${s.flag}`;
    return ` (ES's -E key=value is not taken here: give the setting as ${as}, or as the key in threadsearch.yml)`;
  }
  const name = option.replace(/^-+/, '').split('=')[0];
  const byKey = SETTINGS_BY_KEY.get(name);
  if (byKey !== undefined) return ` (did you mean --${byKey.flag}? [${name}] is its threadsearch.yml key)`;
  let best: string | undefined;
  let bestDistance = 3;
  for (const flag of Object.keys(flagOptions())) {
    const d = editDistance(name, flag);
    if (d < bestDistance) [best, bestDistance] = [flag, d];
  }
  return best === undefined ? '' : ` (did you mean --${best}?)`;
}

/** Levenshtein distance of two short strings (flag names). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv, options: LoadOptions = {}): ServerConfig | 'help' {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({ args: [...argv], options: flagOptions(), strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new ConfigError((e as Error).message + unknownFlagHint(argv, e));
  }
  if (flags.help) return 'help';
  const configFile = findConfigFile(flags.config as string | undefined, env, options.cwd);
  const file = configFile === null ? new Map<string, string>() : readConfigFile(configFile);

  const values: Record<string, unknown> = {};
  const effectiveSettings: EffectiveSetting[] = [];
  for (const s of SETTINGS as readonly SettingDef[]) {
    const { raw, source, from } = pick(s, flags, env, file, configFile);
    try {
      values[s.field] = s.type.parse(raw, s.key);
    } catch (e) {
      if (e instanceof SettingValueError) throw new ConfigError(`setting [${s.key}] ${from}: ${e.message}`);
      throw e;
    }
    effectiveSettings.push({ key: s.key, value: s.secret && raw !== '' ? SECRET_MASK : raw, source });
  }
  return { ...(values as SettingValues), configFile, effectiveSettings };
}

function findConfigFile(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string | undefined): string | null {
  const named = flag ?? (env[CONFIG_ENV] || undefined);
  if (named !== undefined) return resolve(named);
  if (cwd === undefined) return null;
  const candidate = join(cwd, CONFIG_FILE_NAME);
  return existsSync(candidate) ? candidate : null;
}

/** The winning source of one setting: flag (or a flag alias) > environment > file > default. */
function pick(
  s: SettingDef, flags: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv, file: ReadonlyMap<string, string>, configFile: string | null,
): { raw: string; source: SettingSource; from: string } {
  const flag = flags[s.flag];
  if (flag !== undefined) return { raw: s.flagValue ?? String(flag), source: 'flag', from: `(${flagName(s)})` };
  for (const [alias, a] of Object.entries(FLAG_ALIASES)) {
    if (a.key === s.key && flags[alias]) return { raw: a.value, source: 'flag', from: `(--${alias})` };
  }
  const fromEnv = env[s.env];
  if (fromEnv !== undefined && fromEnv !== '') return { raw: fromEnv, source: 'environment', from: `(${s.env})` };
  const fromFile = file.get(s.key);
  if (fromFile !== undefined) return { raw: fromFile, source: 'file', from: `in the config file [${configFile}]` };
  return { raw: s.default, source: 'default', from: '(default)' };
}

/** `threadsearch start --help`, generated from the settings list. */
export function usage(): string {
  const lines = [
    'Usage: threadsearch start [options]   (or: threadsearch [options], npm start -- [options])',
    '',
    `Every setting is a flag, an environment variable and a key of ${CONFIG_FILE_NAME}; a flag wins over`,
    'the environment, which wins over the file, which wins over the default.',
    '',
    `  --config <path>     the config file (env ${CONFIG_ENV}; default: ./${CONFIG_FILE_NAME} if it exists)`,
  ];
  for (const s of SETTINGS as readonly SettingDef[]) {
    const arg = s.flagValue === undefined ? ` <${s.type.arg}>` : '';
    lines.push(`  ${flagName(s)}${arg}`);
    lines.push(`      ${s.description}; ${s.type.describe}`);
    lines.push(`      key ${s.key}, env ${s.env}, default ${s.defaultText ?? (s.default === '' ? 'none' : s.default)}`);
  }
  for (const [alias, a] of Object.entries(FLAG_ALIASES)) lines.push(`  --${alias}`, `      ${a.description}`);
  lines.push('  --help              show this help', '');
  return lines.join('\n');
}

/** Defaults for embedding (tests, benchmarks): the same values `loadConfig` fills in. */
export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const base = loadConfig([], {});
  if (base === 'help') throw new Error('unreachable');
  return { ...base, ...overrides };
}
