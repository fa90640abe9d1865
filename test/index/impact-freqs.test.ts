/**
 * Block impacts' freqs in the narrowest type that holds the field's largest (segment format 5,
 * segment-writer.ts `addNarrowest`): u8 for short documents, u16 past 255, u32 past 65535; the
 * term scorer's block bounds are the same whatever the width, and a format 4 segment (u32 impact
 * freqs) still opens and scores as its format 5 rewrite.
 */
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION, Section, SegmentBuilder, mergeSegments, openSegment, parseRootMapping, termOrd, writeSegment, type Segment } from '../../src/index/index.js';
import { normInverseCache } from '../../src/search/bm25.js';
import { TermScorer } from '../../src/search/exec/term-scorer.js';
import { asOlderFormat, widenedToU32 } from '../support/older-format.js';

const MAPPING = parseRootMapping({ properties: { text: { type: 'text' } } });
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

/** A segment of `docs` docs, doc i holding "a" `repeat(i)` times and "b" once. */
function segment(docs: number, repeat: (i: number) => number): Segment {
  const b = new SegmentBuilder(MAPPING, LIMITS);
  for (let i = 0; i < docs; i++) b.add({ id: `d${i}`, source: JSON.stringify({ text: `${'a '.repeat(repeat(i))}b` }), seqNo: i, version: 1, indexOrder: i });
  return openSegment('s', writeSegment(b.finish()));
}

/** The same segment as format 4 wrote it: impact freqs as u32 under BlockImpactFreqs (and format 6's narrow block max freqs as u32 too). */
function asFormat4(s: Segment): Segment {
  return asOlderFormat(s, 4, (w, kind, ord, bytes) => {
    if (kind === Section.BlockImpactFreqs8 || kind === Section.BlockImpactFreqs16) w.add(Section.BlockImpactFreqs, ord, widenedToU32(bytes, kind === Section.BlockImpactFreqs8 ? 1 : 2));
    else if (kind === Section.BlockMaxFreq8 || kind === Section.BlockMaxFreq16) w.add(Section.BlockMaxFreq, ord, widenedToU32(bytes, kind === Section.BlockMaxFreq8 ? 1 : 2));
    else return false;
    return true;
  });
}

/** Every block's score bound of term `term`, as the term scorer computes it. */
function blockBounds(s: Segment, term: string): number[] {
  const field = s.fields.get('text')!;
  const ord = termOrd(field, term);
  const scorer = new TermScorer(field, ord, 1.7, normInverseCache(3), new Float64Array(256).fill(NaN));
  const out: number[] = [];
  const first = field.blockStart![ord];
  for (let b = first; b < field.blockStart![ord + 1]; b++) out.push(scorer.blockMaxScore(b));
  // Real bounds, not NaN (toEqual would match NaN with NaN).
  for (const x of out) expect(x).toBeGreaterThan(0);
  return out;
}

describe('block impact freqs (format 5)', () => {
  it('takes the narrowest type that holds the largest freq', () => {
    expect(FORMAT_VERSION).toBeGreaterThanOrEqual(5);
    const cases: Array<[number, typeof Uint8Array | typeof Uint16Array | typeof Uint32Array]> = [[3, Uint8Array], [255, Uint8Array], [256, Uint16Array], [65535, Uint16Array], [65536, Uint32Array]];
    for (const [max, type] of cases) {
      const s = segment(300, (i) => (i === 7 ? max : 1 + (i % 3)));
      const freqs = s.fields.get('text')!.blockImpactFreqs!;
      expect(freqs).toBeInstanceOf(type);
      expect(Math.max(...freqs)).toBe(max);
    }
  });

  it('gives the same block bounds as the u32 impacts of format 4, and merges into format 5', () => {
    for (const max of [200, 300, 70000]) {
      const s = segment(400, (i) => (i % 97 === 0 ? max : 1 + (i % 5)));
      const old = asFormat4(s);
      expect(old.fields.get('text')!.blockImpactFreqs).toBeInstanceOf(Uint32Array);
      for (const term of ['a', 'b']) expect(blockBounds(s, term)).toEqual(blockBounds(old, term));
      const merged = openSegment('m', writeSegment(mergeSegments([{ segment: old, liveDocs: null }, { segment: s, liveDocs: null }])));
      expect(merged.fields.get('text')!.blockImpactFreqs).toBeInstanceOf(max < 256 ? Uint8Array : max < 65536 ? Uint16Array : Uint32Array);
    }
  });
});
