/**
 * dense_vector mappings and documents through the HTTP API, against ES 8.x DenseVectorFieldMapper:
 * parameters and their defaults as GET _mapping renders them, every parameter error, the merge
 * rules of mapping updates, every document parse error, and the field's answers elsewhere (term,
 * range, sort, aggregations, docvalue_fields, fields, field_caps).
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/dense-vector.html
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let indexNo = 0;
const create = (properties: Record<string, unknown>, settings: Record<string, unknown> = {}) =>
  t.request('PUT', `/dv${++indexNo}`, { settings, mappings: { properties } });
const mappingOf = async (index: string) => (await t.request('GET', `/${index}/_mapping`)).body[index].mappings.properties;

/** A mapping error at index creation: ES wraps the parser's reason in "Failed to parse mapping: ". */
function expectMappingError(res: TestResponse, reason: string, causeType = 'mapper_parsing_exception'): void {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'mapper_parsing_exception', reason: `Failed to parse mapping: ${reason}`, caused_by: { type: causeType, reason } });
}

/** A document error: `[line:col] failed to parse: <reason>`, caused by the mapper's exception. */
function expectDocError(res: TestResponse, causeType: string, reason: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('document_parsing_exception');
  expect(res.body.error.reason).toMatch(/^\[\d+:\d+\] failed to parse: /);
  expect(res.body.error.reason.replace(/^\[\d+:\d+\] failed to parse: /, '')).toBe(reason);
  expect(res.body.error.caused_by).toEqual({ type: causeType, reason });
}

const INT8_HNSW = { type: 'int8_hnsw', m: 16, ef_construction: 100 };

