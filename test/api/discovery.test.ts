/**
 * Discovery and debugging endpoints, as the REST docs show them: search-field-caps.html,
 * indices-get-field-mapping.html, search-validate.html and docs-termvectors.html (whose example
 * documents and statistics the term vectors test reproduces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, indexNotFound, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.request('PUT', '/books', { mappings: { properties: { title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } }, year: { type: 'integer' }, author: { properties: { name: { type: 'keyword' } } } } } });
  await t.request('PUT', '/films', { mappings: { properties: { title: { type: 'keyword' }, rating: { type: 'float' } } } });
  await seed(t, 'books', [['1', { title: 'The Quick Fox', year: 2001, author: { name: 'ann' } }]]);
  await t.request('PUT', '/twitter', { mappings: { properties: { fullname: { type: 'text' }, text: { type: 'text', analyzer: 'whitespace' } } } });
  await seed(t, 'twitter', [['1', { fullname: 'John Doe', text: 'test test test ' }], ['2', { fullname: 'Jane Doe', text: 'Another test ...' }]]);
});
afterAll(async () => t.close());

describe('_field_caps', () => {
  it('merges a field across indices: one type per entry, the indices listed when types differ', async () => {
    const res = await t.request('GET', '/books,films/_field_caps?fields=title,rating,year');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      indices: ['books', 'films'],
      fields: {
        rating: { float: { type: 'float', metadata_field: false, searchable: true, aggregatable: true } },
        title: {
          text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false, indices: ['books'] },
          keyword: { type: 'keyword', metadata_field: false, searchable: true, aggregatable: true, indices: ['films'] },
        },
        year: { integer: { type: 'integer', metadata_field: false, searchable: true, aggregatable: true } },
      },
    });
  });

  it('wildcards, objects, multi-fields, metadata fields, include_unmapped, fields in the body', async () => {
    const res = await t.request('POST', '/books/_field_caps', { fields: ['author*', 'title.*', '_id'] });
    expect(Object.keys(res.body.fields)).toEqual(['_id', 'author', 'author.name', 'title.keyword']);
    expect(res.body.fields.author).toEqual({ object: { type: 'object', metadata_field: false, searchable: false, aggregatable: false } });
    expect(res.body.fields._id._id).toMatchObject({ metadata_field: true, searchable: true });
    const unmapped = await t.request('GET', '/books,films/_field_caps?fields=rating&include_unmapped=true');
    expect(unmapped.body.fields.rating).toEqual({
      float: { type: 'float', metadata_field: false, searchable: true, aggregatable: true, indices: ['films'] },
      unmapped: { type: 'unmapped', metadata_field: false, searchable: false, aggregatable: false, indices: ['books'] },
    });
  });

  it('fields are required; a missing index is a 404', async () => {
    expectEsError(await t.request('GET', '/books/_field_caps'), 400, 'action_request_validation_exception', "Validation Failed: 1: specified fields can't be null or empty;");
    expect((await t.request('GET', '/nope/_field_caps?fields=*')).body).toEqual(indexNotFound('nope'));
  });
});

describe('GET _mapping/field', () => {
  it('returns each matching field under its full name, its mapping under the leaf name', async () => {
    const res = await t.request('GET', '/books/_mapping/field/title,author.name');
    expect(res.body).toEqual({
      books: {
        mappings: {
          title: { full_name: 'title', mapping: { title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } } },
          'author.name': { full_name: 'author.name', mapping: { name: { type: 'keyword' } } },
        },
      },
    });
    const multi = await t.request('GET', '/_mapping/field/title.*');
    expect(multi.body.books.mappings).toEqual({ 'title.keyword': { full_name: 'title.keyword', mapping: { keyword: { type: 'keyword', ignore_above: 256 } } } });
    expect(multi.body.films.mappings).toEqual({});
  });
});

describe('_validate/query', () => {
  it('a valid query, with its planned form under explain', async () => {
    expect((await t.request('GET', '/books/_validate/query', { query: { match: { title: 'quick' } } })).body).toEqual({ _shards: { total: 1, successful: 1, failed: 0 }, valid: true });
    const res = await t.request('GET', '/books/_validate/query?explain=true', { query: { bool: { must: { match: { title: 'quick fox' } }, filter: { term: { year: 2001 } } } } });
    expect(res.body.valid).toBe(true);
    expect(res.body.explanations).toEqual([{ index: 'books', valid: true, explanation: expect.stringContaining('title:quick title:fox') }]);
    expect((await t.request('GET', '/books/_validate/query?q=title:fox&explain=true')).body.explanations[0].explanation).toBe('title:fox');
  });

  it('an unparsable query is valid: false with 200, the error shown with explain', async () => {
    const res = await t.request('POST', '/books/_validate/query?explain=true', { query: { nope: {} } });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.error).toMatch(/unknown query \[nope\]/);
    expect((await t.request('POST', '/books/_validate/query', { query: { nope: {} } })).body).toEqual({ valid: false });
  });

  it('a query that fails to plan on an index is invalid there', async () => {
    const res = await t.request('POST', '/books,films/_validate/query?explain=true', { query: { match: { rating: 'abc' } } });
    expect(res.body.valid).toBe(false);
    expect(res.body.explanations.find((e: any) => e.index === 'films')).toMatchObject({ valid: false, error: expect.stringMatching(/^\[films\/.+\] .+/) });
  });
});

describe('_termvectors', () => {
  it('the docs-termvectors example: term_freq, positions, offsets, field and term statistics', async () => {
    const res = await t.request('GET', '/twitter/_termvectors/1?fields=text&term_statistics=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _index: 'twitter', _id: '1', _version: 1, found: true });
    expect(res.body.term_vectors).toEqual({
      text: {
        field_statistics: { sum_doc_freq: 4, doc_count: 2, sum_ttf: 6 },
        terms: {
          test: {
            doc_freq: 2, ttf: 4, term_freq: 3,
            tokens: [{ position: 0, start_offset: 0, end_offset: 4 }, { position: 1, start_offset: 5, end_offset: 9 }, { position: 2, start_offset: 10, end_offset: 14 }],
          },
        },
      },
    });
  });

  it('every text field by default; positions and offsets can be left out; a missing document is found: false', async () => {
    const res = await t.request('POST', '/twitter/_termvectors/2', { positions: false, offsets: false, field_statistics: false });
    expect(res.body.term_vectors).toEqual({
      fullname: { terms: { doe: { term_freq: 1 }, jane: { term_freq: 1 } } },
      text: { terms: { '...': { term_freq: 1 }, Another: { term_freq: 1 }, test: { term_freq: 1 } } },
    });
    const gone = await t.request('GET', '/twitter/_termvectors/9');
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ _index: 'twitter', _id: '9', found: false });
  });
});
