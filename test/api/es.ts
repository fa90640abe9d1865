/**
 * Shared assertions for the REST API tests: the Elasticsearch error envelope (es-api.md §9), the
 * write-response shape (§2.1), and small helpers to seed indices through `_bulk`.
 */
import { expect } from 'vitest';
import type { TestApp, TestResponse } from '../support/test-app.js';

/** Any index uuid ES would print: 22 url-safe base64 characters. */
export const UUID = expect.stringMatching(/^[A-Za-z0-9_-]{22}$/);

/**
 * Asserts the whole ES error body for an error without a cause, whose root cause is itself:
 * `{error: {root_cause: [{type, reason, ...meta}], type, reason, ...meta}, status}`.
 */
export function expectEsError(res: TestResponse, status: number, type: string, reason: string, metadata: Record<string, unknown> = {}): void {
  expect(res.status).toBe(status);
  expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  const leaf = { type, reason, ...metadata };
  expect(res.body).toEqual({ error: { root_cause: [leaf], ...leaf }, status });
}

/** Status, type and root-cause type (and optionally the exact reason) of any ES error body. */
export function expectErrorType(res: TestResponse, status: number, type: string, reason?: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  expect(res.body.status).toBe(status);
  expect(res.body.error.type).toBe(type);
  expect(Array.isArray(res.body.error.root_cause)).toBe(true);
  expect(res.body.error.root_cause.length).toBeGreaterThan(0);
  if (typeof reason === 'string') expect(res.body.error.reason).toBe(reason);
  else if (reason) expect(res.body.error.reason).toMatch(reason);
}

/** The 404 body ES gives for a concrete index name that does not exist (es-api.md §1.7). */
export function indexNotFound(index: string, resourceType = 'index_or_alias') {
  const leaf = {
    type: 'index_not_found_exception',
    reason: `no such index [${index}]`,
    'resource.type': resourceType,
    'resource.id': index,
    index_uuid: '_na_',
    index,
  };
  return { error: { root_cause: [leaf], ...leaf }, status: 404 };
}

/** `_shards` of a single-document write on an index with one replica that cannot be assigned. */
export const WRITE_SHARDS = { total: 2, successful: 1, failed: 0 };

/** Seeds documents with explicit ids (`[id, source]`) through `_bulk?refresh=true`. */
export async function seed(t: TestApp, index: string, docs: Array<[string, Record<string, unknown>]>): Promise<void> {
  const lines: unknown[] = [];
  for (const [id, doc] of docs) lines.push({ index: { _index: index, _id: id } }, doc);
  const res = await t.bulk('/_bulk', lines, '?refresh=true');
  expect(res.status).toBe(200);
  expect(res.body.errors).toBe(false);
}

/** Ids of the hits of a search response, in order. */
export function ids(res: TestResponse): string[] {
  return res.body.hits.hits.map((h: { _id: string }) => h._id);
}

/** `_score` of every hit by id. */
export function scores(res: TestResponse): Record<string, number> {
  return Object.fromEntries(res.body.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]));
}

/**
 * Lucene BM25 (k1 1.2, b 0.75) for one term, as es-api.md §3.4 gives it, for fields short enough
 * that the 1-byte norm is exact.
 */
export function bm25(opts: { docCount: number; docFreq: number; freq: number; dl: number; avgdl: number; boost?: number }): number {
  const k1 = 1.2;
  const b = 0.75;
  const idf = Math.log(1 + (opts.docCount - opts.docFreq + 0.5) / (opts.docFreq + 0.5));
  const tf = opts.freq / (opts.freq + k1 * (1 - b + (b * opts.dl) / opts.avgdl));
  return (opts.boost ?? 1) * idf * tf;
}

/**
 * Query helpers over an app the test file creates in `beforeAll` (hence the getter): `search` posts
 * a body, `q` runs a query (20 hits, status 200 checked), `hitIds` its hits' ids.
 */
export function queryRunner(app: () => TestApp, defaultIndex = 'books') {
  const search = (body: unknown, index = defaultIndex) => app().request('POST', `/${index}/_search`, body);
  const q = async (query: unknown, index = defaultIndex) => {
    const res = await search({ query, size: 20 }, index);
    expect(res.status).toBe(200);
    return res;
  };
  const hitIds = async (query: unknown, index = defaultIndex) => ids(await q(query, index));
  return { search, q, hitIds };
}
