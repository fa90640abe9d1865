/**
 * Mapping — field data types, dynamic mapping and mapping limits as seen through the REST API:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/mapping-types.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/dynamic-field-mapping.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/dynamic.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/mapping-settings-limit.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/mapping-source-field.html
 * (es-api.md §1.2, §2.1, §2.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { ids } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const KEYWORD_SUBFIELD = { keyword: { type: 'keyword', ignore_above: 256 } };
const DYNAMIC_TEXT = { type: 'text', fields: KEYWORD_SUBFIELD };
const mappingOf = async (index: string) => (await t.request('GET', `/${index}/_mapping`)).body[index].mappings;
const find = (index: string, query: unknown, extra: Record<string, unknown> = {}) => t.request('POST', `/${index}/_search`, { query, ...extra });

/** The whole 400 body of a document parsing failure with a non-ES cause (root cause = the parsing exception). */
function expectDocumentParsingError(res: any, reason: RegExp, causedBy: Record<string, unknown>) {
  expect(res.status).toBe(400);
  expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  expect(res.body).toEqual({
    error: {
      root_cause: [{ type: 'document_parsing_exception', reason: expect.stringMatching(reason) }],
      type: 'document_parsing_exception',
      reason: expect.stringMatching(reason),
      caused_by: causedBy,
    },
    status: 400,
  });
}

describe('explicit field types', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/typed', {
      mappings: {
        properties: {
          title: { type: 'text' },
          code: { type: 'keyword' },
          l: { type: 'long' }, i: { type: 'integer' }, s: { type: 'short' }, b: { type: 'byte' },
          d: { type: 'double' }, f: { type: 'float' }, h: { type: 'half_float' }, sf: { type: 'scaled_float', scaling_factor: 100 },
          day: { type: 'date' }, custom_day: { type: 'date', format: 'yyyy-MM-dd' },
          flag: { type: 'boolean' },
          user: { properties: { name: { type: 'keyword' }, age: { type: 'integer' } } },
        },
      },
    });
    expect(res.status).toBe(200);
    const docs = [
      { title: 'The Quick Fox', code: 'AB-1', l: 10, i: 1, s: 300, b: 100, d: 1.5, f: 2.5, h: 0.5, sf: 1.234, day: '2024-05-06T10:00:00Z', custom_day: '2024-05-06', flag: true, user: { name: 'ann', age: 30 } },
      { title: 'a slow turtle', code: 'ab-1', l: 20, i: 2, s: -5, b: -100, d: -1.5, f: 0.25, h: 2, sf: 9.999, day: 1714953600000, custom_day: '2023-01-01', flag: 'false', user: { name: 'bob', age: 40 } },
      { title: 'fox and turtle', code: 'CD-2', l: 30, flag: '' },
    ];
    for (let i = 0; i < docs.length; i++) expect((await t.request('PUT', `/typed/_doc/${i + 1}`, docs[i])).status).toBe(201);
    await t.request('POST', '/typed/_refresh');
  });

  it('GET _mapping returns the mapping as defined', async () => {
    expect(await mappingOf('typed')).toEqual({
      properties: {
        title: { type: 'text' },
        code: { type: 'keyword' },
        l: { type: 'long' }, i: { type: 'integer' }, s: { type: 'short' }, b: { type: 'byte' },
        d: { type: 'double' }, f: { type: 'float' }, h: { type: 'half_float' }, sf: { type: 'scaled_float', scaling_factor: 100 },
        day: { type: 'date' }, custom_day: { type: 'date', format: 'yyyy-MM-dd' },
        flag: { type: 'boolean' },
        user: { properties: { name: { type: 'keyword' }, age: { type: 'integer' } } },
      },
    });
  });

  it('text is analyzed: lowercased and split into words', async () => {
    expect(ids(await find('typed', { match: { title: 'FOX' } }))).toEqual(['1', '3']);
    expect(ids(await find('typed', { term: { title: 'quick' } }))).toEqual(['1']);
  });

  it('keyword is matched exactly, case included', async () => {
    expect(ids(await find('typed', { term: { code: 'AB-1' } }))).toEqual(['1']);
    expect(ids(await find('typed', { match: { code: 'ab-1' } }))).toEqual(['2']);
  });

  it('integral types answer term and range queries', async () => {
    expect(ids(await find('typed', { range: { l: { gte: 15 } } }))).toEqual(['2', '3']);
    expect(ids(await find('typed', { term: { i: 2 } }))).toEqual(['2']);
    expect(ids(await find('typed', { range: { s: { lt: 0 } } }))).toEqual(['2']);
    expect(ids(await find('typed', { range: { b: { gte: 100 } } }))).toEqual(['1']);
  });

  it('floating-point types answer range queries', async () => {
    expect(ids(await find('typed', { range: { d: { gt: 0 } } }))).toEqual(['1']);
    expect(ids(await find('typed', { range: { f: { lte: 0.25 } } }))).toEqual(['2']);
    expect(ids(await find('typed', { range: { h: { gte: 1 } } }))).toEqual(['2']);
  });

  it('scaled_float stores the value rounded to its scaling factor', async () => {
    const res = await find('typed', { range: { sf: { gte: 1.23, lte: 1.23 } } }, { sort: [{ sf: 'asc' }] });
    expect(ids(res)).toEqual(['1']);
    expect(res.body.hits.hits[0].sort).toEqual([1.23]);
    expect(res.body.hits.hits[0]._source.sf).toBe(1.234);
  });

  it('date accepts ISO strings and epoch millis, and sorts by epoch millis', async () => {
    const res = await find('typed', { exists: { field: 'day' } }, { sort: [{ day: 'asc' }] });
    expect(ids(res)).toEqual(['2', '1']);
    expect(res.body.hits.hits.map((h: any) => h.sort[0])).toEqual([1714953600000, Date.UTC(2024, 4, 6, 10)]);
  });

  it('date with a custom format parses that format', async () => {
    expect(ids(await find('typed', { range: { custom_day: { gte: '2024-01-01' } } }))).toEqual(['1']);
  });

  it('boolean accepts true, "false" and "" (false)', async () => {
    expect(ids(await find('typed', { term: { flag: true } }))).toEqual(['1']);
    expect(ids(await find('typed', { term: { flag: false } }))).toEqual(['2', '3']);
  });

  it('object sub-fields are addressed with dotted paths', async () => {
    expect(ids(await find('typed', { term: { 'user.name': 'bob' } }))).toEqual(['2']);
    expect(ids(await find('typed', { range: { 'user.age': { lt: 35 } } }))).toEqual(['1']);
  });
});

