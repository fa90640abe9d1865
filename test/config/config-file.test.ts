/**
 * threadsearch.yml and the precedence of setting sources (flag > environment > file > default):
 * parsing (dotted and nested keys, lists, ML nodes), errors that name the key and what is allowed,
 * the default lookup in the working directory, and the effective settings with secrets masked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ServerConfig } from '../../src/config/config.js';
import { encodeApiKey } from '../../src/common/api-key-codec.js';

const dir = mkdtempSync(join(tmpdir(), 'threadsearch-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function yml(text: string): string {
  const file = join(dir, `t${files++}.yml`);
  writeFileSync(file, text);
  return file;
}

function load(argv: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): ServerConfig {
  const c = loadConfig(argv, env, cwd === undefined ? {} : { cwd });
  if (c === 'help') throw new Error('help');
  return c;
}

function failure(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    load(argv, env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('threadsearch.yml', () => {
  it('reads dotted keys, nested maps, lists and ML nodes', () => {
    const file = yml([
      'http.port: 9333',
      'network:',
      '  host: 0.0.0.0',
      'http:',
      '  cors:',
      "    allow-origin: [https://a.example, '/https://.*\\.b\\.example/']",
      '  max_content_length: 10mb',
      'search.default_search_timeout: 30s',
      'xpack.security.enabled: false',
      'logger.level: debug',
      'ml.nodes:',
      '  - { name: ml-1, memory: 2gb, allocated_processors: 2 }',
      'path.data: ./somewhere',
    ].join('\n'));
    const c = load(['--config', file]);
    expect(c.port).toBe(9333);
    expect(c.host).toBe('0.0.0.0');
    expect(c.corsOrigins).toEqual(['https://a.example', '/https://.*\\.b\\.example/']);
    expect(c.maxContentLength).toBe(10 * 1024 * 1024);
    expect(c.searchTimeoutMs).toBe(30_000);
    expect(c.securityEnabled).toBe(false);
    expect(c.logLevel).toBe('debug');
    expect(c.mlNodes).toEqual([{ name: 'ml-1', memoryBytes: 2 * 1024 ** 3, allocatedProcessors: 2 }]);
    expect(c.dataDir).toBe(resolve('./somewhere'));
    expect(c.configFile).toBe(file);
  });

  it('an empty file is no settings', () => {
    expect(load(['--config', yml('# nothing yet\n')]).port).toBe(9200);
  });

  it.each([
    ['http.prot: 1', /unknown setting \[http\.prot\] in the config file \[.*\]; the settings are: network\.host, http\.port/],
    ['http: { port: abc }', /setting \[http\.port\] in the config file \[.*\]: must be an integer between 0 and 65535, got \[abc\]/],
    ['logger.level: verbose', /setting \[logger\.level\] in the config file \[.*\]: must be one of \[trace, debug, info, warn, error, fatal\], got \[verbose\]/],
    ['logger.format: xml', /setting \[logger\.format\] .*: must be one of \[pretty, json\], got \[xml\]/],
    ['xpack.security.enabled: maybe', /setting \[xpack\.security\.enabled\] .*: must be one of \[true, false\], got \[maybe\]/],
    ['search.default_search_timeout: 10 parsecs', /setting \[search\.default_search_timeout\] .*as a time value/],
    ['http.port: 1\nhttp:\n  port: 2', /setting \[http\.port\] is given twice/],
    ['http.port: 1\nhttp.port: 2', /is not valid YAML: Map keys must be unique/],
    ['http.port: [1, {a: 2}]', /setting \[http\.port\] in the config file \[.*\] must be a single value or a list of values/],
    ['- a\n- b', /must be a map of settings \(key: value\), got a list/],
    ['http.port: "unterminated', /is not valid YAML/],
  ])('refuses %j naming the key and what is allowed', (text, message) => {
    expect(failure(['--config', yml(text)])).toMatch(message);
  });

  it('a missing file named by --config is an error; no file in the working directory is none', () => {
    expect(failure(['--config', join(dir, 'missing.yml')])).toMatch(/cannot read the config file \[.*missing\.yml\]: ENOENT/);
    const empty = mkdtempSync(join(dir, 'cwd-'));
    expect(load([], {}, empty).configFile).toBeNull();
  });

  it('is found as threadsearch.yml in the working directory, or named by THREADSEARCH_CONFIG', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(cwd, 'threadsearch.yml'), 'http.port: 9401\n');
    expect(load([], {}, cwd).port).toBe(9401);
    expect(load([], { THREADSEARCH_CONFIG: yml('http.port: 9402') }, cwd).port).toBe(9402);
    // Without a working directory to look in (embedding, tests), only a named file is read.
    expect(load([]).port).toBe(9200);
  });

  it('never echoes a secret value in an error', () => {
    const message = failure(['--config', yml('xpack.security.bootstrap_api_key: not-a-key-s3cr3t')]);
    expect(message).toMatch(/setting \[xpack\.security\.bootstrap_api_key\] .*must be an encoded API key/);
    expect(message).not.toContain('s3cr3t');
  });
});

describe('precedence: flag > environment > file > default', () => {
  const file = yml('http.port: 9100\nthread_pool.search.size: 3\nlogger.level: error\nhttp.cors.allow-origin: https://file.example\n');

  it('each source wins over the ones below it', () => {
    const c = load(['--config', file, '--port', '9300'], { THREADSEARCH_PORT: '9200', THREADSEARCH_THREADS: '5' });
    expect(c.port).toBe(9300); // flag over environment and file
    expect(c.threads).toBe(5); // environment over file
    expect(c.logLevel).toBe('error'); // file over default
    expect(c.corsOrigins).toEqual(['https://file.example']);
    expect(c.maxClauseCount).toBe(4096); // default
    const sources = Object.fromEntries(c.effectiveSettings.map((s) => [s.key, s.source]));
    expect(sources).toMatchObject({ 'http.port': 'flag', 'thread_pool.search.size': 'environment', 'logger.level': 'file', 'indices.query.bool.max_clause_count': 'default' });
  });

  it('--quiet is --log-level warn, unless --log-level is given', () => {
    expect(load(['--config', file, '--quiet']).logLevel).toBe('warn');
    expect(load(['--quiet', '--log-level', 'debug']).logLevel).toBe('debug');
  });

  it('--no-security wins over a file that enables security; an empty environment variable is unset', () => {
    const secured = yml('xpack.security.enabled: true');
    expect(load(['--config', secured, '--no-security']).securityEnabled).toBe(false);
    expect(load(['--config', yml('xpack.security.enabled: false')], { THREADSEARCH_SECURITY: '' }).securityEnabled).toBe(false);
  });

  it('errors name the source: the flag, the environment variable or the file', () => {
    expect(failure(['--port', 'x'])).toBe('setting [http.port] (--port): must be an integer between 0 and 65535, got [x]');
    expect(failure([], { THREADSEARCH_LOG_LEVEL: 'loud' })).toBe('setting [logger.level] (THREADSEARCH_LOG_LEVEL): must be one of [trace, debug, info, warn, error, fatal], got [loud]');
    expect(failure(['--bogus'])).toMatch(/Unknown option '--bogus'/);
  });

  it('an unknown flag gets the one meant: a near flag, a setting key as a flag, ES\'s -E key=value', () => {
    expect(failure(['--prot', '9201'])).toBe("Unknown option '--prot' (did you mean --port?)");
    expect(failure(['--theads', '2'])).toMatch(/\(did you mean --threads\?\)$/);
    expect(failure(['--http.port', '9201'])).toMatch(/\(did you mean --port\? \[http\.port\] is its threadsearch\.yml key\)$/);
    expect(failure(['-E', 'http.port=9201'])).toMatch(/\(ES's -E key=value is not taken here: give the setting as --port 9201, or as the key in threadsearch\.yml\)$/);
    expect(failure(['-Epath.data=/srv/ts'])).toMatch(/give the setting as --data \/srv\/ts,/);
    expect(failure(['-E', 'xpack.security.enabled=false'])).toMatch(/give the setting as --no-security,/);
    expect(failure(['--zzzzzzzz'])).toBe("Unknown option '--zzzzzzzz'");
  });

  it('the effective settings mask secrets', () => {
    const key = encodeApiKey({ id: 'boot', secret: 'very-secret-value' });
    const c = load(['--config', yml(`xpack.security.bootstrap_api_key: ${key}`)]);
    expect(c.bootstrapApiKey).toEqual({ id: 'boot', secret: 'very-secret-value' });
    const shown = c.effectiveSettings.find((s) => s.key === 'xpack.security.bootstrap_api_key');
    expect(shown).toEqual({ key: 'xpack.security.bootstrap_api_key', value: '<redacted>', source: 'file' });
    expect(JSON.stringify(c.effectiveSettings)).not.toContain(key);
  });
});

describe('a new setting is one registry entry', () => {
  it('an optional path parses to null when unset and to an absolute path when set', async () => {
    const { optionalPath } = await import('../../src/config/setting-types.js');
    expect(optionalPath.parse('', 'path.repo')).toBeNull();
    expect(optionalPath.parse('backups', 'path.repo')).toBe(resolve('backups'));
  });
});

describe('path.repo', () => {
  it('is a list of absolute directories from the flag, the environment or a YAML list; none by default', () => {
    expect(load([]).pathRepo).toEqual([]);
    expect(load(['--path-repo', 'a, b']).pathRepo).toEqual([resolve('a'), resolve('b')]);
    expect(load(['--config', yml('path.repo: [/mnt/backups, ./more]')]).pathRepo).toEqual(['/mnt/backups', resolve('more')]);
  });
});
