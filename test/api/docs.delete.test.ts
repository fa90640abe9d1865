/**
 * Delete API — `DELETE /<index>/_doc/<id>`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-delete.html (es-api.md §2.4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, WRITE_SHARDS } from './es.js';

let t: TestApp;
let uuid: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/trash');
  uuid = (await t.request('GET', '/trash/_settings')).body.trash.settings.index.uuid;
});
afterAll(async () => t.close());

describe('DELETE /<index>/_doc/<id>', () => {
  it('deletes a document: 200, result "deleted", version and seq_no incremented', async () => {
    const put = await t.request('PUT', '/trash/_doc/1', { a: 1 });
    const res = await t.request('DELETE', '/trash/_doc/1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _index: 'trash', _id: '1', _version: 2, result: 'deleted', _shards: WRITE_SHARDS, _seq_no: put.body._seq_no + 1, _primary_term: 1,
    });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('the deleted document is gone for get, exists and search', async () => {
    await t.request('PUT', '/trash/_doc/2?refresh=true', { marker: 'to-delete' });
    await t.request('DELETE', '/trash/_doc/2?refresh=true');
    expect((await t.request('GET', '/trash/_doc/2')).status).toBe(404);
    expect((await t.request('HEAD', '/trash/_doc/2')).status).toBe(404);
    const search = await t.request('POST', '/trash/_search', { query: { match: { marker: 'to-delete' } } });
    expect(search.body.hits.total).toEqual({ value: 0, relation: 'eq' });
  });

  it('adds "forced_refresh": true with ?refresh=true', async () => {
    await t.request('PUT', '/trash/_doc/3', { a: 1 });
    const res = await t.request('DELETE', '/trash/_doc/3?refresh=true');
    expect(res.body.forced_refresh).toBe(true);
  });

  it('deleting a missing document answers 404 with the same shape and result "not_found"', async () => {
    const res = await t.request('DELETE', '/trash/_doc/never');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      _index: 'trash', _id: 'never', _version: expect.any(Number), result: 'not_found', _shards: WRITE_SHARDS, _seq_no: expect.any(Number), _primary_term: 1,
    });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('indexing again after a delete creates the document with the next version', async () => {
    await t.request('PUT', '/trash/_doc/phoenix', { life: 1 });
    await t.request('DELETE', '/trash/_doc/phoenix');
    const res = await t.request('PUT', '/trash/_doc/phoenix', { life: 2 });
    expect(res.status).toBe(201);
    expect(res.body.result).toBe('created');
    expect(res.body._version).toBe(3);
  });

  it('deleting from a missing index fails with index_not_found_exception and does not create it', async () => {
    const res = await t.request('DELETE', '/no-trash/_doc/1');
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('index_not_found_exception');
    expect(res.body.error.reason).toBe('no such index [no-trash]');
    expect(res.body.error.index).toBe('no-trash');
    expect((await t.request('HEAD', '/no-trash')).status).toBe(404);
  });

  it('honours if_seq_no / if_primary_term', async () => {
    const put = await t.request('PUT', '/trash/_doc/guarded', { v: 1 });
    await t.request('PUT', '/trash/_doc/guarded', { v: 2 });
    const stale = await t.request('DELETE', `/trash/_doc/guarded?if_seq_no=${put.body._seq_no}&if_primary_term=1`);
    expectEsError(stale, 409, 'version_conflict_engine_exception',
      `[guarded]: version conflict, required seqNo [${put.body._seq_no}], primary term [1]. current document has seqNo [${put.body._seq_no + 1}] and primary term [1]`,
      { index_uuid: uuid, shard: '0', index: 'trash' });
    const ok = await t.request('DELETE', `/trash/_doc/guarded?if_seq_no=${put.body._seq_no + 1}&if_primary_term=1`);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toBe('deleted');
  });

  it('rejects an unknown URL parameter', async () => {
    const res = await t.request('DELETE', '/trash/_doc/1?foo=1');
    expectEsError(res, 400, 'illegal_argument_exception', 'request [/trash/_doc/1] contains unrecognized parameter: [foo]');
  });
});
