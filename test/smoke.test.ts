import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('a fresh server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('indexes a document and finds it after refresh', async () => {
    const put = await t.request('PUT', '/books/_doc/1?refresh=true', { title: 'The quick brown fox' });
    expect(put.status).toBe(201);
    const res = await t.request('POST', '/books/_search', { query: { match: { title: 'fox' } } });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits.map((h: any) => h._id)).toEqual(['1']);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});
