/**
 * Aliases — `POST /_aliases`, `PUT|DELETE /<index>/_alias/<name>`, `GET /_alias`, `HEAD /_alias/<name>`,
 * aliases at index creation, and aliases used wherever an index name is:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/aliases.html
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, ids, indexNotFound, seed, UUID } from './es.js';

let t: TestApp;
const ACK = { acknowledged: true, errors: false };
beforeAll(async () => {
  t = await createTestApp();
  await seed(t, 'logs-1', [['a', { msg: 'disk full', level: 'error' }], ['b', { msg: 'disk ok', level: 'info' }]]);
  await seed(t, 'logs-2', [['c', { msg: 'disk slow', level: 'warn' }]]);
});
afterAll(async () => t.close());

const aliases = (actions: unknown[]) => t.request('POST', '/_aliases', { actions });

describe('POST /_aliases', () => {
  it('adds an alias over several indices, which searches see as one', async () => {
    expect((await aliases([{ add: { indices: ['logs-1', 'logs-2'], alias: 'logs' } }])).body).toEqual(ACK);
    const res = await t.request('POST', '/logs/_search', { query: { match: { msg: 'disk' } } });
    expect(ids(res).sort()).toEqual(['a', 'b', 'c']);
    expect(res.body.hits.hits.find((h: any) => h._id === 'c')._index).toBe('logs-2');
    expect((await t.request('GET', '/logs/_count')).body.count).toBe(3);
  });

  it('GET /_alias/<name> lists the indices it points to', async () => {
    const res = await t.request('GET', '/_alias/logs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ 'logs-1': { aliases: { logs: {} } }, 'logs-2': { aliases: { logs: {} } } });
  });

  it('applies several actions atomically: a failing action changes nothing', async () => {
    const res = await aliases([{ add: { index: 'logs-1', alias: 'tmp' } }, { add: { index: 'missing', alias: 'tmp' } }]);
    expect(res.body).toEqual(indexNotFound('missing'));
    expect((await t.request('HEAD', '/_alias/tmp')).status).toBe(404);
  });

  it('swaps an alias from one index to another in one request', async () => {
    await aliases([{ add: { index: 'logs-1', alias: 'current' } }]);
    await aliases([{ remove: { index: 'logs-1', alias: 'current' } }, { add: { index: 'logs-2', alias: 'current' } }]);
    expect((await t.request('GET', '/_alias/current')).body).toEqual({ 'logs-2': { aliases: { current: {} } } });
  });

  it('a filtered alias filters searches and counts through it', async () => {
    await aliases([{ add: { index: 'logs-1', alias: 'errors', filter: { term: { level: 'error' } } } }]);
    expect(ids(await t.request('POST', '/errors/_search', { query: { match: { msg: 'disk' } } }))).toEqual(['a']);
    expect((await t.request('POST', '/errors/_count')).body.count).toBe(1);
    // Naming the index itself is not filtered.
    expect((await t.request('POST', '/logs-1,errors/_count')).body.count).toBe(2);
    expect((await t.request('GET', '/_alias/errors')).body).toEqual({ 'logs-1': { aliases: { errors: { filter: { term: { level: 'error' } } } } } });
  });

  it('a filter that is not a valid query is refused when the alias is added', async () => {
    const res = await aliases([{ add: { index: 'logs-1', alias: 'bad', filter: { nope: {} } } }]);
    expectErrorType(res, 400, 'illegal_argument_exception', 'failed to parse filter for alias [bad]');
    expect(res.body.error.caused_by.type).toBe('parsing_exception');
  });

  it('an alias may not take the name of an index', async () => {
    const res = await aliases([{ add: { index: 'logs-1', alias: 'logs-2' } }]);
    expectErrorType(res, 400, 'invalid_alias_name_exception', 'Invalid alias name [logs-2]: an index or data stream exists with the same name as the alias');
    expect(res.body.error.index).toBe('logs-2');
    expect(res.body.error.index_uuid).toEqual(UUID);
  });

  it('an index may not take the name of an alias', async () => {
    const res = await t.request('PUT', '/logs');
    expectErrorType(res, 400, 'invalid_index_name_exception', 'Invalid index name [logs], already exists as alias');
  });

  it('removing an alias that does not exist is aliases_not_found_exception (404)', async () => {
    const res = await aliases([{ remove: { index: 'logs-1', alias: 'never' } }]);
    expectErrorType(res, 404, 'aliases_not_found_exception', 'aliases [never] missing');
    expect(res.body.error['resource.type']).toBe('aliases');
  });

  it('remove_index deletes the index in the same request', async () => {
    await t.request('PUT', '/scratch');
    expect((await aliases([{ remove_index: { index: 'scratch' } }])).body).toEqual(ACK);
    expect((await t.request('HEAD', '/scratch')).status).toBe(404);
  });

  it('refuses malformed actions with ES errors', async () => {
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ add: { alias: 'x' } }] }), 400, 'action_request_validation_exception', 'Validation Failed: 1: One of [index] or [indices] is required;');
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ add: { index: 'logs-1' } }] }), 400, 'action_request_validation_exception', 'Validation Failed: 1: One of [alias] or [aliases] is required;');
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ rename: { index: 'logs-1' } }] }), 400, 'x_content_parse_exception', /unknown field \[rename\]/);
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ add: { index: 'logs-1', alias: 'x', colour: 1 } }] }), 400, 'x_content_parse_exception', /\[add\] unknown field \[colour\]/);
    expectErrorType(await t.request('POST', '/_aliases', { actions: [] }), 400, 'action_request_validation_exception', 'Validation Failed: 1: At least one action is required;');
    expectErrorType(await t.request('POST', '/_aliases', { nope: [] }), 400, 'x_content_parse_exception', /\[aliases\] unknown field \[nope\]/);
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ add: { index: 'logs-1', alias: 'x', is_write_index: 'maybe' } }] }), 400, 'x_content_parse_exception');
    expectErrorType(await t.request('POST', '/_aliases', { actions: [{ add: { index: 'logs-1', alias: '_x' } }] }), 400, 'invalid_alias_name_exception', "Invalid alias name [_x]: must not start with '_', '-', or '+'");
    expectErrorType(await t.request('POST', '/_aliases', '{"actions": ['), 400, 'x_content_parse_exception');
  });

  it('alias routing is refused clearly', async () => {
    const res = await aliases([{ add: { index: 'logs-1', alias: 'routed', routing: '1' } }]);
    expectErrorType(res, 400, 'illegal_argument_exception', 'alias [routing] is not supported by this server');
  });
});

describe('writes through an alias', () => {
  it('an alias with one index writes to it (index, update, delete, bulk)', async () => {
    await t.request('PUT', '/w-1');
    await t.request('PUT', '/w-1/_alias/w');
    const put = await t.request('PUT', '/w/_doc/1', { n: 1 });
    expect(put.status).toBe(201);
    expect(put.body._index).toBe('w-1');
    expect((await t.request('POST', '/w/_update/1', { doc: { n: 2 } })).body._index).toBe('w-1');
    expect((await t.request('GET', '/w/_doc/1')).body._source).toEqual({ n: 2 });
    const bulk = await t.bulk('/_bulk', [{ index: { _index: 'w', _id: '2' } }, { n: 3 }, { delete: { _index: 'w', _id: '1' } }]);
    expect(bulk.body.errors).toBe(false);
    expect(bulk.body.items.map((i: any) => Object.values(i)[0]).map((i: any) => i._index)).toEqual(['w-1', 'w-1']);
    expect((await t.request('HEAD', '/w-2')).status).toBe(404);
  });

  it('an alias over several indices without a write index refuses writes', async () => {
    await t.request('PUT', '/w-2');
    await t.request('PUT', '/w-2/_alias/w');
    const res = await t.request('PUT', '/w/_doc/9', { n: 9 });
    expectErrorType(res, 400, 'illegal_argument_exception',
      'no write index is defined for alias [w]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index');
    const bulk = await t.bulk('/_bulk', [{ index: { _index: 'w', _id: '9' } }, { n: 9 }]);
    expect(bulk.body.errors).toBe(true);
    expect(bulk.body.items[0].index.status).toBe(400);
  });

  it('is_write_index picks the index writes go to; reads of one document need a single index', async () => {
    await aliases([{ add: { index: 'w-2', alias: 'w', is_write_index: true } }]);
    const put = await t.request('PUT', '/w/_doc/9', { n: 9 });
    expect(put.body._index).toBe('w-2');
    const get = await t.request('GET', '/w/_doc/9');
    expectErrorType(get, 400, 'illegal_argument_exception', "alias [w] has more than one index associated with it [w-1, w-2], can't execute a single index op");
    expect((await t.request('GET', '/_alias/w')).body).toEqual({ 'w-1': { aliases: { w: {} } }, 'w-2': { aliases: { w: { is_write_index: true } } } });
  });

  it('two write indices for one alias are refused (ES\'s IllegalStateException, a 500) and nothing changes', async () => {
    const res = await aliases([{ add: { index: 'w-1', alias: 'w', is_write_index: true } }]);
    expectErrorType(res, 500, 'illegal_state_exception', 'alias [w] has more than one write index [w-1,w-2]');
    expect((await t.request('GET', '/_alias/w')).body['w-1']).toEqual({ aliases: { w: {} } });
  });

  it('_mget and _msearch resolve aliases', async () => {
    await t.request('POST', '/w/_refresh');
    const mget = await t.request('POST', '/_mget', { docs: [{ _index: 'w', _id: '9' }, { _index: 'errors', _id: 'a' }] });
    expect(mget.body.docs[0].error.type).toBe('illegal_argument_exception');
    expect(mget.body.docs[1]).toMatchObject({ _index: 'logs-1', _id: 'a', found: true });
    const ms = await t.request('POST', '/_msearch', `{"index":"errors"}\n{}\n{"index":"w"}\n{"size":0}\n`, { 'content-type': 'application/x-ndjson' });
    expect(ms.body.responses[0].hits.hits.map((h: any) => h._id)).toEqual(['a']);
    expect(ms.body.responses[1].hits.total.value).toBe(2);
  });

  it('an index cannot be deleted through an alias', async () => {
    const res = await t.request('DELETE', '/w');
    expectErrorType(res, 400, 'illegal_argument_exception', 'The provided expression [w] matches an alias, specify the corresponding concrete indices instead.');
  });
});

describe('single-alias APIs', () => {
  it('PUT /<index>/_alias/<name> with a body, then DELETE it', async () => {
    const put = await t.request('PUT', '/logs-2/_alias/warn', { filter: { term: { level: 'warn' } } });
    expect(put.body).toEqual(ACK);
    expect(ids(await t.request('POST', '/warn/_search'))).toEqual(['c']);
    expect((await t.request('DELETE', '/logs-2/_alias/warn')).body).toEqual(ACK);
    expect((await t.request('HEAD', '/_alias/warn')).status).toBe(404);
  });

  it('POST and the _aliases path variants work too', async () => {
    expect((await t.request('POST', '/logs-2/_aliases/v2')).body).toEqual(ACK);
    expect((await t.request('HEAD', '/logs-2/_alias/v2')).status).toBe(200);
    expect((await t.request('DELETE', '/logs-2/_aliases/v2')).body).toEqual(ACK);
  });

  it('DELETE of a missing alias is a 404', async () => {
    const res = await t.request('DELETE', '/logs-2/_alias/none');
    expectErrorType(res, 404, 'aliases_not_found_exception', 'aliases [none] missing');
  });

  it('GET /<index>/_alias shows an index without aliases as empty', async () => {
    await t.request('PUT', '/plain');
    expect((await t.request('GET', '/plain/_alias')).body).toEqual({ plain: { aliases: {} } });
  });

  it('GET /_alias/<name> for a missing alias is ES\'s string-form 404', async () => {
    const res = await t.request('GET', '/_alias/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'alias [nothing] missing', status: 404 });
    const some = await t.request('GET', '/_alias/logs,nothing');
    expect(some.status).toBe(404);
    expect(some.body.error).toBe('alias [nothing] missing');
    expect(some.body['logs-1']).toEqual({ aliases: { logs: {} } });
  });

  it('GET /_alias with a wildcard name selects matching aliases', async () => {
    const res = await t.request('GET', '/_alias/log*');
    expect(Object.keys(res.body).sort()).toEqual(['logs-1', 'logs-2']);
  });

  it('wildcard index expressions also match alias names', async () => {
    expect((await t.request('GET', '/err*/_count')).body.count).toBe(1);
  });
});

