/**
 * Authorization of the ingest, reindex and task APIs: pipelines need `manage_ingest_pipelines`,
 * tasks `monitor` / `manage`, by-query APIs the index privileges of their index, and reindex
 * read on every source and write on the destination for the caller's key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
beforeAll(async () => {
  t = await createSecureTestApp();
  await t.bulk('/_bulk?refresh=true', [{ index: { _index: 'pub', _id: '1' } }, { a: 1 }, { index: { _index: 'secret', _id: '1' } }, { a: 2 }]);
});
afterAll(async () => t.close());

describe('authorization', () => {
  it('requires manage_ingest_pipelines for pipeline management', async () => {
    const none = (await t.createKey('none', role('*', ['all']))).encoded;
    const ingest = (await t.createKey('ingest', role('*', ['all'], ['manage_ingest_pipelines']))).encoded;
    const put = (key: string) => t.as(key, 'PUT', '/_ingest/pipeline/p', { processors: [{ set: { field: 'x', value: 1 } }] });
    const denied = await put(none);
    expect(denied.status).toBe(403);
    expect(denied.body.error.reason).toMatch(/action \[cluster:admin\/ingest\/pipeline\/put\] is unauthorized/);
    expect((await put(ingest)).status).toBe(200);
    expect((await t.as(none, 'POST', '/_ingest/pipeline/p/_simulate', { docs: [] })).status).toBe(403);
  });

  it('reindex checks read on the source and write on the destination', async () => {
    const reader = (await t.createKey('reader', { r: { indices: [{ names: ['pub'], privileges: ['read'] }, { names: ['out*'], privileges: ['write', 'create_index'] }] } })).encoded;
    const ok = await t.as(reader, 'POST', '/_reindex', { source: { index: 'pub' }, dest: { index: 'out1' } });
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(1);
    const noRead = await t.as(reader, 'POST', '/_reindex', { source: { index: 'secret' }, dest: { index: 'out2' } });
    expect(noRead.status).toBe(403);
    expect(noRead.body.error.reason).toMatch(/action \[indices:data\/read\/search\] is unauthorized .* on indices \[secret\]/);
    const noWrite = await t.as(reader, 'POST', '/_reindex', { source: { index: 'pub' }, dest: { index: 'elsewhere' } });
    expect(noWrite.status).toBe(403);
    expect(noWrite.body.error.reason).toMatch(/on indices \[elsewhere\]/);
    // A wildcard source narrows to what the key may read: `secret` is silently left out.
    const wild = await t.as(reader, 'POST', '/_reindex', { source: { index: '*' }, dest: { index: 'out3' } });
    expect(wild.body).toMatchObject({ total: 1, created: 1 });
  });

  it('by-query APIs need their index privileges, tasks need monitor / manage', async () => {
    const readOnly = (await t.createKey('ro', role('pub', ['read']))).encoded;
    expect((await t.as(readOnly, 'POST', '/pub/_delete_by_query', { query: { match_all: {} } })).status).toBe(403);
    expect((await t.as(readOnly, 'GET', '/_tasks')).status).toBe(403);
    const monitor = (await t.createKey('mon', role('pub', ['read'], ['monitor']))).encoded;
    expect((await t.as(monitor, 'GET', '/_tasks')).status).toBe(200);
    expect((await t.as(monitor, 'POST', '/_tasks/_cancel')).status).toBe(403);
  });
});
