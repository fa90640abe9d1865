/**
 * The segment builder indexes text through `analyzeInterned` (raw token → term id, TokenHash) when
 * the analyzer allows it. A segment built that way must equal, field input by field input (terms,
 * postings, frequencies, positions, norms), one built from the same chain run token by token through
 * `analyze`: here the same custom chain, once on the fast path and once sent through the general
 * pipeline by a char filter that matches nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INDEX_LIMITS } from '../../src/analysis/index.js';
import { SegmentBuilder, parseRootMapping } from '../../src/index/index.js';
import type { IndexTextSettings } from '../../src/index/text-analysis.js';

const LIMITS = { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false };
const CHAIN = ['lowercase', 'stop', 'porter_stem'];
const TEXT: IndexTextSettings = {
  analysis: {
    char_filter: { noop: { type: 'mapping', mappings: ['\u0000 => \u0001'] } },
    analyzer: {
      fast: { tokenizer: 'standard', filter: CHAIN },
      slow: { tokenizer: 'standard', char_filter: ['noop'], filter: CHAIN },
    },
  },
  similarity: {},
  limits: DEFAULT_INDEX_LIMITS,
};

function build(analyzer: 'fast' | 'slow' | 'standard', values: ReadonlyArray<string | string[]>) {
  const mapping = parseRootMapping({ properties: { t: { type: 'text', analyzer, position_increment_gap: 10 } } });
  const builder = new SegmentBuilder(mapping, LIMITS, TEXT);
  values.forEach((t, i) => builder.add({ id: String(i), source: JSON.stringify({ t }), seqNo: i, version: 1, indexOrder: i }));
  return builder.finish().fields;
}

const words = fc.constantFrom('The', 'the', 'THE', 'Running', 'runs', 'run', 'Fox', 'foxes', 'of', 'Über', 'über', '😀', 'a1', 'x', '');
const value = fc.array(words, { maxLength: 12 }).map((w) => w.join(' '));

describe('SegmentBuilder with interned analysis', () => {
  it('builds the same terms, postings, positions and norms as token-by-token analysis', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(value, fc.array(value, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 30 }), (values) => {
        expect(build('fast', values)).toEqual(build('slow', values));
      }),
      { numRuns: 200 },
    );
  });

  it('indexes the standard analyzer through it: case variants are one term with their positions', () => {
    const [field] = build('standard', ['Quick quick QUICK fox', ['Fox', 'the QUICK']]);
    const terms = new TextDecoder().decode(field.terms!.bytes);
    expect(terms).toBe('foxquickthe');
    expect(Array.from(field.postingsStart!)).toEqual([0, 2, 4, 5]);
    expect(Array.from(field.docs!)).toEqual([0, 1, 0, 1, 1]);
    expect(Array.from(field.freqs!)).toEqual([1, 1, 3, 1, 1]);
    // doc 1: "Fox" at 0, then the gap of 10 (position_increment_gap) before "the QUICK" at 11, 12
    expect(Array.from(field.positions!)).toEqual([3, 0, 0, 1, 2, 12, 11]);
  });
});
