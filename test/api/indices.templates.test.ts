/**
 * Composable index templates and component templates, as the REST docs show them:
 * indices-put-template.html, indices-get-template.html, indices-delete-template.html,
 * indices-component-template.html, indices-simulate-index.html and index-templates.html
 * (composition order, priority, application at creation and auto-creation).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, expectErrorType } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await t.request(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('component and index templates: put, get, delete', () => {
  it('stores a component template and renders it as ES does', async () => {
    expect(await ok('PUT', '/_component_template/ct-settings', {
      template: { settings: { number_of_shards: 2, 'index.refresh_interval': '3s' }, aliases: { 'ct-alias': {} } }, version: 1, _meta: { owner: 'me' },
    })).toEqual({ acknowledged: true });
    expect(await ok('GET', '/_component_template/ct-settings')).toEqual({
      component_templates: [{
        name: 'ct-settings',
        component_template: { template: { settings: { index: { number_of_shards: '2', refresh_interval: '3s' } }, aliases: { 'ct-alias': {} } }, version: 1, _meta: { owner: 'me' } },
      }],
    });
    const flat = await ok('GET', '/_component_template/ct-*?flat_settings=true');
    expect(flat.component_templates[0].component_template.template.settings).toEqual({ 'index.number_of_shards': '2', 'index.refresh_interval': '3s' });
    expect((await t.request('HEAD', '/_component_template/ct-settings')).status).toBe(200);
    expect((await t.request('HEAD', '/_component_template/nope')).status).toBe(404);
  });

  it('stores an index template composed of component templates; composed_of is always rendered, priority only when set', async () => {
    await ok('PUT', '/_component_template/ct-mappings', { template: { mappings: { properties: { a: { type: 'keyword' }, obj: { properties: { x: { type: 'long' } } } } } } });
    await ok('PUT', '/_index_template/logs', {
      index_patterns: ['logs-*'], composed_of: ['ct-settings', 'ct-mappings'], priority: 10,
      template: { mappings: { properties: { a: { type: 'text' }, obj: { properties: { y: { type: 'keyword' } } } } } },
    });
    const got = await ok('GET', '/_index_template/logs');
    expect(got).toEqual({
      index_templates: [{
        name: 'logs',
        index_template: {
          index_patterns: ['logs-*'], composed_of: ['ct-settings', 'ct-mappings'], priority: 10,
          template: { mappings: { properties: { a: { type: 'text' }, obj: { properties: { y: { type: 'keyword' } } } } } },
        },
      }],
    });
    await ok('PUT', '/_index_template/bare', { index_patterns: 'bare-*' });
    expect((await ok('GET', '/_index_template/bare')).index_templates[0].index_template).toEqual({ index_patterns: ['bare-*'], composed_of: [] });
    expect((await ok('GET', '/_index_template')).index_templates.map((x: any) => x.name)).toEqual(['bare', 'logs']);
  });

  it('applies the template at index creation: components in order, then the template, then the request', async () => {
    await ok('PUT', '/logs-a', { settings: { number_of_replicas: 0 }, mappings: { properties: { b: { type: 'long' } } } });
    const index = (await ok('GET', '/logs-a'))['logs-a'];
    expect(index.settings.index.number_of_shards).toBe('2');
    expect(index.settings.index.refresh_interval).toBe('3s');
    expect(index.settings.index.number_of_replicas).toBe('0');
    expect(index.aliases).toEqual({ 'ct-alias': {} });
    expect(index.mappings.properties).toEqual({
      a: { type: 'text' }, b: { type: 'long' }, obj: { properties: { x: { type: 'long' }, y: { type: 'keyword' } } },
    });
  });

  it('applies the template when a write auto-creates the index', async () => {
    const res = await t.request('PUT', '/logs-auto/_doc/1?refresh=true', { a: 'Hello World', n: 1 });
    expect(res.status).toBe(201);
    const index = (await ok('GET', '/logs-auto'))['logs-auto'];
    expect(index.settings.index.number_of_shards).toBe('2');
    expect(index.mappings.properties.a).toEqual({ type: 'text' });
    expect((await ok('POST', '/ct-alias/_search', { query: { match: { a: 'hello' } } })).hits.total.value).toBe(1);
  });

  it('the highest priority template wins; simulate_index shows it and the ones it overlapped', async () => {
    await ok('PUT', '/_index_template/logs-low', { index_patterns: ['logs-*'], priority: 1, template: { settings: { number_of_shards: 3 } } });
    const sim = await ok('POST', '/_index_template/_simulate_index/logs-b');
    expect(sim.template.settings).toEqual({ index: { number_of_shards: '2', refresh_interval: '3s' } });
    expect(sim.template.aliases).toEqual({ 'ct-alias': {} });
    expect(sim.template.mappings.properties.a).toEqual({ type: 'text' });
    expect(sim.overlapping).toEqual([{ name: 'logs-low', index_patterns: ['logs-*'] }]);
    expect(await ok('POST', '/_index_template/_simulate_index/other')).toEqual({});
  });

  it('allow_auto_create: false refuses a write that would create the index, as ES does', async () => {
    await ok('PUT', '/_index_template/locked', { index_patterns: ['locked-*'], allow_auto_create: false });
    const res = await t.request('PUT', '/locked-1/_doc/1', { a: 1 });
    expectErrorType(res, 404, 'index_not_found_exception', 'no such index [locked-1] and composable template [locked] forbids index auto creation');
    await ok('PUT', '/locked-1');
  });

  it('templates survive a restart (cluster state section)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-templates-'));
    try {
      let node = await createTestApp({ dataDir });
      await node.request('PUT', '/_component_template/c', { template: { settings: { number_of_shards: 3 } } });
      await node.request('PUT', '/_index_template/t', { index_patterns: ['t-*'], composed_of: ['c'], priority: 5 });
      await node.close();
      node = await createTestApp({ dataDir });
      expect((await node.request('GET', '/_index_template/t')).body.index_templates[0].index_template.composed_of).toEqual(['c']);
      await node.request('PUT', '/t-1');
      expect((await node.request('GET', '/t-1/_settings')).body['t-1'].settings.index.number_of_shards).toBe('3');
      await node.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('template errors, in ES words', () => {
  it('two templates of the same priority whose patterns overlap are refused', async () => {
    await ok('PUT', '/_index_template/web', { index_patterns: ['web-*'], priority: 7 });
    expectEsError(await t.request('PUT', '/_index_template/web2', { index_patterns: ['web-a*', 'x'], priority: 7 }), 400, 'illegal_argument_exception',
      'index template [web2] has index patterns [web-a*, x] matching patterns from existing templates [web] with patterns (web => [web-*]) that have the same priority [7], multiple index templates may not match during index creation, please use a different priority');
    // Patterns that cannot match one name, or another priority, are fine.
    await ok('PUT', '/_index_template/web3', { index_patterns: ['api-*'], priority: 7 });
    await ok('PUT', '/_index_template/web4', { index_patterns: ['web-a*'], priority: 8 });
  });

  it('an unknown component template, create=true on an existing name, a negative priority', async () => {
    expectEsError(await t.request('PUT', '/_index_template/bad', { index_patterns: ['bad-*'], composed_of: ['nonexistent'] }), 400, 'invalid_index_template_exception',
      'index_template [bad] invalid, cause [index template [bad] specifies component templates [nonexistent] that do not exist]');
    await ok('PUT', '/_index_template/ignoring', { index_patterns: ['ign-*'], composed_of: ['nonexistent'], ignore_missing_component_templates: ['nonexistent'] });
    expectEsError(await t.request('PUT', '/_index_template/web?create=true', { index_patterns: ['web-*'], priority: 7 }), 400, 'illegal_argument_exception', 'index template [web] already exists');
    expectEsError(await t.request('PUT', '/_component_template/ct-settings?create=true', { template: {} }), 400, 'illegal_argument_exception', 'component template [ct-settings] already exists');
    expectEsError(await t.request('PUT', '/_index_template/neg', { index_patterns: ['neg-*'], priority: -1 }), 400, 'action_request_validation_exception', 'Validation Failed: 1: index template priority must be >= 0;');
  });

  it('missing members, unknown fields and bad names or patterns', async () => {
    expectEsError(await t.request('PUT', '/_index_template/x', {}), 400, 'illegal_argument_exception', 'Required [index_patterns]');
    expectEsError(await t.request('PUT', '/_component_template/x', {}), 400, 'illegal_argument_exception', 'Required [template]');
    expectErrorType(await t.request('PUT', '/_index_template/x', { index_patterns: ['x-*'], foo: 1 }), 400, 'x_content_parse_exception', /\[index_template\] unknown field \[foo\]$/);
    const nested = await t.request('PUT', '/_index_template/x', { index_patterns: ['x-*'], template: { foo: {} } });
    expectErrorType(nested, 400, 'x_content_parse_exception', /\[index_template\] failed to parse field \[template\]$/);
    expect(nested.body.error.caused_by.reason).toMatch(/\[template\] unknown field \[foo\]$/);
    expectEsError(await t.request('PUT', '/_index_template/UPPER', { index_patterns: ['u-*'] }), 400, 'invalid_index_template_exception',
      'index_template [UPPER] invalid, cause [Validation Failed: 1: name must be lower cased;]');
    expectEsError(await t.request('PUT', '/_index_template/p', { index_patterns: ['_x*', 'a b'] }), 400, 'invalid_index_template_exception',
      "index_template [p] invalid, cause [Validation Failed: 1: index_pattern [_x*] must not start with '_';2: index_pattern [a b] must not contain a space;3: index_pattern [a b] must not contain the following characters [ , \", \\, <, |, ,, >, /, ?];]");
    expectErrorType(await t.request('PUT', '/_index_template/s', { index_patterns: ['s-*'], template: { settings: { 'index.unknown_zzz': 1 } } }), 400, 'illegal_argument_exception',
      /^unknown setting \[index.unknown_zzz\]/);
    expectErrorType(await t.request('PUT', '/_index_template/al', { index_patterns: ['al-*'], template: { aliases: { 'b-*': {} } } }), 400, 'invalid_alias_name_exception');
  });

  it('a composition that makes an invalid mapping is refused with its cause', async () => {
    await ok('PUT', '/_component_template/kw', { template: { mappings: { properties: { f: { type: 'keyword' } } } } });
    const res = await t.request('PUT', '/_index_template/comp', { index_patterns: ['comp-*'], composed_of: ['kw'], template: { mappings: { properties: { g: { type: 'nosuchtype' } } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('mapper_parsing_exception');
    expect(res.body.error.reason).toMatch(/^Failed to parse mapping: /);
  });

  it('GET and DELETE of missing templates; a component in use cannot be deleted', async () => {
    expectEsError(await t.request('GET', '/_index_template/nope'), 404, 'resource_not_found_exception', 'index template matching [nope] not found');
    expectEsError(await t.request('GET', '/_component_template/nope'), 404, 'resource_not_found_exception', 'component template matching [nope] not found');
    const none = await t.request('GET', '/_index_template/nomatch*');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ index_templates: [] });
    expectEsError(await t.request('DELETE', '/_index_template/nope'), 404, 'index_template_missing_exception', 'index_template [nope] missing');
    expectEsError(await t.request('DELETE', '/_component_template/nope'), 404, 'index_template_missing_exception', 'index_template [nope] missing');
    expectEsError(await t.request('DELETE', '/_component_template/ct-settings'), 400, 'illegal_argument_exception',
      'component templates [ct-settings] cannot be removed as they are still in use by index templates [logs]');
    await ok('DELETE', '/_index_template/logs');
    await ok('DELETE', '/_component_template/ct-settings');
    expect((await t.request('HEAD', '/_index_template/logs')).status).toBe(404);
  });
});
