/**
 * Get API — `GET|HEAD /<index>/_doc/<id>`, `GET /<index>/_source/<id>`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-get.html (es-api.md §2.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound } from './es.js';

let t: TestApp;
const doc = { title: 'Dune', year: 1965, user: { name: 'frank', age: 60 }, tags: ['sf', 'classic'] };
let written: any;
beforeAll(async () => {
  t = await createTestApp();
  written = (await t.request('PUT', '/shelf/_doc/1?refresh=true', doc)).body;
});
afterAll(async () => t.close());

describe('GET /<index>/_doc/<id>', () => {
  it('returns the document with its metadata and _source', async () => {
    const res = await t.request('GET', '/shelf/_doc/1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _index: 'shelf', _id: '1', _version: 1, _seq_no: written._seq_no, _primary_term: 1, found: true, _source: doc,
    });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is realtime: a document indexed without refresh is returned at once', async () => {
    await t.request('PUT', '/shelf/_doc/unrefreshed', { fresh: true });
    const res = await t.request('GET', '/shelf/_doc/unrefreshed');
    expect(res.status).toBe(200);
    expect(res.body.found).toBe(true);
    expect(res.body._source).toEqual({ fresh: true });
  });

  it('is realtime while search is not: with refresh_interval -1 only GET sees an unrefreshed document', async () => {
    await t.request('PUT', '/manual', { settings: { refresh_interval: '-1' } });
    await t.request('PUT', '/manual/_doc/1', { marker: 'pending' });
    expect((await t.request('GET', '/manual/_doc/1')).body.found).toBe(true);
    const before = await t.request('POST', '/manual/_search', { query: { match: { marker: 'pending' } } });
    expect(before.body.hits.total).toEqual({ value: 0, relation: 'eq' });
    await t.request('POST', '/manual/_refresh');
    const after = await t.request('POST', '/manual/_search', { query: { match: { marker: 'pending' } } });
    expect(after.body.hits.total).toEqual({ value: 1, relation: 'eq' });
  });

  it('with realtime=false reads what the last refresh published; refresh=true refreshes the shard first', async () => {
    await t.request('PUT', '/notrealtime', { settings: { refresh_interval: '-1' } });
    await t.request('PUT', '/notrealtime/_doc/1?refresh=true', { v: 1 });
    await t.request('PUT', '/notrealtime/_doc/1', { v: 2 });
    await t.request('PUT', '/notrealtime/_doc/2', { v: 1 });
    const one = await t.request('GET', '/notrealtime/_doc/1?realtime=false');
    expect([one.body._version, one.body._source]).toEqual([1, { v: 1 }]);
    expect((await t.request('GET', '/notrealtime/_doc/2?realtime=false')).status).toBe(404);
    expect((await t.request('HEAD', '/notrealtime/_doc/2?realtime=false')).status).toBe(404);
    expect((await t.request('GET', '/notrealtime/_source/2?realtime=false')).status).toBe(404);
    expect((await t.request('GET', '/notrealtime/_doc/1')).body._source).toEqual({ v: 2 });

    const refreshed = await t.request('GET', '/notrealtime/_doc/2?realtime=false&refresh=true');
    expect([refreshed.status, refreshed.body._source]).toEqual([200, { v: 1 }]);
    expect((await t.request('GET', '/notrealtime/_doc/1?realtime=false')).body._source).toEqual({ v: 2 });
    const bad = await t.request('GET', '/notrealtime/_doc/1?realtime=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('illegal_argument_exception');
    expect((await t.request('HEAD', '/notrealtime/_doc/1?realtime=maybe')).status).toBe(400);
  });

  it('is realtime for overwrites: the latest version is returned before any refresh', async () => {
    await t.request('PUT', '/shelf/_doc/overwritten?refresh=true', { v: 1 });
    await t.request('PUT', '/shelf/_doc/overwritten', { v: 2 });
    const res = await t.request('GET', '/shelf/_doc/overwritten');
    expect(res.body._version).toBe(2);
    expect(res.body._source).toEqual({ v: 2 });
  });

  it('is realtime for deletes: a deleted document is not found before any refresh', async () => {
    await t.request('PUT', '/shelf/_doc/gone?refresh=true', { v: 1 });
    await t.request('DELETE', '/shelf/_doc/gone');
    const res = await t.request('GET', '/shelf/_doc/gone');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ _index: 'shelf', _id: 'gone', found: false });
  });

  it('a missing document answers 404 with found: false, not an error envelope', async () => {
    const res = await t.request('GET', '/shelf/_doc/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ _index: 'shelf', _id: 'nope', found: false });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/no-shelf/_doc/1');
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('index_not_found_exception');
    expect(res.body.error.reason).toBe('no such index [no-shelf]');
    expect(res.body.error.index).toBe('no-shelf');
    expect(res.body.status).toBe(404);
  });

  it('rejects an unknown URL parameter', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?foo=1');
    expectEsError(res, 400, 'illegal_argument_exception', 'request [/shelf/_doc/1] contains unrecognized parameter: [foo]');
  });
});

describe('_source filtering on GET', () => {
  it('?_source=false drops the _source member', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source=false');
    expect(res.body).toEqual({ _index: 'shelf', _id: '1', _version: 1, _seq_no: written._seq_no, _primary_term: 1, found: true });
  });

  it('?_source=true returns the whole source', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source=true');
    expect(res.body._source).toEqual(doc);
  });

  it('?_source=<field> keeps only that field', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source=title');
    expect(res.body._source).toEqual({ title: 'Dune' });
  });

  it('?_source=<a>,<b> keeps a comma-separated list of fields', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source=title,year');
    expect(res.body._source).toEqual({ title: 'Dune', year: 1965 });
  });

  it('?_source_includes keeps a nested path and its parents', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source_includes=user.name');
    expect(res.body._source).toEqual({ user: { name: 'frank' } });
  });

  it('?_source_includes accepts wildcards', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source_includes=user.*');
    expect(res.body._source).toEqual({ user: { name: 'frank', age: 60 } });
  });

  it('?_source_excludes removes fields', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source_excludes=user,tags');
    expect(res.body._source).toEqual({ title: 'Dune', year: 1965 });
  });

  it('includes and excludes combine', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source_includes=user&_source_excludes=user.age');
    expect(res.body._source).toEqual({ user: { name: 'frank' } });
  });

  it('an include that matches nothing yields an empty _source object', async () => {
    const res = await t.request('GET', '/shelf/_doc/1?_source_includes=nothing');
    expect(res.body._source).toEqual({});
  });
});

describe('HEAD /<index>/_doc/<id>', () => {
  it('answers 200 with no body when the document exists', async () => {
    const res = await t.request('HEAD', '/shelf/_doc/1');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('answers 404 with no body when the document does not exist', async () => {
    const res = await t.request('HEAD', '/shelf/_doc/nope');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('answers 404 with no body when the index does not exist', async () => {
    const res = await t.request('HEAD', '/no-shelf/_doc/1');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });

  it('is realtime', async () => {
    await t.request('PUT', '/shelf/_doc/head-fresh', { a: 1 });
    expect((await t.request('HEAD', '/shelf/_doc/head-fresh')).status).toBe(200);
  });
});

describe('GET /<index>/_source/<id>', () => {
  it('returns only the source', async () => {
    const res = await t.request('GET', '/shelf/_source/1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(doc);
  });

  it('applies _source_includes', async () => {
    const res = await t.request('GET', '/shelf/_source/1?_source_includes=title');
    expect(res.body).toEqual({ title: 'Dune' });
  });

  it('a missing document fails with resource_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/shelf/_source/nope');
    expectEsError(res, 404, 'resource_not_found_exception', 'Document not found [shelf]/[nope]');
  });

  it('a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/no-shelf/_source/1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('no-shelf', res.body.error['resource.type']));
  });
});