describe('mapping parameters', () => {
  it('render as ES renders them: dims once known, index, similarity and index_options defaults', async () => {
    expect((await create({
      f: { type: 'dense_vector', dims: 3 },
      nodims: { type: 'dense_vector' },
      b: { type: 'dense_vector', dims: 4, element_type: 'byte' },
      fl: { type: 'dense_vector', dims: 2, element_type: 'float', similarity: 'dot_product' },
      raw: { type: 'dense_vector', dims: 2, index: false },
      m: { type: 'dense_vector', dims: 2, meta: { unit: 'cm' } },
    })).status).toBe(200);
    expect(await mappingOf(`dv${indexNo}`)).toEqual({
      f: { type: 'dense_vector', dims: 3, index: true, similarity: 'cosine', index_options: INT8_HNSW },
      nodims: { type: 'dense_vector', index: true, similarity: 'cosine', index_options: INT8_HNSW },
      // Byte vectors have no default index_options; an explicit `float` is not rendered.
      b: { type: 'dense_vector', element_type: 'byte', dims: 4, index: true, similarity: 'cosine' },
      fl: { type: 'dense_vector', dims: 2, index: true, similarity: 'dot_product', index_options: INT8_HNSW },
      raw: { type: 'dense_vector', dims: 2, index: false },
      m: { type: 'dense_vector', dims: 2, index: true, similarity: 'cosine', index_options: INT8_HNSW, meta: { unit: 'cm' } },
    });
  });

  it('take every index_options type with its parameters and defaults', async () => {
    const v = (index_options: unknown, extra: Record<string, unknown> = {}) => ({ type: 'dense_vector', dims: 4, index_options, ...extra });
    expect((await create({
      hnsw: v({ type: 'hnsw' }),
      hnsw2: v({ type: 'hnsw', m: 32, ef_construction: '200' }),
      int8: v({ type: 'int8_hnsw', confidence_interval: 0.95 }),
      int4: v({ type: 'int4_hnsw', m: 8 }),
      flat: v({ type: 'flat' }),
      int8flat: v({ type: 'int8_flat' }),
      int4flat: v({ type: 'int4_flat', confidence_interval: 1 }),
      byteflat: v({ type: 'flat' }, { element_type: 'byte', similarity: 'l2_norm' }),
    })).status).toBe(200);
    const props = await mappingOf(`dv${indexNo}`);
    const options = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, (p as { index_options: unknown }).index_options]));
    expect(options).toEqual({
      hnsw: { type: 'hnsw', m: 16, ef_construction: 100 },
      hnsw2: { type: 'hnsw', m: 32, ef_construction: 200 },
      int8: { type: 'int8_hnsw', m: 16, ef_construction: 100, confidence_interval: 0.95 },
      int4: { type: 'int4_hnsw', m: 8, ef_construction: 100, confidence_interval: 0 },
      flat: { type: 'flat' },
      int8flat: { type: 'int8_flat' },
      int4flat: { type: 'int4_flat', confidence_interval: 1 },
      byteflat: { type: 'flat' },
    });
  });

  const errors: Array<[string, Record<string, unknown>, string, string?]> = [
    ['dims 0', { dims: 0 }, 'The number of dimensions for field [v] should be in the range [1, 4096] but was [0]'],
    ['dims 4097', { dims: 4097 }, 'The number of dimensions for field [v] should be in the range [1, 4096] but was [4097]'],
    ['dims as a string', { dims: '3' }, 'Property [dims] on field [v] must be an integer but got [3]'],
    ['dims with a fraction', { dims: 2.5 }, 'Property [dims] on field [v] must be an integer but got [2.5]'],
    ['element_type bit', { dims: 8, element_type: 'bit' }, '[element_type] [bit] is not supported by this server yet'],
    ['an unknown element_type', { dims: 3, element_type: 'half' }, 'invalid element_type [half]; available types are [float, byte, bit]'],
    ['an unknown similarity', { dims: 3, similarity: 'euclid' }, 'Unknown value [euclid] for field [similarity] - accepted values are [l2_norm, cosine, dot_product, max_inner_product]'],
    ['a null similarity on an indexed field', { dims: 3, similarity: null }, 'Field [index] requires field [similarity] to be configured and not null'],
    ['similarity when not indexed', { dims: 3, index: false, similarity: 'cosine' }, 'Field [similarity] can only be specified for a field of type [dense_vector] when it is indexed'],
    ['index_options when not indexed', { dims: 3, index: false, index_options: { type: 'flat' } }, 'Field [index_options] can only be specified for a field of type [dense_vector] when it is indexed'],
    ['int8 options on byte vectors', { dims: 3, element_type: 'byte', index_options: { type: 'int8_hnsw' } }, '[element_type] cannot be [byte] when using index type [int8_hnsw]'],
    ['int4 options on byte vectors', { dims: 4, element_type: 'byte', index_options: { type: 'int4_flat' } }, '[element_type] cannot be [byte] when using index type [int4_flat]'],
    ['int4 with odd dims', { dims: 3, index_options: { type: 'int4_hnsw' } }, 'int4_hnsw only supports even dimensions; provided=3'],
    ['index_options without a type', { dims: 3, index_options: { m: 4 } }, '[index_options] requires field [type] to be configured'],
    ['an unknown index_options type', { dims: 3, index_options: { type: 'ivf' } }, 'Unknown vector index options type [ivf] for field [v]'],
    ['bbq index options', { dims: 64, index_options: { type: 'bbq_hnsw' } }, '[index_options] of type [bbq_hnsw] is not supported by this server yet'],
    ['m of 0', { dims: 3, index_options: { type: 'hnsw', m: 0 } }, 'maxConn must be positive and less than or equal to 512; maxConn=0'],
    ['ef_construction above 3200', { dims: 3, index_options: { type: 'int8_hnsw', ef_construction: 5000 } }, 'beamWidth must be positive and less than or equal to 3200; beamWidth=5000'],
    ['m that is no number', { dims: 3, index_options: { type: 'hnsw', m: 'many' } }, 'For input string: "many"'],
    ['a confidence_interval of 0.5', { dims: 4, index_options: { type: 'int8_hnsw', confidence_interval: 0.5 } }, 'confidenceInterval must be between 0.9 and 1.0; confidenceInterval=0.5'],
    ['an unknown index option', { dims: 3, index_options: { type: 'flat', m: 16 } }, 'Mapping definition for [v] has unsupported parameters:  [m : 16]'],
    ['an unknown parameter', { dims: 3, doc_values: true }, 'unknown parameter [doc_values] on mapper [v] of type [dense_vector]'],
    ['multi-fields', { dims: 3, fields: { raw: { type: 'keyword' } } }, 'unknown parameter [fields] on mapper [v] of type [dense_vector]'],
  ];
  for (const [name, params, reason] of errors) {
    it(`refuse ${name}`, async () => {
      expectMappingError(await create({ v: { type: 'dense_vector', ...params } }), reason);
    });
  }

  it('refuse a dense_vector multi-field', async () => {
    expectMappingError(await create({ title: { type: 'text', fields: { vec: { type: 'dense_vector', dims: 3 } } } }), "Field [vec] of type [dense_vector] can't be used in multifields");
  });

  it('keep arrays of numbers numeric in dynamic mapping', async () => {
    expect((await t.request('PUT', '/dynvec/_doc/1', { emb: Array.from({ length: 200 }, (_, i) => (i + 1) / 3) })).status).toBe(201);
    expect((await mappingOf('dynvec')).emb).toEqual({ type: 'float' });
  });
});