describe('values that do not fit the mapping', () => {
  beforeAll(async () => {
    await t.request('PUT', '/strict-types', {
      mappings: { properties: { age: { type: 'long' }, b: { type: 'byte' }, flag: { type: 'boolean' }, day: { type: 'date' } } },
    });
  });

  it('"abc" into a long fails with document_parsing_exception caused by illegal_argument_exception', async () => {
    const res = await t.request('PUT', '/strict-types/_doc/1', { age: 'abc' });
    expectDocumentParsingError(res,
      /^\[1:\d+\] failed to parse field \[age\] of type \[long\] in document with id '1'\. Preview of field's value: 'abc'$/,
      { type: 'illegal_argument_exception', reason: 'For input string: "abc"' });
    expect((await t.request('GET', '/strict-types/_doc/1')).status).toBe(404);
  });

  it('an out-of-range byte fails with "out of range for a byte"', async () => {
    const res = await t.request('PUT', '/strict-types/_doc/2', { b: 200 });
    expectDocumentParsingError(res,
      /^\[1:\d+\] failed to parse field \[b\] of type \[byte\] in document with id '2'\. Preview of field's value: '200'$/,
      { type: 'illegal_argument_exception', reason: 'Value [200] is out of range for a byte' });
  });

  it('a non-boolean string into a boolean fails', async () => {
    const res = await t.request('PUT', '/strict-types/_doc/3', { flag: 'yes' });
    expectDocumentParsingError(res,
      /^\[1:\d+\] failed to parse field \[flag\] of type \[boolean\] in document with id '3'\. Preview of field's value: 'yes'$/,
      { type: 'illegal_argument_exception', reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.' });
  });

  it('an unparseable date fails, caused by the date format error and date_time_parse_exception', async () => {
    const res = await t.request('PUT', '/strict-types/_doc/4', { day: 'not a date' });
    expectDocumentParsingError(res,
      /^\[1:\d+\] failed to parse field \[day\] of type \[date\] in document with id '4'\. Preview of field's value: 'not a date'$/,
      {
        type: 'illegal_argument_exception',
        reason: 'failed to parse date field [not a date] with format [strict_date_optional_time||epoch_millis]',
        caused_by: { type: 'date_time_parse_exception', reason: 'Failed to parse with all enclosed parsers' },
      });
  });

  it('"5" is coerced into a long: indexed as 5, _source kept as sent', async () => {
    const res = await t.request('PUT', '/strict-types/_doc/5?refresh=true', { age: '5' });
    expect(res.status).toBe(201);
    const hit = await find('strict-types', { term: { age: 5 } });
    expect(ids(hit)).toEqual(['5']);
    expect(hit.body.hits.hits[0]._source).toEqual({ age: '5' });
  });

  it('a fractional number is truncated into a long', async () => {
    expect((await t.request('PUT', '/strict-types/_doc/6?refresh=true', { age: 7.9 })).status).toBe(201);
    const res = await find('strict-types', { range: { age: { gte: 7, lte: 7 } } }, { sort: ['age'] });
    expect(ids(res)).toEqual(['6']);
    expect(res.body.hits.hits[0].sort).toEqual([7]);
  });

  it('a parse failure inside _bulk fails only that item, with the same error object', async () => {
    const res = await t.bulk('/strict-types/_bulk', [{ index: { _id: 'b1' } }, { age: 'abc' }, { index: { _id: 'b2' } }, { age: 1 }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(400);
    expect(res.body.items[0].index.error).toEqual({
      type: 'document_parsing_exception',
      reason: expect.stringMatching(/^\[1:\d+\] failed to parse field \[age\] of type \[long\] in document with id 'b1'\. Preview of field's value: 'abc'$/),
      caused_by: { type: 'illegal_argument_exception', reason: 'For input string: "abc"' },
    });
    expect(res.body.items[1].index.status).toBe(201);
  });
});

describe('dynamic mapping', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/dyn/_doc/1?refresh=true', {
      name: 'Ann Smith', count: 3, ratio: 1.5, active: true, when: '2024-01-02', slashed: '2024/01/02 12:00:00 +0000',
      address: { city: 'Oslo', zip: 1234 }, scores: [1.5, 2], tags: ['a', 'b'], nothing: null, long_text: 'x'.repeat(300),
    });
    expect(res.status).toBe(201);
  });

  it('maps strings to text with a keyword sub-field (ignore_above 256), numbers, booleans, dates and objects', async () => {
    expect(await mappingOf('dyn')).toEqual({
      properties: {
        name: DYNAMIC_TEXT,
        count: { type: 'long' },
        ratio: { type: 'float' },
        active: { type: 'boolean' },
        when: { type: 'date' },
        slashed: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss Z||yyyy/MM/dd Z' },
        address: { properties: { city: DYNAMIC_TEXT, zip: { type: 'long' } } },
        scores: { type: 'float' },
        tags: DYNAMIC_TEXT,
        long_text: DYNAMIC_TEXT,
      },
    });
  });

  it('does not map null values', async () => {
    expect((await mappingOf('dyn')).properties.nothing).toBeUndefined();
  });

  it('the text field is analyzed and the keyword sub-field is exact', async () => {
    expect(ids(await find('dyn', { match: { name: 'smith' } }))).toEqual(['1']);
    expect(ids(await find('dyn', { term: { 'name.keyword': 'Ann Smith' } }))).toEqual(['1']);
    expect(ids(await find('dyn', { term: { 'name.keyword': 'ann smith' } }))).toEqual([]);
  });

  it('strings longer than ignore_above are not indexed in the keyword sub-field', async () => {
    expect(ids(await find('dyn', { term: { 'long_text.keyword': 'x'.repeat(300) } }))).toEqual([]);
    expect(ids(await find('dyn', { match: { long_text: 'x'.repeat(300) } }))).toEqual(['1']);
  });

  it('new fields of later documents are added to the mapping', async () => {
    await t.request('PUT', '/dyn/_doc/2', { extra: 42 });
    expect((await mappingOf('dyn')).properties.extra).toEqual({ type: 'long' });
  });

  it('a later value of another type must fit the existing mapping', async () => {
    const res = await t.request('PUT', '/dyn/_doc/3', { count: 'many' });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('document_parsing_exception');
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'For input string: "many"' });
  });
});

