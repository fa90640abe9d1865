/**
 * Authorization of the multi-request APIs and aliases: `_msearch` items are checked one by one as
 * searches and `_mget` documents as gets (a refused item fails alone), wildcards narrow to what the
 * key may read, and alias changes need `manage` on the indices and the alias names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
let reader: string;
beforeAll(async () => {
  t = await createSecureTestApp();
  for (const index of ['pub-1', 'pub-2', 'secret']) await t.request('PUT', `/${index}/_doc/1?refresh=true`, { title: `doc in ${index}` });
  reader = (await t.createKey('reader', role('pub-*', ['read']))).encoded;
});
afterAll(async () => t.close());

const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('_msearch with a read key on pub-*', () => {
  it('a search of a refused index fails alone with 403; the others run', async () => {
    const res = await t.as(reader, 'POST', '/_msearch', ndjson([{ index: 'pub-1' }, {}, { index: 'secret' }, {}]), { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.body.responses[0].hits.hits.map((h: any) => h._index)).toEqual(['pub-1']);
    expect(res.body.responses[1].status).toBe(403);
    expect(res.body.responses[1].error.type).toBe('security_exception');
    expect(res.body.responses[1].error.reason).toMatch(/^action \[indices:data\/read\/search\] is unauthorized for API key id .* on indices \[secret\]/);
  });

  it('a wildcard item narrows to the readable indices', async () => {
    const res = await t.as(reader, 'POST', '/_msearch', ndjson([{ index: '*' }, {}]), { 'content-type': 'application/x-ndjson' });
    expect(res.body.responses[0].hits.hits.map((h: any) => h._index).sort()).toEqual(['pub-1', 'pub-2']);
  });

  it('a wildcard skips hidden indices and hidden aliases the key may read, in _search and in _msearch items', async () => {
    await t.request('PUT', '/pub-hidden', { settings: { 'index.hidden': true } });
    await t.request('PUT', '/pub-hidden/_doc/1?refresh=true', { title: 'hidden' });
    await t.request('POST', '/_aliases', { actions: [{ add: { index: 'pub-2', alias: 'pub-quiet', is_hidden: true } }] });
    try {
      const indicesOf = (res: any) => res.hits.hits.map((h: any) => h._index).sort();
      expect(indicesOf((await t.as(reader, 'POST', '/pub-*/_search', {})).body)).toEqual(['pub-1', 'pub-2']);
      expect(indicesOf((await t.as(reader, 'POST', '/pub-q*/_search', {})).body)).toEqual([]);
      expect(indicesOf((await t.as(reader, 'POST', '/pub-*/_search?expand_wildcards=all', {})).body)).toEqual(['pub-1', 'pub-2', 'pub-hidden']);
      expect(indicesOf((await t.as(reader, 'POST', '/pub-*/_search?expand_wildcards=none', {})).body)).toEqual([]);
      const ms = await t.as(reader, 'POST', '/_msearch', ndjson([{ index: 'pub-*' }, {}, { index: 'pub-q*' }, {}, { index: 'pub-*', expand_wildcards: 'open,hidden' }, {}]), { 'content-type': 'application/x-ndjson' });
      expect(ms.body.responses.map(indicesOf)).toEqual([['pub-1', 'pub-2'], [], ['pub-1', 'pub-2', 'pub-hidden']]);
    } finally {
      await t.request('POST', '/_aliases', { actions: [{ remove: { index: 'pub-2', alias: 'pub-quiet' } }] });
      await t.request('DELETE', '/pub-hidden');
    }
  });

  it('a key without any read privilege is refused up front', async () => {
    const none = (await t.createKey('none', role('pub-*', ['create_doc']))).encoded;
    const res = await t.as(none, 'POST', '/_msearch', ndjson([{ index: 'pub-1' }, {}]), { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toMatch(/^action \[indices:data\/read\/msearch\] is unauthorized/);
  });
});

describe('indices_boost with a read key on pub-*', () => {
  it('a boost naming an index the key may not search is 403 whether or not it exists: no 404/200 oracle', async () => {
    for (const name of ['secret', 'no-such-index']) {
      const res = await t.as(reader, 'POST', '/pub-*/_search', { indices_boost: [{ [name]: 2 }] });
      expect(res.status).toBe(403);
      expect(res.body.error.reason).toMatch(new RegExp(`^action \\[indices:data/read/search\\] is unauthorized .* on indices \\[${name}\\]`));
    }
    const ms = await t.as(reader, 'POST', '/_msearch', ndjson([{ index: 'pub-1' }, { indices_boost: [{ 'no-such-index': 2 }] }]), { 'content-type': 'application/x-ndjson' });
    expect(ms.body.responses[0].status).toBe(403);
    // The superuser still gets ES's 404 for a name that matches nothing.
    expect((await t.request('POST', '/pub-*/_search', { indices_boost: [{ 'no-such-index': 2 }] })).status).toBe(404);
  });

  it('boosts indices it may search; a wildcard keeps only those', async () => {
    const plain = await t.as(reader, 'POST', '/pub-1/_search', { query: { match: { title: 'doc' } } });
    const boosted = await t.as(reader, 'POST', '/pub-1/_search', { query: { match: { title: 'doc' } }, indices_boost: [{ 'pub-1': 2 }] });
    expect(boosted.body.hits.hits[0]._score).toBeCloseTo(plain.body.hits.hits[0]._score * 2, 5);
    expect((await t.as(reader, 'POST', '/pub-*/_search', { indices_boost: [{ 's*': 2 }, { 'pub-*': 3 }] })).status).toBe(200);
  });
});

describe('_mget with a read key on pub-*', () => {
  it('a document of a refused index is that document\'s 403 error', async () => {
    const res = await t.as(reader, 'POST', '/_mget', { docs: [{ _index: 'pub-2', _id: '1' }, { _index: 'secret', _id: '1' }] });
    expect(res.status).toBe(200);
    expect(res.body.docs[0].found).toBe(true);
    expect(res.body.docs[1]._index).toBe('secret');
    expect(res.body.docs[1].error.type).toBe('security_exception');
    expect(res.body.docs[1].error.reason).toMatch(/^action \[indices:data\/read\/get\] is unauthorized .* on indices \[secret\]/);
    expect(res.body.docs[1]._source).toBeUndefined();
  });
});

describe('aliases', () => {
  it('a read key may not change aliases', async () => {
    const res = await t.as(reader, 'POST', '/_aliases', { actions: [{ add: { index: 'pub-1', alias: 'pub' } }] });
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toMatch(/^action \[indices:admin\/aliases\] is unauthorized/);
  });

  it('manage on the indices and the alias name allows it; reads through the alias need read on the alias name', async () => {
    const manager = (await t.createKey('manager', role(['pub-*', 'pub'], ['manage']))).encoded;
    const add = await t.as(manager, 'POST', '/_aliases', { actions: [{ add: { index: 'pub-1', alias: 'pub' } }] });
    expect(add.status, add.text).toBe(200);
    // manage on pub-* does not cover an alias named outside it.
    const other = await t.as(manager, 'PUT', '/pub-1/_alias/elsewhere');
    expect(other.status).toBe(403);
    const aliasReader = (await t.createKey('alias-reader', role('pub', ['read']))).encoded;
    const res = await t.as(aliasReader, 'POST', '/pub/_search');
    expect(res.status).toBe(200);
    expect(res.body.hits.hits.map((h: any) => h._index)).toEqual(['pub-1']);
  });
});
