/**
 * Multi get API — `GET|POST /_mget`, `/<index>/_mget`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/docs-multi-get.html
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, indexNotFound, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'users', [['1', { name: 'ann', city: 'oslo', tags: ['a'] }], ['2', { name: 'bo', city: 'bergen' }]]);
  await seed(t, 'orders', [['o1', { total: 10, user: '1' }]]);
});
afterAll(async () => t.close());

describe('POST /_mget with "docs"', () => {
  it('returns each document as GET does, in request order, across indices', async () => {
    const res = await t.request('POST', '/_mget', { docs: [{ _index: 'orders', _id: 'o1' }, { _index: 'users', _id: '1' }] });
    expect(res.status).toBe(200);
    const get = await t.request('GET', '/users/_doc/1');
    expect(res.body.docs[1]).toEqual(get.body);
    expect(res.body.docs[0]).toMatchObject({ _index: 'orders', _id: 'o1', found: true, _source: { total: 10, user: '1' } });
  });

  it('a missing document is found: false, not an error', async () => {
    const res = await t.request('POST', '/_mget', { docs: [{ _index: 'users', _id: 'nope' }, { _index: 'users', _id: '2' }] });
    expect(res.body.docs[0]).toEqual({ _index: 'users', _id: 'nope', found: false });
    expect(res.body.docs[1].found).toBe(true);
  });

  it('a missing index is that document\'s error only', async () => {
    const res = await t.request('POST', '/_mget', { docs: [{ _index: 'missing', _id: '1' }, { _index: 'users', _id: '1' }] });
    expect(res.status).toBe(200);
    expect(res.body.docs[0]).toEqual({ _index: 'missing', _id: '1', error: indexNotFound('missing').error });
    expect(res.body.docs[1].found).toBe(true);
  });

  it('filters _source per document (false, a field, a list, includes/excludes)', async () => {
    const res = await t.request('POST', '/_mget', {
      docs: [
        { _index: 'users', _id: '1', _source: false },
        { _index: 'users', _id: '1', _source: 'name' },
        { _index: 'users', _id: '1', _source: ['name', 'city'] },
        { _index: 'users', _id: '1', _source: { includes: ['*'], excludes: ['tags'] } },
      ],
    });
    expect(res.body.docs[0]._source).toBeUndefined();
    expect(res.body.docs[0].found).toBe(true);
    expect(res.body.docs[1]._source).toEqual({ name: 'ann' });
    expect(res.body.docs[2]._source).toEqual({ name: 'ann', city: 'oslo' });
    expect(res.body.docs[3]._source).toEqual({ name: 'ann', city: 'oslo' });
  });

  it('URL _source parameters are the default; a document\'s own _source wins', async () => {
    const res = await t.request('POST', '/users/_mget?_source_includes=city', { docs: [{ _id: '1' }, { _id: '2', _source: 'name' }] });
    expect(res.body.docs[0]._source).toEqual({ city: 'oslo' });
    expect(res.body.docs[1]._source).toEqual({ name: 'bo' });
  });

  it('is realtime: sees a document written without refresh', async () => {
    await t.request('PUT', '/users/_doc/fresh', { name: 'cy' });
    const res = await t.request('POST', '/users/_mget', { ids: ['fresh'] });
    expect(res.body.docs[0]._source).toEqual({ name: 'cy' });
  });

  it('with realtime=false reads what the last refresh published', async () => {
    await t.request('PUT', '/mget-nrt', { settings: { refresh_interval: '-1' } });
    await t.request('PUT', '/mget-nrt/_doc/a?refresh=true', { n: 1 });
    await t.request('PUT', '/mget-nrt/_doc/b', { n: 2 });
    const res = await t.request('POST', '/mget-nrt/_mget?realtime=false', { ids: ['a', 'b'] });
    expect(res.body.docs.map((d: any) => d.found)).toEqual([true, false]);
    const refreshed = await t.request('POST', '/mget-nrt/_mget?realtime=false&refresh=true', { ids: ['a', 'b'] });
    expect(refreshed.body.docs.map((d: any) => d._source)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('numeric ids are read as strings', async () => {
    const res = await t.request('POST', '/users/_mget', { ids: [1, 2] });
    expect(res.body.docs.map((d: any) => d._id)).toEqual(['1', '2']);
  });
});

describe('POST /<index>/_mget with "ids"', () => {
  it('reads ids from the URL index', async () => {
    const res = await t.request('POST', '/users/_mget', { ids: ['2', '1', 'x'] });
    expect(res.body.docs.map((d: any) => [d._id, d.found])).toEqual([['2', true], ['1', true], ['x', false]]);
  });

  it('GET with a body works too', async () => {
    const res = await t.request('GET', '/users/_mget', { ids: ['1'] });
    expect(res.body.docs[0].found).toBe(true);
  });
});

describe('_mget errors', () => {
  it('ids without an index fail validation, numbered by document', async () => {
    const res = await t.request('POST', '/_mget', { ids: ['1', '2'] });
    expectErrorType(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing for doc 0;2: index is missing for doc 1;');
  });

  it('a document without an _id fails validation', async () => {
    const res = await t.request('POST', '/users/_mget', { docs: [{ _index: 'users' }] });
    expectErrorType(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing for doc 0;');
  });

  it('no documents fail validation', async () => {
    expectErrorType(await t.request('POST', '/users/_mget', { ids: [] }), 400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
    expectErrorType(await t.request('POST', '/users/_mget'), 400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
  });

  it('an unknown top-level key is a parsing_exception', async () => {
    const res = await t.request('POST', '/users/_mget', { doc: [] });
    expectErrorType(res, 400, 'parsing_exception', 'unknown key [doc] for a START_ARRAY, expected [docs] or [ids]');
  });

  it('a top-level key that is not an array is a parsing_exception', async () => {
    const res = await t.request('POST', '/users/_mget', { docs: { _id: '1' } });
    expectErrorType(res, 400, 'parsing_exception', 'unexpected token [START_OBJECT], expected [FIELD_NAME] or [START_ARRAY]');
  });

  it('an unknown document field is a parse_exception', async () => {
    const res = await t.request('POST', '/users/_mget', { docs: [{ _id: '1', nope: 1 }] });
    expectErrorType(res, 400, 'parse_exception', 'failed to parse multi get request. unknown field [nope]');
  });

  it('an id that is not a value fails', async () => {
    const res = await t.request('POST', '/users/_mget', { ids: [{ a: 1 }] });
    expectErrorType(res, 400, 'illegal_argument_exception', 'ids array element should only contain ids');
  });

  it('malformed JSON fails with a parse error', async () => {
    const res = await t.request('POST', '/users/_mget', '{"ids": [');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toMatch(/parse/);
  });

  it('a bad _source is a parsing error', async () => {
    const res = await t.request('POST', '/users/_mget', { docs: [{ _id: '1', _source: 5 }] });
    expectErrorType(res, 400, 'parsing_exception');
  });
});
