/**
 * Update API — `POST /<index>/_update/<id>` with partial documents:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-update.html (es-api.md §2.1, §2.5 update items).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, WRITE_SHARDS } from './es.js';

let t: TestApp;
let uuid: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/profiles');
  uuid = (await t.request('GET', '/profiles/_settings')).body.profiles.settings.index.uuid;
});
afterAll(async () => t.close());

async function source(id: string) {
  return (await t.request('GET', `/profiles/_doc/${id}`)).body._source;
}

describe('POST /<index>/_update/<id> with "doc"', () => {
  it('merges the partial document into the existing source: 200, result "updated"', async () => {
    const put = await t.request('PUT', '/profiles/_doc/1', { name: 'ann', city: 'oslo' });
    const res = await t.request('POST', '/profiles/_update/1', { doc: { city: 'bergen', age: 30 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _index: 'profiles', _id: '1', _version: 2, result: 'updated', _shards: WRITE_SHARDS, _seq_no: put.body._seq_no + 1, _primary_term: 1,
    });
    expect(await source('1')).toEqual({ name: 'ann', city: 'bergen', age: 30 });
  });

  it('merges objects recursively', async () => {
    await t.request('PUT', '/profiles/_doc/deep', { user: { name: 'bo', langs: { en: true } } });
    await t.request('POST', '/profiles/_update/deep', { doc: { user: { langs: { fr: true } } } });
    expect(await source('deep')).toEqual({ user: { name: 'bo', langs: { en: true, fr: true } } });
  });

  it('replaces arrays instead of merging them', async () => {
    await t.request('PUT', '/profiles/_doc/arr', { tags: ['a', 'b'] });
    await t.request('POST', '/profiles/_update/arr', { doc: { tags: ['c'] } });
    expect(await source('arr')).toEqual({ tags: ['c'] });
  });

  it('a document that would not change is a noop: 200, result "noop", nothing written', async () => {
    const put = await t.request('PUT', '/profiles/_doc/same', { a: 1, b: 2 });
    const res = await t.request('POST', '/profiles/_update/same', { doc: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _index: 'profiles', _id: 'same', _version: 1, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 }, _seq_no: put.body._seq_no, _primary_term: 1,
    });
  });

  it('"detect_noop": false writes a new version even when nothing changes', async () => {
    await t.request('PUT', '/profiles/_doc/forced', { a: 1 });
    const res = await t.request('POST', '/profiles/_update/forced', { doc: { a: 1 }, detect_noop: false });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('updated');
    expect(res.body._version).toBe(2);
  });

  it('updating a missing document fails with document_missing_exception (404)', async () => {
    const res = await t.request('POST', '/profiles/_update/absent', { doc: { a: 1 } });
    expectEsError(res, 404, 'document_missing_exception', '[absent]: document missing', { index_uuid: uuid, shard: '0', index: 'profiles' });
  });

  it('is realtime: it sees a document indexed without refresh', async () => {
    await t.request('PUT', '/profiles/_doc/unrefreshed', { a: 1 });
    const res = await t.request('POST', '/profiles/_update/unrefreshed', { doc: { b: 2 } });
    expect(res.body.result).toBe('updated');
    expect(await source('unrefreshed')).toEqual({ a: 1, b: 2 });
  });

  it('adds "forced_refresh": true with ?refresh=true and the change is searchable', async () => {
    await t.request('PUT', '/profiles/_doc/r', { status: 'draft' });
    const res = await t.request('POST', '/profiles/_update/r?refresh=true', { doc: { status: 'published' } });
    expect(res.body.forced_refresh).toBe(true);
    const search = await t.request('POST', '/profiles/_search', { query: { match: { status: 'published' } } });
    expect(search.body.hits.hits.map((h: any) => h._id)).toEqual(['r']);
  });

  it('honours if_seq_no / if_primary_term', async () => {
    const put = await t.request('PUT', '/profiles/_doc/cas', { v: 1 });
    await t.request('PUT', '/profiles/_doc/cas', { v: 2 });
    const res = await t.request('POST', `/profiles/_update/cas?if_seq_no=${put.body._seq_no}&if_primary_term=1`, { doc: { v: 3 } });
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('version_conflict_engine_exception');
    expect(await source('cas')).toEqual({ v: 2 });
  });
});

describe('POST /<index>/_update/<id> with upserts', () => {
  it('"doc_as_upsert": true creates a missing document from "doc": 201, result "created"', async () => {
    const res = await t.request('POST', '/profiles/_update/new-doc', { doc: { name: 'cy' }, doc_as_upsert: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _index: 'profiles', _id: 'new-doc', _version: 1, result: 'created', _shards: WRITE_SHARDS, _seq_no: expect.any(Number), _primary_term: 1,
    });
    expect(await source('new-doc')).toEqual({ name: 'cy' });
  });

  it('"doc_as_upsert": true merges "doc" into an existing document', async () => {
    await t.request('PUT', '/profiles/_doc/dau', { a: 1 });
    const res = await t.request('POST', '/profiles/_update/dau', { doc: { b: 2 }, doc_as_upsert: true });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('updated');
    expect(await source('dau')).toEqual({ a: 1, b: 2 });
  });

  it('"upsert" is indexed as-is when the document is missing; "doc" is not applied', async () => {
    const res = await t.request('POST', '/profiles/_update/counter', { doc: { count: 2 }, upsert: { count: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.result).toBe('created');
    expect(await source('counter')).toEqual({ count: 1 });
  });

  it('"upsert" is ignored when the document exists; "doc" is merged', async () => {
    await t.request('PUT', '/profiles/_doc/existing', { count: 5, keep: true });
    const res = await t.request('POST', '/profiles/_update/existing', { doc: { count: 6 }, upsert: { count: 1 } });
    expect(res.status).toBe(200);
    expect(await source('existing')).toEqual({ count: 6, keep: true });
  });

  it('auto-creates a missing index for an upsert', async () => {
    const res = await t.request('POST', '/profiles-auto/_update/1', { doc: { a: 1 }, doc_as_upsert: true });
    expect(res.status).toBe(201);
    expect((await t.request('HEAD', '/profiles-auto')).status).toBe(200);
  });
});

describe('POST /<index>/_update/<id> errors', () => {
  it('a body without "doc" or "script" fails validation', async () => {
    const res = await t.request('POST', '/profiles/_update/1', {});
    expectEsError(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: script or doc is missing;');
  });

  it('an "upsert" without "doc" or "script" fails validation', async () => {
    const res = await t.request('POST', '/profiles/_update/upsert-only', { upsert: { a: 1 } });
    expectEsError(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: script or doc is missing;');
  });

  it('an unknown body key fails with x_content_parse_exception from the UpdateRequest parser', async () => {
    const res = await t.request('POST', '/profiles/_update/1', { doc: { a: 1 }, foo: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('x_content_parse_exception');
    expect(res.body.error.reason).toMatch(/^\[\d+:\d+\] \[UpdateRequest\] unknown field \[foo\]$/);
    expect(res.body.error.root_cause[0].type).toBe('x_content_parse_exception');
  });

  it('a request without a body fails validation', async () => {
    const res = await t.request('POST', '/profiles/_update/1');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('action_request_validation_exception');
  });

  it('the update endpoint only accepts POST', async () => {
    const res = await t.request('PUT', '/profiles/_update/1', { doc: { a: 1 } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Incorrect HTTP method for uri [/profiles/_update/1] and method [PUT], allowed: [POST]', status: 405 });
    expect(res.headers.allow).toBe('POST');
  });
});
