/**
 * The shard's version lookup over segments (index/segment/id-lookup.ts): one encoded key probed in
 * every segment, segments whose id range cannot hold it skipped. It must find exactly what
 * `docForId` finds — ids inside, below, above and between a segment's ids, non-ASCII and long ids.
 */
import { describe, expect, it } from 'vitest';
import { SegmentBuilder, docForId, docForIdKey, openSegment, parseRootMapping, setIdKey, termOrd, writeSegment, type Segment } from '../../src/index/index.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { title: { type: 'text' } } });

function segment(ids: readonly string[], name: string): Segment {
  const builder = new SegmentBuilder(MAPPING, LIMITS);
  ids.forEach((id, k) => builder.add({ id, source: JSON.stringify({ title: `doc ${k}` }), seqNo: k, version: 1, indexOrder: k }));
  return openSegment(name, writeSegment(builder.finish()));
}

describe('docForIdKey', () => {
  const numeric = segment(Array.from({ length: 500 }, (_, k) => String(1000 + k)), 'numeric');
  const mixed = segment(['m', 'zz', 'ä-umlaut', '😀-emoji', 'a'.repeat(300), 'b', 'é'], 'mixed');
  const one = segment(['only'], 'one');
  const probes = ['1000', '1499', '1250', '999', '1500', '0', '2', '10000', '', 'm', 'zz', 'zzz', 'ä-umlaut', 'ä', '😀-emoji', '😀', 'a'.repeat(300), 'a'.repeat(299), 'b', 'é', 'only', 'onlz', 'onl'];

  it('finds what docForId finds in every segment, for ids inside, outside and between the ranges', () => {
    for (const seg of [numeric, mixed, one]) {
      for (const id of probes) {
        setIdKey(id);
        expect(docForIdKey(seg), `${seg.id}: ${id}`).toBe(docForId(seg, id));
      }
    }
  });

  it('keeps the key for every segment probed after setIdKey', () => {
    setIdKey('1250');
    expect([docForIdKey(mixed), docForIdKey(numeric), docForIdKey(one)]).toEqual([-1, 250, -1]);
    setIdKey('😀-emoji');
    expect([docForIdKey(numeric), docForIdKey(mixed)]).toEqual([-1, 3]);
  });

  it('is unaffected by a term lookup made between two keys', () => {
    setIdKey('zz');
    expect(docForIdKey(mixed)).toBe(1);
    expect(termOrd(mixed.fields.get('title')!, 'doc')).toBeGreaterThanOrEqual(0);
    setIdKey('b');
    expect(docForIdKey(mixed)).toBe(5);
  });
});
