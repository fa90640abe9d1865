/**
 * Segment format 7: a refresh's segment (the build worker's `writeSegment(input, false)`) has no
 * TermHash, and its term lookups binary-search the sorted terms (issue 22: the hash was ~0.5 MB of
 * every unmerged segment of a bulk load). Lookups, ranges and prefixes find what a hashed
 * dictionary finds; a merge writes the hash, and what it writes does not depend on whether its
 * sources had one (format 6: the same sections plus the hash).
 */
import { describe, expect, it } from 'vitest';
import { Section, SegmentBuilder, openSegment, parseRootMapping, prefixRange, termOrd, termRange, writeMergedSegment, writeSegment, type Segment } from '../../src/index/index.js';
import { buildHashTable } from '../../src/index/segment/bytes.js';
import { asOlderFormat } from '../support/older-format.js';

const MAPPING = parseRootMapping({ properties: { text: { type: 'text' }, tag: { type: 'keyword' } } });
const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const WORDS = ['a', 'ab', 'abc', 'b', 'ba', 'zz', 'é', 'éa', 'ü', '日本', '日本語', 'x9', 'x90', 'x91'];

function built(from: number, docs: number, termHash: boolean): Segment {
  const b = new SegmentBuilder(MAPPING, LIMITS);
  for (let i = from; i < from + docs; i++) {
    const text = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} w${i % 97}`;
    b.add({ id: `d${i}`, source: JSON.stringify({ text, tag: `k${i % 13}` }), seqNo: i, version: 1, indexOrder: i });
  }
  return openSegment(`s${from}`, writeSegment(b.finish(), termHash));
}

/** The same segment as format 6 wrote it: a TermHash beside every dictionary. */
function asFormat6(s: Segment): Segment {
  return asOlderFormat(s, 6, (w, kind, ord, bytes) => {
    w.add(kind, ord, bytes.slice());
    if (kind === Section.TermOffsets) {
      const field = [...s.fields.values()].find((f) => f.ord === ord)!;
      w.add(Section.TermHash, ord, buildHashTable({ bytes: field.termBytes!, offsets: field.termOffsets! }, field.info.termCount));
    }
    return true;
  });
}

const PROBES = ['', 'a', 'aa', 'ab', 'abcd', 'b', 'c', 'zz', 'zzz', 'é', 'éa', 'éb', '日本', '日', 'w0', 'w96', 'w97', 'k0', 'k12', 'k13', 'x9', 'x91', 'x92'];

describe('refresh segments without a term hash (format 7)', () => {
  it('finds every term and no other, as the hashed dictionary does', () => {
    const plain = built(0, 500, false);
    const hashed = built(0, 500, true);
    for (const name of ['text', 'tag']) {
      const f = plain.fields.get(name)!;
      const h = hashed.fields.get(name)!;
      expect(f.termHash).toBeNull();
      expect(h.termHash).not.toBeNull();
      for (let ord = 0; ord < f.info.termCount; ord++) {
        const term = Buffer.from(f.termBytes!.subarray(f.termOffsets![ord], f.termOffsets![ord + 1])).toString('utf8');
        expect(termOrd(f, term)).toBe(ord);
      }
      for (const p of PROBES) {
        expect(termOrd(f, p)).toBe(termOrd(h, p));
        expect(prefixRange(f, p)).toEqual(prefixRange(h, p));
        for (const q of PROBES) for (const lo of [true, false]) for (const hi of [true, false]) expect(termRange(f, p, lo, q, hi)).toEqual(termRange(h, p, lo, q, hi));
      }
    }
  });

  it('merges into the same bytes whether the sources had a hash or not, with the hash', () => {
    const sources = [built(0, 300, false), built(300, 250, false), built(550, 400, false)];
    const merged = writeMergedSegment(sources.map((segment) => ({ segment, liveDocs: null }))).sab;
    const fromFormat6 = writeMergedSegment(sources.map((s) => ({ segment: asFormat6(s), liveDocs: null }))).sab;
    expect(Buffer.from(new Uint8Array(merged)).equals(Buffer.from(new Uint8Array(fromFormat6)))).toBe(true);
    const m = openSegment('m', merged);
    for (const name of ['text', 'tag']) {
      const f = m.fields.get(name)!;
      expect(f.termHash).not.toBeNull();
      for (const p of PROBES) expect(termOrd(f, p) >= 0).toBe(sources.some((s) => termOrd(s.fields.get(name)!, p) >= 0));
    }
  });
});
