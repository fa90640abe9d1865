/**
 * Runs the compiled `threadsearch` command (dist/src/main.js) as a child process, as a user would,
 * capturing its exit code, stdout and stderr; and one secured threadsearch server per test file.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { encodeApiKey } from '../../src/common/api-key-codec.js';
import { distFile } from '../../src/cli/paths.js';

export const SUPERUSER_KEY = encodeApiKey({ id: 'cli-test-superuser', secret: 'cli-test-superuser-secret' });

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [distFile('main.js'), ...args], {
      cwd: options.cwd, env: { ...process.env, THREADSEARCH_API_KEY: '', ...options.env }, timeout: 120_000, maxBuffer: 16 * 2 ** 20,
    }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A temporary folder with the given files (name → content). */
export function tempFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadsearch-cli-'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

export async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method, headers: { authorization: `ApiKey ${SUPERUSER_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.length > 0 ? JSON.parse(text) : null };
}

/** A local port nothing listens on (bound, then closed). */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