describe('dynamic: strict and dynamic: false', () => {
  beforeAll(async () => {
    await t.request('PUT', '/strict', {
      mappings: {
        dynamic: 'strict',
        properties: { a: { type: 'keyword' }, inner: { type: 'object', properties: { x: { type: 'keyword' } } } },
      },
    });
    await t.request('PUT', '/relaxed', { mappings: { dynamic: 'strict', properties: { o: { type: 'object', dynamic: true, properties: {} } } } });
    await t.request('PUT', '/closed', { mappings: { dynamic: false, properties: { a: { type: 'keyword' } } } });
  });

  it('strict: an unknown field fails with strict_dynamic_mapping_exception', async () => {
    const res = await t.request('PUT', '/strict/_doc/1', { a: 'x', foo: 1 });
    expect(res.status).toBe(400);
    const reason = expect.stringMatching(/^\[1:\d+\] mapping set to strict, dynamic introduction of \[foo\] within \[_doc\] is not allowed$/);
    expect(res.body).toEqual({
      error: { root_cause: [{ type: 'strict_dynamic_mapping_exception', reason }], type: 'strict_dynamic_mapping_exception', reason },
      status: 400,
    });
    expect((await t.request('GET', '/strict/_doc/1')).status).toBe(404);
  });

  it('strict: an unknown field inside an object names the object', async () => {
    const res = await t.request('PUT', '/strict/_doc/2', { inner: { x: 'a', y: 'b' } });
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toMatch(/^\[1:\d+\] mapping set to strict, dynamic introduction of \[y\] within \[inner\] is not allowed$/);
  });

  it('strict: documents with only mapped fields are accepted', async () => {
    expect((await t.request('PUT', '/strict/_doc/3', { a: 'x', inner: { x: 'y' } })).status).toBe(201);
  });

  it('dynamic: true on a sub-object overrides a strict root', async () => {
    expect((await t.request('PUT', '/relaxed/_doc/1', { o: { anything: 1 } })).status).toBe(201);
    expect((await mappingOf('relaxed')).properties.o.properties.anything).toEqual({ type: 'long' });
  });

  it('false: unknown fields are kept in _source but neither mapped nor searchable', async () => {
    expect((await t.request('PUT', '/closed/_doc/1?refresh=true', { a: 'x', foo: 'bar' })).status).toBe(201);
    expect(await mappingOf('closed')).toEqual({ dynamic: 'false', properties: { a: { type: 'keyword' } } });
    expect(ids(await find('closed', { match: { foo: 'bar' } }))).toEqual([]);
    expect(ids(await find('closed', { term: { a: 'x' } }))).toEqual(['1']);
    expect((await t.request('GET', '/closed/_doc/1')).body._source).toEqual({ a: 'x', foo: 'bar' });
  });

  it('GET _mapping renders dynamic: strict as a string', async () => {
    expect((await mappingOf('strict')).dynamic).toBe('strict');
  });
});

