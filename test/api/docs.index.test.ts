/**
 * Index API — `PUT|POST /<index>/_doc/<id>`, `POST /<index>/_doc`, `PUT /<index>/_create/<id>`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-index_.html (es-api.md §2.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, UUID, WRITE_SHARDS } from './es.js';

let t: TestApp;
let uuid: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/docs');
  uuid = (await t.request('GET', '/docs/_settings')).body.docs.settings.index.uuid;
});
afterAll(async () => t.close());

describe('PUT /<index>/_doc/<id>', () => {
  it('creates a document: 201, result "created", version 1 and a Location header', async () => {
    const res = await t.request('PUT', '/docs/_doc/1', { title: 'hello' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _index: 'docs', _id: '1', _version: 1, result: 'created', _shards: WRITE_SHARDS, _seq_no: expect.any(Number), _primary_term: 1,
    });
    expect(res.headers.location).toBe('/docs/_doc/1');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('replaces an existing document: 200, result "updated", version and seq_no incremented', async () => {
    const first = await t.request('PUT', '/docs/_doc/replace-me', { v: 1 });
    const second = await t.request('PUT', '/docs/_doc/replace-me', { v: 2 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      _index: 'docs', _id: 'replace-me', _version: 2, result: 'updated', _shards: WRITE_SHARDS, _seq_no: first.body._seq_no + 1, _primary_term: 1,
    });
    expect(second.headers.location).toBeUndefined();
    expect((await t.request('GET', '/docs/_doc/replace-me')).body._source).toEqual({ v: 2 });
  });

  it('accepts POST as well as PUT', async () => {
    const res = await t.request('POST', '/docs/_doc/posted', { a: 1 });
    expect(res.status).toBe(201);
    expect(res.body.result).toBe('created');
  });

  it('adds "forced_refresh": true with ?refresh=true and the document is searchable at once', async () => {
    const res = await t.request('PUT', '/docs/_doc/refreshed?refresh=true', { marker: 'refreshed-now' });
    expect(res.body.forced_refresh).toBe(true);
    const search = await t.request('POST', '/docs/_search', { query: { match: { marker: 'refreshed-now' } } });
    expect(search.body.hits.hits.map((h: any) => h._id)).toEqual(['refreshed']);
  });

  it('treats an empty ?refresh as true', async () => {
    const res = await t.request('PUT', '/docs/_doc/refresh-empty?refresh', { a: 1 });
    expect(res.body.forced_refresh).toBe(true);
  });

  it('makes the document visible with ?refresh=wait_for without forcing a refresh', async () => {
    const res = await t.request('PUT', '/docs/_doc/waited?refresh=wait_for', { marker: 'waited-for' });
    expect(res.status).toBe(201);
    expect(res.body.forced_refresh).toBeUndefined();
    const search = await t.request('POST', '/docs/_search', { query: { match: { marker: 'waited-for' } } });
    expect(search.body.hits.total.value).toBe(1);
  });

  it('rejects an unknown refresh value', async () => {
    const res = await t.request('PUT', '/docs/_doc/bad-refresh?refresh=sometimes', { a: 1 });
    expectEsError(res, 400, 'illegal_argument_exception', 'Unknown value for refresh: [sometimes].');
  });

  it('auto-creates a missing index with dynamic mappings', async () => {
    const res = await t.request('PUT', '/auto-created/_doc/1', { title: 'x', n: 1 });
    expect(res.status).toBe(201);
    expect(res.body._index).toBe('auto-created');
    const mapping = await t.request('GET', '/auto-created/_mapping');
    expect(mapping.body['auto-created'].mappings.properties).toEqual({
      n: { type: 'long' },
      title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
    });
  });

  it('auto-creation validates the index name', async () => {
    const res = await t.request('PUT', '/Bad-Name/_doc/1', { a: 1 });
    expectEsError(res, 400, 'invalid_index_name_exception', 'Invalid index name [Bad-Name], must be lowercase', { index_uuid: '_na_', index: 'Bad-Name' });
  });

  it('accepts ids with URL-encoded characters and echoes them decoded', async () => {
    const res = await t.request('PUT', `/docs/_doc/${encodeURIComponent('a/b c')}`, { a: 1 });
    expect(res.status).toBe(201);
    expect(res.body._id).toBe('a/b c');
    expect((await t.request('GET', `/docs/_doc/${encodeURIComponent('a/b c')}`)).body._source).toEqual({ a: 1 });
  });

  it('a request without a body fails with action_request_validation_exception', async () => {
    const res = await t.request('PUT', '/docs/_doc/no-body');
    expectEsError(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: source is missing;2: content type is missing;');
  });

  it('an id longer than 512 bytes is rejected', async () => {
    const id = 'x'.repeat(513);
    const res = await t.request('PUT', `/docs/_doc/${id}`, { a: 1 });
    expectEsError(res, 400, 'action_request_validation_exception', `Validation Failed: 1: id [${id}] is too long, must be no longer than 512 bytes but was: 513;`);
  });
});

describe('POST /<index>/_doc (automatic id)', () => {
  it('generates a 20-character base64url id', async () => {
    const res = await t.request('POST', '/docs/_doc', { auto: true });
    expect(res.status).toBe(201);
    expect(res.body._id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.body.result).toBe('created');
    expect(res.body._version).toBe(1);
    expect(res.headers.location).toBe(`/docs/_doc/${res.body._id}`);
    expect((await t.request('GET', `/docs/_doc/${res.body._id}`)).body._source).toEqual({ auto: true });
  });

  it('generates a different id for every document', async () => {
    const generated = new Set<string>();
    for (let i = 0; i < 20; i++) generated.add((await t.request('POST', '/docs/_doc', { i })).body._id);
    expect(generated.size).toBe(20);
  });
});

describe('PUT /<index>/_create/<id> and ?op_type=create', () => {
  it('_create creates a document that does not exist', async () => {
    const res = await t.request('PUT', '/docs/_create/fresh', { a: 1 });
    expect(res.status).toBe(201);
    expect(res.body.result).toBe('created');
  });

  it('_create on an existing document fails with version_conflict_engine_exception (409)', async () => {
    await t.request('PUT', '/docs/_doc/taken', { a: 1 });
    const res = await t.request('PUT', '/docs/_create/taken', { a: 2 });
    expectEsError(res, 409, 'version_conflict_engine_exception', '[taken]: version conflict, document already exists (current version [1])', {
      index_uuid: uuid, shard: '0', index: 'docs',
    });
    expect((await t.request('GET', '/docs/_doc/taken')).body._source).toEqual({ a: 1 });
  });

  it('POST /_create works like PUT', async () => {
    const res = await t.request('POST', '/docs/_create/posted-create', { a: 1 });
    expect(res.status).toBe(201);
  });

  it('?op_type=create on an existing document fails with version_conflict_engine_exception (409)', async () => {
    await t.request('PUT', '/docs/_doc/taken-op', { a: 1 });
    await t.request('PUT', '/docs/_doc/taken-op', { a: 2 });
    const res = await t.request('PUT', '/docs/_doc/taken-op?op_type=create', { a: 3 });
    expectEsError(res, 409, 'version_conflict_engine_exception', '[taken-op]: version conflict, document already exists (current version [2])', {
      index_uuid: uuid, shard: '0', index: 'docs',
    });
  });

  it('?op_type=index overwrites as usual', async () => {
    await t.request('PUT', '/docs/_doc/op-index', { a: 1 });
    const res = await t.request('PUT', '/docs/_doc/op-index?op_type=index', { a: 2 });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('updated');
  });

  it('an unknown op_type is rejected', async () => {
    const res = await t.request('PUT', '/docs/_doc/op-bad?op_type=upsert', { a: 1 });
    expectEsError(res, 400, 'illegal_argument_exception', "opType must be 'create' or 'index', found: [upsert]");
  });
});

describe('optimistic concurrency with if_seq_no and if_primary_term', () => {
  it('writes when seq_no and primary term match the current document', async () => {
    const first = await t.request('PUT', '/docs/_doc/cas', { v: 1 });
    const res = await t.request('PUT', `/docs/_doc/cas?if_seq_no=${first.body._seq_no}&if_primary_term=1`, { v: 2 });
    expect(res.status).toBe(200);
    expect(res.body._version).toBe(2);
    expect(res.body._seq_no).toBeGreaterThan(first.body._seq_no);
  });

  it('a stale seq_no fails with version_conflict_engine_exception naming both seq_nos', async () => {
    const first = await t.request('PUT', '/docs/_doc/cas-stale', { v: 1 });
    const second = await t.request('PUT', '/docs/_doc/cas-stale', { v: 2 });
    const res = await t.request('PUT', `/docs/_doc/cas-stale?if_seq_no=${first.body._seq_no}&if_primary_term=1`, { v: 3 });
    expectEsError(res, 409, 'version_conflict_engine_exception',
      `[cas-stale]: version conflict, required seqNo [${first.body._seq_no}], primary term [1]. current document has seqNo [${second.body._seq_no}] and primary term [1]`,
      { index_uuid: uuid, shard: '0', index: 'docs' });
    expect((await t.request('GET', '/docs/_doc/cas-stale')).body._source).toEqual({ v: 2 });
  });

  it('a conditional write to a missing document fails with a version conflict', async () => {
    const res = await t.request('PUT', '/docs/_doc/cas-missing?if_seq_no=3&if_primary_term=1', { v: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('version_conflict_engine_exception');
    expect(res.body.error.reason).toBe('[cas-missing]: version conflict, required seqNo [3], primary term [1]. but no document was found');
  });

  it('a non-numeric if_seq_no is rejected', async () => {
    const res = await t.request('PUT', '/docs/_doc/cas-nan?if_seq_no=abc&if_primary_term=1', { v: 1 });
    expectEsError(res, 400, 'illegal_argument_exception', 'Failed to parse long parameter [if_seq_no] with value [abc]');
  });
});

describe('index API parameters', () => {
  it('rejects an unknown URL parameter', async () => {
    const res = await t.request('PUT', '/docs/_doc/p?foo=bar', { a: 1 });
    expectEsError(res, 400, 'illegal_argument_exception', 'request [/docs/_doc/p] contains unrecognized parameter: [foo]');
  });

  it('accepts timeout and wait_for_active_shards', async () => {
    const res = await t.request('PUT', '/docs/_doc/p2?timeout=1m&wait_for_active_shards=1', { a: 1 });
    expect(res.status).toBe(201);
  });

  it('keeps the _source byte-for-byte as sent', async () => {
    const raw = '{"b":1,  "a":[1,2.50,3],"nested":{"z":null},"s":"\\u00e9"}';
    expect((await t.request('PUT', '/docs/_doc/raw', raw)).status).toBe(201);
    const res = await t.request('GET', '/docs/_doc/raw');
    expect(res.text).toContain('"_source":' + raw);
  });

  it('the index uuid reported in conflicts is the one from the settings', async () => {
    expect(uuid).toEqual(UUID);
  });
});
