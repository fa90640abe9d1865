/**
 * `_bulk`'s items rendered as they are written (http/bulk-items.ts): the same bytes as the objects
 * stringified at the end, for every kind of item, id and number, across 64 KB chunks.
 */
import { describe, expect, it } from 'vitest';
import type { IndexService } from '../../src/cluster/index.js';
import { BulkItemObjects, RenderedBulkItems, type BulkItems } from '../../src/http/bulk-items.js';
import { JSON_CHUNK_BYTES } from '../../src/http/json-chunks.js';

const index = (name: string, replicas = 1) => ({ name, resolvedSettings: { numberOfReplicas: replicas } }) as unknown as IndexService;

type Call = (items: BulkItems) => void;

function same(calls: readonly Call[], head = '{"took":12,"errors":false,"items":['): Buffer[] {
  const objects = new BulkItemObjects();
  const rendered = new RenderedBulkItems();
  for (const call of calls) {
    call(objects);
    call(rendered);
  }
  const expected = objects.finish(head, false);
  const got = rendered.finish(head);
  expect(got.toString()).toBe(expected.toString());
  expect(got.byteLength).toBe(expected.byteLength);
  expect(Buffer.concat(got.chunks as Buffer[]).toString('utf8')).toBe(expected.toString());
  JSON.parse(got.toString());
  return got.chunks as Buffer[];
}

const written = (action: 'index' | 'create' | 'update' | 'delete', ix: IndexService, id: string, version: number, seqNo: number, result = 'created', status = 201, get: Record<string, unknown> | null = null, primaryTerm = 1): Call =>
  (items) => items.written(action, ix, { id, version, seqNo, primaryTerm, result }, status, get);

describe('RenderedBulkItems', () => {
  it('renders no items and one as the objects would', () => {
    expect(same([])).toHaveLength(1);
    expect(same([written('index', index('bulk'), 'a', 1, 0)])).toHaveLength(1);
    same([written('index', index('bulk'), 'a', 1, 0)], '{"took":0,"ingest_took":3,"errors":true,"items":[');
  });

  it('renders thousands of items across 64 KB chunks', () => {
    const chunks = same(Array.from({ length: 6000 }, (_, i) => written(i % 3 === 0 ? 'create' : 'index', index(i % 7 === 0 ? 'other' : 'bulk', i % 5 === 0 ? 0 : 1), `doc-${i}`, i + 1, i * 1_000_003, i % 2 ? 'created' : 'updated', i % 2 ? 201 : 200)));
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.every((c) => c.length <= JSON_CHUNK_BYTES)).toBe(true);
  });

  it('escapes ids and index names as JSON.stringify does, and writes any number as it does', () => {
    const ix = index('ïndex-ü');
    same([
      written('index', ix, 'quote"back\\slash', 1, 0),
      written('index', ix, 'ctl\u0001\n\t', 2, 1),
      written('index', ix, 'ünïcode 😀 \ud800 lone', 3, 2),
      written('index', index('bulk'), '', 0, -1, 'not_found', 404),
      written('delete', index('bulk'), 'x'.repeat(512), Number.MAX_SAFE_INTEGER, 2 ** 40, 'deleted', 200, null, 123456789),
      written('index', index('bulk'), 'y', 1.5, -0, 'created', 201, null, -7),
      written('update', index('bulk'), 'u', 4, 9, 'noop', 200),
      written('update', index('bulk'), 'u', 5, 10, 'updated', 200, { _seq_no: 10, _primary_term: 1, found: true, _source: { a: 'é' } }),
      (items) => items.other({ index: { _index: 'bulk', _id: 'e', status: 400, error: { type: 'x', reason: 'bad ü' } } }),
      written('create', index('bulk'), 'after-error', 1, 11),
    ]);
  });

  it('starts with an error or non-ASCII item as well', () => {
    same([(items) => items.other({ delete: { _index: 'ü', _id: 'e', status: 404 } }), written('index', index('bulk'), 'a', 1, 0)]);
    const big = 'é'.repeat(JSON_CHUNK_BYTES);
    same([(items) => items.other({ index: { _index: 'bulk', _id: big, status: 400 } }), written('index', index('bulk'), 'a', 1, 0)]);
  });
});