describe('index.mapping.total_fields.limit', () => {
  const limitReason = (n: number, limit = 1000) => `Limit of total fields [${limit}] has been exceeded while adding new fields [${n}]`;

  /** The exact error of es-api.md §2.2 (any [line:col] is fine). */
  function expectFieldLimitError(res: any, n: number, limit = 1000) {
    expect(res.status).toBe(400);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    const reason = expect.stringMatching(new RegExp(`^\\[1:\\d+\\] failed to parse: ${limitReason(n, limit).replace(/[[\]]/g, '\\$&')}$`));
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'document_parsing_exception', reason }],
        type: 'document_parsing_exception',
        reason,
        caused_by: { type: 'illegal_argument_exception', reason: limitReason(n, limit) },
      },
      status: 400,
    });
  }

  it('a document with 1001 numeric keys on a fresh index fails at [1001]', async () => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < 1001; i++) doc[`f${i}`] = i;
    expectFieldLimitError(await t.request('PUT', '/limit-numbers/_doc/1?refresh=true', doc), 1001);
  });

  it('the failing document is not indexed and adds nothing to the mapping', async () => {
    expect((await t.request('GET', '/limit-numbers/_doc/1')).status).toBe(404);
    expect((await t.request('GET', '/limit-numbers/_count')).body.count).toBe(0);
    expect(await mappingOf('limit-numbers')).toEqual({});
  });

  it('exactly 1000 numeric keys fit', async () => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < 1000; i++) doc[`f${i}`] = i;
    expect((await t.request('PUT', '/limit-exact/_doc/1', doc)).status).toBe(201);
  });

  it('600 string keys under one object fail at [1001]: the object counts 1, each string 2 (text + keyword)', async () => {
    const inner: Record<string, string> = {};
    for (let i = 0; i < 600; i++) inner[`s${i}`] = 'v';
    expectFieldLimitError(await t.request('PUT', '/limit-strings/_doc/1', { obj: inner }), 1001);
  });

  it('600 top-level string keys fail at [1002]: each string adds 2 fields', async () => {
    const doc: Record<string, string> = {};
    for (let i = 0; i < 600; i++) doc[`s${i}`] = 'v';
    expectFieldLimitError(await t.request('PUT', '/limit-top-strings/_doc/1', doc), 1002);
  });

  it('the limit is the index.mapping.total_fields.limit setting', async () => {
    await t.request('PUT', '/limit-five', { settings: { 'index.mapping.total_fields.limit': 5 } });
    expectFieldLimitError(await t.request('PUT', '/limit-five/_doc/1', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }), 6, 5);
    expectFieldLimitError(await t.request('PUT', '/limit-five/_doc/2', { a: 'x', b: 'y', c: 'z' }), 6, 5);
    expect((await t.request('PUT', '/limit-five/_doc/3', { a: 1, b: 2, c: 3, d: 4, e: 5 })).status).toBe(201);
  });

  it('existing fields count towards the limit', async () => {
    await t.request('PUT', '/limit-grow', { settings: { 'index.mapping.total_fields.limit': 3 } });
    expect((await t.request('PUT', '/limit-grow/_doc/1', { a: 1, b: 2 })).status).toBe(201);
    expectFieldLimitError(await t.request('PUT', '/limit-grow/_doc/2', { c: 3, d: 4 }), 2, 3);
  });

  it('raising the limit with the update settings API lets the document in', async () => {
    await t.request('PUT', '/limit-raise', { settings: { 'index.mapping.total_fields.limit': 2 } });
    expect((await t.request('PUT', '/limit-raise/_doc/1', { a: 1, b: 2, c: 3 })).status).toBe(400);
    expect((await t.request('PUT', '/limit-raise/_settings', { 'index.mapping.total_fields.limit': 10 })).status).toBe(200);
    expect((await t.request('PUT', '/limit-raise/_doc/1', { a: 1, b: 2, c: 3 })).status).toBe(201);
  });

  it('in _bulk the error is per item with status 400', async () => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < 1001; i++) doc[`f${i}`] = i;
    const res = await t.bulk('/_bulk', [{ index: { _index: 'limit-bulk', _id: '1' } }, doc, { index: { _index: 'limit-bulk', _id: '2' } }, { ok: 1 }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(400);
    expect(res.body.items[0].index.error).toEqual({
      type: 'document_parsing_exception',
      reason: expect.stringMatching(/^\[1:\d+\] failed to parse: Limit of total fields \[1000\] has been exceeded while adding new fields \[1001\]$/),
      caused_by: { type: 'illegal_argument_exception', reason: limitReason(1001) },
    });
    expect(res.body.items[1].index.status).toBe(201);
  });
});

