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

describe('POST /<index>/_update/<id> response "get" section and retry_on_conflict', () => {
  it('"_source": true in the body returns the updated document under "get"', async () => {
    await t.request('PUT', '/profiles/_doc/g1', { a: 1, nested_g: { c: 2 } });
    const res = await t.request('POST', '/profiles/_update/g1', { doc: { a: 5 }, _source: true });
    expect(res.status).toBe(200);
    expect(res.body.get).toEqual({ _seq_no: res.body._seq_no, _primary_term: 1, found: true, _source: { a: 5, nested_g: { c: 2 } } });
  });

  it('"_source" filters the "get" section; the URL _source_includes works too', async () => {
    await t.request('PUT', '/profiles/_doc/g2', { a: 1, b: 2 });
    const body = await t.request('POST', '/profiles/_update/g2', { doc: { a: 3 }, _source: ['b'] });
    expect(body.body.get._source).toEqual({ b: 2 });
    const url = await t.request('POST', '/profiles/_update/g2?_source_includes=a', { doc: { a: 4 } });
    expect(url.body.get._source).toEqual({ a: 4 });
  });

  it('a noop and an upsert carry the "get" section too; without _source there is none', async () => {
    await t.request('PUT', '/profiles/_doc/g3', { a: 1 });
    const noop = await t.request('POST', '/profiles/_update/g3', { doc: { a: 1 }, _source: true });
    expect(noop.body.result).toBe('noop');
    expect(noop.body.get._source).toEqual({ a: 1 });
    const up = await t.request('POST', '/profiles/_update/g4', { doc: { z: 1 }, doc_as_upsert: true, _source: true });
    expect(up.status).toBe(201);
    expect(up.body.get).toMatchObject({ found: true, _source: { z: 1 } });
    const none = await t.request('POST', '/profiles/_update/g3', { doc: { a: 2 } });
    expect(none.body.get).toBeUndefined();
    const off = await t.request('POST', '/profiles/_update/g3', { doc: { a: 3 }, _source: false });
    expect(off.body.get).toBeUndefined();
  });

  it('bulk update items return "get" when their line asks for _source', async () => {
    await t.request('PUT', '/profiles/_doc/g5', { a: 1 });
    const res = await t.bulk('/_bulk', [{ update: { _index: 'profiles', _id: 'g5' } }, { doc: { b: 2 }, _source: true }]);
    expect(res.body.items[0].update.get).toMatchObject({ found: true, _source: { a: 1, b: 2 } });
  });

  it('retry_on_conflict is accepted as an integer and refused otherwise', async () => {
    await t.request('PUT', '/profiles/_doc/g6', { a: 1 });
    expect((await t.request('POST', '/profiles/_update/g6?retry_on_conflict=3', { doc: { a: 2 } })).body.result).toBe('updated');
    const bad = await t.request('POST', '/profiles/_update/g6?retry_on_conflict=x', { doc: { a: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toBe('Failed to parse int parameter [retry_on_conflict] with value [x]');
  });

  it('updates through an alias go to its write index', async () => {
    await t.request('PUT', '/profiles/_alias/people');
    await t.request('PUT', '/profiles/_doc/g7', { a: 1 });
    const res = await t.request('POST', '/people/_update/g7', { doc: { a: 2 } });
    expect(res.body._index).toBe('profiles');
    expect(await source('g7')).toEqual({ a: 2 });
  });
});
