/**
 * The segment format end to end: SegmentBuilder → writeSegment → openSegment (the reader), then
 * mergeSegments with deletes → writeSegment → openSegment. Every stored per-document value, the
 * `_id` lookup, the term dictionary and postings, and search results must survive each step;
 * deleted documents must not.
 */
import { describe, expect, it } from 'vitest';
import {
  readTermPostings,
  SegmentBuilder, docForId, docFreq, mergeSegments, openSegment, parseRootMapping, readId, readSource, termAt, termOrd, withDeletes,
  writeSegment, type Segment,
} from '../../src/index/index.js';
import { InProcessIndex } from '../support/engine-harness.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } });

interface Doc {
  readonly id: string;
  readonly source: { title: string; tag: string; n: number };
  readonly seqNo: number;
  readonly version: number;
  readonly indexOrder: number;
}

function docs(from: number, count: number): Doc[] {
  return Array.from({ length: count }, (_, i) => {
    const k = from + i;
    return {
      id: `doc-${k}`, source: { title: `quick fox number ${k} ${k % 3 === 0 ? 'jumps' : 'sleeps'}`, tag: `t${k % 4}`, n: k * 10 },
      seqNo: k, version: 1 + (k % 2), indexOrder: k,
    };
  });
}

function build(list: readonly Doc[], id: string): Segment {
  const builder = new SegmentBuilder(MAPPING, LIMITS);
  for (const d of list) builder.add({ id: d.id, source: JSON.stringify(d.source), seqNo: d.seqNo, version: d.version, indexOrder: d.indexOrder });
  return openSegment(id, writeSegment(builder.finish()));
}

/** What a reader can tell about every document, in doc order. */
function readAll(segment: Segment): Array<{ id: string; source: unknown; seqNo: number; version: number; indexOrder: number }> {
  return Array.from({ length: segment.maxDoc }, (_, d) => ({
    id: readId(segment, d), source: JSON.parse(readSource(segment, d)!), seqNo: segment.seqNo.get(d), version: segment.version.get(d), indexOrder: segment.indexOrder.get(d),
  }));
}

/** The docs (by id) of every term of a field, from the dictionary and postings. */
function postings(segment: Segment, field: string): Map<string, string[]> {
  const f = segment.fields.get(field)!;
  const out = new Map<string, string[]>();
  for (let ord = 0; ord + 1 < f.termOffsets!.length; ord++) {
    const term = termAt(segment, f, ord);
    expect(termOrd(f, term)).toBe(ord);
    expect(readTermPostings(f, ord).docs.length).toBe(docFreq(f, ord));
    out.set(term, Array.from(readTermPostings(f, ord).docs, (d) => readId(segment, d)));
  }
  return out;
}

function expected(list: readonly Doc[], field: 'tag'): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of list) out.set(d.source[field], [...(out.get(d.source[field]) ?? []), d.id]);
  return out;
}

describe('segment format round trip', () => {
  const first = docs(0, 40);
  const second = docs(40, 25);

  it('builder → writer → reader keeps every document, its metadata, ids and postings', () => {
    const seg = build(first, 's0');
    expect(seg.maxDoc).toBe(first.length);
    expect(readAll(seg)).toEqual(first.map(({ id, source, seqNo, version, indexOrder }) => ({ id, source, seqNo, version, indexOrder })));
    first.forEach((d, i) => expect(docForId(seg, d.id)).toBe(i));
    expect(docForId(seg, 'absent')).toBe(-1);
    expect(postings(seg, 'tag')).toEqual(expected(first, 'tag'));
    const title = postings(seg, 'title');
    expect(title.get('jumps')).toEqual(first.filter((d) => d.source.title.includes('jumps')).map((d) => d.id));
    expect(title.get('fox')).toHaveLength(first.length);
  });

  it('merger with deletes keeps exactly the live documents, in order, with the same values and postings', () => {
    const a = build(first, 's0');
    const b = build(second, 's1');
    const deletedA = [0, 5, 6, 39];
    const deletedB = [3];
    const merged = openSegment('m', writeSegment(mergeSegments([
      { segment: a, liveDocs: withDeletes(null, a.maxDoc, deletedA) },
      { segment: b, liveDocs: withDeletes(null, b.maxDoc, deletedB) },
    ])));
    const live = [...first.filter((_, i) => !deletedA.includes(i)), ...second.filter((_, i) => !deletedB.includes(i))];
    expect(merged.maxDoc).toBe(live.length);
    expect(readAll(merged)).toEqual(live.map(({ id, source, seqNo, version, indexOrder }) => ({ id, source, seqNo, version, indexOrder })));
    for (const d of [...first, ...second]) expect(docForId(merged, d.id) >= 0).toBe(live.includes(d));
    expect(postings(merged, 'tag')).toEqual(expected(live, 'tag'));
    // A merged segment merged again (no deletes) is unchanged.
    const again = openSegment('m2', writeSegment(mergeSegments([{ segment: merged, liveDocs: null }])));
    expect(readAll(again)).toEqual(readAll(merged));
    expect(postings(again, 'title')).toEqual(postings(merged, 'title'));
  });

  it('searches give the same hits and scores before and after the merge; deleted documents stay out', () => {
    const mapping = { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } };
    const queries = [{ match: { title: 'jumps fox' } }, { term: { tag: 't2' } }, { range: { n: { gte: 100, lt: 500 } } }];
    const index = new InProcessIndex(mapping);
    index.addSegment(first.map((d) => ({ id: d.id, source: d.source })));
    index.addSegment(second.map((d) => ({ id: d.id, source: d.source })));
    const before = queries.map((q) => index.search(q, { k: 100 }));
    index.forceMerge();
    expect(index.segments).toHaveLength(1);
    expect(queries.map((q) => index.search(q, { k: 100 }))).toEqual(before);
    expect(before[2].total).toBe(40);
    // With deletes, statistics still count deleted documents until a merge drops them (as in
    // Lucene), so scores may move: the matching documents may not.
    const withDeletes = new InProcessIndex(mapping);
    withDeletes.addSegment(first.map((d) => ({ id: d.id, source: d.source })));
    withDeletes.addSegment(second.map((d) => ({ id: d.id, source: d.source })));
    withDeletes.deleteIds(['doc-12', 'doc-44']);
    const ids = () => queries.map((q) => withDeletes.search(q, { k: 100 }).hits.map((h) => h.id).sort());
    const matched = ids();
    expect(matched[2]).toHaveLength(38);
    expect(matched.flat()).not.toContain('doc-12');
    withDeletes.forceMerge();
    expect(ids()).toEqual(matched);
  });
});
