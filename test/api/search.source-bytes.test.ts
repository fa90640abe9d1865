/**
 * A single-shard search's page travels as bytes: the search worker splices each hit's stored
 * `_source` bytes into the rendered page and the server writes the response from them. What the
 * client reads must be what the string path gives (a two-shard index is fetched by the coordinator
 * as text): the source as it was sent (spacing, escapes, non-ASCII), and every feature that needs
 * the text — `filter_path`, `pretty`, `_source` filtering, highlighting — unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
/** Sources as a client sends them: spacing, escapes and multi-byte characters kept as sent. */
const SOURCES = [
  '{ "title" : "naïve fox 🦊 jumps", "n": 1 }',
  '{"title":"fox \\"quoted\\" \\u00e9t\\u00e9","n":2,"tags":["ü","€"]}',
  '{"title":"plain fox","n":3,"nested":{"deep":"日本語のテキスト fox"}}',
];
const INDICES = ['one', 'packed', 'two'];

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  expect((await t.request('PUT', '/one', { settings: { number_of_shards: 1 } })).status).toBe(200);
  expect((await t.request('PUT', '/packed', { settings: { number_of_shards: 1, codec: 'best_compression' } })).status).toBe(200);
  expect((await t.request('PUT', '/two', { settings: { number_of_shards: 2 } })).status).toBe(200);
  const lines: string[] = [];
  for (const index of INDICES) SOURCES.forEach((s, i) => lines.push(JSON.stringify({ index: { _index: index, _id: `d${i}` } }), s));
  const res = await t.request('POST', '/_bulk?refresh=true', lines.join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
  expect(res.body.errors).toBe(false);
});
afterAll(async () => t.close());

const search = (index: string, body: unknown, query = '', headers: Record<string, string> = {}) => t.request('POST', `/${index}/_search${query}`, body, headers);
const FOX = { query: { match: { title: 'fox' } }, sort: [{ n: 'asc' }] };

describe('single-shard pages written from the stored bytes', () => {
  it('splice each stored _source exactly as it was sent', async () => {
    for (const index of ['one', 'packed']) {
      const res = await search(index, FOX);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      for (const s of SOURCES) expect(res.text).toContain(`"_source":${s}`);
      expect(res.body.hits.hits.map((h: any) => h._source)).toEqual(SOURCES.map((s) => JSON.parse(s)));
    }
  });

  it('give the same hits as a two-shard index fetched by the coordinator', async () => {
    // Sequence numbers count per shard, so they differ between the layouts.
    const strip = (hits: any[]) => hits.map(({ _index: _, _seq_no: __, ...h }) => h);
    const one = await search('one', FOX, '?version=true&seq_no_primary_term=true');
    const packed = await search('packed', FOX, '?version=true&seq_no_primary_term=true');
    const two = await search('two', FOX, '?version=true&seq_no_primary_term=true');
    expect(one.body.hits.hits[0]._seq_no).toBe(0);
    expect(strip(one.body.hits.hits)).toEqual(strip(two.body.hits.hits));
    expect(strip(packed.body.hits.hits)).toEqual(strip(two.body.hits.hits));
  });

  it('answer in the negotiated media type', async () => {
    const res = await search('one', FOX, '', { accept: 'application/vnd.elasticsearch+json; compatible-with=8' });
    expect(res.headers['content-type']).toBe('application/vnd.elasticsearch+json;compatible-with=8');
    expect(res.body.hits.hits).toHaveLength(3);
  });

  it('apply filter_path and pretty to the text', async () => {
    const filtered = await search('one', FOX, '?filter_path=hits.hits._source.title');
    expect(filtered.body).toEqual({ hits: { hits: SOURCES.map((s) => ({ _source: { title: JSON.parse(s).title } })) } });
    const pretty = await search('one', FOX, '?pretty');
    expect(pretty.text).toContain('\n  "took"');
    expect(pretty.body.hits.hits[0]._source.title).toBe('naïve fox 🦊 jumps');
  });

  it('filter _source and highlight from the decoded text', async () => {
    const res = await search('one', { ...FOX, _source: ['tags', 'nested.deep'], highlight: { fields: { title: {} } } });
    expect(res.body.hits.hits.map((h: any) => h._source)).toEqual([{}, { tags: ['ü', '€'] }, { nested: { deep: '日本語のテキスト fox' } }]);
    expect(res.body.hits.hits[0].highlight).toEqual({ title: ['naïve <em>fox</em> 🦊 jumps'] });
    const none = await search('one', FOX, '?_source=false');
    expect(none.body.hits.hits.every((h: any) => h._source === undefined)).toBe(true);
  });

  it('carry scroll pages, point-in-time pages and _msearch items', async () => {
    const first = await search('one', { ...FOX, size: 2 }, '?scroll=1m');
    expect(first.body._scroll_id).toEqual(expect.any(String));
    expect(first.body.hits.hits.map((h: any) => h._source.n)).toEqual([1, 2]);
    const next = await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: first.body._scroll_id });
    expect(next.body.hits.hits.map((h: any) => h._source)).toEqual([JSON.parse(SOURCES[2])]);
    const pit = (await t.request('POST', '/one/_pit?keep_alive=1m')).body.id;
    const inPit = await t.request('POST', '/_search', { ...FOX, pit: { id: pit } });
    expect(inPit.body.pit_id).toEqual(expect.any(String));
    expect(inPit.body.hits.hits[0]._source.title).toBe('naïve fox 🦊 jumps');
    const lines = [{ index: 'one' }, FOX, { index: 'missing' }, FOX, { index: 'packed' }, { ...FOX, size: 1 }];
    const ms = await t.request('POST', '/_msearch', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    expect(ms.status).toBe(200);
    expect(ms.body.responses.map((r: any) => r.status)).toEqual([200, 404, 200]);
    expect(ms.body.responses[0].hits.hits.map((h: any) => h._source)).toEqual(SOURCES.map((s) => JSON.parse(s)));
    expect(ms.body.responses[2].hits.hits[0]._source.title).toBe('naïve fox 🦊 jumps');
    expect(ms.text).toContain(`"_source":${SOURCES[0]}`);
  });
});