describe('aliases at index creation and in GET /<index>', () => {
  it('PUT /<index> with aliases creates them; GET /<index> shows them', async () => {
    const res = await t.request('PUT', '/created', { aliases: { c1: {}, c2: { is_write_index: true, filter: { match_all: {} } } } });
    expect(res.status).toBe(200);
    const get = await t.request('GET', '/created');
    expect(get.body.created.aliases).toEqual({ c1: {}, c2: { is_write_index: true, filter: { match_all: {} } } });
    expect((await t.request('GET', '/c1')).body.created).toBeDefined();
  });

  it('refuses an alias named like an existing index', async () => {
    const res = await t.request('PUT', '/created-2', { aliases: { 'logs-1': {} } });
    expectErrorType(res, 400, 'invalid_alias_name_exception', 'Invalid alias name [logs-1]: an index or data stream exists with the same name as the alias');
    expect((await t.request('HEAD', '/created-2')).status).toBe(404);
  });

  it('refuses malformed alias definitions', async () => {
    expectErrorType(await t.request('PUT', '/created-3', { aliases: { x: { nope: 1 } } }), 400, 'x_content_parse_exception', /unknown field \[nope\]/);
    expectErrorType(await t.request('PUT', '/created-3', { aliases: ['x'] }), 400, 'illegal_argument_exception');
  });

  it('deleting an index removes its aliases', async () => {
    await t.request('PUT', '/gone', { aliases: { gone_alias: {} } });
    await t.request('DELETE', '/gone');
    expect((await t.request('HEAD', '/_alias/gone_alias')).status).toBe(404);
  });
});

