/**
 * Cluster settings API:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-get-settings.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/cluster-update-settings.html
 * The node's dynamic settings (`search.default_search_timeout`, `search.max_open_scroll_context`,
 * `indices.breaker.total.limit`) change while it runs: `persistent` ones survive a restart,
 * `transient` ones do not (with ES 8's deprecation warning), `null` resets, and every other setting
 * is refused with ES's reasons. The default search timeout's effect is tested in search-timeout.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, seed } from './es.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const put = (body: unknown, query = '') => t!.request('PUT', `/_cluster/settings${query}`, body);
const get = (query = '') => t!.request('GET', `/_cluster/settings${query}`);

describe('GET and PUT /_cluster/settings', () => {
  it('starts empty, shows the node\'s settings as defaults, and answers what a request changed', async () => {
    t = await createTestApp();
    expect((await get()).body).toEqual({ persistent: {}, transient: {} });
    const defaults = (await get('?include_defaults=true&flat_settings=true')).body.defaults;
    expect(defaults).toMatchObject({ 'search.default_search_timeout': '-1', 'search.max_open_scroll_context': '500', 'http.port': '9200' });

    const res = await put({ persistent: { search: { max_open_scroll_context: 7 } }, transient: { 'search.default_search_timeout': '5s' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, persistent: { search: { max_open_scroll_context: '7' } }, transient: { search: { default_search_timeout: '5s' } } });
    expect(res.headers.warning).toMatch(/^299 Elasticsearch-8\.15\.0 "\[transient settings removal\] Updating cluster settings through transientSettings is deprecated\. Use persistent settings instead\."$/);
    expect((await get('?flat_settings=true')).body).toEqual({ persistent: { 'search.max_open_scroll_context': '7' }, transient: { 'search.default_search_timeout': '5s' } });
    // A persistent-only request carries no warning; the overridden keys leave the defaults.
    expect((await put({ persistent: { 'search.max_open_scroll_context': 8 } })).headers.warning).toBeUndefined();
    const after = (await get('?include_defaults=true&flat_settings=true')).body;
    expect(after.defaults['search.max_open_scroll_context']).toBeUndefined();
    expect(after.persistent['search.max_open_scroll_context']).toBe('8');

    // null resets a key or a pattern.
    await put({ persistent: { 'search.*': null }, transient: { 'search.default_search_timeout': null } });
    expect((await get()).body).toEqual({ persistent: {}, transient: {} });
  });

  it('refuses static, unknown and malformed settings with ES\'s errors, changing nothing', async () => {
    t = await createTestApp();
    expectEsError(await put({ persistent: { 'http.port': 9201 } }), 400, 'illegal_argument_exception', 'persistent setting [http.port], not dynamically updateable');
    expectEsError(await put({ transient: { 'no.such.setting': 'x' } }), 400, 'illegal_argument_exception', 'transient setting [no.such.setting], not recognized');
    expectEsError(await put({ persistent: { 'search.default_search_timeout': 'abc' } }), 400, 'illegal_argument_exception',
      'failed to parse setting [search.default_search_timeout] with value [abc] as a time value: unit is missing or unrecognized');
    expectEsError(await put({ persistent: { 'search.max_open_scroll_context': -1 } }), 400, 'illegal_argument_exception',
      'failed to parse value [-1] for setting [search.max_open_scroll_context]: must be an integer between 0 and 1000000, got [-1]');
    expectEsError(await put({ persistent: { 'search.default_search_timeout': ['1s'] } }), 400, 'illegal_argument_exception',
      'persistent setting [search.default_search_timeout] must be a string, a number, a boolean or null');
    expectEsError(await put({}), 400, 'action_request_validation_exception', 'Validation Failed: 1: no settings to update;');
    expectEsError(await put({ persistent: {}, settings: {} }), 400, 'x_content_parse_exception', '[cluster_update_settings_request] unknown field [settings]');
    expectEsError(await put({ persistent: 'x' }), 400, 'illegal_argument_exception', '[persistent] must be an object');
    expect((await t.request('PUT', '/_cluster/settings', '{"persistent":')).status).toBe(400);
    // A valid key beside a refused one is not applied either.
    expect((await put({ persistent: { 'search.max_open_scroll_context': 3, 'http.port': 1 } })).status).toBe(400);
    expect((await get()).body).toEqual({ persistent: {}, transient: {} });
    expect((await t.request('GET', '/_cluster/settings?nope=1')).status).toBe(400);
    // Hostile keys and values are quoted as a short prefix.
    const long = 'x'.repeat(5000);
    for (const body of [{ persistent: { [long]: 1 } }, { persistent: { 'search.default_search_timeout': long } }]) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(res.body.error.reason.length).toBeLessThan(300);
    }
  });

  it('keeps persistent settings over a restart, and forgets transient ones', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-cluster-settings-'));
    t = await createTestApp({ dataDir });
    await put({ persistent: { 'search.max_open_scroll_context': 1 }, transient: { 'search.default_search_timeout': '1s' } });
    await t.close();
    t = await createTestApp({ dataDir });
    expect((await get('?flat_settings=true')).body).toEqual({ persistent: { 'search.max_open_scroll_context': '1' }, transient: {} });
    // ...and applies them at start: a second scroll is one too many.
    await seed(t, 'docs', [['1', { n: 1 }], ['2', { n: 2 }]]);
    expect((await t.request('POST', '/docs/_search?scroll=1m', { size: 1 })).status).toBe(200);
    const second = await t.request('POST', '/docs/_search?scroll=1m', { size: 1 });
    expect(second.status).toBe(429);
    expect(JSON.stringify(second.body)).toContain('Trying to create too many scroll contexts. Must be less than or equal to: [1]');
  });

  it('archives a stored value that no longer validates, as ES does, and lets it be removed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-cluster-settings-'));
    t = await createTestApp({ dataDir });
    await put({ persistent: { 'search.max_open_scroll_context': 5, 'search.default_search_timeout': '2s' } });
    await t.close();
    // As if written by a version whose rules differed: one value that no longer parses.
    const file = join(dataDir, 'cluster-state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.sections.cluster_settings.persistent['search.max_open_scroll_context'] = 'many';
    writeFileSync(file, JSON.stringify(state));
    t = await createTestApp({ dataDir });
    expect((await get('?flat_settings=true')).body.persistent).toEqual({ 'archived.search.max_open_scroll_context': 'many', 'search.default_search_timeout': '2s' });
    await put({ persistent: { 'archived.*': null } });
    expect((await get('?flat_settings=true')).body.persistent).toEqual({ 'search.default_search_timeout': '2s' });
  });

  it('moves the parent circuit breaker while the node runs', async () => {
    t = await createTestApp();
    const write = () => t!.request('PUT', '/guarded/_doc/1', { n: 1 });
    expect((await write()).status).toBe(201);
    await put({ persistent: { 'indices.breaker.total.limit': '1mb' } });
    const refused = await write();
    expect(refused.status).toBe(429);
    expect(refused.body.error.type).toBe('circuit_breaking_exception');
    // Reads and the settings API itself stay open, so the limit can be lifted again.
    expect((await t.request('GET', '/guarded/_doc/1')).status).toBe(200);
    await put({ persistent: { 'indices.breaker.total.limit': null } });
    expect((await write()).status).toBe(200);
  });
});
