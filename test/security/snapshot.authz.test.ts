/**
 * Authorization of the snapshot APIs, as ES's cluster privileges grant them: `create_snapshot`
 * takes and watches snapshots, `monitor_snapshot` only watches, restoring and deleting need
 * `manage` (or `all`), and index privileges alone open none of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
let repos: string;
beforeAll(async () => {
  repos = mkdtempSync(join(tmpdir(), 'snapshot-authz-'));
  t = await createSecureTestApp({ config: { pathRepo: [repos] } });
  await t.request('PUT', '/docs/_doc/1?refresh=true', { title: 'one' });
  expect((await t.request('PUT', '/_snapshot/backup', { type: 'fs', settings: { location: 'backup' } })).status).toBe(200);
  expect((await t.request('PUT', '/_snapshot/backup/base?wait_for_completion=true')).status).toBe(200);
});
afterAll(async () => {
  await t.close();
  rmSync(repos, { recursive: true, force: true });
});

describe('snapshot APIs under security', () => {
  it('create_snapshot takes and lists snapshots but cannot restore, delete or change repositories', async () => {
    const { encoded: key } = await t.createKey('snapper', role('docs', ['read'], ['create_snapshot']));
    expect((await t.as(key, 'PUT', '/_snapshot/backup/s1?wait_for_completion=true')).status).toBe(200);
    expect((await t.as(key, 'GET', '/_snapshot/backup/_all')).status).toBe(200);
    expect((await t.as(key, 'GET', '/_snapshot/backup/s1/_status')).status).toBe(200);
    expect((await t.as(key, 'GET', '/_snapshot/backup')).status).toBe(200);
    for (const [method, url] of [['POST', '/_snapshot/backup/base/_restore'], ['DELETE', '/_snapshot/backup/base'], ['PUT', '/_snapshot/other'], ['DELETE', '/_snapshot/backup']] as const) {
      const res = await t.as(key, method, url, method === 'PUT' ? { type: 'fs', settings: { location: 'other' } } : undefined);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
    }
  });

  it('monitor_snapshot watches only; index privileges open nothing', async () => {
    const { encoded: watcher } = await t.createKey('watcher', role('docs', ['read'], ['monitor_snapshot']));
    expect((await t.as(watcher, 'GET', '/_snapshot/backup/_all')).status).toBe(200);
    expect((await t.as(watcher, 'GET', '/_cat/snapshots/backup')).status).toBe(200);
    expect((await t.as(watcher, 'PUT', '/_snapshot/backup/s2?wait_for_completion=true')).status).toBe(403);
    const { encoded: reader } = await t.createKey('reader', role('docs', ['all']));
    expect((await t.as(reader, 'GET', '/_snapshot/backup/_all')).status).toBe(403);
  });

  it('manage restores and deletes', async () => {
    const { encoded: key } = await t.createKey('manager', role('docs', ['all'], ['manage']));
    const res = await t.as(key, 'POST', '/_snapshot/backup/base/_restore?wait_for_completion=true', { rename_pattern: 'docs', rename_replacement: 'docs_copy' });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/docs_copy/_count')).body.count).toBe(1);
    expect((await t.as(key, 'DELETE', '/_snapshot/backup/base')).status).toBe(200);
  });
});