describe('reindex and by-query requests through aliases', () => {
  it('_reindex from a filtered alias copies only what the filter lets through, into an alias\'s write index', async () => {
    await t.request('PUT', '/copy-1', { aliases: { copy: {} } });
    const res = await t.request('POST', '/_reindex?refresh=true', { source: { index: 'errors' }, dest: { index: 'copy' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(1);
    expect(ids(await t.request('POST', '/copy-1/_search'))).toEqual(['a']);
  });

  it('_delete_by_query through a filtered alias deletes only filtered documents', async () => {
    await seed(t, 'dbq-1', [['x', { level: 'error' }], ['y', { level: 'info' }]]);
    await t.request('PUT', '/dbq-1/_alias/dbq-errors', { filter: { term: { level: 'error' } } });
    const res = await t.request('POST', '/dbq-errors/_delete_by_query?refresh=true', { query: { match_all: {} } });
    expect(res.body.deleted).toBe(1);
    expect(ids(await t.request('POST', '/dbq-1/_search'))).toEqual(['y']);
  });
});

describe('durability', () => {
  it('aliases survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threadsearch-alias-'));
    try {
      let app = await createTestApp({ dataDir: dir });
      await app.request('PUT', '/d1', { aliases: { da: { filter: { term: { k: 'x' } } } } });
      await app.request('PUT', '/d1/_alias/db', { is_write_index: true });
      await app.close();
      app = await createTestApp({ dataDir: dir });
      expect((await app.request('GET', '/_alias')).body).toEqual({ d1: { aliases: { da: { filter: { term: { k: 'x' } } }, db: { is_write_index: true } } } });
      await app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
