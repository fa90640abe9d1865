/**
 * Create index API — `PUT /<index>`: https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-create-index.html
 * (es-api.md §1.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, UUID } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('PUT /<index>', () => {
  it('creates an index without a body and acknowledges it', async () => {
    const res = await t.request('PUT', '/create-plain');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'create-plain' });
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect((await t.request('HEAD', '/create-plain')).status).toBe(200);
  });

  it('applies the 8.x defaults: one shard, one replica, rendered as strings', async () => {
    await t.request('PUT', '/create-defaults');
    const { index } = (await t.request('GET', '/create-defaults/_settings')).body['create-defaults'].settings;
    expect(index.number_of_shards).toBe('1');
    expect(index.number_of_replicas).toBe('1');
    expect(index.provided_name).toBe('create-defaults');
    expect(index.uuid).toEqual(UUID);
    expect(index.creation_date).toMatch(/^\d{13}$/);
  });

  it('accepts settings nested under "index"', async () => {
    const res = await t.request('PUT', '/create-nested', { settings: { index: { number_of_shards: 2, number_of_replicas: 0 } } });
    expect(res.status).toBe(200);
    const { index } = (await t.request('GET', '/create-nested/_settings')).body['create-nested'].settings;
    expect(index.number_of_shards).toBe('2');
    expect(index.number_of_replicas).toBe('0');
  });

  it('accepts settings in the short form without the "index." prefix', async () => {
    await t.request('PUT', '/create-short', { settings: { number_of_shards: 3 } });
    const { index } = (await t.request('GET', '/create-short/_settings')).body['create-short'].settings;
    expect(index.number_of_shards).toBe('3');
  });

  it('accepts flat dotted settings and numbers sent as strings', async () => {
    await t.request('PUT', '/create-flat', { settings: { 'index.number_of_shards': '2', 'index.mapping.total_fields.limit': 2000 } });
    const { index } = (await t.request('GET', '/create-flat/_settings')).body['create-flat'].settings;
    expect(index.number_of_shards).toBe('2');
    expect(index.mapping).toEqual({ total_fields: { limit: '2000' } });
  });

  it('creates the mappings given in the body', async () => {
    const res = await t.request('PUT', '/create-mapped', {
      mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
      aliases: {},
    });
    expect(res.status).toBe(200);
    const mapping = await t.request('GET', '/create-mapped/_mapping');
    expect(mapping.body).toEqual({ 'create-mapped': { mappings: { properties: { tag: { type: 'keyword' }, title: { type: 'text' } } } } });
  });

  it('accepts and ignores wait_for_active_shards, timeout and master_timeout', async () => {
    const res = await t.request('PUT', '/create-params?wait_for_active_shards=1&timeout=30s&master_timeout=30s');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'create-params' });
  });

  it('allows names that start with a dot', async () => {
    const res = await t.request('PUT', '/.create-dotted');
    expect(res.status).toBe(200);
    expect(res.body.index).toBe('.create-dotted');
  });
});

describe('PUT /<index> errors', () => {
  it('creating an index that exists fails with resource_already_exists_exception', async () => {
    await t.request('PUT', '/create-twice');
    const uuid = (await t.request('GET', '/create-twice/_settings')).body['create-twice'].settings.index.uuid;
    const res = await t.request('PUT', '/create-twice');
    expectEsError(res, 400, 'resource_already_exists_exception', `index [create-twice/${uuid}] already exists`, {
      index_uuid: uuid,
      index: 'create-twice',
    });
  });

  it('an unknown setting fails with illegal_argument_exception naming the full setting key', async () => {
    const res = await t.request('PUT', '/create-unknown-setting', { settings: { foo: 1 } });
    expectEsError(res, 400, 'illegal_argument_exception',
      'unknown setting [index.foo] please check that any required plugins are installed, or check the breaking changes documentation for removed settings');
    expect((await t.request('HEAD', '/create-unknown-setting')).status).toBe(404);
  });

  it('an unknown field type fails with mapper_parsing_exception whose root cause is the inner mapping error', async () => {
    const res = await t.request('PUT', '/create-bad-type', { mappings: { properties: { bar: { type: 'foo' } } } });
    expect(res.status).toBe(400);
    // ES guessRootCauses() descends into an ElasticsearchException cause, so the root is the inner error.
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'mapper_parsing_exception', reason: 'No handler for type [foo] declared on field [bar]' }],
        type: 'mapper_parsing_exception',
        reason: 'Failed to parse mapping: No handler for type [foo] declared on field [bar]',
        caused_by: { type: 'mapper_parsing_exception', reason: 'No handler for type [foo] declared on field [bar]' },
      },
      status: 400,
    });
    expect((await t.request('HEAD', '/create-bad-type')).status).toBe(404);
  });

  it('an unknown mapping parameter fails with mapper_parsing_exception', async () => {
    const res = await t.request('PUT', '/create-bad-param', { mappings: { properties: { bar: { type: 'text', foo: 1 } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('mapper_parsing_exception');
    expect(res.body.error.reason).toBe('Failed to parse mapping: unknown parameter [foo] on mapper [bar] of type [text]');
    expect(res.body.error.caused_by).toEqual({ type: 'mapper_parsing_exception', reason: 'unknown parameter [foo] on mapper [bar] of type [text]' });
  });

  it('a mapping with more fields than the limit fails with illegal_argument_exception without the "while adding" suffix', async () => {
    const res = await t.request('PUT', '/create-too-many', {
      settings: { 'index.mapping.total_fields.limit': 2 },
      mappings: { properties: { a: { type: 'keyword' }, b: { type: 'keyword' }, c: { type: 'keyword' } } },
    });
    expectEsError(res, 400, 'illegal_argument_exception', 'Limit of total fields [2] has been exceeded');
  });

  it('number_of_shards 0 is rejected', async () => {
    const res = await t.request('PUT', '/create-zero-shards', { settings: { number_of_shards: 0 } });
    expectEsError(res, 400, 'illegal_argument_exception', 'Failed to parse value [0] for setting [index.number_of_shards] must be >= 1');
  });

  const invalid: Array<[string, string, string]> = [
    ['Uppercase', 'Uppercase', 'must be lowercase'],
    ['_underscore', '_underscore', "must not start with '_', '-', or '+'"],
    ['-dash', '-dash', "must not start with '_', '-', or '+'"],
    ['+plus', '+plus', "must not start with '_', '-', or '+'"],
    ['a%23b', 'a#b', "must not contain '#'"],
    ['a:b', 'a:b', "must not contain ':'"],
    ['a%20b', 'a b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a,b', 'a,b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a*b', 'a*b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a%3Cb', 'a<b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a%7Cb', 'a|b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a%3Fb', 'a?b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a%22b', 'a"b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
    ['a%5Cb', 'a\\b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]'],
  ];
  for (const [urlName, name, rule] of invalid) {
    it(`an index named [${name}] is rejected with invalid_index_name_exception "${rule}"`, async () => {
      const res = await t.request('PUT', `/${urlName}`);
      expectEsError(res, 400, 'invalid_index_name_exception', `Invalid index name [${name}], ${rule}`, { index_uuid: '_na_', index: name });
    });
  }

  // '.' and '..' cannot be sent through a URL: WHATWG URL parsing resolves them (even as %2E%2E)
  // before any server sees the path, so that rule is not reachable over HTTP.

  it('the character rule is checked before the lowercase rule', async () => {
    const res = await t.request('PUT', '/A%23B');
    expect(res.body.error.reason).toBe("Invalid index name [A#B], must not contain '#'");
  });

  it('the leading-character rule is checked before the lowercase rule', async () => {
    const res = await t.request('PUT', '/_Upper');
    expect(res.body.error.reason).toBe("Invalid index name [_Upper], must not start with '_', '-', or '+'");
  });

  it('a name longer than 255 bytes is rejected with the byte count', async () => {
    const name = 'a'.repeat(300);
    const res = await t.request('PUT', `/${name}`);
    expectEsError(res, 400, 'invalid_index_name_exception', `Invalid index name [${name}], index name is too long, (300 > 255)`, {
      index_uuid: '_na_',
      index: name,
    });
  });

  it('the byte length counts UTF-8 bytes, not characters', async () => {
    const name = 'é'.repeat(128); // 256 bytes
    const res = await t.request('PUT', `/${encodeURIComponent(name)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(`Invalid index name [${name}], index name is too long, (256 > 255)`);
  });
});
