/**
 * kNN search's errors, as ES gives them: request parsing (unknown members, wrong types, the
 * builders' checks on k and num_candidates, members this server refuses), and the shard's
 * query-building failures (field type, unindexed field, dimensions, byte values, unit vectors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectErrorType } from './es.js';
import { seedKnnIndices } from './knn-fixture.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ threads: 1 });
  await seedKnnIndices(t, 'e1', 'e3');
});
afterAll(async () => t.close());

const search = (body: unknown, index = 'e1') => t.request('POST', `/${index}/_search`, body);
const knn = (extra: Record<string, unknown>) => ({ knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], ...extra } });

/** A shard-level failure: search_phase_execution_exception whose root cause is the query_shard_exception. */
function expectShardFailure(res: TestResponse, reason: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('search_phase_execution_exception');
  // ES builds the kNN query in its DFS phase.
  expect(res.body.error.phase).toBe('dfs');
  expect(res.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: `failed to create query: ${reason}`, index: 'e1' });
  expect(res.body.error.failed_shards[0].reason.caused_by).toEqual({ type: 'illegal_argument_exception', reason });
}

describe('parsing', () => {
  it('refuses unknown members and values of the wrong type', async () => {
    expectErrorType(await search(knn({ foo: 1 })), 400, 'x_content_parse_exception', '[1:52] [knn] unknown field [foo]');
    expectErrorType(await search(knn({ query_vector: [1, 'x', 3] })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[query_vector\]/);
    expectErrorType(await search(knn({ query_vector: [1, true, 3] })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[query_vector\]/);
    expectErrorType(await search(knn({ query_vector: { a: 1 } })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[query_vector\]/);
    expectErrorType(await search(knn({ k: 'abc' })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[k\]/);
    expectErrorType(await search(knn({ k: 1e12 })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[k\]/);
    expectErrorType(await search(knn({ filter: 'red' })), 400, 'x_content_parse_exception', /filter doesn't support values of type: VALUE_STRING/);
    expectErrorType(await search({ knn: 'x' }), 400, 'parsing_exception', 'Unknown key for a VALUE_STRING in [knn].');
    expectErrorType(await search({ knn: [1] }), 400, 'x_content_parse_exception', /\[knn\] Expected START_OBJECT but was: VALUE_NUMBER/);
    expectErrorType(await search(knn({ query_vector: 'abc' })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[query_vector\]/);
    expectErrorType(await search(knn({ query_vector: new Array(5000).fill(0) })), 400, 'x_content_parse_exception', /\[knn\] failed to parse field \[query_vector\]/);
  });

  it('checks k and num_candidates as KnnSearchBuilder does', async () => {
    expectErrorType(await search(knn({ k: 0 })), 400, 'illegal_argument_exception', '[k] must be greater than 0');
    expectErrorType(await search({ size: 0, ...knn({}) }), 400, 'illegal_argument_exception', '[k] must be greater than 0');
    expectErrorType(await search(knn({ k: 10, num_candidates: 5 })), 400, 'illegal_argument_exception', '[num_candidates] cannot be less than [k]');
    expectErrorType(await search(knn({ num_candidates: 10001 })), 400, 'illegal_argument_exception', '[num_candidates] cannot exceed [10000]');
    expectErrorType(await search({ knn: { field: 'f_l2_norm' } }), 400, 'illegal_argument_exception', 'either [query_vector_builder] or [query_vector] must be provided');
    expectErrorType(await search({ knn: { query_vector: [1, 2, 3] } }), 400, 'illegal_argument_exception', 'Required [field]');
  });

  it('refuses what this server does not do yet', async () => {
    for (const member of ['query_vector_builder', 'inner_hits', 'rescore_vector']) {
      expectErrorType(await search(knn({ [member]: {} })), 400, 'illegal_argument_exception', `[knn] [${member}] is not supported by this server yet`);
    }
    const inPostFilter = await search({ post_filter: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], k: 3 } } });
    expect(inPostFilter.status).toBe(400);
  });

  it('the knn query fails as its object parser does', async () => {
    const res = await search({ query: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], num_candidates: 10001 } } });
    expectErrorType(res, 400, 'x_content_parse_exception', /Failed to build \[knn\] after last required field arrived/);
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: '[num_candidates] cannot exceed [10000]' });
    expectErrorType(await search({ query: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], k: 0 } } }), 400, 'x_content_parse_exception');
    expectErrorType(await search({ query: { knn: 'x' } }), 400, 'parsing_exception', '[knn] query malformed, no start_object after query name');
    expectErrorType(await search({ size: 0, query: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3] } } }), 400, 'search_phase_execution_exception');
    // A k past 10,000 without num_candidates: the default num_candidates (at most 10,000) is below it.
    const huge = await search({ query: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], k: 1_000_000_000 } } });
    expectErrorType(huge, 400, 'search_phase_execution_exception');
    expect(huge.body.error.root_cause[0].reason).toBe('[num_candidates] cannot be less than [k]');
  });

  it('the knn retriever requires k and num_candidates and excludes a top-level knn', async () => {
    expectErrorType(await search({ retriever: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3] } } }), 400, 'illegal_argument_exception', 'Required [k, num_candidates]');
    expectErrorType(await search({ retriever: { knn: { field: 'f_l2_norm', query_vector: [1, 2, 3], k: 5, num_candidates: 2 } } }), 400, 'illegal_argument_exception', '[num_candidates] cannot be less than [k]');
    expectErrorType(await search({ ...knn({}), retriever: { standard: {} } }), 400, 'illegal_argument_exception', 'cannot specify [retriever] and [knn]');
  });
});