describe('mapping updates', () => {
  let index: string;
  beforeAll(async () => {
    expect((await create({
      v: { type: 'dense_vector', dims: 3 },
      h: { type: 'dense_vector', dims: 4, index_options: { type: 'hnsw', m: 16 } },
      later: { type: 'dense_vector', similarity: 'l2_norm' },
      flat: { type: 'dense_vector', dims: 2, index_options: { type: 'flat' } },
    })).status).toBe(200);
    index = `dv${indexNo}`;
  });
  const put = (properties: Record<string, unknown>) => t.request('PUT', `/${index}/_mapping`, { properties });
  const conflict = (res: TestResponse, field: string, ...lines: string[]) => {
    expect(res.status).toBe(400);
    const reason = `Mapper for [${field}] conflicts with existing mapper:\n\t${lines.join('\n\t')}`;
    expect(res.body).toEqual({ error: { root_cause: [{ type: 'illegal_argument_exception', reason }], type: 'illegal_argument_exception', reason }, status: 400 });
  };

  it('accept the same mapping again, spelled out or not', async () => {
    expect((await put({ v: { type: 'dense_vector', dims: 3, index: true, similarity: 'cosine', index_options: INT8_HNSW } })).status).toBe(200);
    expect((await put({ v: { type: 'dense_vector', dims: 3, element_type: 'float' } })).status).toBe(200);
  });

  it('refuse changing dims, similarity, element_type or index', async () => {
    conflict(await put({ v: { type: 'dense_vector', dims: 4 } }), 'v', 'Cannot update parameter [dims] from [3] to [4]');
    conflict(await put({ v: { type: 'dense_vector', dims: 3, similarity: 'l2_norm' } }), 'v', 'Cannot update parameter [similarity] from [cosine] to [l2_norm]');
    conflict(await put({ v: { type: 'dense_vector', dims: 3, element_type: 'byte', index_options: { type: 'hnsw' } } }), 'v',
      'Cannot update parameter [element_type] from [float] to [byte]',
      'Cannot update parameter [index_options] from [{type=int8_hnsw, m=16, ef_construction=100, confidence_interval=null}] to [{type=hnsw, m=16, ef_construction=100}]');
    conflict(await put({ v: { type: 'dense_vector', dims: 3, index: false } }), 'v',
      'Cannot update parameter [index] from [true] to [false]', 'Cannot update parameter [similarity] from [cosine] to [null]',
      'Cannot update parameter [index_options] from [{type=int8_hnsw, m=16, ef_construction=100, confidence_interval=null}] to [null]');
  });

  it('let dims be set once, and index_options move as ES allows', async () => {
    expect((await put({ later: { type: 'dense_vector', dims: 5, similarity: 'l2_norm' } })).status).toBe(200);
    conflict(await put({ later: { type: 'dense_vector', dims: 6, similarity: 'l2_norm' } }), 'later', 'Cannot update parameter [dims] from [5] to [6]');
    // hnsw → int8_hnsw / int4_hnsw with at least as many connections; never fewer, never back to flat.
    conflict(await put({ h: { type: 'dense_vector', dims: 4, index_options: { type: 'hnsw', m: 8 } } }), 'h',
      'Cannot update parameter [index_options] from [{type=hnsw, m=16, ef_construction=100}] to [{type=hnsw, m=8, ef_construction=100}]');
    expect((await put({ h: { type: 'dense_vector', dims: 4, index_options: { type: 'int4_hnsw', m: 24 } } })).status).toBe(200);
    conflict(await put({ h: { type: 'dense_vector', dims: 4, index_options: { type: 'flat' } } }), 'h',
      'Cannot update parameter [index_options] from [{type=int4_hnsw, m=24, ef_construction=100, confidence_interval=0.0}] to [{type=flat}]');
    expect((await put({ flat: { type: 'dense_vector', dims: 2, index_options: { type: 'int8_hnsw' } } })).status).toBe(200);
    const props = await mappingOf(index);
    expect(props.later).toEqual({ type: 'dense_vector', dims: 5, index: true, similarity: 'l2_norm', index_options: INT8_HNSW });
    expect(props.h.index_options).toEqual({ type: 'int4_hnsw', m: 24, ef_construction: 100, confidence_interval: 0 });
    expect(props.flat.index_options).toEqual(INT8_HNSW);
  });
});

