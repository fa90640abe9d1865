/**
 * Resolve index API:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-resolve-index-api.html
 * What an expression names, as indices (with their aliases and attributes) and aliases (with their
 * indices), sorted by name; wildcards over both, hidden ones only when asked for; ES's 404 for a
 * missing concrete name (strictExpandOpen); and, with security on, only what a key may see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, indexNotFound } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const index of ['logs-1', 'logs-2', 'other', '.internal']) expect((await t.request('PUT', `/${index}`)).status).toBe(200);
  expect((await t.request('PUT', '/secret-hidden', { settings: { 'index.hidden': true } })).status).toBe(200);
  const res = await t.request('POST', '/_aliases', {
    actions: [
      { add: { index: 'logs-*', alias: 'logs' } },
      { add: { index: 'logs-2', alias: 'errors', filter: { term: { level: 'error' } }, is_write_index: true } },
      { add: { index: 'secret-hidden', alias: 'quiet', is_hidden: true } },
    ],
  });
  expect(res.status).toBe(200);
});
afterAll(async () => t.close());

const resolve = (expression: string, query = '') => t.request('GET', `/_resolve/index/${expression}${query}`);
const names = (body: any) => ({ indices: body.indices.map((i: any) => i.name), aliases: body.aliases.map((a: any) => a.name) });

describe('GET /_resolve/index/{name}', () => {
  it('answers indices with their aliases and attributes, aliases with their indices, sorted by name', async () => {
    const res = await resolve('logs*');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      indices: [
        { name: 'logs-1', aliases: ['logs'], attributes: ['open'] },
        { name: 'logs-2', aliases: ['errors', 'logs'], attributes: ['open'] },
      ],
      aliases: [{ name: 'logs', indices: ['logs-1', 'logs-2'] }],
      data_streams: [],
    });
  });

  it('lists an index without aliases without the member, and a concrete alias as an alias only', async () => {
    expect((await resolve('other')).body).toEqual({ indices: [{ name: 'other', attributes: ['open'] }], aliases: [], data_streams: [] });
    // A filtered alias is named like any other; its indices are not expanded into the index list.
    expect((await resolve('errors')).body).toEqual({ indices: [], aliases: [{ name: 'errors', indices: ['logs-2'] }], data_streams: [] });
    expect(names((await resolve('other,errors,other')).body)).toEqual({ indices: ['other'], aliases: ['errors'] });
  });

  it('expands * and _all over visible indices and aliases; hidden and dot names only with expand_wildcards=hidden|all', async () => {
    const visible = { indices: ['logs-1', 'logs-2', 'other'], aliases: ['errors', 'logs'] };
    expect(names((await resolve('*')).body)).toEqual(visible);
    expect(names((await resolve('_all')).body)).toEqual(visible);
    const all = (await resolve('*', '?expand_wildcards=all')).body;
    expect(names(all)).toEqual({ indices: ['.internal', 'logs-1', 'logs-2', 'other', 'secret-hidden'], aliases: ['errors', 'logs', 'quiet'] });
    expect(all.indices.find((i: any) => i.name === 'secret-hidden')).toEqual({ name: 'secret-hidden', aliases: ['quiet'], attributes: ['hidden', 'open'] });
    expect(names((await resolve('*', '?expand_wildcards=open,hidden')).body)).toEqual(names(all));
    // A pattern that starts with a dot sees dot names; a hidden index named outright is listed.
    expect(names((await resolve('.*')).body)).toEqual({ indices: ['.internal'], aliases: [] });
    expect((await resolve('secret-hidden')).body.indices).toEqual([{ name: 'secret-hidden', aliases: ['quiet'], attributes: ['hidden', 'open'] }]);
    expect(names((await resolve('quiet')).body)).toEqual({ indices: [], aliases: ['quiet'] });
    // Every index here is open: `closed` alone matches none of them (aliases still match).
    expect(names((await resolve('*', '?expand_wildcards=closed')).body)).toEqual({ indices: [], aliases: ['errors', 'logs'] });
  });

  it('applies exclusions after a wildcard', async () => {
    expect(names((await resolve('*,-logs-2,-e*')).body)).toEqual({ indices: ['logs-1', 'other'], aliases: ['logs'] });
    // Before any wildcard a leading dash is part of a name, which does not exist.
    expectErrorType(await resolve('-logs-2'), 404, 'index_not_found_exception', 'no such index [-logs-2]');
  });

  it('answers ES 404 for a missing concrete name unless ignore_unavailable; a wildcard matching nothing is empty unless allow_no_indices=false', async () => {
    const missing = await resolve('logs-1,nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(indexNotFound('nope'));
    expect(names((await resolve('logs-1,nope', '?ignore_unavailable=true')).body)).toEqual({ indices: ['logs-1'], aliases: [] });
    expect((await resolve('nothing*')).body).toEqual({ indices: [], aliases: [], data_streams: [] });
    const strict = await resolve('logs*,nothing*', '?allow_no_indices=false');
    expect(strict.status).toBe(404);
    expect(strict.body.error.reason).toBe('no such index [nothing*]');
  });

  it('refuses unknown parameters and wildcard states as ES does', async () => {
    expectErrorType(await resolve('logs*', '?expand_wildcards=opened'), 400, 'illegal_argument_exception',
      'No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.OPENED');
    expectErrorType(await resolve('logs*', '?ignore_unavailable=maybe'), 400, 'illegal_argument_exception');
    expectErrorType(await resolve('logs*', '?local=true'), 400, 'illegal_argument_exception', /unrecognized parameter: \[local\]/);
    expect((await t.request('POST', '/_resolve/index/logs*')).status).toBe(405);
  });
});

describe('GET /_resolve/index with security on', () => {
  let s: SecureTestApp;
  let reader: string;
  beforeAll(async () => {
    s = await createSecureTestApp();
    for (const index of ['logs-1', 'logs-2', 'secret']) expect((await s.request('PUT', `/${index}`)).status).toBe(200);
    await s.request('POST', '/_aliases', { actions: [{ add: { index: 'secret', alias: 'secret-alias' } }, { add: { index: 'logs-1', alias: 'logs-current' } }] });
    // The browser key's shape: read-only on one index pattern (`read` grants indices:admin/resolve/index).
    reader = (await s.createKey('logs-reader', role('logs-*', ['read']))).encoded;
  });
  afterAll(async () => s.close());

  it('expands wildcards over what the key may see only', async () => {
    const res = await s.as(reader, 'GET', '/_resolve/index/*');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      indices: [{ name: 'logs-1', aliases: ['logs-current'], attributes: ['open'] }, { name: 'logs-2', attributes: ['open'] }],
      aliases: [{ name: 'logs-current', indices: ['logs-1'] }],
      data_streams: [],
    });
    expect((await s.as(reader, 'GET', '/_resolve/index/sec*')).body).toEqual({ indices: [], aliases: [], data_streams: [] });
    // The superuser sees everything.
    expect(names((await s.request('GET', '/_resolve/index/*')).body)).toEqual({ indices: ['logs-1', 'logs-2', 'secret'], aliases: ['logs-current', 'secret-alias'] });
  });

  it('names no alias or index the key may not see inside the entries it may', async () => {
    await s.request('POST', '/_aliases', { actions: [{ add: { index: 'logs-2', alias: 'ops-view' } }, { add: { indices: ['logs-1', 'secret'], alias: 'logs-all' } }] });
    try {
      const res = await s.as(reader, 'GET', '/_resolve/index/logs-*');
      expect(res.body.indices.find((i: any) => i.name === 'logs-2')).toEqual({ name: 'logs-2', attributes: ['open'] });
      expect(res.body.aliases).toEqual([{ name: 'logs-all', indices: ['logs-1'] }, { name: 'logs-current', indices: ['logs-1'] }]);
      // The superuser sees both.
      expect((await s.request('GET', '/_resolve/index/logs-all')).body.aliases).toEqual([{ name: 'logs-all', indices: ['logs-1', 'secret'] }]);
    } finally {
      await s.request('POST', '/_aliases', { actions: [{ remove: { index: 'logs-2', alias: 'ops-view' } }, { remove: { indices: ['logs-1', 'secret'], alias: 'logs-all' } }] });
    }
  });

  it('refuses a concrete name the key may not see (403), or drops it under ignore_unavailable', async () => {
    const denied = await s.as(reader, 'GET', '/_resolve/index/logs-1,secret');
    expectErrorType(denied, 403, 'security_exception', /action \[indices:admin\/resolve\/index\] is unauthorized .* on indices \[secret\]/);
    // Even a name that does not exist: the key cannot learn which ones do.
    expectErrorType(await s.as(reader, 'GET', '/_resolve/index/nope'), 403, 'security_exception');
    expect(names((await s.as(reader, 'GET', '/_resolve/index/logs-1,secret?ignore_unavailable=true')).body)).toEqual({ indices: ['logs-1'], aliases: [] });
    expectErrorType(await s.as(reader, 'GET', '/_resolve/index/logs-9'), 404, 'index_not_found_exception', 'no such index [logs-9]');
  });

  it('_cat/aliases shows a key the aliases and indices it may see only', async () => {
    await s.request('POST', '/_aliases', { actions: [{ add: { index: 'secret', alias: 'logs-leak' } }] });
    const viewer = (await s.createKey('logs-viewer', role('logs-*', ['view_index_metadata']))).encoded;
    expect((await s.as(viewer, 'GET', '/_cat/aliases?format=json&h=alias,index')).body).toEqual([{ alias: 'logs-current', index: 'logs-1' }]);
    expect((await s.request('GET', '/_cat/aliases?format=json&h=alias,index')).body).toEqual([
      { alias: 'logs-current', index: 'logs-1' }, { alias: 'logs-leak', index: 'secret' }, { alias: 'secret-alias', index: 'secret' },
    ]);
    // `read` does not grant indices:admin/aliases/get on any index.
    expectErrorType(await s.as(reader, 'GET', '/_cat/aliases'), 403, 'security_exception');
  });

  it('refuses a key no index privilege grants the action to', async () => {
    const writer = (await s.createKey('logs-writer', role('logs-*', ['write']))).encoded;
    expectErrorType(await s.as(writer, 'GET', '/_resolve/index/*'), 403, 'security_exception');
    expectErrorType(await s.as(null, 'GET', '/_resolve/index/*'), 401, 'security_exception');
  });
});
