/**
 * The completion part of a segment: analyzed forms as Lucene's CompletionAnalyzer makes them, one
 * entry (doc, weight, surface) per input grouped by form, block maxima, and merges that drop
 * deleted documents yet equal a segment built from the live documents alone.
 */
import { describe, expect, it } from 'vitest';
import { getAnalyzer } from '../../src/analysis/index.js';
import {
  readTermPostings,
  COMPLETION_BLOCK_SIZE, completionForm, mergeSegments, openSegment, parseRootMapping, readCompletionText, SegmentBuilder,
  readId, termAt, withDeletes, writeSegment, type Segment,
} from '../../src/index/index.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const MAPPING = parseRootMapping({ properties: { s: { type: 'completion' } } });
const SEP = '\u001f';

function build(id: string, docs: Array<[string, unknown]>, from = 0): Segment {
  const b = new SegmentBuilder(MAPPING, LIMITS);
  docs.forEach(([docId, s], i) => b.add({ id: docId, source: JSON.stringify({ s }), seqNo: from + i, version: 1, indexOrder: from + i }));
  return openSegment(id, writeSegment(b.finish()));
}

/** [form, [doc id, weight, text]…] per term, as stored. */
function contents(segment: Segment): Array<[string, Array<[string, number, string]>]> {
  const f = segment.fields.get('s')!;
  const c = f.completion!;
  const out: Array<[string, Array<[string, number, string]>]> = [];
  for (let t = 0; t < f.info.termCount; t++) {
    const entries: Array<[string, number, string]> = [];
    for (let e = c.entryStart[t]; e < c.entryStart[t + 1]; e++) {
      const doc = c.docs[e];
      entries.push([readId(segment, doc), c.weights[e], readCompletionText(segment, f, e)]);
    }
    out.push([termAt(segment, f, t), entries]);
  }
  return out;
}

describe('completion forms', () => {
  const opts = { preserveSeparators: true, preservePositionIncrements: true, maxInputLength: 50 };
  const simple = getAnalyzer('simple')!;
  const stop = getAnalyzer('stop')!;

  it('join the whole input\'s tokens with the separator', () => {
    expect(completionForm(simple, 'Nevermind: Nirvana!', opts)).toBe(`nevermind${SEP}nirvana`);
    expect(completionForm(simple, '  ', opts)).toBeNull();
    expect(completionForm(simple, 'Nirvana Band', { ...opts, preserveSeparators: false })).toBe('nirvanaband');
  });

  it('keep removed stop words as extra separators unless position increments are off', () => {
    expect(completionForm(stop, 'the beatles', opts)).toBe(`${SEP}beatles`);
    expect(completionForm(stop, 'beatles of the past', opts)).toBe(`beatles${SEP}${SEP}${SEP}past`);
    expect(completionForm(stop, 'let it be', opts)).toBe(`let${SEP}${SEP}`);
    expect(completionForm(stop, 'the beatles', { ...opts, preservePositionIncrements: false })).toBe('beatles');
    expect(completionForm(stop, 'the', opts)).toBeNull();
  });

  it('escape a separator inside a token by doubling it', () => {
    expect(completionForm(getAnalyzer('keyword')!, `a${SEP}b`, opts)).toBe(`a${SEP}${SEP}b`);
  });
});

describe('completion entries', () => {
  it('group each input under its form, docs ascending, with weights and texts as given', () => {
    const seg = build('a', [['1', ['Nirvana', 'nevermind']], ['2', { input: 'NIRVANA', weight: 4 }], ['3', { input: ['Nirvana Band'], weight: 2 }]]);
    expect(contents(seg)).toEqual([
      ['nevermind', [['1', 1, 'nevermind']]],
      ['nirvana', [['1', 1, 'Nirvana'], ['2', 4, 'NIRVANA']]],
      [`nirvana${SEP}band`, [['3', 2, 'Nirvana Band']]],
    ]);
    // Term queries see doc-level postings over the same forms.
    const f = seg.fields.get('s')!;
    expect(Array.from({ length: f.info.termCount }, (_, t) => [...readTermPostings(f, t).docs]).flat()).toEqual([0, 0, 1, 2]);
  });

  it('keep the max weight of every block of entries', () => {
    const docs: Array<[string, unknown]> = Array.from({ length: 3 * COMPLETION_BLOCK_SIZE + 5 }, (_, i) => [String(i), { input: 'same', weight: (i * 37) % 101 }]);
    const seg = build('b', docs);
    const c = seg.fields.get('s')!.completion!;
    expect(c.blockMaxWeight.length).toBe(4);
    for (let b = 0; b < 4; b++) {
      expect(c.blockMaxWeight[b]).toBe(Math.max(...c.weights.subarray(b * COMPLETION_BLOCK_SIZE, (b + 1) * COMPLETION_BLOCK_SIZE)));
    }
  });

  it('merge like a segment built from the live documents only', () => {
    const first: Array<[string, unknown]> = [['1', 'alpha'], ['2', { input: ['alps', 'beta'], weight: 3 }], ['3', 'alpha']];
    const second: Array<[string, unknown]> = [['4', { input: 'beta', weight: 9 }], ['5', 'gamma'], ['6', ['alpha', 'Gamma Ray']]];
    const a = build('a', first);
    const b = build('b', second, 3);
    const merged = openSegment('m', writeSegment(mergeSegments([
      { segment: a, liveDocs: withDeletes(null, a.maxDoc, [1]) },
      { segment: b, liveDocs: withDeletes(null, b.maxDoc, [1]) },
    ])));
    const fresh = build('f', [first[0], first[2], second[0], second[2]]);
    expect(contents(merged)).toEqual(contents(fresh));
    expect(Array.from(merged.fields.get('s')!.completion!.blockMaxWeight)).toEqual(Array.from(fresh.fields.get('s')!.completion!.blockMaxWeight));
  });
});
