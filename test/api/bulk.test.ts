/**
 * Bulk API — `POST|PUT /_bulk`, `POST|PUT /<index>/_bulk`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-bulk.html (es-api.md §2.5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound, WRITE_SHARDS } from './es.js';

let t: TestApp;
let uuid: string;
const NDJSON = { 'content-type': 'application/x-ndjson' };
const nd = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';

beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/orders', { mappings: { properties: { qty: { type: 'long' } } } });
  uuid = (await t.request('GET', '/orders/_settings')).body.orders.settings.index.uuid;
});
afterAll(async () => t.close());

describe('POST /<index>/_bulk', () => {
  it('executes index, create, update and delete actions and reports each item in order', async () => {
    const res = await t.bulk('/orders/_bulk', [
      { index: { _id: 'b1' } }, { qty: 1 },
      { create: { _id: 'b2' } }, { qty: 2 },
      { update: { _id: 'b1' } }, { doc: { qty: 10 } },
      { delete: { _id: 'b2' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(res.body.errors).toBe(false);
    expect(res.body.took).toEqual(expect.any(Number));
    expect(res.body.ingest_took).toBeUndefined();
    const item = (result: string, id: string, version: number, status: number) => ({
      _index: 'orders', _id: id, _version: version, result, _shards: WRITE_SHARDS, _seq_no: expect.any(Number), _primary_term: 1, status,
    });
    expect(res.body.items).toEqual([
      { index: item('created', 'b1', 1, 201) },
      { create: item('created', 'b2', 1, 201) },
      { update: item('updated', 'b1', 2, 200) },
      { delete: item('deleted', 'b2', 2, 200) },
    ]);
    const seqNos = res.body.items.map((i: any) => Object.values(i)[0] as any).map((i: any) => i._seq_no);
    expect(seqNos).toEqual([...seqNos].sort((a: number, b: number) => a - b));
    expect((await t.request('GET', '/orders/_doc/b1')).body._source).toEqual({ qty: 10 });
    expect((await t.request('GET', '/orders/_doc/b2')).status).toBe(404);
  });

  it('generates ids for index and create actions without _id', async () => {
    const res = await t.bulk('/orders/_bulk', [{ index: {} }, { qty: 1 }, { create: {} }, { qty: 2 }]);
    expect(res.body.errors).toBe(false);
    const [a, b] = res.body.items.map((i: any) => (Object.values(i)[0] as any)._id);
    expect(a).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(b).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(a).not.toBe(b);
  });

  it('answers 200 with errors: true when items fail, and still executes the other items', async () => {
    await t.request('PUT', '/orders/_doc/exists', { qty: 1 });
    const res = await t.bulk('/orders/_bulk', [
      { create: { _id: 'exists' } }, { qty: 2 },
      { index: { _id: 'after-failure' } }, { qty: 3 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0]).toEqual({
      create: {
        _index: 'orders', _id: 'exists', status: 409,
        error: {
          type: 'version_conflict_engine_exception',
          reason: '[exists]: version conflict, document already exists (current version [1])',
          index_uuid: uuid, shard: '0', index: 'orders',
        },
      },
    });
    expect(res.body.items[1].index.status).toBe(201);
    expect((await t.request('GET', '/orders/_doc/after-failure')).body.found).toBe(true);
  });

  it('a delete of a missing document is a 404 item with result "not_found" and no error', async () => {
    const res = await t.bulk('/orders/_bulk', [{ delete: { _id: 'never-there' } }]);
    expect(res.body.errors).toBe(false);
    expect(res.body.items).toEqual([{
      delete: {
        _index: 'orders', _id: 'never-there', _version: expect.any(Number), result: 'not_found', _shards: WRITE_SHARDS,
        _seq_no: expect.any(Number), _primary_term: 1, status: 404,
      },
    }]);
  });

  it('an update of a missing document is a 404 item with document_missing_exception', async () => {
    const res = await t.bulk('/orders/_bulk', [{ update: { _id: 'ghost' } }, { doc: { qty: 1 } }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items).toEqual([{
      update: {
        _index: 'orders', _id: 'ghost', status: 404,
        error: { type: 'document_missing_exception', reason: '[ghost]: document missing', index_uuid: uuid, shard: '0', index: 'orders' },
      },
    }]);
  });

  it('a document that does not fit the mapping is a 400 item with document_parsing_exception', async () => {
    const res = await t.bulk('/orders/_bulk', [{ index: { _id: 'bad-qty' } }, { qty: 'x' }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items).toEqual([{
      index: {
        _index: 'orders', _id: 'bad-qty', status: 400,
        error: {
          type: 'document_parsing_exception',
          reason: expect.stringMatching(/^\[1:\d+\] failed to parse field \[qty\] of type \[long\] in document with id 'bad-qty'\. Preview of field's value: 'x'$/),
          caused_by: { type: 'illegal_argument_exception', reason: 'For input string: "x"' },
        },
      },
    }]);
  });

  it('update items support doc_as_upsert, and an unchanged doc is a 200 noop item', async () => {
    const res = await t.bulk('/orders/_bulk', [
      { update: { _id: 'ups' } }, { doc: { qty: 7 }, doc_as_upsert: true },
      { update: { _id: 'ups' } }, { doc: { qty: 7 } },
    ]);
    expect(res.body.errors).toBe(false);
    expect(res.body.items[0].update).toMatchObject({ _id: 'ups', result: 'created', status: 201, _version: 1 });
    expect(res.body.items[1].update).toMatchObject({
      _id: 'ups', result: 'noop', status: 200, _version: 1, _shards: { total: 0, successful: 0, failed: 0 },
    });
  });

  it('if_seq_no / if_primary_term in the metadata line guard the item', async () => {
    const put = await t.request('PUT', '/orders/_doc/guarded', { qty: 1 });
    await t.request('PUT', '/orders/_doc/guarded', { qty: 2 });
    const res = await t.bulk('/orders/_bulk', [{ index: { _id: 'guarded', if_seq_no: put.body._seq_no, if_primary_term: 1 } }, { qty: 3 }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(409);
    expect(res.body.items[0].index.error.type).toBe('version_conflict_engine_exception');
  });

  it('with ?refresh=true every successful item has forced_refresh and is searchable', async () => {
    const res = await t.bulk('/orders/_bulk', [{ index: { _id: 'r1' } }, { note: 'refreshed-by-bulk' }], '?refresh=true');
    expect(res.body.items[0].index.forced_refresh).toBe(true);
    const search = await t.request('POST', '/orders/_search', { query: { match: { note: 'refreshed-by-bulk' } } });
    expect(search.body.hits.hits.map((h: any) => h._id)).toEqual(['r1']);
  });

  it('accepts PUT as well as POST', async () => {
    const res = await t.request('PUT', '/orders/_bulk', nd([{ index: { _id: 'put-bulk' } }, { qty: 1 }]), NDJSON);
    expect(res.status).toBe(200);
    expect(res.body.items[0].index.status).toBe(201);
  });
});

describe('POST /_bulk', () => {
  it('takes the index from each action line and auto-creates missing indices', async () => {
    const res = await t.bulk('/_bulk', [
      { index: { _index: 'bulk-auto-a', _id: '1' } }, { a: 1 },
      { index: { _index: 'bulk-auto-b', _id: '1' } }, { b: 1 },
    ]);
    expect(res.body.errors).toBe(false);
    expect(res.body.items.map((i: any) => i.index._index)).toEqual(['bulk-auto-a', 'bulk-auto-b']);
    expect((await t.request('HEAD', '/bulk-auto-a')).status).toBe(200);
    expect((await t.request('HEAD', '/bulk-auto-b')).status).toBe(200);
  });

  it('an _index in the action line overrides the index in the URL', async () => {
    const res = await t.bulk('/orders/_bulk', [{ index: { _index: 'bulk-override', _id: '1' } }, { a: 1 }]);
    expect(res.body.items[0].index._index).toBe('bulk-override');
  });

  it('an action without an index anywhere fails the whole request with action_request_validation_exception', async () => {
    const res = await t.bulk('/_bulk', [{ index: { _id: '1' } }, { a: 1 }]);
    expectEsError(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;');
  });

  it('an invalid index name fails only that item', async () => {
    const res = await t.bulk('/_bulk', [{ index: { _index: 'Bad', _id: '1' } }, { a: 1 }, { index: { _index: 'good-one', _id: '1' } }, { a: 1 }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0]).toEqual({
      index: {
        _index: 'Bad', _id: '1', status: 400,
        error: { type: 'invalid_index_name_exception', reason: 'Invalid index name [Bad], must be lowercase', index_uuid: '_na_', index: 'Bad' },
      },
    });
    expect(res.body.items[1].index.status).toBe(201);
  });

  it('a delete on a missing index is a 404 item with index_not_found_exception and creates nothing', async () => {
    const res = await t.bulk('/_bulk', [{ delete: { _index: 'bulk-missing', _id: '1' } }]);
    expect(res.body.errors).toBe(true);
    const item = res.body.items[0].delete;
    expect(item.status).toBe(404);
    expect(item._index).toBe('bulk-missing');
    expect(item.error).toEqual(indexNotFound('bulk-missing', item.error['resource.type']).error.root_cause[0]);
    expect((await t.request('HEAD', '/bulk-missing')).status).toBe(404);
  });
});

describe('bulk body format', () => {
  it('accepts the v8 client vendor type application/vnd.elasticsearch+x-ndjson; compatible-with=8', async () => {
    const res = await t.request('POST', '/orders/_bulk', nd([{ index: { _id: 'vendor' } }, { qty: 1 }]), {
      'content-type': 'application/vnd.elasticsearch+x-ndjson; compatible-with=8',
      accept: 'application/vnd.elasticsearch+json; compatible-with=8',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.elasticsearch+json;compatible-with=8');
    expect(res.body.items[0].index.status).toBe(201);
  });

  it('accepts application/json bodies too', async () => {
    const res = await t.request('POST', '/orders/_bulk', nd([{ index: { _id: 'as-json' } }, { qty: 1 }]), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(false);
  });

  it('a body that does not end with a newline fails with illegal_argument_exception', async () => {
    const res = await t.request('POST', '/orders/_bulk', '{"index":{"_id":"x"}}\n{"qty":1}', NDJSON);
    expectEsError(res, 400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
  });

  it('an action line that is not an object fails the whole request', async () => {
    const res = await t.request('POST', '/orders/_bulk', nd(['"index"', { qty: 1 }]), NDJSON);
    expectEsError(res, 400, 'illegal_argument_exception', 'Malformed action/metadata line [1], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]');
  });

  it('an unknown action fails the whole request naming its line', async () => {
    const res = await t.request('POST', '/orders/_bulk', nd([{ index: {} }, { qty: 1 }, { upsert: {} }, { qty: 1 }]), NDJSON);
    expectEsError(res, 400, 'illegal_argument_exception', 'Malformed action/metadata line [3], expected field [create], [delete], [index] or [update] but found [upsert]');
    expect((await t.request('GET', '/orders/_count')).status).toBe(200);
  });

  it('an empty body fails with "no requests added"', async () => {
    const res = await t.request('POST', '/orders/_bulk', '\n', NDJSON);
    expectEsError(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: no requests added;');
  });

  it('a source line that is not valid JSON fails only its item', async () => {
    const res = await t.request('POST', '/orders/_bulk', nd([{ index: { _id: 'broken' } }, '{"qty":', { index: { _id: 'fine' } }, { qty: 1 }]), NDJSON);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(400);
    expect(res.body.items[0].index.error.type).toBe('document_parsing_exception');
    expect(res.body.items[1].index.status).toBe(201);
  });

  it('rejects an unknown URL parameter', async () => {
    const res = await t.request('POST', '/orders/_bulk?foo=1', nd([{ index: {} }, { qty: 1 }]), NDJSON);
    expectEsError(res, 400, 'illegal_argument_exception', 'request [/orders/_bulk] contains unrecognized parameter: [foo]');
  });
});
