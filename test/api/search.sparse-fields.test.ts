/**
 * `sparse_vector` and `rank_features` fields (es-api.md §1.2): mapping rules, document validation
 * with ES's errors, `_source` kept as sent, weights stored with Lucene FeatureField precision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request('PUT', '/feat', {
    mappings: { properties: { 'ml.tokens': { type: 'sparse_vector' }, topics: { type: 'rank_features' }, inv: { type: 'rank_features', positive_score_impact: false } } },
  });
  expect(res.status).toBe(200);
});
afterAll(async () => t.close());

/** Indexes one document and returns the response. */
const index = (id: string, doc: unknown) => t.request('PUT', `/feat/_doc/${id}`, doc);

function expectDocError(res: { status: number; body: any }, reason: string, causeType = 'illegal_argument_exception') {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('document_parsing_exception');
  expect(res.body.error.reason).toMatch(/^\[\d+:\d+\] failed to parse: /);
  expect(res.body.error.reason.replace(/^\[\d+:\d+\] failed to parse: /, '')).toBe(reason);
  expect(res.body.error.caused_by).toEqual({ type: causeType, reason });
}

describe('mappings', () => {
  it('renders both types back in GET _mapping, dotted names nested', async () => {
    const res = await t.request('GET', '/feat/_mapping');
    expect(res.body.feat.mappings.properties).toEqual({
      ml: { properties: { tokens: { type: 'sparse_vector' } } },
      topics: { type: 'rank_features' },
      inv: { type: 'rank_features', positive_score_impact: false },
    });
  });

  it('rejects unknown parameters and use as a multi-field, as ES does', async () => {
    const bad = await t.request('PUT', '/bad1', { mappings: { properties: { v: { type: 'sparse_vector', analyzer: 'standard' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('mapper_parsing_exception');
    expect(bad.body.error.caused_by.reason ?? bad.body.error.reason).toContain('unknown parameter [analyzer] on mapper [v] of type [sparse_vector]');
    const multi = await t.request('PUT', '/bad2', { mappings: { properties: { k: { type: 'keyword', fields: { f: { type: 'sparse_vector' } } } } } });
    expect(multi.status).toBe(400);
    expect(JSON.stringify(multi.body.error)).toContain("Field [f] of type [sparse_vector] can't be used in multifields");
  });

  it('never creates them dynamically: an object of numbers becomes an object of floats', async () => {
    await t.request('PUT', '/dyn/_doc/1?refresh=true', { tokens: { a: 1.5, b: 2 } });
    const res = await t.request('GET', '/dyn/_mapping');
    expect(res.body.dyn.mappings.properties.tokens).toEqual({ properties: { a: { type: 'float' }, b: { type: 'long' } } });
  });
});

describe('documents', () => {
  it('accepts feature objects (dots allowed in sparse_vector tokens, numeric strings, null entries) and keeps _source as sent', async () => {
    const doc = { ml: { tokens: { 'the': 0.5, 'x.y': '1.25', skip: null } }, topics: { pagerank: 10 } };
    expect((await index('ok', doc)).status).toBe(201);
    const got = await t.request('GET', '/feat/_doc/ok');
    expect(got.body._source).toEqual(doc);
  });

  it('accepts an array of objects with distinct features', async () => {
    expect((await index('arr', { ml: { tokens: [{ a: 1 }, { b: 2 }] } })).status).toBe(201);
  });

  it('rejects negative, zero and non-finite weights with Lucene FeatureField messages', async () => {
    expectDocError(await index('n', { ml: { tokens: { a: -1 } } }),
      'featureValue must be a positive normal float, got: -1.0 for feature a on field ml.tokens which is less than the minimum positive normal float: 1.1754944E-38');
    expectDocError(await index('z', { topics: { a: 0 } }),
      'featureValue must be a positive normal float, got: 0.0 for feature a on field topics which is less than the minimum positive normal float: 1.1754944E-38');
    expectDocError(await index('inf', { ml: { tokens: { a: 1e39 } } }), 'featureValue must be finite, got: Infinity for feature a on field ml.tokens');
  });

  it('rejects non-numeric values and non-object field values', async () => {
    expectDocError(await index('s', { ml: { tokens: { a: 'abc' } } }), 'For input string: "abc"', 'number_format_exception');
    expectDocError(await index('b', { ml: { tokens: { a: true } } }),
      '[sparse_vector] fields take hashes that map a feature to a strictly positive float, but got unexpected token VALUE_BOOLEAN');
    expectDocError(await index('o', { topics: { a: { b: 1 } } }),
      '[rank_features] fields take hashes that map a feature to a strictly positive float, but got unexpected token START_OBJECT');
    expectDocError(await index('num', { ml: { tokens: 3 } }),
      '[sparse_vector] fields must be json objects, expected a START_OBJECT but got: VALUE_NUMBER');
  });

  it('rejects a feature given twice in one document', async () => {
    expectDocError(await index('d1', { ml: { tokens: [{ a: 1 }, { a: 2 }] } }),
      '[sparse_vector] fields do not support indexing multiple values for the same feature [ml.tokens.a] in the same document');
    expectDocError(await index('d2', { topics: [{ x: 1 }, { x: 2 }] }),
      '[rank_features] fields do not support indexing multiple values for the same rank feature [topics.x] in the same document');
    // Only a later object can repeat a feature: the third of three objects collides with the second.
    expectDocError(await index('d3', { ml: { tokens: [{ a: 1 }, { b: 2 }, { c: 3, b: 4 }] } }),
      '[sparse_vector] fields do not support indexing multiple values for the same feature [ml.tokens.b] in the same document');
  });

  it('lets a later object give a feature an earlier one skipped as null', async () => {
    expect((await index('nul', { ml: { tokens: [{ a: null, b: 1 }, { a: 2 }] } })).status).toBe(201);
  });

  it('rejects dots in rank_features feature names', async () => {
    expectDocError(await index('dot', { topics: { 'a.b': 1 } }), '[rank_features] fields do not support dots in feature names but found [a.b]');
  });

  it('fails only the bad items of a bulk request', async () => {
    const res = await t.bulk('/_bulk', [{ index: { _index: 'feat', _id: 'g' } }, { topics: { a: 1 } }, { index: { _index: 'feat', _id: 'h' } }, { topics: { a: -2 } }]);
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.status).toBe(201);
    expect(res.body.items[1].index.error.type).toBe('document_parsing_exception');
  });
});

describe('stored precision', () => {
  it('scores with document weights truncated to 9 significant bits (float bits & 0xFFFF8000), as ES stores them', async () => {
    await t.request('PUT', '/prec', { mappings: { properties: { v: { type: 'sparse_vector' }, r: { type: 'rank_features', positive_score_impact: false } } } });
    await seed(t, 'prec', [['1', { v: { a: 1.3 }, r: { a: 4 } }]]);
    const res = await t.request('POST', '/prec/_search', { query: { sparse_vector: { field: 'v', query_vector: { a: 1 } } } });
    const f = new Float32Array([1.3]);
    new Uint32Array(f.buffer)[0] &= 0xffff8000;
    expect(res.body.hits.hits[0]._score).toBe(f[0]);
    expect(f[0]).toBe(1.296875);
    // positive_score_impact: false stores 1 / value.
    const inv = await t.request('POST', '/prec/_search', { query: { weighted_tokens: { r: { tokens: { a: 1 } } } } });
    expect(inv.body.hits.hits[0]._score).toBe(0.25);
  });
});
