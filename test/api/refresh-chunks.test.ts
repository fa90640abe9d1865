/**
 * A refresh with much `_source` is built in several chunks (issue 22: a build's transient arrays
 * grow with its documents, so a refresh that fell behind built 100k+ docs per worker at once). Past
 * 4M chars of `_source` the buffer becomes more segments than pool threads, built one per thread at
 * a time; the documents stay in write order, and every one is searchable and gettable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
});
afterAll(async () => t.close());

describe('refresh of a large buffer', () => {
  it('builds one segment per 4M chars of _source, in write order', async () => {
    await t.request('PUT', '/big', {
      settings: { number_of_shards: 1, refresh_interval: '-1' },
      mappings: { dynamic: false, properties: { n: { type: 'integer' } } },
    });
    // 24 docs of ~400k chars: ~9.6M chars, so 3 chunks (2 by thread count alone).
    const lines: unknown[] = [];
    for (let n = 0; n < 24; n++) lines.push({ index: { _index: 'big', _id: `d${n}` } }, { n, blob: String.fromCharCode(97 + (n % 26)).repeat(400_000) });
    const bulk = await t.bulk('/_bulk', lines);
    expect(bulk.status).toBe(200);
    expect(bulk.body.errors).toBe(false);
    expect((await t.request('POST', '/big/_refresh')).status).toBe(200);

    const stats = await t.request('GET', '/big/_stats/segments,docs');
    expect(stats.body.indices.big.primaries.segments.count).toBe(3);
    expect(stats.body.indices.big.primaries.docs.count).toBe(24);
    const res = await t.request('POST', '/big/_search', { size: 24, sort: ['_doc'], _source: ['n'] });
    expect(res.body.hits.hits.map((h: { _source: { n: number } }) => h._source.n)).toEqual(Array.from({ length: 24 }, (_, n) => n));
    const got = await t.request('GET', '/big/_doc/d23');
    expect(got.body._source.blob).toHaveLength(400_000);
    expect(got.body._source.blob[0]).toBe('x');
  });
});
