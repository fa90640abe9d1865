/**
 * Segment format 6's block bounds: fields with impacts (text with norms) keep no BlockMaxFreq /
 * BlockMinNorm, which their bounds never read; other fields' max freqs are in the narrowest type
 * that holds the field's largest (segment-writer.ts `addNarrowest`: u8 / u16 / u32). Block
 * bounds, searches and skips are the same as format 5's (u32 max freqs and min norms on every
 * field), whose segments still open, score the same and merge into format 6. Last docs stay u32.
 */
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION, Section, SegmentBuilder, mergeSegments, openSegment, parseRootMapping, termOrd, writeSegment, type Segment } from '../../src/index/index.js';
import { normInverseCache } from '../../src/search/bm25.js';
import { TermScorer } from '../../src/search/exec/term-scorer.js';
import { NO_MORE_DOCS } from '../../src/search/exec/scorer.js';
import { asOlderFormat, widenedToU32 } from '../support/older-format.js';

// `plain` has no norms, so no impacts: its bounds are its blocks' max freqs.
const MAPPING = parseRootMapping({ properties: { text: { type: 'text' }, plain: { type: 'text', norms: false } } });
const FIELDS = ['text', 'plain'];
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };

/** A segment of `docs` docs, doc i holding "a" `repeat(i)` times and "b" once, "c" in every 3rd doc (in both fields). */
function segment(docs: number, repeat: (i: number) => number): Segment {
  const b = new SegmentBuilder(MAPPING, LIMITS);
  for (let i = 0; i < docs; i++) {
    const text = `${'a '.repeat(repeat(i))}b${i % 3 === 0 ? ' c' : ''}`;
    b.add({ id: `d${i}`, source: JSON.stringify({ text, plain: text }), seqNo: i, version: 1, indexOrder: i });
  }
  return openSegment('s', writeSegment(b.finish()));
}

/** The same segment as format 5 wrote it: block max freqs as u32 and min norms on every field. */
function asFormat5(s: Segment): Segment {
  return asOlderFormat(s, 5, (w, kind, ord, bytes) => {
    if (kind === Section.BlockMaxFreq8 || kind === Section.BlockMaxFreq16) {
      w.add(Section.BlockMaxFreq, ord, widenedToU32(bytes, kind === Section.BlockMaxFreq8 ? 1 : 2));
      return true;
    }
    w.add(kind, ord, bytes.slice());
    // Format 5 wrote max freqs (u32) and min norms beside the impacts too.
    if (kind === Section.BlockImpactNorms) {
      const field = [...s.fields.values()].find((f) => f.ord === ord)!;
      w.add(Section.BlockMaxFreq, ord, new Uint32Array(field.blockLastDoc!.length).fill(1));
      w.add(Section.BlockMinNorm, ord, new Uint8Array(field.blockLastDoc!.length).fill(1));
    }
    return true;
  });
}

function scorer(s: Segment, term: string, name: string): TermScorer {
  const field = s.fields.get(name)!;
  return new TermScorer(field, termOrd(field, term), 1.7, normInverseCache(3), new Float64Array(256).fill(NaN));
}

/** Every block's score bound and last doc of `term`, as the term scorer reads them. */
function blocks(s: Segment, term: string, name: string): Array<[number, number]> {
  const field = s.fields.get(name)!;
  const ord = termOrd(field, term);
  const sc = scorer(s, term, name);
  const out: Array<[number, number]> = [];
  for (let b = field.blockStart![ord]; b < field.blockStart![ord + 1]; b++) out.push([sc.blockMaxScore(b), field.blockLastDoc![b]]);
  for (const [x] of out) expect(x).toBeGreaterThan(0);
  return out;
}

/** The docs `advance` lands on, every `step`th target: exercises the skips over BlockLastDoc. */
function advances(s: Segment, term: string, step: number, name: string): number[] {
  const sc = scorer(s, term, name);
  const out: number[] = [];
  for (let target = 0; ; target += step) {
    const d = sc.advance(target);
    out.push(d);
    if (d === NO_MORE_DOCS) return out;
    if (d > target) target = d;
  }
}

describe('block bounds (format 6)', () => {
  it('keeps no max freqs or min norms beside impacts', () => {
    const field = segment(300, (i) => 1 + (i % 3)).fields.get('text')!;
    expect(field.blockImpactFreqs).not.toBeNull();
    expect(field.blockMaxFreq).toBeNull();
    expect(field.blockMinNorm).toBeNull();
  });

  it('takes the narrowest type that holds the largest max freq', () => {
    expect(FORMAT_VERSION).toBe(6);
    const cases: Array<[number, typeof Uint8Array | typeof Uint16Array | typeof Uint32Array]> = [[3, Uint8Array], [255, Uint8Array], [256, Uint16Array], [65535, Uint16Array], [65536, Uint32Array]];
    for (const [max, type] of cases) {
      const field = segment(300, (i) => (i === 7 ? max : 1 + (i % 3))).fields.get('plain')!;
      expect(field.blockImpactFreqs).toBeNull();
      expect(field.blockMaxFreq).toBeInstanceOf(type);
      expect(Math.max(...field.blockMaxFreq!)).toBe(max);
      expect(field.blockLastDoc).toBeInstanceOf(Uint32Array);
    }
  });

  it('scores and skips as the u32 arrays of format 5, and merges into format 6', () => {
    for (const max of [200, 300, 70000]) {
      const s = segment(1000, (i) => (i % 97 === 0 ? max : 1 + (i % 5)));
      const old = asFormat5(s);
      for (const name of FIELDS) expect(old.fields.get(name)!.blockMaxFreq).toBeInstanceOf(Uint32Array);
      for (const name of FIELDS) {
        for (const term of ['a', 'b', 'c']) {
          expect(blocks(s, term, name)).toEqual(blocks(old, term, name));
          for (const step of [1, 37, 200]) expect(advances(s, term, step, name)).toEqual(advances(old, term, step, name));
        }
      }
      const merged = openSegment('m', writeSegment(mergeSegments([{ segment: old, liveDocs: null }, { segment: s, liveDocs: null }])));
      expect(merged.fields.get('text')!.blockMaxFreq).toBeNull();
      expect(merged.fields.get('plain')!.blockMaxFreq).toBeInstanceOf(max < 256 ? Uint8Array : max < 65536 ? Uint16Array : Uint32Array);
      for (const name of FIELDS) expect(advances(merged, 'c', 1, name).length).toBe(2 * advances(s, 'c', 1, name).length - 1);
    }
  });
});
