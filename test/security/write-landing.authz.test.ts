/**
 * The authorization matrix for writes where they land: a pipeline that sets `_index` (a `set`
 * processor with a fixed name, or a template from the document's own field) moves the write, and
 * every write path — a single document, `_bulk`, `_reindex`, `_update_by_query` — checks the
 * caller's rights on the index it lands in and needs `create_index` (ES's `auto_create`) to create
 * it, answering ES's 403 `security_exception`. `_mget?refresh=true` refreshes only what the key
 * may read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
/** write + create_index on pub, src and out*; nothing on secret. */
let writer: string;
/** write (no create_index) on pub, src and out*. */
let noCreate: string;

const GRANTED_BY_WRITE = 'this action is granted by the index privileges [';

function denial(action: string, index: string): RegExp {
  const escaped = action.replace(/[[\]/]/g, (c) => `\\${c}`);
  return new RegExp(`^action \\[${escaped}\\] is unauthorized for API key id \\[[^\\]]+\\] of user \\[[^\\]]+\\] on indices \\[${index}\\], ${GRANTED_BY_WRITE.replace(/[[\]]/g, '\\$&')}`);
}

async function put(path: string, body: unknown): Promise<void> {
  const res = await t.request('PUT', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function docCount(index: string): Promise<number> {
  await t.request('POST', `/${index}/_refresh`);
  return (await t.request('GET', `/${index}/_count`)).body.count;
}

beforeAll(async () => {
  t = await createSecureTestApp();
  await put('/_ingest/pipeline/to-secret', { processors: [{ set: { field: '_index', value: 'secret' } }] });
  await put('/_ingest/pipeline/to-field', { processors: [{ set: { field: '_index', value: '{{target}}' } }] });
  await put('/_ingest/pipeline/to-out-new', { processors: [{ set: { field: '_index', value: 'out-new' } }] });
  await put('/_ingest/pipeline/to-out-new-2', { processors: [{ set: { field: '_index', value: 'out-reindex-new' } }] });
  await put('/_ingest/pipeline/to-ubq', { processors: [{ set: { field: '_index', value: 'out-ubq' } }] });
  await put('/secret', { settings: { refresh_interval: -1 } });
  await put('/out-existing', {});
  await t.bulk('/_bulk?refresh=true', [
    { index: { _index: 'src', _id: '1' } }, { a: 1, target: 'secret' },
    { index: { _index: 'pub', _id: 'p' } }, { a: 2 },
  ]);
  const privileges = (extra: string[]) => ({ r: { indices: [{ names: ['pub', 'src', 'out*'], privileges: ['read', 'write', ...extra] }] } });
  writer = (await t.createKey('writer', privileges(['create_index']))).encoded;
  noCreate = (await t.createKey('no-create', privileges([]))).encoded;
});
afterAll(async () => t.close());

describe('a single document rerouted by its pipeline', () => {
  it('is refused with 403 where it lands (fixed name and a template from the document)', async () => {
    for (const [pipeline, body] of [['to-secret', { a: 1 }], ['to-field', { a: 1, target: 'secret' }]] as const) {
      const res = await t.as(writer, 'PUT', `/pub/_doc/d1?pipeline=${pipeline}`, body);
      expect(res.status).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
      expect(res.body.error.root_cause[0].type).toBe('security_exception');
      expect(res.body.error.reason).toMatch(denial('indices:data/write/index:op_type/index', 'secret'));
      expect(res.body.status).toBe(403);
    }
    expect(await docCount('secret')).toBe(0);
  });

  it('needs create_index to auto-create the index it lands in', async () => {
    const denied = await t.as(noCreate, 'PUT', '/pub/_doc/d2?pipeline=to-out-new', { a: 1 });
    expect(denied.status).toBe(403);
    expect(denied.body.error.type).toBe('security_exception');
    expect(denied.body.error.reason).toMatch(denial('indices:admin/auto_create', 'out-new'));
    expect((await t.request('HEAD', '/out-new')).status).toBe(404);
    const ok = await t.as(writer, 'PUT', '/pub/_doc/d2?pipeline=to-out-new', { a: 1 });
    expect(ok.status).toBe(201);
    expect(ok.body._index).toBe('out-new');
  });
});

describe('_bulk items rerouted by their pipeline', () => {
  it('fail alone with 403 where they land; the others are written', async () => {
    const res = await t.as(writer, 'POST', '/_bulk', [
      { index: { _index: 'pub', _id: 'b1', pipeline: 'to-secret' } }, { a: 1 },
      { index: { _index: 'pub', _id: 'b2', pipeline: 'to-field' } }, { a: 1, target: 'secret' },
      { create: { _index: 'pub', _id: 'b3', pipeline: 'to-out-new' } }, { a: 1 },
      { index: { _index: 'pub', _id: 'b4' } }, { a: 1 },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(true);
    const [b1, b2, b3, b4] = res.body.items;
    for (const item of [b1.index, b2.index]) {
      expect(item.status).toBe(403);
      expect(item.error.type).toBe('security_exception');
      expect(item.error.reason).toMatch(denial('indices:data/write/bulk[s]', 'secret'));
    }
    expect(b3.create.status).toBe(201);
    expect(b4.index.status).toBe(201);
    expect(await docCount('secret')).toBe(0);
  });

  it('need create_index to auto-create where they land', async () => {
    const res = await t.as(noCreate, 'POST', '/_bulk', [
      { index: { _index: 'pub', _id: 'c1', pipeline: 'to-field' } }, { a: 1, target: 'out-bulk-new' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    const item = res.body.items[0].index;
    expect(item.status).toBe(403);
    expect(item.error.reason).toMatch(denial('indices:admin/auto_create', 'out-bulk-new'));
    expect((await t.request('HEAD', '/out-bulk-new')).status).toBe(404);
  });
});

describe('_reindex through a rerouting pipeline', () => {
  it('fails the document with 403 where it lands and writes nothing there', async () => {
    for (const pipeline of ['to-secret', 'to-field']) {
      const res = await t.as(writer, 'POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'out-existing', pipeline } });
      expect(res.status).toBe(200);
      expect(res.body.created).toBe(0);
      expect(res.body.failures).toHaveLength(1);
      const [f] = res.body.failures;
      expect(f).toMatchObject({ index: 'secret', id: '1', status: 403 });
      expect(f.cause.type).toBe('security_exception');
      expect(f.cause.reason).toMatch(denial('indices:data/write/bulk[s]', 'secret'));
    }
    expect(await docCount('secret')).toBe(0);
  });

  it('needs create_index to auto-create where the pipeline points', async () => {
    const denied = await t.as(noCreate, 'POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'out-existing', pipeline: 'to-out-new-2' } });
    expect(denied.body.failures[0]).toMatchObject({ index: 'out-reindex-new', status: 403 });
    expect(denied.body.failures[0].cause.reason).toMatch(denial('indices:admin/auto_create', 'out-reindex-new'));
    expect((await t.request('HEAD', '/out-reindex-new')).status).toBe(404);
    const ok = await t.as(writer, 'POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'out-existing', pipeline: 'to-out-new-2' } });
    expect(ok.body).toMatchObject({ created: 1, failures: [] });
    expect(await docCount('out-reindex-new')).toBe(1);
  });
});

describe('_update_by_query through a rerouting pipeline', () => {
  it('fails the document with 403 where it lands', async () => {
    const res = await t.as(writer, 'POST', '/src/_update_by_query?pipeline=to-secret', { query: { match_all: {} } });
    expect(res.status).toBe(200);
    expect(res.body.updated).toBe(0);
    expect(res.body.failures).toHaveLength(1);
    expect(res.body.failures[0]).toMatchObject({ index: 'secret', id: '1', status: 403 });
    expect(res.body.failures[0].cause.type).toBe('security_exception');
    expect(res.body.failures[0].cause.reason).toMatch(denial('indices:data/write/bulk[s]', 'secret'));
    expect(await docCount('secret')).toBe(0);
  });

  it('needs create_index to auto-create where the pipeline points', async () => {
    const res = await t.as(noCreate, 'POST', '/src/_update_by_query?pipeline=to-ubq', { query: { match_all: {} } });
    expect(res.body.failures[0]).toMatchObject({ index: 'out-ubq', status: 403 });
    expect(res.body.failures[0].cause.reason).toMatch(denial('indices:admin/auto_create', 'out-ubq'));
    expect((await t.request('HEAD', '/out-ubq')).status).toBe(404);
  });

  it('with the rights, the rerouted conditional write fails as a version conflict, as in ES (not silently written back)', async () => {
    const res = await t.as(writer, 'POST', '/src/_update_by_query?pipeline=to-ubq&conflicts=abort&refresh=true', { query: { match_all: {} } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, updated: 0, version_conflicts: 1 });
    expect(res.body.failures[0]).toMatchObject({ index: 'out-ubq', id: '1', status: 409 });
    expect(res.body.failures[0].cause.type).toBe('version_conflict_engine_exception');
    expect(res.body.failures[0].cause.reason).toMatch(/^\[1\]: version conflict, required seqNo \[\d+\], primary term \[1\]\. but no document was found$/);
    expect(await docCount('out-ubq')).toBe(0);
    const proceed = await t.as(writer, 'POST', '/src/_update_by_query?pipeline=to-ubq&conflicts=proceed', { query: { match_all: {} } });
    expect(proceed.body).toMatchObject({ updated: 0, version_conflicts: 1, failures: [] });
  });
});

describe('_mget?refresh=true', () => {
  it('refreshes only the indices the key may read', async () => {
    expect((await t.request('PUT', '/secret/_doc/hidden', { a: 1 })).status).toBe(201);
    const res = await t.as(writer, 'POST', '/_mget?refresh=true', { docs: [{ _index: 'secret', _id: 'hidden' }, { _index: 'pub', _id: 'p' }] });
    expect(res.status).toBe(200);
    expect(res.body.docs[0].error.type).toBe('security_exception');
    expect(res.body.docs[1].found).toBe(true);
    // secret has refresh_interval -1: the write stays unsearchable until someone may refresh it.
    expect((await t.request('GET', '/secret/_count')).body.count).toBe(0);
  });
});
