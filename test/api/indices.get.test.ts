/**
 * Index APIs that read or drop an existing index:
 * get index  https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-get-index.html
 * exists     https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-exists.html
 * delete     https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-delete-index.html
 * mapping    https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-get-mapping.html (+ put-mapping)
 * settings   https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-get-settings.html (+ update-settings)
 * refresh    https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-refresh.html
 * (es-api.md §1.3–1.7, §2.6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound, UUID } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/library', {
    settings: { number_of_shards: 1, 'index.mapping.total_fields.limit': 2000 },
    mappings: {
      _source: { excludes: ['ml.tokens'] },
      properties: {
        title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        'ml.tokens': { type: 'long' },
      },
    },
  });
  await t.request('PUT', '/logs-2024');
  await t.request('PUT', '/logs-2025');
});
afterAll(async () => t.close());

describe('GET /<index>', () => {
  it('returns aliases, mappings and settings keyed by the index name', async () => {
    const res = await t.request('GET', '/library');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['library']);
    const { aliases, mappings, settings } = res.body.library;
    expect(aliases).toEqual({});
    expect(mappings).toEqual({
      _source: { excludes: ['ml.tokens'] },
      properties: {
        ml: { properties: { tokens: { type: 'long' } } },
        title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      },
    });
    expect(settings).toEqual({
      index: {
        routing: { allocation: { include: { _tier_preference: 'data_content' } } },
        number_of_shards: '1',
        provided_name: 'library',
        creation_date: expect.stringMatching(/^\d{13}$/),
        number_of_replicas: '1',
        uuid: UUID,
        version: { created: expect.stringMatching(/^\d+$/) },
        mapping: { total_fields: { limit: '2000' } },
      },
    });
  });

  it('renders mappings as {} for an index with no fields', async () => {
    const res = await t.request('GET', '/logs-2024');
    expect(res.body['logs-2024'].mappings).toEqual({});
  });

  it('accepts a comma-separated list and wildcards, keyed by concrete index names', async () => {
    const list = await t.request('GET', '/library,logs-2024');
    expect(Object.keys(list.body).sort()).toEqual(['library', 'logs-2024']);
    const wildcard = await t.request('GET', '/logs-*');
    expect(Object.keys(wildcard.body).sort()).toEqual(['logs-2024', 'logs-2025']);
    const encoded = await t.request('GET', '/library%2Clogs-2025');
    expect(Object.keys(encoded.body).sort()).toEqual(['library', 'logs-2025']);
  });

  it('renders settings with flat keys with ?flat_settings=true', async () => {
    const res = await t.request('GET', '/library?flat_settings=true');
    const settings = res.body.library.settings;
    expect(settings['index.number_of_shards']).toBe('1');
    expect(settings['index.mapping.total_fields.limit']).toBe('2000');
    expect(settings['index.provided_name']).toBe('library');
  });

  it('a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });

  it('a wildcard that matches nothing answers 200 with an empty object', async () => {
    const res = await t.request('GET', '/nothing-*');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });
});

describe('HEAD /<index>', () => {
  it('answers 200 with no body when the index exists', async () => {
    const res = await t.request('HEAD', '/library');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  it('answers 404 with no body when the index does not exist', async () => {
    const res = await t.request('HEAD', '/missing');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});

describe('DELETE /<index>', () => {
  it('deletes an index and acknowledges it', async () => {
    await t.request('PUT', '/doomed');
    const res = await t.request('DELETE', '/doomed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true });
    expect((await t.request('HEAD', '/doomed')).status).toBe(404);
  });

  it('deletes every index of a comma-separated list of concrete names', async () => {
    await t.request('PUT', '/doomed-a');
    await t.request('PUT', '/doomed-b');
    const res = await t.request('DELETE', '/doomed-a,doomed-b');
    expect(res.body).toEqual({ acknowledged: true });
    expect((await t.request('HEAD', '/doomed-a')).status).toBe(404);
    expect((await t.request('HEAD', '/doomed-b')).status).toBe(404);
  });

  it('deleting a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('DELETE', '/missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });

  it('ignore_unavailable=true skips missing names: nothing left is acknowledged, the others are deleted', async () => {
    expect((await t.request('DELETE', '/missing?ignore_unavailable=true')).body).toEqual({ acknowledged: true });
    await t.request('PUT', '/doomed-c');
    const res = await t.request('DELETE', '/missing,doomed-c?ignore_unavailable=true');
    expect(res.body).toEqual({ acknowledged: true });
    expect((await t.request('HEAD', '/doomed-c')).status).toBe(404);
    expect((await t.request('DELETE', '/missing,doomed-c?ignore_unavailable=false')).status).toBe(404);
    const wildcard = await t.request('DELETE', '/missing,logs-*?ignore_unavailable=true');
    expectEsError(wildcard, 400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed');
  });

  it('deleting by wildcard is refused because action.destructive_requires_name defaults to true', async () => {
    const res = await t.request('DELETE', '/logs-*');
    expectEsError(res, 400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed');
    expect((await t.request('HEAD', '/logs-2024')).status).toBe(200);
  });

  it('deleting _all is refused', async () => {
    const res = await t.request('DELETE', '/_all');
    expectEsError(res, 400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed');
  });

  it('a deleted index can be created again, empty', async () => {
    await t.request('PUT', '/reborn/_doc/1?refresh=true', { a: 1 });
    await t.request('DELETE', '/reborn');
    await t.request('PUT', '/reborn');
    expect((await t.request('GET', '/reborn/_count')).body.count).toBe(0);
    expect((await t.request('GET', '/reborn/_mapping')).body).toEqual({ reborn: { mappings: {} } });
  });
});

describe('GET /<index>/_mapping', () => {
  it('returns the mappings keyed by index, dotted names expanded into objects', async () => {
    const res = await t.request('GET', '/library/_mapping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      library: {
        mappings: {
          _source: { excludes: ['ml.tokens'] },
          properties: {
            ml: { properties: { tokens: { type: 'long' } } },
            title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
          },
        },
      },
    });
  });

  it('GET /_mapping returns every index', async () => {
    const res = await t.request('GET', '/_mapping');
    expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['library', 'logs-2024', 'logs-2025']));
  });

  it('a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('GET', '/missing/_mapping');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });
});

describe('PUT /<index>/_mapping', () => {
  it('adds new fields to the existing mapping', async () => {
    await t.request('PUT', '/growing', { mappings: { properties: { tag: { type: 'keyword' } } } });
    const res = await t.request('PUT', '/growing/_mapping', { properties: { title: { type: 'text' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true });
    const mapping = await t.request('GET', '/growing/_mapping');
    expect(mapping.body.growing.mappings.properties).toEqual({ tag: { type: 'keyword' }, title: { type: 'text' } });
  });

  it('changing the type of an existing field fails with illegal_argument_exception', async () => {
    await t.request('PUT', '/fixed', { mappings: { properties: { tag: { type: 'keyword' } } } });
    const res = await t.request('PUT', '/fixed/_mapping', { properties: { tag: { type: 'text' } } });
    expectEsError(res, 400, 'illegal_argument_exception', 'mapper [tag] cannot be changed from type [keyword] to [text]');
  });
});

describe('GET /<index>/_settings', () => {
  it('returns the settings keyed by index, values as strings', async () => {
    const res = await t.request('GET', '/library/_settings');
    expect(res.status).toBe(200);
    expect(res.body.library.settings.index.number_of_shards).toBe('1');
    expect(res.body.library.settings.index.number_of_replicas).toBe('1');
    expect(res.body.library.settings.index.mapping).toEqual({ total_fields: { limit: '2000' } });
  });

  it('filters by setting name, with or without the index. prefix and with wildcards', async () => {
    const exact = await t.request('GET', '/library/_settings/index.number_of_shards');
    expect(exact.body).toEqual({ library: { settings: { index: { number_of_shards: '1' } } } });
    const wildcard = await t.request('GET', '/library/_settings/index.number_of_*');
    expect(wildcard.body).toEqual({ library: { settings: { index: { number_of_shards: '1', number_of_replicas: '1' } } } });
  });

  it('renders flat keys with ?flat_settings=true', async () => {
    const res = await t.request('GET', '/library/_settings?flat_settings=true');
    expect(res.body.library.settings['index.number_of_shards']).toBe('1');
    expect(res.body.library.settings.index).toBeUndefined();
  });
});

describe('PUT /<index>/_settings', () => {
  it('updates a dynamic setting', async () => {
    await t.request('PUT', '/tunable');
    const res = await t.request('PUT', '/tunable/_settings', { index: { number_of_replicas: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true });
    const settings = await t.request('GET', '/tunable/_settings/index.number_of_replicas');
    expect(settings.body).toEqual({ tunable: { settings: { index: { number_of_replicas: '0' } } } });
  });

  it('updating number_of_shards on an open index fails naming the index and its uuid', async () => {
    await t.request('PUT', '/static');
    const uuid = (await t.request('GET', '/static/_settings')).body.static.settings.index.uuid;
    const res = await t.request('PUT', '/static/_settings', { index: { number_of_shards: 2 } });
    expectEsError(res, 400, 'illegal_argument_exception',
      `Can't update non dynamic settings [[index.number_of_shards]] for open indices [[static/${uuid}]]`);
  });
});

describe('POST /<index>/_refresh', () => {
  it('refreshes the index and reports its shards', async () => {
    const res = await t.request('POST', '/library/_refresh');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _shards: { total: 2, successful: 1, failed: 0 } });
  });

  it('is also available with GET', async () => {
    const res = await t.request('GET', '/library/_refresh');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _shards: { total: 2, successful: 1, failed: 0 } });
  });

  it('counts every primary and replica of a multi-shard index', async () => {
    await t.request('PUT', '/three-shards', { settings: { number_of_shards: 3 } });
    const res = await t.request('POST', '/three-shards/_refresh');
    expect(res.body).toEqual({ _shards: { total: 6, successful: 3, failed: 0 } });
  });

  it('makes documents indexed without ?refresh visible to search', async () => {
    await t.request('PUT', '/refreshed');
    await t.request('PUT', '/refreshed/_doc/1', { a: 1 });
    await t.request('POST', '/refreshed/_refresh');
    const count = await t.request('GET', '/refreshed/_count');
    expect(count.body.count).toBe(1);
  });

  it('POST /_refresh refreshes every index', async () => {
    const res = await t.request('POST', '/_refresh');
    expect(res.status).toBe(200);
    expect(res.body._shards.failed).toBe(0);
    expect(res.body._shards.successful).toBeGreaterThanOrEqual(3);
  });

  it('refreshing a missing index fails with index_not_found_exception (404)', async () => {
    const res = await t.request('POST', '/missing/_refresh');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(indexNotFound('missing'));
  });
});