describe('query building on the shards', () => {
  it('an unmapped field matches nothing', async () => {
    const res = await search({ knn: { field: 'nope', query_vector: [1, 2, 3], k: 3, num_candidates: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.hits.total).toEqual({ value: 0, relation: 'eq' });
  });

  it('a field of another type, or unindexed', async () => {
    expectShardFailure(await search({ knn: { field: 'tag', query_vector: [1, 2, 3] } }), '[knn] queries are only supported on [dense_vector] fields');
    expectShardFailure(await search({ knn: { field: 'unindexed', query_vector: [1, 2, 3] } }), 'to perform knn search on field [unindexed], its mapping must have [index] set to [true]');
  });

  it('a query vector of other dimensions (an empty one too)', async () => {
    expectShardFailure(await search(knn({ query_vector: [1, 2] })), 'The query vector has a different number of dimensions [2] than the document vectors [3].');
    expectShardFailure(await search(knn({ query_vector: [] })), 'The query vector has a different number of dimensions [0] than the document vectors [3].');
  });

  it('byte fields take whole numbers in [-128, 127]', async () => {
    expectShardFailure(await search({ knn: { field: 'b_l2_norm', query_vector: [1.5, 2, 3, 4] } }),
      'element_type [byte] vectors only support non-decimal values but found decimal value [1.5] at dim [0]; Preview of invalid vector: [1.5, 2.0, 3.0, 4.0]');
    expectShardFailure(await search({ knn: { field: 'b_l2_norm', query_vector: [1, 200, 3, 4, 5, 6] } }),
      'element_type [byte] vectors only support integers between [-128, 127] but found [200.0] at dim [1]; Preview of invalid vector: [1.0, 200.0, 3.0, 4.0, 5.0, ...]');
  });

  it('dot_product needs a unit query vector; cosine a non-zero one', async () => {
    expectShardFailure(await search({ knn: { field: 'f_dot_product', query_vector: [1, 1, 1] } }),
      'The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: [1.0, 1.0, 1.0]');
    expectShardFailure(await search({ knn: { field: 'f_cosine', query_vector: [0, 0, 0] } }),
      'The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [0.0, 0.0, 0.0]');
  });

  it('fails every shard of a 3-shard index', async () => {
    const res = await search({ knn: { field: 'tag', query_vector: [1, 2, 3] } }, 'e3');
    expect(res.status).toBe(400);
    expect(res.body.error.failed_shards.length).toBeGreaterThanOrEqual(1);
  });
});

describe('edge cases', () => {
  it('a field whose dims no document has set yet matches nothing', async () => {
    expect((await t.request('PUT', '/fresh', { mappings: { properties: { v: { type: 'dense_vector' } } } })).status).toBe(200);
    const res = await search({ knn: { field: 'v', query_vector: [1, 2, 3], k: 3, num_candidates: 3 } }, 'fresh');
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toEqual([]);
  });

  it('bounds the number of kNN searches by max_clause_count', async () => {
    const sections = Array.from({ length: 4097 }, () => ({ field: 'f_l2_norm', query_vector: [1, 2, 3], k: 1, num_candidates: 1 }));
    const res = await search({ knn: sections });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].reason).toBe('Query rewrite failed: too many clauses');
  });

  it('quotes a long unknown member by its prefix only', async () => {
    const key = 'x'.repeat(5000);
    const res = await search(knn({ [key]: 1 }));
    expect(res.status).toBe(400);
    expect(res.body.error.reason.length).toBeLessThan(300);
  });
});
