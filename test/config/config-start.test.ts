/**
 * Start-up with a config file, as a user runs it (dist/src/main.js in a child process): a bad
 * setting is one line on stderr and exit code 2, no stack trace; a good file is applied and the
 * effective settings are logged first, secrets masked.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeApiKey } from '../../src/common/api-key-codec.js';
import { distFile } from '../../src/cli/paths.js';
import { startProcess } from '../../src/cli/server-process.js';
import { cli, tempFiles } from '../cli/cli-harness.js';

const KEY = encodeApiKey({ id: 'cfg-boot', secret: 'cfg-boot-secret-value' });
const dir = tempFiles({
  'bad/threadsearch.yml': 'http:\n  port: 9200\nlogger.level: loud\n',
  'typo.yml': 'http.prot: 9200\n',
  'good/threadsearch.yml': `http.port: 0\nthread_pool.search.size: 1\nlogger.format: json\nxpack.security.bootstrap_api_key: ${KEY}\npath.data: ./data\n`,
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('threadsearch start with a config file', () => {
  it('refuses a bad value in ./threadsearch.yml: exit 2, the key, the allowed values, no stack', async () => {
    const run = await cli([], { cwd: join(dir, 'bad') });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^threadsearch: setting \[logger\.level\] in the config file \[.*threadsearch\.yml\]: must be one of \[trace, debug, info, warn, error, fatal\], got \[loud\]\n/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an unknown key of --config naming it', async () => {
    const run = await cli(['start', '--config', join(dir, 'typo.yml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown setting \[http\.prot\]/);
  });

  it('starts with the --config file and logs the effective settings first, the key masked', async () => {
    // startProcess runs in this process's working directory: name the file (THREADSEARCH_CONFIG would do too).
    const server = await startProcess(distFile('main.js'), ['--config', join(dir, 'good', 'threadsearch.yml'), '--data', join(dir, 'good', 'data')]);
    try {
      const res = await fetch(`${server.url}/`, { headers: { authorization: `ApiKey ${KEY}` } });
      expect(res.status).toBe(200);
      const first = JSON.parse(server.output().split('\n')[0]);
      expect(first.msg).toMatch(/^effective settings/);
      expect(first.settings).toMatchObject({ 'http.port': '0', 'logger.format': 'json', 'xpack.security.bootstrap_api_key': '<redacted>' });
      expect(first.set_by).toMatchObject({ 'http.port': 'file', 'path.data': 'flag' });
      expect(server.output()).not.toContain(KEY);
      expect(server.output()).not.toContain('cfg-boot-secret-value');
    } finally {
      await server.stop();
    }
  });

  it('a generated key is printed once, as the header curl sends and as clients and the commands take it', async () => {
    const data = join(dir, 'fresh-data');
    const server = await startProcess(distFile('main.js'), ['--port', '0', '--threads', '1', '--data', data]);
    let key: string;
    try {
      key = /Authorization: ApiKey (\S+)\n/.exec(server.output())![1];
      expect(server.output()).toContain(`new Client({ node, auth: { apiKey: "${key}" } })`);
      expect(server.output()).toContain(`export THREADSEARCH_API_KEY=${key}\n`);
      expect((await fetch(`${server.url}/`, { headers: { authorization: `ApiKey ${key}` } })).status).toBe(200);
    } finally {
      await server.stop();
    }
    const again = await startProcess(distFile('main.js'), ['--port', '0', '--threads', '1', '--data', data]);
    try {
      expect(again.output()).not.toContain(key);
    } finally {
      await again.stop();
    }
  });
});
