/**
 * Root API — `GET /` (info) and `HEAD /` (ping): https://www.elastic.co/guide/en/elasticsearch/reference/8.15/rest-api-root.html
 * (es-api.md §8 "Root info", §0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp } from '../support/secure-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The product's default: security on (with it off, GET / adds a warning; see the last test).
let t: TestApp;
beforeAll(async () => {
  t = await createSecureTestApp();
});
afterAll(async () => t.close());

describe('GET /', () => {
  it('returns the node name, cluster name and uuid, version information and the tagline', async () => {
    const res = await t.request('GET', '/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['name', 'cluster_name', 'cluster_uuid', 'version', 'tagline']);
    expect(res.body.name).toEqual(expect.any(String));
    expect(res.body.cluster_name).toEqual(expect.any(String));
    expect(res.body.cluster_uuid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.body.tagline).toBe('You Know, for Search');
  });

  it('reports an 8.x version with every member clients read', async () => {
    const { version } = (await t.request('GET', '/')).body;
    expect(version).toEqual({
      number: expect.stringMatching(/^8\.\d+\.\d+$/),
      build_flavor: 'default',
      build_type: expect.any(String),
      build_hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      build_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      build_snapshot: false,
      lucene_version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    });
  });

  it('carries X-elastic-product: Elasticsearch and a JSON content type', async () => {
    const res = await t.request('GET', '/');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers the same cluster uuid on every call', async () => {
    const a = await t.request('GET', '/');
    const b = await t.request('GET', '/');
    expect(b.body.cluster_uuid).toBe(a.body.cluster_uuid);
  });

  it('pretty-prints with ?pretty', async () => {
    const res = await t.request('GET', '/?pretty');
    expect(res.status).toBe(200);
    expect(res.text).toContain('\n  "name"');
    expect(JSON.parse(res.text).tagline).toBe('You Know, for Search');
  });

  it('keeps only the requested members with ?filter_path', async () => {
    const res = await t.request('GET', '/?filter_path=version.number,tagline');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: { number: expect.stringMatching(/^8\./) }, tagline: 'You Know, for Search' });
  });

  it('rejects an unknown URL parameter with illegal_argument_exception', async () => {
    const res = await t.request('GET', '/?foo=1');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason: 'request [/] contains unrecognized parameter: [foo]' }],
        type: 'illegal_argument_exception',
        reason: 'request [/] contains unrecognized parameter: [foo]',
      },
      status: 400,
    });
  });

  it('echoes the vendor media type a v8 client asks for', async () => {
    const res = await t.request('GET', '/', undefined, { accept: 'application/vnd.elasticsearch+json; compatible-with=8,text/plain' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.elasticsearch+json;compatible-with=8');
  });

  it('refuses POST with 405 and lists GET and HEAD as allowed', async () => {
    const res = await t.request('POST', '/');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Incorrect HTTP method for uri [/] and method [POST], allowed: [GET, HEAD]', status: 405 });
    expect(String(res.headers.allow).split(',').sort()).toEqual(['GET', 'HEAD']);
  });
});

describe('HEAD / (ping)', () => {
  it('answers 200 with an empty body', async () => {
    const res = await t.request('HEAD', '/');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('carries X-elastic-product: Elasticsearch so the client product check passes', async () => {
    const res = await t.request('HEAD', '/');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});

describe('GET / with security off', () => {
  it('warns in the body and in a Warning header', async () => {
    const open = await createTestApp({ config: { securityEnabled: false } });
    try {
      const res = await open.request('GET', '/');
      expect(res.status).toBe(200);
      expect(res.body.warning).toMatch(/security is disabled/);
      expect(res.headers.warning).toMatch(/^299 Elasticsearch-8\.\d+\.\d+ "security is disabled/);
    } finally {
      await open.close();
    }
  });
});
