/**
 * A page rendered as bytes (fetch-render.ts renderHitsBytes, what a search worker returns for a
 * single-shard search) is exactly the JSON the text renderer gives its hits, for every fetch option
 * and whatever the ids and sources hold: the `_id` bytes are copied as stored unless JSON must
 * escape them, scores are written as digits, `_source` bytes are spliced in. Pages of one batch
 * (beginPages/endPages) share one buffer and are the same bytes as pages rendered alone.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, openSegment, parseRootMapping, SegmentBuilder, writeSegment, type IndexCodec, type Segment } from '../../src/index/index.js';
import { beginPages, endPages, renderHit, renderHitsBytes, type FetchSpec, type RenderHit } from '../../src/search/index.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

const IDS = [
  'plain-1', 'with "quote"', 'back\\slash', 'tab\there', 'nl\nid', '\u0001ctl', 'café', '日本語', 'emoji 😀', 'del\u007f', 'slash/ok', '\u2028sep',
  'x'.repeat(200),
];
const SOURCES = [
  '{"text":"hello world"}',
  '{ "text" : "spaced",\n  "n": 1.50 }',
  '{"text":"esc \\"q\\" \\\\ \\u00e9 \\ud83d\\ude00","nested":{"a":[1,2],"b":{"c":null}}}',
  '{"text":"naïve café 日本 😀"}',
  `{"text":"${'long '.repeat(3000)}"}`,
  '{}',
];

function segment(codec: IndexCodec, mapping: unknown = null): Segment {
  const builder = new SegmentBuilder(mapping === null ? EMPTY_ROOT : parseRootMapping(mapping), LIMITS, undefined, codec);
  IDS.forEach((id, i) => builder.add({ id, source: SOURCES[i % SOURCES.length], seqNo: i * 3, version: i + 1, indexOrder: i }));
  return openSegment(`s-${codec}`, writeSegment(builder.finish()));
}

const BASE: FetchSpec = {
  index: 'idx', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null, fields: null,
};

const SPECS: Array<[string, FetchSpec]> = [
  ['default', BASE],
  ['index name needing escapes', { ...BASE, index: 'ïdx "q"' }],
  ['version and seq_no', { ...BASE, version: true, seqNoPrimaryTerm: true }],
  ['version only', { ...BASE, version: true }],
  ['no scores', { ...BASE, tracksScores: false }],
  ['_source false', { ...BASE, source: { fetch: false, includes: [], excludes: [] } }],
  ['stored_fields _none_', { ...BASE, storedFieldsNone: true }],
  ['_source includes', { ...BASE, source: { fetch: true, includes: ['nested.*', 'n'], excludes: [] } }],
  ['_source excludes', { ...BASE, source: { fetch: true, includes: [], excludes: ['text'] } }],
  ['sort keys', { ...BASE, sortKeys: [{ kind: 'score', desc: true }, { kind: 'numeric', field: 'n', desc: false, mode: 'min', missing: Infinity }], missingStyles: ['long', 'double'] }],
];

const SCORES = [1.3862944, 0.1, 12, NaN, 1e-7, 3.4e38, 0.000123, -2.5, 7.654321];

function hitsOf(seg: Segment, spec: FetchSpec): RenderHit[] {
  return IDS.map((_, doc) => ({
    segment: seg, doc, score: Math.fround(SCORES[doc % SCORES.length]),
    sortValues: spec.sortKeys === null ? null : [SCORES[doc % SCORES.length], doc % 2 === 0 ? Infinity : doc],
    ...(doc % 5 === 4 ? { rank: doc + 1 } : {}),
  }));
}

const asText = (hits: RenderHit[], spec: FetchSpec): string => `[${hits.map((h) => renderHit(h, spec, JSON.stringify(spec.index))).join(',')}]`;
const bytesText = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

describe('renderHitsBytes', () => {
  for (const codec of ['default', 'best_compression'] as const) {
    const seg = segment(codec);
    for (const [name, spec] of SPECS) {
      it(`writes the text renderer's JSON (${codec} codec, ${name})`, () => {
        const hits = hitsOf(seg, spec);
        const bytes = renderHitsBytes(hits, spec);
        expect(bytesText(bytes)).toBe(asText(hits, spec));
        // A buffer of its own, to transfer.
        expect(bytes.byteOffset).toBe(0);
        expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
        // Valid JSON whose ids are the stored ones.
        expect((JSON.parse(bytesText(bytes)) as Array<{ _id: string }>).map((h) => h._id)).toEqual(IDS);
      });
    }
  }

  it('renders a page without `_source` when the index stores none', () => {
    const seg = segment('default', { _source: { enabled: false } });
    const hits = hitsOf(seg, BASE);
    const text = bytesText(renderHitsBytes(hits, BASE));
    expect(text).toBe(asText(hits, BASE));
    expect(text).not.toContain('_source');
  });

  it('renders an empty page', () => {
    expect(bytesText(renderHitsBytes([], BASE))).toBe('[]');
  });

  it('gives the pages of a batch one buffer, with the bytes each page has alone (the scratch growing mid-batch)', () => {
    const seg = segment('default');
    const pages = [0, 4, 1, 8, 4, 12].map((first) => hitsOf(seg, BASE).slice(first, first + 5));
    // Each page holds the 15 KB document (doc 4 or 10) or not; six of them outgrow the 64 KB scratch.
    const alone = pages.map((p) => bytesText(renderHitsBytes(p, BASE)));
    beginPages();
    const views = pages.map((p) => renderHitsBytes(p, BASE));
    const moved = endPages(views);
    expect(moved.map(bytesText)).toEqual(alone);
    expect(new Set(moved.map((m) => m.buffer)).size).toBe(1);
    expect(moved.reduce((n, m) => n + m.byteLength, 0)).toBe(moved[0].buffer.byteLength);
    // Out of the batch, pages have buffers of their own again.
    const after = renderHitsBytes(pages[0], BASE);
    expect(after.buffer.byteLength).toBe(after.byteLength);
    expect(bytesText(after)).toBe(alone[0]);
    // A batch without pages.
    beginPages();
    expect(endPages([])).toEqual([]);
  });
});