describe('_source includes and excludes', () => {
  beforeAll(async () => {
    await t.request('PUT', '/src-excl', { mappings: { _source: { excludes: ['secret', 'ml.tok*'] }, properties: { secret: { type: 'text' } } } });
    await t.request('PUT', '/src-excl/_doc/1?refresh=true', { title: 'visible', secret: 'hidden words', ml: { tokens: 5, model: 'elser' } });
    await t.request('PUT', '/src-incl', { mappings: { _source: { includes: ['keep*'] } } });
    await t.request('PUT', '/src-incl/_doc/1?refresh=true', { keep_me: 'a', drop: 'b' });
    await t.request('PUT', '/src-off', { mappings: { _source: { enabled: false } } });
    await t.request('PUT', '/src-off/_doc/1?refresh=true', { t: 'hello' });
  });

  it('excluded fields are searchable', async () => {
    expect(ids(await find('src-excl', { match: { secret: 'hidden' } }))).toEqual(['1']);
    expect(ids(await find('src-excl', { term: { 'ml.tokens': 5 } }))).toEqual(['1']);
  });

  it('excluded fields are not returned by search or get', async () => {
    const hit = (await find('src-excl', { match: { secret: 'hidden' } })).body.hits.hits[0];
    expect(hit._source).toEqual({ title: 'visible', ml: { model: 'elser' } });
    expect((await t.request('GET', '/src-excl/_doc/1')).body._source).toEqual({ title: 'visible', ml: { model: 'elser' } });
  });

  it('the _source mapping is shown by GET _mapping', async () => {
    expect((await mappingOf('src-excl'))._source).toEqual({ excludes: ['secret', 'ml.tok*'] });
  });

  it('includes keeps only the listed fields; the others stay searchable', async () => {
    expect((await t.request('GET', '/src-incl/_doc/1')).body._source).toEqual({ keep_me: 'a' });
    const hit = await find('src-incl', { match: { drop: 'b' } });
    expect(ids(hit)).toEqual(['1']);
    expect(hit.body.hits.hits[0]._source).toEqual({ keep_me: 'a' });
  });

  it('enabled: false stores no _source at all', async () => {
    const get = await t.request('GET', '/src-off/_doc/1');
    expect(get.body.found).toBe(true);
    expect(get.body._source).toBeUndefined();
    const hit = await find('src-off', { match: { t: 'hello' } });
    expect(ids(hit)).toEqual(['1']);
    expect(hit.body.hits.hits[0]._source).toBeUndefined();
  });
});