describe('document parsing', () => {
  let index: string;
  beforeAll(async () => {
    expect((await create({
      v: { type: 'dense_vector', dims: 3 },
      dot: { type: 'dense_vector', dims: 2, similarity: 'dot_product' },
      l2: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' },
      b: { type: 'dense_vector', dims: 2, element_type: 'byte' },
      bl2: { type: 'dense_vector', dims: 2, element_type: 'byte', similarity: 'l2_norm' },
      many: { type: 'dense_vector', dims: 6, similarity: 'l2_norm' },
      obj: { properties: { v: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' } } },
      open: { type: 'dense_vector', similarity: 'l2_norm', index_options: { type: 'int4_flat' } },
    })).status).toBe(200);
    index = `dv${indexNo}`;
  });
  const index1 = (doc: unknown) => t.request('PUT', `/${index}/_doc/1`, doc);
  const IAE = 'illegal_argument_exception';
  const PARSING = 'parsing_exception';

  it('accept good vectors and a null, keeping _source as sent', async () => {
    const doc = { v: [1, 2, 3.5], dot: [0.6, 0.8], l2: [0, 0], b: [-128, 127], bl2: '00ff', obj: { v: [1, 2] }, many: null };
    expect((await index1(doc)).status).toBe(201);
    expect((await t.request('GET', `/${index}/_doc/1`)).body._source).toEqual(doc);
  });

  const cases: Array<[string, unknown, string, string]> = [
    ['too few dims', { v: [1, 2] }, IAE, "The [dense_vector] field [v] in doc [document with id '1'] has a different number of dimensions [2] than defined in the mapping [3]"],
    ['too many dims', { v: [1, 2, 3, 4] }, IAE, "The [dense_vector] field [v] in doc [document with id '1'] has more dimensions than defined in the mapping [3]"],
    ['a string element', { v: [1, 'x', 3] }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_STRING]'],
    ['a null element', { v: [1, null, 3] }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_NULL]'],
    ['a boolean element', { v: [true, 1, 3] }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_BOOLEAN]'],
    ['an array of vectors', { v: [[1, 2, 3], [4, 5, 6]] }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [START_ARRAY]'],
    ['an object', { v: { a: 1 } }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [FIELD_NAME]'],
    ['a number, last in its object', { v: 5 }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [END_OBJECT]'],
    ['a number, before another field', { v: 5, l2: [1, 1] }, PARSING, 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [FIELD_NAME]'],
    ['an infinite element', { l2: [1e39, 1] }, IAE, 'element_type [float] vectors do not support infinite values but found [Infinity] at dim [0]; Preview of invalid vector: [Infinity, 1.0]'],
    ['an infinite magnitude', { l2: [1e30, 1e30] }, IAE, 'NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float. Preview of invalid vector: [1.0E30, 1.0E30]'],
    ['a zero cosine vector', { v: [0, 0, 0] }, IAE, 'The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [0.0, 0.0, 0.0]'],
    ['a long vector of extreme values (preview of five)', { many: [1e30, 1e30, 1e30, 1e30, 1e30, 2] }, IAE, 'NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float. Preview of invalid vector: [1.0E30, 1.0E30, 1.0E30, 1.0E30, 1.0E30, ...]'],
    ['a dot_product vector not of unit length', { dot: [0.6, 0.81] }, IAE, 'The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: [0.6, 0.81]'],
    ['a zero cosine byte vector', { b: [0, 0] }, IAE, 'The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [0, 0]'],
    ['a byte above 127', { b: [1, 128] }, IAE, 'element_type [byte] vectors only support integers between [-128, 127] but found [128] at dim [1];'],
    ['a byte below -128', { bl2: [-129, 0] }, IAE, 'element_type [byte] vectors only support integers between [-128, 127] but found [-129] at dim [0];'],
    ['a decimal byte', { b: [1.5, 2] }, IAE, 'element_type [byte] vectors only support non-decimal values but found decimal value [1.5] at dim [0];'],
    ['a byte beyond int range', { b: [3e9, 2] }, IAE, 'element_type [byte] vectors only support integers between [-128, 127] but found [2147483647] at dim [0];'],
    ['a hex string of odd length', { b: '0ff' }, IAE, 'string length not even: 3'],
    ['a hex string with a non-hex digit', { b: '0g' }, 'number_format_exception', 'not a hexadecimal digit: "g" = 103'],
    ['a hex string of the wrong length', { b: '00ff00' }, IAE, "The [dense_vector] field [b] in doc [document with id '1'] has a different number of dimensions [3] than defined in the mapping [2]"],
    ['a byte field given a number', { b: 7 }, PARSING, 'Unsupported type [VALUE_NUMBER] for provided value [7]'],
    ['two vectors for one field', { obj: { v: [1, 2] }, 'obj.v': [3, 4] }, IAE, "Field [obj.v] of type [dense_vector] doesn't support indexing multiple values for the same field in the same document"],
    ['odd dims for int4 options', { open: [1, 2, 3] }, IAE, 'int4_flat only supports even dimensions; provided=3'],
    ['an empty first vector', { open: [] }, IAE, 'The number of dimensions for field [open] should be in the range [1, 4096] but was [0]'],
  ];
  for (const [name, doc, type, reason] of cases) {
    it(`refuse ${name}`, async () => {
      expectDocError(await index1(doc), type, reason);
    });
  }

  it('hold an unset dims until a valid first vector sets it', async () => {
    expect((await mappingOf(index)).open.dims).toBeUndefined();
    expect((await t.request('PUT', `/${index}/_doc/2`, { open: [1, 2, 3, 4] })).status).toBe(201);
    expect((await mappingOf(index)).open.dims).toBe(4);
  });
});

describe('the field in other APIs', () => {
  let index: string;
  beforeAll(async () => {
    expect((await create({ v: { type: 'dense_vector', dims: 2 }, raw: { type: 'dense_vector', dims: 2, index: false }, n: { type: 'long' } })).status).toBe(200);
    index = `dv${indexNo}`;
    expect((await t.request('PUT', `/${index}/_doc/1?refresh=true`, { v: [3, 4], raw: [1, 2], n: 1 })).status).toBe(201);
    expect((await t.request('PUT', `/${index}/_doc/2?refresh=true`, { n: 2 })).status).toBe(201);
  });
  const search = (body: unknown) => t.request('POST', `/${index}/_search`, body);
  /** A shard-level failure: ES's search_phase_execution_exception around the cause. */
  const shardFailure = (res: TestResponse, type: string, reason: string) => {
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.caused_by).toMatchObject({ type, reason });
  };

  it('finds the docs with a vector through exists, indexed or not', async () => {
    for (const field of ['v', 'raw']) {
      const res = await search({ query: { exists: { field } } });
      expect(res.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1']);
    }
  });

  it('refuses term, terms, match and range queries as ES does', async () => {
    const term = "Field [v] of type [dense_vector] doesn't support term queries";
    shardFailure(await search({ query: { term: { v: 3 } } }), 'query_shard_exception', `failed to create query: ${term}`);
    shardFailure(await search({ query: { terms: { v: [3, 4] } } }), 'query_shard_exception', `failed to create query: ${term}`);
    shardFailure(await search({ query: { match: { raw: '1' } } }), 'query_shard_exception', "failed to create query: Field [raw] of type [dense_vector] doesn't support term queries");
    shardFailure(await search({ query: { range: { v: { gte: 1 } } } }), 'query_shard_exception', 'failed to create query: Field [v] of type [dense_vector] does not support range queries');
    shardFailure(await search({ query: { prefix: { v: 'a' } } }), 'query_shard_exception', 'Can only use prefix queries on keyword and text fields - not on [v] which is of type [dense_vector]');
  });

  it('refuses sort, aggregations and docvalue_fields', async () => {
    shardFailure(await search({ sort: [{ v: 'asc' }] }), 'illegal_argument_exception', "Field [v] of type [dense_vector] doesn't support sort");
    const dv = "Field [v] of type [dense_vector] doesn't support docvalue_fields or aggregations";
    shardFailure(await search({ aggs: { a: { terms: { field: 'v' } } } }), 'illegal_argument_exception', dv);
    shardFailure(await search({ aggs: { a: { max: { field: 'v' } } } }), 'illegal_argument_exception', dv);
    const res = await search({ docvalue_fields: ['v'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'illegal_argument_exception', reason: dv });
    // A pattern only picks the fields that have doc values.
    const all = await search({ docvalue_fields: ['*'], query: { ids: { values: ['1'] } } });
    expect(all.body.hits.hits[0].fields).toEqual({ n: [1] });
  });

  it('returns the vectors from _source in `fields`, without formats', async () => {
    const res = await search({ fields: ['v', 'raw'], query: { ids: { values: ['1'] } }, _source: false });
    expect(res.body.hits.hits[0].fields).toEqual({ v: [3, 4], raw: [1, 2] });
    const formatted = await search({ fields: [{ field: 'v', format: 'x' }] });
    expect(formatted.status).toBe(400);
    expect(formatted.body.error).toMatchObject({ reason: "Field [v] of type [dense_vector] doesn't support formats." });
  });

  it('has no term vectors', async () => {
    const res = await t.request('GET', `/${index}/_termvectors/1?fields=v,raw`);
    expect(res.status).toBe(200);
    expect(res.body.term_vectors).toEqual({});
  });

  it('reports the field in _field_caps: searchable as `index`, never aggregatable', async () => {
    const res = await t.request('GET', `/${index}/_field_caps?fields=v,raw`);
    expect(res.body.fields).toEqual({
      v: { dense_vector: { type: 'dense_vector', metadata_field: false, searchable: true, aggregatable: false } },
      raw: { dense_vector: { type: 'dense_vector', metadata_field: false, searchable: false, aggregatable: false } },
    });
  });
});
